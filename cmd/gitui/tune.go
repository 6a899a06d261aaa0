package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"gitui/core/data"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/model/study"
)

// cmdTune is `gitui tune PRESET|SPEC [--quick] [--out DIR] [--data DIR] [--seed N]
// [--set key=value]... [--param KEY=DIST]...`: an honest search (model/study), then one
// refit of the best configuration through the ordinary run path.
func cmdTune(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	quick := fs.Bool("quick", false, "the quick variant of a preset (a small study, under a minute)")
	out := fs.String("out", "", "study directory (default runs/TIME-NAME-tune)")
	dataFlag := fs.String("data", "", "data directory holding mnist/ (default $GITUI_DATA)")
	seed := fs.Int64("seed", -1, "seed of the sampler, the validation split and every draw (default: the spec's)")
	workers := fs.Int("workers", 0, "jobs in flight (tune.workers): the trials depend on it, not on timing; a Slurm array of N tasks gives the trials of --workers N")
	join := fs.String("join", "", "DIR: run as one task of a Slurm array over the study in DIR (gitui slurm writes it)")
	var sets, params multiFlag
	fs.Var(&sets, "set", "override a spec field: key=value (repeatable)")
	fs.Var(&params, "param", "tune a field: KEY=DIST, DIST a list 5,10,25 or a range LOW..HIGH, log:LOW..HIGH (repeatable)")
	args, prof, err := splitProfileFlags(args)
	if err != nil {
		return err
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	stopProfiles, err := prof.start(stderr)
	if err != nil {
		return usageError{err}
	}
	defer func() {
		if perr := stopProfiles(); err == nil {
			err = perr
		}
	}()
	if *join != "" {
		if len(pos) != 0 || len(params) > 0 || len(sets) > 0 || *workers != 0 {
			return usagef("tune --join DIR takes no SPEC, --param, --set or --workers: the study's spec is DIR/spec.json")
		}
		return joinStudy(ctx, *join, *dataFlag, stderr)
	}
	if len(pos) != 1 {
		return usagef("tune needs one PRESET or SPEC file: `gitui presets` lists the presets")
	}
	if *workers < 0 {
		return usagef("--workers %d is negative: give 1 or more (the jobs in flight, tune.workers), or 0 for the spec's", *workers)
	}
	spec, err := loadSpec(ctx, pos[0], *quick, *seed, sets, func(spec *model.Spec) error {
		if err := mergeParams(spec, params); err != nil {
			return err
		}
		if spec.Tune == nil {
			return usagef("%s has no tune block: give --param KEY=DIST, e.g. --param methods.0.c=log:0.1..1000", pos[0])
		}
		return nil
	})
	if err != nil {
		return err
	}
	if *workers > 0 {
		spec.Tune.Workers = *workers
	}
	if err := spec.Validate(); err != nil {
		return usageError{err}
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	outDir := *out
	if outDir == "" {
		if outDir, err = store.ClaimDir("runs", store.RunDirName(spec.Name+"-tune", now()), "give --out DIR"); err != nil {
			return usageError{err}
		}
	}
	st, err := study.Open(outDir, spec)
	if err != nil {
		return asUsage(store.NoSpaceHint(err, outDir))
	}
	return runStudy(ctx, st, dir, *workers, stdout, stderr)
}

// mergeParams adds the --param entries KEY=DIST to spec's tune block (creating it), before
// the spec is validated: they merge with the block's own params and with --set tune.*
// keys. A key given twice, twice by --param or by --param and by the block, is refused.
func mergeParams(spec *model.Spec, params []string) error {
	if len(params) == 0 {
		return nil
	}
	if spec.Tune == nil {
		spec.Tune = &model.TuneSpec{}
	}
	if spec.Tune.Params == nil {
		spec.Tune.Params = map[string]string{}
	}
	given := map[string]bool{}
	for _, p := range params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" || v == "" {
			return usagef("--param %q: want KEY=DIST, e.g. --param methods.0.c=log:0.1..1000", p)
		}
		if given[k] {
			return usagef("--param %s is given twice: keep one", k)
		}
		if old, ok := spec.Tune.Params[k]; ok {
			return usagef("--param %s=%s: the spec's tune block already tunes %s (%s): drop one of them", k, v, k, old)
		}
		given[k] = true
		spec.Tune.Params[k] = v
	}
	return nil
}

// resumeStudy continues the study in dir (gitui resume DIR on a study directory).
func resumeStudy(ctx context.Context, dir, dataDir string, stdout, stderr io.Writer) error {
	st, err := study.Open(dir, nil)
	if err != nil {
		return asUsage(store.NoSpaceHint(err, dir))
	}
	d, err := data.ResolveDir(dataDir)
	if err != nil {
		st.Close()
		return usageError{err}
	}
	return runStudy(ctx, st, d, 0, stdout, stderr)
}

// joinStudy runs one task of a Slurm array over the study in dir (gitui tune --join):
// it takes jobs from the shared journal by claiming them and returns when the
// schedule is done; the final job (gitui resume DIR) refits the best.
func joinStudy(ctx context.Context, dir, dataDir string, stderr io.Writer) error {
	st, err := study.Join(dir)
	if err != nil {
		return asUsage(err)
	}
	defer st.Close()
	d, err := data.ResolveDir(dataDir)
	if err != nil {
		return usageError{err}
	}
	t0 := time.Now()
	ran := 0
	prog := newProgress(stderr)
	err = st.Search(ctx, study.Options{DataDir: d, Log: func(s string) { ran++; prog.log(s) }})
	prog.finish()
	if err != nil {
		return asUsage(err)
	}
	fmt.Fprintf(stderr, "study task: scored %d jobs of %s in %.2f s; the schedule is done\n", ran, dir, time.Since(t0).Seconds())
	return nil
}

func asUsage(err error) error {
	var ie *model.InputError
	if errors.As(err, &ie) {
		return usageError{err}
	}
	return err
}

// runStudy runs the study st to its conclusion (study.Start: the search, best.spec.json,
// the refit of the best as an ordinary run in DIR/refit, whose result.json and
// predictions.csv are copied into DIR, the refits of tune.refit_top, study.json): a loop
// over the study's events, drawing the progress on stderr and the results on stdout, as
// cmdRun does over a run's.
func runStudy(ctx context.Context, st *study.Study, dataDir string, workers int, stdout, stderr io.Writer) error {
	for _, n := range st.Notices {
		fmt.Fprintf(stderr, "gitui: %s\n", n)
	}
	if st.Resumed > 0 {
		fmt.Fprintf(stderr, "continuing %s: %d scored jobs already in its journal\n", st.Dir, st.Resumed)
	}
	dir := st.Dir
	prog := newProgress(stderr)
	var searched study.Searched
	var done study.Done
	for e := range study.Start(ctx, st, study.Options{DataDir: dataDir, Workers: workers}) {
		switch e := e.(type) {
		case study.Log:
			prog.log(e.Line)
		case study.Estimated:
			prog.log("study " + engine.TimeLine(e.Estimate))
		case study.Searched:
			prog.finish()
			searched = e
			printSearched(stderr, e)
		case study.RefitStarted:
			printRunDir(stderr, e.Path, e.Warning, e.Notices, e.Resumed)
			prog = newProgress(stderr)
		case study.RefitEvent:
			prog.event(e.Event)
		case study.Refitted:
			prog.finish()
			printRefitted(stdout, stderr, e, searched)
		case study.Done:
			done = e
		}
	}
	if done.Err != nil {
		if done.Discarded {
			return usageError{done.Err} // nothing was scored: nothing is left behind
		}
		return asUsage(done.Err)
	}
	if done.Comparison != "" {
		fmt.Fprintln(stdout, done.Comparison)
	}
	fmt.Fprintf(stderr, "study: %s (best spec %s)\n", filepath.Join(dir, study.StudyFile), done.BestSpec)
	return nil
}

// printSearched writes the search's summary line on stderr.
func printSearched(stderr io.Writer, e study.Searched) {
	on := fmt.Sprintf("on %d validation samples", e.Validation)
	switch e.Score {
	case model.TuneLOO:
		on = "by leave-one-out on their training samples"
	case model.TunePooled:
		on += ", pooled at the last rung with each fit's leave-one-out"
	}
	b := e.Best
	who := fmt.Sprintf("best trial %d", b.Trial)
	if b.Baseline {
		who = "best: the baseline (your setting)"
	}
	fmt.Fprintf(stderr, "search: %d configurations compared %s, rungs %v (%.2f s, %d at once, tune.workers %d; %s); %s, %s %.4f (n %d), %s\n",
		e.Trials, on, e.Sizes, e.Seconds, e.Workers, e.Lag, e.Cache, who, model.TuneScoreName(e.Score), b.Validation, b.ValidationN, fmtJSON(b.Params))
	if bl := e.Baseline; bl != nil && !bl.Best {
		if bl.Error != "" {
			fmt.Fprintf(stderr, "baseline (your setting) failed: %s\n", bl.Error)
		} else {
			fmt.Fprintf(stderr, "baseline (your setting): %s %.4f (n %d), %s\n", model.TuneScoreName(e.Score), bl.Validation, bl.ValidationN, fmtJSON(bl.Params))
		}
	}
}

// printRefitted reports a refit's conclusion as `gitui run` reports a run's (the best's
// summary tables on stdout; the other top trials' are left out), then its test accuracy
// on stdout: the best's, or that of rank k (reported, not chosen).
func printRefitted(stdout, stderr io.Writer, e study.Refitted, s study.Searched) {
	tables := stdout
	if e.Rank != 1 {
		tables = io.Discard
	}
	printConclusion(tables, stderr, e.Path, e.Conclusion, e.Err)
	if e.Test == nil {
		return
	}
	score, r := model.TuneScoreName(s.Score), e.Refit
	if e.Rank == 1 {
		of := fmt.Sprintf("best of %d configurations", s.Trials)
		if r.Baseline {
			of = fmt.Sprintf("best of %d configurations and your setting: your setting", s.Trials)
		} else if s.Baseline != nil {
			of = fmt.Sprintf("best of %d configurations and your setting", s.Trials)
		}
		fmt.Fprintf(stdout, "%s: %s %.4f (n %d), test %.4f (refit at n %d); %s\n", of, score, r.Validation, r.ValidationN, *e.Test, s.RefitN, fmtJSON(r.Params))
		return
	}
	if r.Baseline {
		who := "your setting"
		if e.Rank > 1 {
			who = fmt.Sprintf("rank %d: your setting", e.Rank)
		}
		fmt.Fprintf(stdout, "%s: %s %.4f (n %d), test %.4f (reported, not chosen); %s\n", who, score, r.Validation, r.ValidationN, *e.Test, fmtJSON(r.Params))
		return
	}
	fmt.Fprintf(stdout, "rank %d: trial %d, %s %.4f (n %d), test %.4f (reported, not chosen); %s\n", e.Rank, e.Trial, score, r.Validation, r.ValidationN, *e.Test, fmtJSON(r.Params))
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

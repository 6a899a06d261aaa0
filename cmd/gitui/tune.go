package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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

// runStudy searches, writes best.spec.json, refits it as an ordinary run in DIR/refit,
// copies the refit's result.json and predictions.csv into DIR and writes study.json.
func runStudy(ctx context.Context, st *study.Study, dataDir string, workers int, stdout, stderr io.Writer) error {
	// A full disk anywhere in the study (its journal, study.json, the refit's files) is
	// exit 1 with "free space, then gitui resume DIR".
	return store.NoSpaceHint(searchAndRefit(ctx, st, dataDir, workers, stdout, stderr), st.Dir)
}

// searchAndRefit is runStudy's work.
func searchAndRefit(ctx context.Context, st *study.Study, dataDir string, workers int, stdout, stderr io.Writer) error {
	defer st.Close()
	for _, n := range st.Notices {
		fmt.Fprintf(stderr, "gitui: %s\n", n)
	}
	if st.Resumed > 0 {
		fmt.Fprintf(stderr, "continuing %s: %d scored jobs already in its journal\n", st.Dir, st.Resumed)
	}
	prog := newProgress(stderr)
	err := st.Search(ctx, study.Options{DataDir: dataDir, Log: prog.log, Workers: workers,
		Estimate: func(e engine.TimeEstimate) { prog.log("study " + engine.TimeLine(e)) }})
	prog.finish()
	var ie *model.InputError
	if errors.As(err, &ie) {
		st.Discard() // nothing was scored: leave nothing behind
		return usageError{err}
	}
	if err != nil {
		return err
	}
	trial, valN, params, val, _ := st.Best()
	on := fmt.Sprintf("on %d validation samples", st.Validation)
	switch st.Score {
	case model.TuneLOO:
		on = "by leave-one-out on their training samples"
	case model.TunePooled:
		on += ", pooled at the last rung with each fit's leave-one-out"
	}
	score := model.TuneScoreName(st.Score)
	fmt.Fprintf(stderr, "search: %d configurations compared %s, rungs %v (%.2f s, %d at once, tune.workers %d; %s); best trial %d, %s %.4f (n %d), %s\n",
		st.Trials, on, st.Sizes, st.SearchSeconds(), st.Workers, st.Lag, st.CacheStats(), trial, score, val, valN, fmtJSON(params))
	best, err := st.BestSpec()
	if err != nil {
		return err
	}
	bestPath, err := st.WriteBestSpec(best)
	if err != nil {
		return err
	}
	rd, err := store.OpenRunDir(filepath.Join(st.Dir, study.RefitDir), best, store.RunMeta{DataDir: dataDir})
	if err != nil {
		return asUsage(err)
	}
	res, err := executeWith(ctx, rd, engine.RunOptions{DataDir: dataDir}, stdout, stderr)
	if err != nil {
		return err
	}
	if res == nil || len(res.Series) == 0 || len(res.Series[0].Points) == 0 {
		return errors.New("the refit produced no test accuracy")
	}
	for _, f := range []string{store.ResultFile, store.PredictionsFile} {
		b, err := os.ReadFile(filepath.Join(rd.Path, f))
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			return err
		}
		if err := os.WriteFile(filepath.Join(st.Dir, f), b, 0o644); err != nil {
			return fmt.Errorf("copy the refit's %s: %w", f, err)
		}
	}
	test := res.Series[0].Points[0].Mean
	fmt.Fprintf(stdout, "best of %d configurations: %s %.4f (n %d), test %.4f (refit at n %d); %s\n", st.Trials, score, val, valN, test, st.RefitN, fmtJSON(params))
	if err := refitTop(ctx, st, dataDir, test, score, stdout, stderr); err != nil {
		return err
	}
	if err := st.WriteStudy(&test); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "study: %s (best spec %s)\n", filepath.Join(st.Dir, study.StudyFile), bestPath)
	return nil
}

// refitTop refits the trials ranked 2..tune.refit_top (the best, whose test accuracy
// is test, was refit in DIR/refit) each in DIR/refit-RANK, tests each once and records
// them for study.json's "top". Their test accuracies are reported, not used to choose.
func refitTop(ctx context.Context, st *study.Study, dataDir string, test float64, score string, stdout, stderr io.Writer) error {
	top := st.Top(st.Spec.Tune.RefitTop)
	if len(top) < 2 {
		return nil
	}
	top[0].Test, top[0].Dir = &test, study.RefitDir
	for i := 1; i < len(top); i++ {
		t := &top[i]
		spec, err := st.RefitSpec(t.Trial, fmt.Sprintf("-rank%d", t.Rank))
		if err != nil {
			return err
		}
		t.Dir = fmt.Sprintf("%s-%d", study.RefitDir, t.Rank)
		rd, err := store.OpenRunDir(filepath.Join(st.Dir, t.Dir), spec, store.RunMeta{DataDir: dataDir})
		if err != nil {
			return asUsage(err)
		}
		res, err := executeWith(ctx, rd, engine.RunOptions{DataDir: dataDir}, io.Discard, stderr)
		if err != nil {
			return err
		}
		if res == nil || len(res.Series) == 0 || len(res.Series[0].Points) == 0 {
			return fmt.Errorf("the refit of trial %d (rank %d) produced no test accuracy", t.Trial, t.Rank)
		}
		acc := res.Series[0].Points[0].Mean
		t.Test = &acc
		fmt.Fprintf(stdout, "rank %d: trial %d, %s %.4f (n %d), test %.4f (reported, not chosen); %s\n", t.Rank, t.Trial, score, t.Validation, t.ValidationN, acc, fmtJSON(t.Params))
	}
	st.SetTop(top)
	return nil
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/internal/printable"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/presets"
	"gitui/ui/export"
)

// now is the clock of the default run directories, runs/TIME-NAME (a test sets it).
var now = time.Now

// loadSpec is readSpec, cancelled by ctx: a spec file of millions of entries takes
// seconds to decode and validate, and SIGINT must not wait for it (the read goes on in
// the background until the process exits; it writes nothing).
func loadSpec(ctx context.Context, name string, quick bool, seed int64, sets []string, edits ...func(*model.Spec) error) (*model.Spec, error) {
	type loaded struct {
		spec *model.Spec
		err  error
	}
	done := make(chan loaded, 1)
	go func() {
		s, err := readSpec(name, quick, seed, sets, edits...)
		done <- loaded{s, err}
	}()
	select {
	case l := <-done:
		return l.spec, l.err
	case <-ctx.Done():
		// A spec read in a moment is taken (what follows reports the interruption, as
		// it would have without this wait); only a long read is abandoned.
		select {
		case l := <-done:
			return l.spec, l.err
		case <-time.After(200 * time.Millisecond):
			return nil, ctx.Err()
		}
	}
}

// readSpec reads the spec of a preset (its quick variant with quick) or a spec file,
// applies the seed (>= 0), the --set assignments and edits, and validates it.
func readSpec(name string, quick bool, seed int64, sets []string, edits ...func(*model.Spec) error) (*model.Spec, error) {
	var spec *model.Spec
	ext := strings.ToLower(filepath.Ext(name))
	isPreset := ext != ".json" && ext != ".yaml" && ext != ".yml"
	if !isPreset {
		s, err := model.ReadSpec(name)
		if err != nil {
			return nil, usageError{err}
		}
		spec = s
	} else {
		p, err := presets.Lookup(name)
		if err != nil {
			return nil, usageError{err}
		}
		spec = p.Build(quick)
	}
	if seed >= 0 {
		spec.Seed = uint64(seed)
	}
	for _, a := range sets {
		if err := spec.Set(a); err != nil {
			return nil, usageError{err}
		}
	}
	for _, edit := range edits {
		if err := edit(spec); err != nil {
			return nil, err
		}
	}
	spec.Defaults() // after the edits: a default may follow another field (sampling balanced for xperm)
	if err := spec.Validate(); err != nil {
		if !isPreset {
			err = fmt.Errorf("spec %s: %w", name, err)
		}
		return nil, usageError{err}
	}
	return spec, nil
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	quick := fs.Bool("quick", false, "the quick variant of a preset (under a minute on 2 cores)")
	out := fs.String("out", "", "run directory: spec.json, cells.jsonl, result.json (default runs/TIME-NAME)")
	dataFlag := fs.String("data", "", "data directory holding mnist/ (default $GITUI_DATA)")
	seed := fs.Int64("seed", -1, "seed of every random draw (default: the preset's)")
	shardFlag := fs.String("shard", "", "run only shard i of N (0 <= i < N) of the cells: i/N (gitui merge combines the shards)")
	var sets multiFlag
	fs.Var(&sets, "set", "override a spec field: key=value (repeatable), e.g. --set repeats=10")
	args, prof, err := splitProfileFlags(args)
	if err != nil {
		return err
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("run needs one PRESET or SPEC file: `gitui presets` lists the presets")
	}
	shard, err := parseShard(*shardFlag)
	if err != nil {
		return err
	}
	spec, err := loadSpec(ctx, pos[0], *quick, *seed, sets)
	if err != nil {
		return err
	}
	if err := shardable(spec, shard); err != nil {
		return err
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	outDir := *out
	if outDir == "" {
		if outDir, err = store.ClaimDir("runs", store.RunDirName(spec.Name, now()), "give --out DIR"); err != nil {
			return usageError{err}
		}
	}
	meta := store.RunMeta{DataDir: dir, Quick: *quick}
	if shard.Count > 0 {
		meta.Shard = shard.String()
	}
	rd, err := store.OpenRunDir(outDir, spec, meta)
	if err != nil {
		return usageError{store.NoSpaceHint(err, outDir)}
	}
	if rd.Meta.Shard != meta.Shard {
		rd.Close()
		return usagef("%s holds shard %q of this run, not %q: give each shard its own --out", outDir, rd.Meta.Shard, meta.Shard)
	}
	stopProfiles, err := prof.start(stderr)
	if err != nil {
		rd.Close()
		return usageError{err}
	}
	_, err = executeWith(ctx, rd, engine.RunOptions{DataDir: dir, Shard: shard}, stdout, stderr)
	if perr := stopProfiles(); err == nil {
		err = perr
	}
	return store.NoSpaceHint(err, outDir)
}

func cmdResume(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory (default: the one the run was started with, else $GITUI_DATA)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("resume needs one run directory: gitui resume DIR (the --out of an interrupted `gitui run`)")
	}
	if fi, err := os.Stat(pos[0]); err != nil || !fi.IsDir() {
		return usagef("%s is not a directory: give the --out directory of an interrupted `gitui run`", pos[0])
	}
	if store.IsStudyDir(pos[0]) { // a study directory (gitui tune --out): continue the study
		return resumeStudy(ctx, pos[0], *dataFlag, stdout, stderr)
	}
	rd, err := store.OpenRunDir(pos[0], nil, store.RunMeta{})
	if err != nil {
		return usageError{store.NoSpaceHint(err, pos[0])}
	}
	dir := *dataFlag
	if dir == "" {
		dir = rd.Meta.DataDir
	}
	if dir, err = data.ResolveDir(dir); err != nil {
		rd.Close()
		return usageError{err}
	}
	var shard eval.Shard
	if rd.Meta.Shard != "" {
		if shard, err = parseShard(rd.Meta.Shard); err != nil {
			rd.Close()
			return usagef("%s: its run.json names shard %q: %v", pos[0], rd.Meta.Shard, err)
		}
	}
	_, err = executeWith(ctx, rd, engine.RunOptions{DataDir: dir, Shard: shard}, stdout, stderr)
	return store.NoSpaceHint(err, pos[0])
}

// execute runs the spec of the run directory rd (journaling every cell into it), prints
// the summary, then writes result.json and predictions.csv. It closes rd.
//
// A spec or data error before any cell finished leaves nothing behind (exit 2). A run of
// which every cell was already journaled and whose result.json is complete rewrites
// nothing. An interrupted or failed run writes a partial result, never over a complete one.
func execute(ctx context.Context, rd *store.RunDir, dataDir string, stdout, stderr io.Writer) error {
	_, err := executeWith(ctx, rd, engine.RunOptions{DataDir: dataDir}, stdout, stderr)
	return err
}

// executeWith is execute with run options (a shard, or NoRun for a merge; Quick and Dir
// are taken from rd): a loop over the engine's events drawing the progress, then the
// run's conclusion (store.RunDir.Conclude, the same as the TUI's), then the summary. It
// returns the result written or kept (nil when nothing was kept).
func executeWith(ctx context.Context, rd *store.RunDir, opts engine.RunOptions, stdout, stderr io.Writer) (*model.Result, error) {
	printRunDir(stderr, rd.Path, rd.Warning, rd.Notices, rd.Resumed)
	start := time.Now()
	prog := newProgress(stderr)
	var outcome *eval.Outcome
	var runErr error
	opts.Quick, opts.Dir, opts.NoMatrices = rd.Meta.Quick, rd, true
	for e := range engine.Start(ctx, rd.Spec, opts) {
		if d, ok := e.(eval.Done); ok {
			outcome, runErr = d.Outcome, d.Err
			continue
		}
		prog.event(e)
	}
	prog.finish()
	c, err := rd.Conclude(outcome, runErr, time.Since(start))
	if err != nil {
		return nil, err
	}
	return printConclusion(stdout, stderr, rd.Path, c, runErr)
}

// printRunDir writes what opening the run directory path said (its warning and
// notices, and how many cells its journal held) on stderr, before the run starts.
func printRunDir(stderr io.Writer, path, warning string, notices []string, resumed int) {
	if warning != "" {
		fmt.Fprintln(stderr, "gitui: "+warning)
	}
	for _, n := range notices {
		fmt.Fprintln(stderr, "gitui: "+n)
	}
	if resumed > 0 {
		fmt.Fprintf(stderr, "continuing %s: %d cells already in its journal\n", path, resumed)
	}
}

// printConclusion reports how the run in path concluded (c, store.RunDir.Conclude; runErr
// the run's error): the summary tables on stdout and where the result went on stderr. It
// returns the result written or kept (nil when nothing was kept) and the command's error:
// a usage error when the run was refused or discarded as bad input, else runErr.
func printConclusion(stdout, stderr io.Writer, path string, c store.Conclusion, runErr error) (*model.Result, error) {
	if c.Refused {
		return nil, usageError{runErr} // refused before a cell ran: the directory is as it was
	}
	if c.Discarded {
		var ie *model.InputError
		if errors.As(runErr, &ie) {
			return nil, usageError{runErr} // nothing ran: nothing is left behind
		}
		fmt.Fprintf(stderr, "nothing kept in %s: no cell had finished\n", path)
		return nil, runErr
	}
	printSummary(stdout, c.Result)
	result := filepath.Join(path, store.ResultFile)
	if c.Unchanged {
		fmt.Fprintf(stderr, "result: %s is complete: nothing to do\n", result)
		return c.Result, nil
	}
	fmt.Fprintf(stderr, "result: %s (%.1f s)\n", result, c.Result.Timing.WallSeconds)
	return c.Result, runErr
}

// printSummary writes the result's tables as the CLI shows them (export.ResultTables,
// then export.NamedTables, in text: the same tables `gitui export --table` writes): one
// table per (x label, y label), a row per series, a column per x, cells "mean±std" in
// percent for accuracies; then a line when the result is partial.
func printSummary(w io.Writer, r *model.Result) {
	export.WriteTables(w, export.FormatText, append(export.ResultTables(r, ""), export.NamedTables(r, "")...)...)
	if r.Partial {
		fmt.Fprintf(w, "partial result (%s): finished cells only\n", printable.String(r.Error))
	}
}

// progress draws a one-line progress bar on stderr when it is a terminal, and otherwise
// prints a log line at most every 10 seconds, so CI logs stay readable.
type progress struct {
	w      io.Writer
	tty    bool
	start  time.Time
	last   time.Time
	stage  string
	drawn  bool
	nlines int
}

func newProgress(w io.Writer) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		tty = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, tty: tty, start: time.Now()}
}

// event draws an engine event: a Progress on the bar, a Log line above it; the others
// (points, matrices) are the TUI's.
func (p *progress) event(e eval.Event) {
	switch e := e.(type) {
	case eval.Progress:
		p.progress(e)
	case eval.Log:
		p.log(e.Line)
	}
}

func (p *progress) progress(e eval.Progress) {
	now := time.Now()
	if e.Total <= 0 {
		return
	}
	frac := e.Fraction() // by estimated work when the protocol knows its cells' costs
	eta := ""
	if frac > 0 && frac < 1 && e.Stage == "cells" {
		el := now.Sub(p.start)
		eta = fmt.Sprintf(" eta %s", (time.Duration(float64(el)/frac) - el).Round(time.Second))
	}
	if p.tty {
		if now.Sub(p.last) < 100*time.Millisecond && e.Done != e.Total {
			return
		}
		const width = 30
		fill := int(frac * width)
		bar := strings.Repeat("█", fill) + strings.Repeat("░", width-fill)
		fmt.Fprintf(p.w, "\r\x1b[K%-28.28s %s %d/%d%s", e.Stage, bar, e.Done, e.Total, eta)
		p.drawn = true
	} else if now.Sub(p.last) >= 10*time.Second || e.Done == e.Total && e.Stage != p.stage {
		fmt.Fprintf(p.w, "%s %d/%d%s (%.0f s)\n", e.Stage, e.Done, e.Total, eta, now.Sub(p.start).Seconds())
	} else {
		return
	}
	p.last, p.stage = now, e.Stage
}

func (p *progress) log(line string) {
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintln(p.w, printable.String(line))
}

func (p *progress) finish() {
	if p.tty && p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

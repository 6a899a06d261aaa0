package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// parseShard parses the --shard value "i/N" (0 <= i < N, N >= 1); "" is the whole run.
func parseShard(s string) (eval.Shard, error) {
	if s == "" {
		return eval.Shard{}, nil
	}
	bad := func(why string) error {
		return usagef("--shard %q: %s: give i/N with 0 <= i < N, e.g. --shard 0/4", s, why)
	}
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return eval.Shard{}, bad("no slash")
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	switch {
	case err1 != nil || err2 != nil:
		return eval.Shard{}, bad("i and N must be whole numbers")
	case n < 1:
		return eval.Shard{}, bad("N must be at least 1")
	case i < 0 || i >= n:
		return eval.Shard{}, bad(fmt.Sprintf("shard %d does not exist among shards 0..%d", i, n-1))
	}
	return eval.Shard{Index: i, Count: n}, nil
}

// shardable refuses a shard of a protocol that has no cells to split.
func shardable(spec *model.Spec, shard eval.Shard) error {
	if shard.Count == 0 {
		return nil
	}
	switch spec.Protocol {
	case model.ProtocolApprox, model.ProtocolPD:
		return usagef("--shard: protocol %s is not made of independent cells: run it without --shard", spec.Protocol)
	}
	if n := spec.CellBound(); shard.Count > n {
		return usagef("%d shards (--shard i/N, slurm --tasks) for a spec of at most %d cells: give N <= %d", shard.Count, n, n)
	}
	return nil
}

// cmdMerge implements `gitui merge OUT [SHARD_DIR...]`: the shards' journals are
// unioned into OUT/cells.jsonl (store.MergeRunDirs) and OUT/result.json and
// predictions.csv are derived from it exactly as `gitui resume` would, without running a
// cell. Missing cells are named on stderr, the result is marked partial and the exit
// status is 1; refusals (different specs, conflicting cells) exit 2 with nothing written.
func cmdMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory, for the test labels (default: the one the shards ran with, else $GITUI_DATA)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 1 {
		return usagef("merge needs OUT and the shard directories: gitui merge OUT [SHARD_DIR...] (default: OUT/shards/*)")
	}
	out, shards := pos[0], pos[1:]
	if len(shards) == 0 {
		shards, err = shardDirs(out)
		if err != nil {
			return err
		}
	}
	for _, s := range shards {
		if filepath.Clean(s) == filepath.Clean(out) {
			return usagef("merge: OUT %s is also given as a shard: give OUT first, then the shard directories", out)
		}
	}
	dir := *dataFlag
	if dir == "" {
		dir = store.ReadRunMeta(shards[0]).DataDir
	}
	// Resolved before anything is written: the derivation loads the data again.
	if dir, err = data.ResolveDir(dir); err != nil {
		return usageError{err}
	}
	rd, rep, err := store.MergeRunDirs(out, shards, store.RunMeta{DataDir: dir})
	if err != nil {
		return usageError{err}
	}
	for _, n := range rep.Notices {
		fmt.Fprintln(stderr, "gitui: "+n)
	}
	fmt.Fprintf(stderr, "merge: %d shards, %d cells (%d new in %s, %d duplicates kept once)\n", rep.Shards, rep.Cells, rep.Added, filepath.Join(out, store.CellsFile), rep.Duplicates)
	res, err := executeWith(ctx, rd, engine.RunOptions{DataDir: dir, NoRun: true}, stdout, stderr)
	if err != nil {
		return err
	}
	if res != nil && res.Partial {
		return fmt.Errorf("merge: partial result in %s: %s; rerun their shards (gitui slurm --resubmit) or `gitui resume %s`", filepath.Join(out, store.ResultFile), res.Error, out)
	}
	return nil
}

// shardDirs returns OUT/shards/* in numeric order (then by name).
func shardDirs(out string) ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(out, "shards"))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, usagef("merge: %s has no shards/ folder: give the shard directories after OUT", out)
		}
		return nil, usagef("merge: cannot read %s (%v): give the shard directories after OUT", filepath.Join(out, "shards"), err)
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, ea := strconv.Atoi(names[i])
		b, eb := strconv.Atoi(names[j])
		if ea == nil && eb == nil {
			return a < b
		}
		return names[i] < names[j]
	})
	if len(names) == 0 {
		return nil, usagef("merge: %s is empty: no shard has started yet", filepath.Join(out, "shards"))
	}
	dirs := make([]string, len(names))
	for i, n := range names {
		dirs[i] = filepath.Join(out, "shards", n)
	}
	return dirs, nil
}

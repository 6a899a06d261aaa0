package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model/store"
)

// flipSpec is a tiny X_perm curve for the journal's damage tests: 2 methods x 2 sizes x
// 3 draws = 12 cells.
const flipSpec = `{"name": "flip", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "xperm", "test_size": 200}, "group": {"kind": "permutation"},
  "methods": [{"features": "raw"}, {"features": "cdf", "bins": 3, "templates": 5}],
  "sizes": [20, 40], "repeats": 3}`

// cleanRun runs spec (JSON) into a new directory and returns it.
func cleanRun(t *testing.T, spec string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.json")
	os.WriteFile(path, []byte(spec), 0o644)
	dir := filepath.Join(t.TempDir(), "clean")
	if code, _, stderr := gitui(t, "run", path, "--out", dir); code != 0 {
		t.Fatalf("clean run: exit %d: %s", code, stderr)
	}
	return dir
}

// copyRun copies the files of the run directory src into a new directory.
func copyRun(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "run")
	os.MkdirAll(dst, 0o755)
	ents, _ := os.ReadDir(src)
	for _, e := range ents {
		if b, err := os.ReadFile(filepath.Join(src, e.Name())); err == nil {
			os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644)
		}
	}
	return dst
}

// editSpec sets key (a top-level field, or methods.0.lambda) in DIR/spec.json.
func editSpec(t *testing.T, dir string, set func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, store.SpecFile)
	b, _ := os.ReadFile(path)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	set(v)
	b, _ = json.MarshalIndent(v, "", "  ")
	os.WriteFile(path, b, 0o644)
}

// TestResumeRefusesEditedSpec: spec.json edited after
// the run started (seed 3 → 7; methods.0.lambda 0 → 0.1) makes `gitui resume` exit 2
// with one line naming the changed key, and nothing in the directory is rewritten.
func TestResumeRefusesEditedSpec(t *testing.T) {
	ref := t.TempDir()
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		name string
		set  func(map[string]any)
		want string
	}{
		{"seed", func(v map[string]any) { v["seed"] = 7 }, "(seed 3 → 7)"},
		{"lambda", func(v map[string]any) { v["methods"].([]any)[0].(map[string]any)["lambda"] = 0.1 }, "(methods.0.lambda (none) → 0.1)"},
	} {
		dir := copyRun(t, ref)
		editSpec(t, dir, c.set)
		before, _ := os.ReadFile(filepath.Join(dir, store.ResultFile))
		code, stdout, stderr := gitui(t, "resume", dir)
		t.Logf("%s: exit %d: %s", c.name, code, strings.TrimSpace(stderr))
		want := "spec.json changed since the run started " + c.want + ": restore it, or start a new run in another DIR"
		if code != exitUsage || stdout != "" || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line with %q", c.name, code, stderr, want)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, store.ResultFile)); !bytes.Equal(before, after) {
			t.Errorf("%s: result.json was rewritten", c.name)
		}
	}
}

// TestResumeRecomputesDamagedCell: one accuracy of
// line 5 changed in place (still valid JSON), or the line's JSON broken, is found by its
// checksum; resume moves that line to cells.damaged.jsonl, recomputes only its cell, and
// writes a result.json equal to the clean run's point for point.
func TestResumeRecomputesDamagedCell(t *testing.T) {
	ref := t.TempDir()
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	total := journalLines(t, filepath.Join(ref, store.CellsFile))
	for _, c := range []struct {
		name   string
		damage func(line []byte) []byte
	}{
		{"acc changed", func(l []byte) []byte {
			i := bytes.Index(l, []byte(`"acc":0.`))
			l = bytes.Clone(l)
			l[i+8] = '0' + (l[i+8]-'0'+4)%10
			return l
		}},
		{"JSON broken", func(l []byte) []byte { return bytes.Replace(l, []byte(`"acc":`), []byte(`"acc:`), 1) }},
	} {
		dir := copyRun(t, ref)
		path := filepath.Join(dir, store.CellsFile)
		b, _ := os.ReadFile(path)
		lines := bytes.SplitAfter(b, []byte("\n"))
		lines[4] = c.damage(lines[4])
		os.WriteFile(path, bytes.Join(lines, nil), 0o644)
		code, _, stderr := gitui(t, "resume", dir)
		t.Logf("%s: exit %d: %s", c.name, code, strings.TrimSpace(stderr))
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, stderr)
		}
		if !strings.Contains(stderr, "cells.jsonl line 5 failed its check") || !strings.Contains(stderr, "moved to "+store.DamagedFile) {
			t.Errorf("%s: stderr does not name line 5: %s", c.name, stderr)
		}
		if want := "continuing " + dir + ": " + itoa(total-1) + " cells already in its journal"; !strings.Contains(stderr, want) {
			t.Errorf("%s: stderr lacks %q: only the damaged cell runs again", c.name, want)
		}
		if n := journalLines(t, path); n != total {
			t.Errorf("%s: %d cells after resume, want %d", c.name, n, total)
		}
		moved, err := os.ReadFile(filepath.Join(dir, store.DamagedFile))
		if err != nil || bytes.Count(moved, []byte("\n")) != 1 || !bytes.Contains(moved, []byte(`"line":5`)) {
			t.Errorf("%s: %s holds %q (%v)", c.name, store.DamagedFile, moved, err)
		}
		sameResult(t, c.name, ref, dir)
	}
}

// TestJournalByteFlips flips one random byte of one random line of a finished run's
// journal (header included), for 100 seeds, and resumes: the result always equals the
// clean run's point for point (exit 0), or the run is refused (exit 2). Never another
// number with exit 0.
func TestJournalByteFlips(t *testing.T) {
	seeds := 100
	if testing.Short() {
		seeds = 20
	}
	ref := cleanRun(t, flipSpec)
	clean, _ := os.ReadFile(filepath.Join(ref, store.CellsFile))
	rng := rand.New(rand.NewPCG(19, 19))
	equal, refused := 0, 0
	for seed := range seeds {
		dir := copyRun(t, ref)
		lines := bytes.SplitAfter(clean, []byte("\n"))
		lines = lines[:len(lines)-1] // the empty piece after the last newline
		k := rng.IntN(len(lines))
		l := bytes.Clone(lines[k])
		i := rng.IntN(len(l))
		l[i] ^= byte(1 + rng.IntN(255))
		lines[k] = l
		os.WriteFile(filepath.Join(dir, store.CellsFile), bytes.Join(lines, nil), 0o644)
		code, _, stderr := gitui(t, "resume", dir)
		switch code {
		case 0:
			sameResult(t, "seed "+itoa(seed), ref, dir)
			equal++
		case exitUsage:
			refused++
			t.Logf("seed %d: line %d byte %d: refused: %s", seed, k+1, i, strings.TrimSpace(stderr))
		default:
			t.Fatalf("seed %d: line %d byte %d: exit %d: %s", seed, k+1, i, code, stderr)
		}
	}
	t.Logf("%d flips: %d resumed to the clean result, %d refused (exit 2)", seeds, equal, refused)
}

// TestCancelledBeforeFirstCellCLI: a `gitui run` cancelled before its first cell leaves
// nothing behind (store.RunDir.Conclude), as the TUI does (ui's
// TestRunWithoutCellsLeavesNothing and TestCancelledBeforeFirstCellTUI): exit 130, no
// directory.
func TestCancelledBeforeFirstCellCLI(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := cmdRun(ctx, append(journalArgs[1:], "--out", dir), &stdout, &stderr)
	if !errors.Is(err, context.Canceled) || exitCode(err, &stderr) != exitInterrupted {
		t.Fatalf("err %v, want context.Canceled (exit 130); stderr %s", err, stderr.String())
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("a run cancelled before its first cell left %v", ents)
	}
	if !strings.Contains(stderr.String(), "nothing kept in "+dir+": no cell had finished") {
		t.Errorf("stderr %q", stderr.String())
	}
}

package main

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gitui/model"
	"gitui/model/store"
)

// childEnv makes the test binary run the gitui command line in its arguments instead of
// the tests (TestMain), so that a test can kill a real gitui process: "1" reads the
// arguments from childEnv_ARGS, "argv" takes them from the command line (the binary
// then stands in for gitui in job scripts).
const childEnv = "GITUI_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "argv" { // the binary stands in for gitui (job scripts of gitui slurm)
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	if os.Getenv(childEnv) == "1" {
		var args []string
		json.Unmarshal([]byte(os.Getenv(childEnv+"_ARGS")), &args)
		code := run(args, os.Stdout, os.Stderr)
		writePeakRSS()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// child returns a command that runs gitui with args in a child process.
func child(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	b, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", childEnv+"_ARGS="+string(b))
	return cmd
}

// journalSpec is a small X_perm curve with many cheap cells: 3 methods x 3 sizes x 6 draws.
const journalSpec = `{"name": "journal", "protocol": "sample-complexity", "seed": 3,
  "data": {"name": "xperm", "test_size": 400}, "group": {"kind": "permutation"},
  "methods": [{"features": "raw"}, {"features": "bow"}, {"features": "cdf", "bins": 5, "templates": 10}],
  "sizes": [20, 60, 200], "repeats": 6}`

// journalArgs runs journalSpec (written to a file once per test binary).
var journalArgs = []string{"run", writeJournalSpec()}

func writeJournalSpec() string {
	dir, err := os.MkdirTemp("", "gitui-journal-spec")
	if err != nil {
		panic(err)
	}
	path := filepath.Join(dir, "journal.json")
	if err := os.WriteFile(path, []byte(journalSpec), 0o644); err != nil {
		panic(err)
	}
	return path
}

// sameResult fails unless two result.json files hold the same series and tables, and
// the two predictions.csv files are equal.
func sameResult(t *testing.T, what, want, got string) {
	t.Helper()
	a, err := model.ReadResult(filepath.Join(want, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := model.ReadResult(filepath.Join(got, "result.json"))
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if b.Partial || !reflect.DeepEqual(a.Series, b.Series) || !reflect.DeepEqual(a.Tables, b.Tables) {
		t.Fatalf("%s: result differs from the uninterrupted run's (partial %v):\n%+v\n%+v", what, b.Partial, b.Series, a.Series)
	}
	pa, _ := os.ReadFile(filepath.Join(want, "predictions.csv"))
	pb, _ := os.ReadFile(filepath.Join(got, "predictions.csv"))
	if len(pa) == 0 || !bytes.Equal(pa, pb) {
		t.Fatalf("%s: predictions.csv differs (%d vs %d bytes)", what, len(pa), len(pb))
	}
}

// TestKillAndResume kills a child gitui run with SIGKILL at ten seeded random moments;
// each time the journal holds only whole cells (a torn last line at most), and `gitui
// resume` completes the run to a result equal, at every point, to an uninterrupted run's.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and resumes 10 child runs")
	}
	ref := t.TempDir()
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	total := journalLines(t, filepath.Join(ref, "cells.jsonl"))
	rng := rand.New(rand.NewPCG(8, 8))
	for seed := range 10 {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := child(t, append(journalArgs, "--out", dir)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill once k cells are journaled, k seeded in 0..total-1 (k = 0: at a random
		// moment of the first 200 ms, while the data load and features run).
		if k := rng.IntN(total); k == 0 {
			time.Sleep(time.Duration(rng.IntN(200)) * time.Millisecond)
		} else {
			deadline := time.Now().Add(60 * time.Second)
			for journalLines(t, filepath.Join(dir, "cells.jsonl")) < k && time.Now().Before(deadline) {
				time.Sleep(time.Millisecond)
			}
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		cells := journalLines(t, filepath.Join(dir, "cells.jsonl"))
		code, _, stderr := gitui(t, "resume", dir)
		if code != 0 {
			t.Fatalf("seed %d: resume after %d journaled cells: exit %d: %s", seed, cells, code, stderr)
		}
		sameResult(t, "resumed run", ref, dir)
		t.Logf("seed %d: killed with %d cells journaled; resumed", seed, cells)
	}
}

// journalLines returns the number of cells of a journal as store.ReadJournal reads it,
// failing on any whole line that fails its check (only the last line may be torn by a
// kill).
func journalLines(t *testing.T, path string) int {
	j, err := store.ReadJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Damaged) > 0 {
		t.Fatalf("%s: line %d is not a cell (%s)", path, j.Damaged[0].Line, j.Damaged[0].Reason)
	}
	return len(j.Cells)
}

// TestSignalsKeepCells: SIGINT, SIGTERM, SIGHUP and SIGUSR1 (Slurm's time-limit warning)
// to a running child keep its finished
// cells: a partial result.json, exit 130 (129 for SIGHUP); resume then completes it.
func TestSignalsKeepCells(t *testing.T) {
	ref := t.TempDir()
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("reference run: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 130}, {syscall.SIGHUP, 129}, {syscall.SIGUSR1, 130}} {
		dir := filepath.Join(t.TempDir(), "run")
		cmd := child(t, append(journalArgs, "--set", "repeats=200", "--out", dir)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait until some cells are journaled, then signal.
		deadline := time.Now().Add(60 * time.Second)
		for journalLines(t, filepath.Join(dir, "cells.jsonl")) < 3 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		cmd.Process.Signal(c.sig)
		cmd.Wait()
		if got := cmd.ProcessState.ExitCode(); got != c.code {
			t.Errorf("%v: exit %d, want %d; stderr %s", c.sig, got, c.code, stderr.String())
		}
		r, err := model.ReadResult(filepath.Join(dir, "result.json"))
		if err != nil {
			t.Fatalf("%v: no partial result: %v", c.sig, err)
		}
		n := journalLines(t, filepath.Join(dir, "cells.jsonl"))
		runs := 0
		for _, s := range r.Series {
			for _, p := range s.Points {
				runs += p.Runs
			}
		}
		if !r.Partial || runs != n || n < 3 {
			t.Errorf("%v: partial %v with %d runs in its points, %d cells journaled", c.sig, r.Partial, runs, n)
		}
		if _, err := os.Stat(filepath.Join(dir, "lock")); err == nil {
			t.Errorf("%v: the lock was not released", c.sig)
		}
	}
}

// TestRunDirRefusals: a second run into a directory in use, a different spec into a
// run's directory, and a run into a directory holding an older result.json are refused
// with exit 2 and one line, and nothing there changes; the same spec continues the run.
func TestRunDirRefusals(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := gitui(t, append(journalArgs, "--out", dir)...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "result.json"))
	check := func(what string, want string, args ...string) {
		t.Helper()
		code, _, stderr := gitui(t, args...)
		if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and one line with %q", what, code, stderr, want)
		}
		after, _ := os.ReadFile(filepath.Join(dir, "result.json"))
		if !bytes.Equal(before, after) {
			t.Errorf("%s: result.json changed", what)
		}
	}
	check("another spec", "another spec (repeats ", append(journalArgs, "--set", "repeats=5", "--out", dir)...)
	// A live process holds the lock (this test's own PID).
	os.WriteFile(filepath.Join(dir, "lock"), []byte(strings.Join([]string{itoa(os.Getpid()), hostname()}, " ")), 0o644)
	check("locked", "in use by gitui process", append(journalArgs, "--out", dir)...)
	os.Remove(filepath.Join(dir, "lock"))
	// The same spec again: every cell is journaled and the result is complete: nothing changes.
	code, _, stderr := gitui(t, append(journalArgs, "--out", dir)...)
	if after, _ := os.ReadFile(filepath.Join(dir, "result.json")); code != 0 || !bytes.Equal(before, after) {
		t.Errorf("rerun of a complete run: exit %d (%s), result changed %v", code, stderr, !bytes.Equal(before, after))
	}
	old := t.TempDir()
	os.WriteFile(filepath.Join(old, "result.json"), before, 0o644)
	dir = old
	check("older result", "without a journal", append(journalArgs, "--out", old)...)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func hostname() string { h, _ := os.Hostname(); return h }

// peakRSSEnv, in a child's environment, names a file the child writes its peak RSS to
// (VmHWM of /proc/self/status, in kB) as it exits: the rusage of a child started by
// fork and exec reports the parent's high-water mark when it is larger (Linux keeps it
// across exec), which a test binary that ran many tests is.
const peakRSSEnv = "GITUI_TEST_PEAK_RSS_FILE"

func writePeakRSS() {
	path := os.Getenv(peakRSSEnv)
	if path == "" {
		return
	}
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			os.WriteFile(path, []byte(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))), 0o644)
		}
	}
}

// childPeakRSS returns the peak RSS in kB the child wrote to path (peakRSSEnv), or
// fallback (the rusage figure) when it wrote none.
func childPeakRSS(path string, fallback int64) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return fallback
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return fallback
	}
	return v
}

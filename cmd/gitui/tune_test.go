package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"gitui/model"
	"gitui/model/store"
	"gitui/model/study"
)

// writeTuneBlobs writes a study spec of an RBF SVM's gamma and C on three Gaussian
// blobs in 4-D (train.csv, test.csv) into dir and returns its path.
func writeTuneBlobs(t *testing.T, dir string, trials int) string {
	t.Helper()
	for _, f := range []struct {
		name string
		n    int
		seed uint64
	}{{"train.csv", 750, 1}, {"test.csv", 300, 2}} {
		rng := rand.New(rand.NewPCG(f.seed, 1))
		var b strings.Builder
		for i := 0; i < f.n; i++ {
			for k := 0; k < 4; k++ {
				c := 0.0
				if k == i%3 {
					c = 1.5
				}
				fmt.Fprintf(&b, "%.6f,", c+rng.NormFloat64())
			}
			fmt.Fprintf(&b, "%d\n", i%3)
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := fmt.Sprintf(`{"name": "blobs", "protocol": "sample-complexity", "seed": 5,
  "data": {"name": "file", "path": %q, "test_path": %q},
  "methods": [{"kernel": "rbf", "learner": "svm", "gamma": 1, "c": 1}], "sizes": [600],
  "tune": {"params": {"methods.0.gamma": "log:0.001..10"}, "trials": %d, "validation": 150, "min_n": 20, "max_n": 540}}`,
		filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv"), trials)
	path := filepath.Join(dir, "blobs.json")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readStudyFile(t *testing.T, dir string) study.File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, study.StudyFile))
	if err != nil {
		t.Fatal(err)
	}
	var f study.File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	f.SearchSeconds = 0
	return f
}

// gitui run DIR/best.spec.json gives the study's test accuracy to the last digit.
func TestTuneBestSpecReproduces(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 27)
	var out, errb bytes.Buffer
	if code := run([]string{"tune", spec, "--out", filepath.Join(dir, "s"), "--param", "methods.0.c=log:0.1..100"}, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}
	f := readStudyFile(t, filepath.Join(dir, "s"))
	if f.Best == nil || f.Best.Test == nil || f.Best.Compared != 27 || f.Best.N != 600 || len(f.Trials) != 27 {
		t.Fatalf("study.json best %+v, %d trials", f.Best, len(f.Trials))
	}
	if _, ok := f.Best.Params["methods.0.c"]; !ok {
		t.Fatalf("best params %v lack the --param key", f.Best.Params)
	}
	for _, name := range []string{"spec.json", "trials.jsonl", "best.spec.json", "result.json", "predictions.csv"} {
		if _, err := os.Stat(filepath.Join(dir, "s", name)); err != nil {
			t.Fatalf("study directory: %v", err)
		}
	}
	if code := run([]string{"run", filepath.Join(dir, "s", study.BestSpecFile), "--out", filepath.Join(dir, "r")}, &out, &errb); code != 0 {
		t.Fatalf("run best.spec.json: exit %d: %s", code, errb.String())
	}
	r, err := model.ReadResult(filepath.Join(dir, "r", store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Series[0].Points[0].Mean; got != *f.Best.Test {
		t.Fatalf("gitui run best.spec.json: test %v, the study's %v", got, *f.Best.Test)
	}
}

// --param merges with the spec's tune block and with --set tune.* keys: the study tunes
// both the block's key and the flag's, with the trials --set asks for.
func TestTuneParamMergesWithBlock(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 9)
	var out, errb bytes.Buffer
	args := []string{"tune", spec, "--out", filepath.Join(dir, "s"), "--set", "tune.trials=4", "--param", "methods.0.c=log:0.1..100"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}
	f := readStudyFile(t, filepath.Join(dir, "s"))
	if len(f.Trials) != 4 {
		t.Fatalf("%d trials, want the 4 of --set tune.trials=4", len(f.Trials))
	}
	for _, tr := range f.Trials {
		_, c := tr.Params["methods.0.c"]
		_, g := tr.Params["methods.0.gamma"]
		if !c || !g {
			t.Fatalf("trial params %v: want both the block's methods.0.gamma and --param's methods.0.c", tr.Params)
		}
	}
	// A tune block without params (or one --set makes) takes its params from --param:
	// the spec is validated after the merge, not before.
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.json")
	if err := os.WriteFile(bare, []byte(strings.Replace(string(b), `"params": {"methods.0.gamma": "log:0.001..10"}, `, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	args = []string{"tune", bare, "--out", filepath.Join(dir, "bare"), "--set", "tune.trials=3", "--param", "methods.0.c=log:0.1..100"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("tune of a block without params: exit %d: %s", code, errb.String())
	}
	if f := readStudyFile(t, filepath.Join(dir, "bare")); len(f.Trials) != 3 {
		t.Fatalf("%d trials, want 3", len(f.Trials))
	}
}

// Bad input is refused with exit 2, one line naming the field and the fix, and leaves
// no study directory behind.
func TestTuneBadInput(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 9)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--param", "methods.0.c=100..0.1"}, "methods.0.c range 100..0.1 has low > high: swap them"},
		{[]string{"--param", "methods.0.c=log:0..10"}, "methods.0.c log range 0..10 reaches 0 or below"},
		{[]string{"--param", "methods.0.bins=5,10"}, "methods.0.bins applies to features cdf"},
		{[]string{"--param", "methods.0.nope=1,2"}, `a method has no field "nope"`},
		{[]string{"--param", "seed=1,2"}, "seed: this key cannot be tuned"},
		{[]string{"--set", "tune.eta=1"}, "tune.eta 1 is below 2"},
		{[]string{"--set", "tune.min_n=200"}, "tune.max_n 540 is smaller than one rung above tune.min_n 200"},
		// an eta above max_n: no min_n helps (never "lower min_n to at most 0"), a smaller eta does
		{[]string{"--set", "tune.eta=1000000000"}, "tune.eta 1000000000 is larger than tune.max_n 540, so no second rung follows tune.min_n 20: lower eta to at most 27 (3 is usual)"},
		{[]string{"--set", "tune.eta=1000000000", "--set", "tune.min_n=0"}, "no second rung follows tune.min_n 2: lower eta to at most 270"},
		{[]string{"--param", "methods.0.c"}, "want KEY=DIST"},
		{[]string{"--param", "methods.0.gamma=log:0.01..1"}, "the spec's tune block already tunes methods.0.gamma (log:0.001..10): drop one of them"},
		{[]string{"--param", "methods.0.c=1,10", "--param", "methods.0.c=1,100"}, "--param methods.0.c is given twice: keep one"},
		{[]string{"--set", "tune.validation=750"}, "tune.validation 750 does not fit the pool of 750 samples"},
		{[]string{"--set", "tune.max_n=700"}, "tune.max_n 700 is larger than the 600 training samples"},
		{[]string{"--set", "tune.workers=-1"}, "tune.workers -1 is negative"},
		{[]string{"--set", "tune.sampler=grid", "--set", "tune.grid_points=1000000000"}, "tune.grid_points 1000000000 is above 1000 values per range: use at most 1000, or the random or tpe sampler"},
		{[]string{"--set", "tune.refit_top=-2"}, "tune.refit_top -2 is negative"},
		{[]string{"--workers", "-2"}, "--workers -2 is negative"},
		{[]string{"--set", "tune.score=kfold"}, `tune.score "kfold" is unknown: use validation`},
		{[]string{"--set", "tune.score=loo", "--set", "tune.validation=0"}, "tune.score loo: methods.0 (SVM) is not an RLS fit"},
		{[]string{"--set", "tune.score=loo"}, "tune.validation 150 with tune.score loo: leave-one-out carves no validation split"},
		{[]string{"--set", "tune.score=validation+loo"}, "tune.score validation+loo: methods.0 (SVM) is not an RLS fit"},
	} {
		var out, errb bytes.Buffer
		out.Reset()
		sdir := filepath.Join(dir, "bad")
		code := run(append([]string{"tune", spec, "--out", sdir}, c.args...), &out, &errb)
		msg := strings.TrimSpace(errb.String())
		if code != 2 || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Fatalf("%v: exit %d, %q; want 2 and one line with %q", c.args, code, msg, c.want)
		}
		if _, err := os.Stat(sdir); err == nil {
			t.Fatalf("%v: left %s behind", c.args, sdir)
		}
	}
}

// A study killed with SIGKILL mid-search and resumed (gitui resume DIR) gives the same
// trials and best as an uninterrupted study of the same seed.
func TestTuneKilledAndResumed(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 81)
	var out, errb bytes.Buffer
	whole := filepath.Join(dir, "whole")
	if code := run([]string{"tune", spec, "--out", whole}, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}
	cut := filepath.Join(dir, "cut")
	cmd := child(t, "tune", spec, "--out", cut)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(cut, study.TrialsFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		b, _ := os.ReadFile(journal)
		if bytes.Count(b, []byte("\n")) >= 30 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the study journaled fewer than 30 lines in 60 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(cut, study.StudyFile)); err == nil {
		t.Skip("the study finished before it was killed")
	}
	errb.Reset()
	if code := run([]string{"resume", cut}, &out, &errb); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "continuing") {
		t.Fatalf("resume did not continue the journal: %s", errb.String())
	}
	a, b := readStudyFile(t, whole), readStudyFile(t, cut)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("killed and resumed study differs: best %+v and %+v", a.Best, b.Best)
	}
}

// tune.refit_top 3 refits the three best trials (by the highest rung reached, then
// validation) in refit, refit-2 and refit-3 and reports their test accuracies in
// study.json's "top", the first being "best"; each refit-K holds an ordinary run whose
// test accuracy is the one reported. The best stays the best by validation.
func TestTuneRefitTop(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 27)
	sdir := filepath.Join(dir, "s")
	var out, errb bytes.Buffer
	if code := run([]string{"tune", spec, "--out", sdir, "--param", "methods.0.c=log:0.1..100", "--set", "tune.refit_top=3"}, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}
	f := readStudyFile(t, sdir)
	if len(f.Top) != 3 || f.Best == nil || f.Best.Test == nil {
		t.Fatalf("study.json: %d top entries, best %+v; want 3 and a tested best", len(f.Top), f.Best)
	}
	if f.Top[0].Trial != f.Best.Trial || *f.Top[0].Test != *f.Best.Test || f.Top[0].Dir != study.RefitDir {
		t.Fatalf("top[0] %+v is not the best %+v", f.Top[0], f.Best)
	}
	for i, e := range f.Top {
		if e.Rank != i+1 || e.Test == nil {
			t.Fatalf("top[%d] = %+v: rank %d and a test accuracy wanted", i, e, i+1)
		}
		if i > 0 {
			p := f.Top[i-1]
			if e.ValidationN > p.ValidationN || e.ValidationN == p.ValidationN && e.Validation > p.Validation || e.Trial == p.Trial {
				t.Fatalf("top[%d] %+v ranks above top[%d] %+v", i, e, i-1, p)
			}
			r, err := model.ReadResult(filepath.Join(sdir, e.Dir, store.ResultFile))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Series[0].Points[0].Mean; got != *e.Test {
				t.Fatalf("%s/result.json: test %v, study.json top[%d] %v", e.Dir, got, i, *e.Test)
			}
		}
	}
	if n := strings.Count(out.String(), "(reported, not chosen)"); n != 2 {
		t.Fatalf("stdout reports %d other refits, want 2:\n%s", n, out.String())
	}
}

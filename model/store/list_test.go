package store

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

func spec(lambda float64) *model.Spec {
	return &model.Spec{Name: "xperm-tiny", Protocol: model.ProtocolCurve,
		Data:    model.DataSpec{Name: "xperm", TestSize: 500},
		Group:   model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5, Lambda: lambda}, {Features: "raw", Lambda: lambda}},
		Sizes:   []int{20, 50}, Repeats: 2, Seed: 1}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runStore writes three run directories: a done run (λ=0.01), a partial run (λ=0.1), and
// an interrupted one (λ=1) with a journal only; and returns the store.
func runStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mk := func(name string, lambda float64) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeJSON(t, filepath.Join(d, SpecFile), spec(lambda))
		return d
	}
	res := func(d string, lambda float64, partial bool, m0 float64) {
		raw, _ := json.Marshal(spec(lambda))
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Partial: partial, Series: []model.Series{
			{Name: "CDF(5,5) RLS", XLabel: "training set size", YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: m0, Std: 0.02, Runs: 2}, {X: 50, Mean: m0 + 0.1, Std: 0.01, Runs: 2}}},
			{Name: "raw RLS", XLabel: "training set size", YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: 0.5, Std: 0.03, Runs: 2}, {X: 50, Mean: 0.55, Std: 0.03, Runs: 2}}},
		}}
		if err := r.WriteFile(filepath.Join(d, ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	res(mk("20261126-010000-xperm-tiny", 0.01), 0.01, false, 0.7)
	res(mk("20261126-020000-xperm-tiny", 0.1), 0.1, true, 0.75)
	d := mk("20261126-030000-xperm-tiny", 1)
	var lines []string
	for _, c := range []CellRecord{
		{Series: "raw RLS", X: 20, Rep: 0, Acc: 0.5}, {Series: "raw RLS", X: 20, Rep: 1, Acc: 0.7},
		{Series: "raw RLS", X: 50, Rep: 1, Acc: 0.9},
	} {
		b, _ := json.Marshal(c)
		lines = append(lines, string(b))
	}
	// a torn last line (a kill in mid-write) is ignored
	if err := os.WriteFile(filepath.Join(d, CellsFile), []byte(strings.Join(lines, "\n")+"\n{\"series\":\"raw"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "not-a-run"), 0o755) // no spec.json nor result.json: skipped
	return dir
}

// TestLoadStore: three run directories give three entries, newest first, with the
// status of their files; the interrupted run's curve is rebuilt from its journal (mean
// and sample std of the draws: 0.5 and 0.7 give 0.6 ± √0.02); the headline is the best
// mean at the largest x.
func TestLoadStore(t *testing.T) {
	es, errs := Load([]string{runStore(t)}, true)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(es) != 3 {
		t.Fatalf("%d entries, want 3", len(es))
	}
	wantStatus := []string{"interrupted", "partial", "done"}
	for i, e := range es {
		if e.Status != wantStatus[i] {
			t.Errorf("entry %d (%s): status %q, want %q", i, e.ID, e.Status, wantStatus[i])
		}
		if e.Name != "xperm-tiny" || e.Data != "xperm" || e.Group != "permutation" {
			t.Errorf("entry %d: %+v", i, e)
		}
	}
	if got := es[2].Acc; math.Abs(got-0.8) > 1e-12 {
		t.Errorf("headline of the done run %g, want 0.8 (CDF at x=50)", got)
	}
	s := es[0].Series
	if len(s) != 1 || len(s[0].Points) != 2 {
		t.Fatalf("rebuilt series %+v", s)
	}
	p := s[0].Points[0]
	if p.X != 20 || math.Abs(p.Mean-0.6) > 1e-12 || math.Abs(p.Std-math.Sqrt(0.02)) > 1e-12 || p.Runs != 2 {
		t.Errorf("rebuilt point %+v, want x=20 0.6±%.6f (2 runs)", p, math.Sqrt(0.02))
	}
	if q := s[0].Points[1]; q.Mean != 0.9 || q.Std != 0 || q.Runs != 1 {
		t.Errorf("rebuilt single-draw point %+v", q)
	}
	if es[0].Params["methods.0.lambda"] != "1" || es[1].Params["methods.1.lambda"] != "0.1" {
		t.Errorf("flattened params: %v", es[0].Params)
	}
}

// TestStatusLocks: a lock held by this (live) process says running with its pid; one
// of a process that is gone is ignored; one from another host says running on that
// host when there is no result yet (a result.json wins over it).
func TestStatusLocks(t *testing.T) {
	dir := runStore(t)
	done := filepath.Join(dir, "20261126-010000-xperm-tiny")
	inter := filepath.Join(dir, "20261126-030000-xperm-tiny")
	me, _ := os.Hostname()
	for _, c := range []struct{ dir, lock, want string }{
		{done, fmt.Sprintf("%d %s", os.Getpid(), me), fmt.Sprintf("running (process %d)", os.Getpid())},
		{done, fmt.Sprintf("%d %s", 1<<22+12345, me), "done"}, // above the largest pid_max: no such process
		{inter, fmt.Sprintf("%d %s", 1<<22+12345, me), "interrupted"},
		{done, "77 other-host", "done"},
		{inter, "77 other-host", "running on other-host (process 77)"},
	} {
		os.WriteFile(filepath.Join(c.dir, LockFile), []byte(c.lock), 0o644)
		if got := Status(c.dir); got != c.want {
			t.Errorf("%s, lock %q: status %q, want %q", filepath.Base(c.dir), c.lock, got, c.want)
		}
		os.Remove(filepath.Join(c.dir, LockFile))
	}
}

// TestLoadSourcesAndErrors: a result.json given alone and a run directory given
// directly are listed once each; a missing source is one error naming it; a missing
// store is no error.
func TestLoadSourcesAndErrors(t *testing.T) {
	dir := runStore(t)
	done := filepath.Join(dir, "20261126-010000-xperm-tiny")
	es, errs := Load([]string{filepath.Join(dir, "nope"), done, filepath.Join(done, ResultFile), filepath.Join(dir, "missing")}, true)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "missing") {
		t.Fatalf("errors %v, want one naming the missing source", errs)
	}
	if len(es) != 2 {
		t.Fatalf("%d entries, want the run dir and the lone result", len(es))
	}
	if _, errs := Load([]string{filepath.Join(dir, "nostore")}, true); len(errs) != 0 {
		t.Fatalf("a missing store gave %v", errs)
	}
}

// TestFlatten: a spec flattens to dotted keys, arrays by index.
func TestFlatten(t *testing.T) {
	a, _ := json.Marshal(spec(0.01))
	pa, err := Flatten(a)
	if err != nil {
		t.Fatal(err)
	}
	if pa["data.name"] != "xperm" || pa["sizes.1"] != "50" || pa["methods.0.features"] != "cdf" || pa["methods.1.lambda"] != "0.01" {
		t.Fatalf("flatten: %v", pa)
	}
}

// TestResultStatus checks that a run the user cancelled is "cancelled", one with
// cells missing "partial", and only a failure "partial (failed)", in Status and Load.
func TestResultStatus(t *testing.T) {
	for _, c := range []struct {
		partial bool
		err     string
		want    string
	}{
		{false, "", "done"},
		{true, "cancelled", "cancelled"},
		{true, model.MissingLine([]eval.CellKey{{Stage: "curve", Series: "raw RLS", X: 20}}), "partial"},
		{true, "", "partial"},
		{true, "raw RLS: the Gram matrix is not finite", "partial (failed)"},
	} {
		if got := ResultStatus(c.partial, c.err); got != c.want {
			t.Errorf("ResultStatus(%v, %q) = %q, want %q", c.partial, c.err, got, c.want)
		}
		dir := t.TempDir()
		b, _ := json.Marshal(map[string]any{"schema": "gitui.result/v1", "spec": map[string]any{}, "partial": c.partial, "error": c.err})
		os.WriteFile(filepath.Join(dir, ResultFile), b, 0o644)
		if got := Status(dir); got != c.want {
			t.Errorf("Status of a result with partial %v, error %q = %q, want %q", c.partial, c.err, got, c.want)
		}
	}
}

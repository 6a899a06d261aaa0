package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
)

// TestDataFallback checks data.fallback: with USPS absent from the data directory the
// fallback is loaded, the run log names both, and the outcome's Data (the result's
// "data") is the fallback; without a fallback the missing data set is an input error
// naming the fetch command.
func TestDataFallback(t *testing.T) {
	dir := t.TempDir()
	d := model.DataSpec{Name: "usps", Fallback: "circle", Pool: 200, TestSize: 300}
	pool, test, used, err := LoadDataUsed(context.Background(), d, dir, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if used != "circle" || pool.Len() != 200 || test.Len() != 300 {
		t.Fatalf("used %s, pool %d, test %d; want circle, 200, 300", used, pool.Len(), test.Len())
	}
	d.Fallback = ""
	_, _, _, err = LoadDataUsed(context.Background(), d, dir, 1, nil)
	var ie *data.InputError
	if !errors.As(err, &ie) || !errors.Is(err, data.ErrNotFound) || !strings.Contains(err.Error(), "gitui data fetch usps") {
		t.Fatalf("usps without fallback: %v, want an input error naming the fetch", err)
	}

	no := false
	spec := &model.Spec{Name: "fb", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 1, Sizes: []int{20},
		Data:    model.DataSpec{Name: "usps", Fallback: "circle", Pool: 200, TestSize: 100, Normalize: &no},
		Methods: []model.Method{{Kernel: "rbf", Gamma: 1, C: 10, Learner: "svm"}}}
	var logs []string
	var done eval.Done
	for e := range Start(context.Background(), spec, RunOptions{DataDir: dir}) {
		switch e := e.(type) {
		case eval.Log:
			logs = append(logs, e.Line)
		case eval.Done:
			done = e
		}
	}
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	if done.Outcome.Data != "circle" {
		t.Errorf("outcome data %q, want circle", done.Outcome.Data)
	}
	all := strings.Join(logs, "\n")
	if !strings.Contains(all, "data usps is not in the data directory: using its fallback circle") || !strings.Contains(all, "data circle: pool 200") {
		t.Errorf("the run log does not say which data were used:\n%s", all)
	}
	if r := model.NewResult(spec, done.Outcome, nil, 0); r.Data != "circle" {
		t.Errorf("result data %q, want circle", r.Data)
	}
}

// TestSweepReferenceFlat checks a sweep over inv_gamma with a VSV beside the invariant
// SVM: the VSV runs once per repeat and its series is flat across the values.
func TestSweepReferenceFlat(t *testing.T) {
	no := false
	spec := &model.Spec{Name: "ref", Protocol: model.ProtocolSweep, Seed: 2, Repeats: 2, Sampling: "disjoint",
		Data: model.DataSpec{Name: "circle", Pool: 120, TestSize: 200, Normalize: &no},
		Methods: []model.Method{
			{Kernel: "rbf", Gamma: 1, C: 100, Learner: "invariant-svm", Tangents: []string{"rotation"}},
			{Kernel: "rbf", Gamma: 1, C: 100, Learner: "vsv", Tangents: []string{"rotation"}},
		},
		Sweep: &model.SweepSpec{Field: "inv_gamma", Values: []float64{0, 0.5, 0.9}, Size: 30}}
	cells := 0
	var done eval.Done
	for e := range Start(context.Background(), spec, RunOptions{}) {
		switch e := e.(type) {
		case eval.Progress:
			if e.Stage == "cells" {
				cells = e.Total
			}
		case eval.Done:
			done = e
		}
	}
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	if cells != 0 && cells != 2*3+2 {
		t.Errorf("%d cells, want 8 (the invariant SVM at 3 values, the VSV once, 2 repeats)", cells)
	}
	for _, s := range done.Outcome.Series {
		if len(s.Points) != 3 {
			t.Fatalf("%s: %d points, want 3", s.Name, len(s.Points))
		}
		if strings.HasPrefix(s.Name, "VSV") {
			for _, p := range s.Points[1:] {
				if p.Mean != s.Points[0].Mean || p.Std != s.Points[0].Std {
					t.Errorf("VSV at %g: %v, want the flat %v", p.X, p, s.Points[0])
				}
			}
		}
	}
}

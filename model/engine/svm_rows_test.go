package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// rowsSpec is a 10-class curve on the embedded digits with SVMs the row path applies to
// (rbf, poly, linear; one with kernel_norm cosine): two draws of 150 digits each.
func rowsSpec() *model.Spec {
	return &model.Spec{
		Name: "svm-rows", Protocol: model.ProtocolCurve,
		Data: model.DataSpec{Name: "embedded", Pool: 600, TestSize: 200, Normalize: &noNorm},
		Methods: []model.Method{
			{Name: "rbf", Kernel: "rbf", Gamma: 0.02, C: 10, Learner: "svm"},
			{Name: "poly", Kernel: "poly", Gamma: 0.01, Degree: 4, C: 100, Learner: "svm"},
			{Name: "linear cosine", Kernel: "linear", C: 1, Learner: "svm", KernelNorm: "cosine"},
		},
		Sizes: []int{150}, Repeats: 2, Seed: 5,
	}
}

// runEvents runs s and returns its outcome, log lines and progress events.
func runEvents(t *testing.T, s *model.Spec) (*eval.Outcome, []string, []eval.Progress) {
	t.Helper()
	var logs []string
	var prog []eval.Progress
	var done eval.Done
	for e := range Start(context.Background(), s, RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Done:
			done = e
		case eval.Log:
			logs = append(logs, e.Line)
		case eval.Progress:
			prog = append(prog, e)
		}
	}
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	return done.Outcome, logs, prog
}

// TestSVMRowPathMatchesGram runs the same spec on the precomputed kernel and, with
// svmRowsBytes at 0, on kernel rows: every method's accuracy of every draw is the same
// (the kernels agree to float32 rounding, core/learn's TestSVMRowsAgainstSymGram), the
// row path logs its route once per method and reports its pairs as progress of stage
// smo, ending at 45 of 45.
func TestSVMRowPathMatchesGram(t *testing.T) {
	want, wlogs, _ := runEvents(t, rowsSpec())
	for _, l := range wlogs {
		if strings.Contains(l, "kernel rows computed on demand") {
			t.Fatalf("precomputed run took the row path: %q", l)
		}
	}
	old := svmRowsBytes
	svmRowsBytes = 0
	defer func() { svmRowsBytes = old }()
	got, logs, prog := runEvents(t, rowsSpec())
	if fmt.Sprint(got.Series) != fmt.Sprint(want.Series) {
		t.Errorf("row path series %v, precomputed %v", got.Series, want.Series)
	}
	routes := 0
	for _, l := range logs {
		if strings.Contains(l, "kernel rows computed on demand") {
			routes++
		}
	}
	if routes != 3 {
		t.Errorf("%d route lines, want one per method (3): %q", routes, logs)
	}
	var last eval.Progress
	for _, p := range prog {
		if p.Stage == "smo" {
			last = p
		}
	}
	if last.Done != 45 || last.Total != 45 {
		t.Errorf("last smo progress %+v, want 45 of 45 pairs", last)
	}
	for _, se := range got.Series {
		if se.Points[0].Mean < 0.6 {
			t.Errorf("%s: accuracy %.3f on 150 digits, want >= 0.6", se.Name, se.Points[0].Mean)
		}
	}
}

// TestSVMRowPathCancel: a cancelled row-path run ends promptly with context.Canceled.
func TestSVMRowPathCancel(t *testing.T) {
	old := svmRowsBytes
	svmRowsBytes = 0
	defer func() { svmRowsBytes = old }()
	ctx, cancel := context.WithCancel(context.Background())
	var done eval.Done
	for e := range Start(ctx, rowsSpec(), RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Progress:
			if e.Stage == "smo" {
				cancel()
			}
		case eval.Done:
			done = e
		}
	}
	cancel()
	if done.Err == nil || !strings.Contains(done.Err.Error(), "cancel") {
		t.Errorf("cancelled run ended with %v, want context.Canceled", done.Err)
	}
}

package presets

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gitui/model/store"
	"gitui/model/study"
)

// mnistFullTuneQuickMin bounds the refit test accuracy of mnist-full-tune --quick (at
// 3,000 digits on 2,000 test digits of $GITUI_DATA's MNIST, one digit 0.05 points):
// measured 0.9610 on the 10,000-digit pool (2026-12-04: best gamma 117 of the grid,
// validation 0.9750 at 2,400), the bound 0.7 points below.
const mnistFullTuneQuickMin = 0.954

// TestMNISTFullTuneQuick runs the study mnist-full-tune --quick on the MNIST of
// $GITUI_DATA (3,000 pool digits, 600 of them for validation, 2,000 test digits) as
// `gitui tune` does, and checks its study.json: the 600-digit validation split, the
// rungs 150, 600 (both at most the 600 centres: exact fits) and 2,400 (Nyström), every
// one of the 8 widths scored at 150 (none failed), 2 of them at 600 and 1 at 2,400
// (synchronous halving with eta 4), the best scored on validation at the top rung, and
// its refit at 3,000 tested at or above mnistFullTuneQuickMin.
func TestMNISTFullTuneQuick(t *testing.T) {
	dir := os.Getenv("GITUI_DATA")
	if dir == "" {
		t.Skip("set GITUI_DATA to a directory holding mnist/ to run mnist-full-tune --quick")
	}
	if _, err := os.Stat(filepath.Join(dir, "mnist")); err != nil {
		t.Skipf("no mnist/ in GITUI_DATA=%s: mnist-full-tune --quick needs MNIST", dir)
	}
	p, err := Lookup("mnist-full-tune")
	if err != nil {
		t.Fatal(err)
	}
	sdir := filepath.Join(t.TempDir(), "study")
	st, err := study.Open(sdir, p.Build(true))
	if err != nil {
		t.Fatal(err)
	}
	var done study.Done
	for e := range study.Start(context.Background(), st, study.Options{DataDir: dir}) {
		if d, ok := e.(study.Done); ok {
			done = d
		}
	}
	if done.Err != nil {
		t.Fatal(done.Err)
	}
	b, err := os.ReadFile(filepath.Join(sdir, study.StudyFile))
	if err != nil {
		t.Fatalf("study.json: %v", err)
	}
	var f store.Study
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("study.json: %v", err)
	}
	if f.Validation != 600 || f.Pool != 3000 || !reflect.DeepEqual(f.Rungs, []int{150, 600, 2400}) {
		t.Fatalf("study.json: validation %d of pool %d, rungs %v; want 600 of 3000, [150 600 2400]", f.Validation, f.Pool, f.Rungs)
	}
	atRung := map[int]int{}
	for _, tr := range f.Trials {
		if tr.State == "failed" || tr.Error != "" {
			t.Errorf("trial %d %v failed: %s", tr.ID, tr.Params, tr.Error)
		}
		for _, r := range tr.Rungs {
			atRung[r.N]++
		}
	}
	if len(f.Trials) != 8 || !reflect.DeepEqual(atRung, map[int]int{150: 8, 600: 2, 2400: 1}) {
		t.Errorf("%d trials, jobs per rung %v; want 8 trials, 8 at 150, 2 at 600, 1 at 2400", len(f.Trials), atRung)
	}
	bi := f.Best
	if bi == nil || bi.Test == nil {
		t.Fatalf("study.json best %+v: want a best with its refit's test accuracy", bi)
	}
	if bi.ValidationN != 2400 || bi.Validation <= 0 || bi.N != 3000 || bi.Compared != 8 {
		t.Errorf("best: validation %v at n %d, refit at %d, %d compared; want a score at the top rung 2400, the refit at 3000, 8 compared", bi.Validation, bi.ValidationN, bi.N, bi.Compared)
	}
	t.Logf("best %v: validation %.4f at %d, test %.4f at %d", bi.Params, bi.Validation, bi.ValidationN, *bi.Test, bi.N)
	if *bi.Test < mnistFullTuneQuickMin {
		t.Errorf("refit test accuracy %.4f, want >= %.3f", *bi.Test, mnistFullTuneQuickMin)
	}
}

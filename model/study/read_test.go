package study

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadJobs runs a small study and reads its directory as the workbench does: the
// jobs of the journal in order agree with study.json's trials (every rung score of every
// trial, and no other), ReadFile returns study.json, and a torn last line (a job being
// written) is skipped rather than failing the read.
func TestReadJobs(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	sd := filepath.Join(dir, "study")
	st, err := Open(sd, blobSpec(dir, filepath.Join(dir, "test.csv")))
	if err != nil {
		t.Fatal(err)
	}
	if jobs, err := ReadJobs(sd); err != nil || len(jobs) != 0 {
		t.Fatalf("before the search: %d jobs, %v; want none", len(jobs), err)
	}
	if err := st.Search(context.Background(), Options{}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	jobs, err := ReadJobs(sd)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(sd)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]float64{}
	for _, tr := range f.Trials {
		for _, r := range tr.Rungs {
			want[[2]int{tr.ID, r.N}] = r.Validation
		}
	}
	if b := f.Baseline; b != nil { // the baseline's one job (tune.baseline)
		want[[2]int{BaselineTrial, b.ValidationN}] = b.Validation
	}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs in the journal, %d rung scores in study.json", len(jobs), len(want))
	}
	for _, j := range jobs {
		if v, ok := want[[2]int{j.Trial, j.N}]; !ok || v != j.Validation || j.Seconds <= 0 || len(j.Params) == 0 {
			t.Errorf("job %+v: study.json has %v (%v)", j, v, ok)
		}
	}
	fh, err := os.OpenFile(filepath.Join(sd, TrialsFile), os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(`{"crc32c":"00000000","record":{"kind":"job","tri`)
	fh.Close()
	if torn, err := ReadJobs(sd); err != nil || len(torn) != len(jobs) {
		t.Errorf("with a torn last line: %d jobs, %v; want the %d whole ones", len(torn), err, len(jobs))
	}
	if _, err := ReadFile(t.TempDir()); err == nil {
		t.Error("ReadFile of a directory without study.json: no error")
	}
}

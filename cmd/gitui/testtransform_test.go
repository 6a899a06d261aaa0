package main

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// TestRunTestTransformOut runs xperm-curve with test_transform (block permutations) into a
// run directory: result.json holds each method's series and its "(transformed test)"
// twin, and predictions.csv holds both halves, on which the Haar kernel over the full S_5
// predicts the same class for every permuted sequence as for the sequence, and raw RLS
// does not.
func TestRunTestTransformOut(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", out,
		"--set", `methods=[{"features":"raw"},{"kernel":"haar","base":"rbf","gamma":2.5}]`,
		"--set", "sizes=[100]", "--set", "repeats=2", "--set", "data.test_size=300", "--set", "data.pool=2000", "--set", "test_transform.kind=permutation")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := model.ReadResult(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	means := map[string]float64{}
	for _, s := range r.Series {
		if len(s.Points) != 1 || s.Points[0].Runs != 2 {
			t.Fatalf("%s: %d points", s.Name, len(s.Points))
		}
		means[s.Name] = s.Points[0].Mean
	}
	for _, m := range []string{"raw RLS", "Haar RLS"} {
		if _, ok := means[m+" (transformed test)"]; !ok {
			t.Fatalf("no series %q in %v", m+" (transformed test)", means)
		}
	}
	if means["Haar RLS"] != means["Haar RLS (transformed test)"] {
		t.Errorf("Haar RLS: %v plain, %v transformed: want equal", means["Haar RLS"], means["Haar RLS (transformed test)"])
	}
	f, err := os.Open(filepath.Join(out, "predictions.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// draw,size,method,index,true,predicted: key (draw, method, index) -> predicted.
	pred := map[string]string{}
	for _, row := range rows[1:] {
		pred[row[0]+"|"+row[2]+"|"+row[3]] = row[5]
	}
	for _, m := range []string{"raw RLS", "Haar RLS"} {
		total, changed := 0, 0
		for k, p := range pred {
			if !strings.HasPrefix(strings.SplitN(k, "|", 2)[1], m+"|") {
				continue
			}
			parts := strings.SplitN(k, "|", 3)
			q, ok := pred[parts[0]+"|"+m+" (transformed test)|"+parts[2]]
			if !ok {
				t.Fatalf("%s: no transformed prediction for %s", m, k)
			}
			total++
			if p != q {
				changed++
			}
		}
		t.Logf("%s: %d of %d predictions change on the permuted test set", m, changed, total)
		if total != 600 {
			t.Errorf("%s: %d plain predictions, want 2 draws x 300", m, total)
		}
		if m == "Haar RLS" && changed != 0 {
			t.Errorf("Haar RLS: %d of %d predictions change under block permutations, want none", changed, total)
		}
		if m == "raw RLS" && changed == 0 {
			t.Error("raw RLS: no prediction changes under block permutations: the test set was not transformed")
		}
	}
}

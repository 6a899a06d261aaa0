package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gitui/model"
)

// TestPredictionsCSV: a run with --out writes predictions.csv for each method's largest
// training size, one row per draw and test sample, with the true and predicted labels
// and the learner's decision value (RLS: finite; 1-NN: minus a squared distance, <= 0;
// SVM: its one-vs-one votes plus a tie-break, >= 1 for 10 classes); the confusion
// tables in result.json count the same predictions.
func TestPredictionsCSV(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "p.json")
	os.WriteFile(spec, []byte(`{"name": "p", "protocol": "sample-complexity", "seed": 2,
	  "data": {"name": "embedded", "test_size": 300}, "sizes": [50, 100], "repeats": 2,
	  "methods": [{"features": "raw"}, {"features": "raw", "learner": "1nn"},
	              {"kernel": "poly", "degree": 2, "gamma": 0.01, "c": 10, "learner": "svm"}]}`), 0o644)
	out := t.TempDir()
	if code, _, stderr := gitui(t, "run", spec, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
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
	if strings.Join(rows[0], ",") != "draw,size,method,index,true,predicted,decision" {
		t.Fatalf("header %v", rows[0])
	}
	count := map[string]int{}
	wrong := map[string]int{}
	for _, r := range rows[1:] {
		if r[1] != "100" {
			t.Fatalf("row at size %s, want only the largest size 100", r[1])
		}
		d, err := strconv.ParseFloat(r[6], 64)
		if err != nil || math.IsNaN(d) || math.IsInf(d, 0) {
			t.Fatalf("%s: decision %q", r[2], r[6])
		}
		switch r[2] {
		case "raw 1-NN":
			if d > 0 {
				t.Errorf("1-NN decision %g > 0", d)
			}
		case "SVM":
			if d < 1 {
				t.Errorf("SVM decision %g < 1 vote", d)
			}
		}
		count[r[2]]++
		if r[4] != r[5] {
			wrong[r[2]]++
		}
	}
	res, err := model.ReadResult(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"raw RLS", "raw 1-NN", "SVM"} {
		if count[name] != 2*300 {
			t.Errorf("%s: %d rows, want 2 draws x 300", name, count[name])
		}
		// The confusion table's off-diagonal sum is the number of wrong predictions.
		found := false
		for _, tab := range res.Tables {
			if !strings.HasPrefix(tab.Name, "confusion "+name+" at 100") {
				continue
			}
			found = true
			off := 0
			for i, row := range tab.Rows {
				for j, v := range row[1:] {
					if n, ok := v.(float64); ok && i != j {
						off += int(n)
					}
				}
			}
			if off != wrong[name] {
				t.Errorf("%s: confusion table has %d errors, predictions.csv %d", name, off, wrong[name])
			}
		}
		if !found {
			t.Errorf("no confusion table for %s", name)
		}
	}
}

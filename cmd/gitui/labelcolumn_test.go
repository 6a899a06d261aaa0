package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLabelColumn checks data.label_column, which chooses a CSV's label column by name
// or by index: a CSV whose label is its first
// column, "y", learns the same by name and by index, and far better than with the default
// last column (a feature, two-valued here by construction, would be the label); a label
// column on a file without columns is refused with exit 2.
func TestLabelColumn(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "first.csv")
	var b strings.Builder
	b.WriteString("y,a,b,c\n")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		y := i % 2
		// a and b carry the class; c is noise in {0, 1}.
		fmt.Fprintf(&b, "%d,%.3f,%.3f,%d\n", y, float64(y)+0.3*r.NormFloat64(), float64(1-y)+0.3*r.NormFloat64(), r.IntN(2))
	}
	os.WriteFile(csv, []byte(b.String()), 0o644)
	spec := func(label string) string {
		p := filepath.Join(t.TempDir(), "s.json")
		lc := ""
		if label != "" {
			lc = fmt.Sprintf(`, "label_column": %q`, label)
		}
		os.WriteFile(p, []byte(fmt.Sprintf(`{"name": "lc", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "file", "path": %q, "test_size": 100%s},
  "methods": [{"features": "raw"}], "sizes": [100], "repeats": 1}`, csv, lc)), 0o644)
		return p
	}
	acc := func(label string) float64 {
		out := t.TempDir()
		if code, _, stderr := gitui(t, "run", spec(label), "--out", out); code != 0 {
			t.Fatalf("label_column %q: exit %d: %s", label, code, stderr)
		}
		raw, _ := os.ReadFile(filepath.Join(out, "result.json"))
		var res struct {
			Series []struct{ Points []struct{ Mean float64 } }
		}
		json.Unmarshal(raw, &res)
		return res.Series[0].Points[0].Mean
	}
	byName, byIndex, last := acc("y"), acc("0"), acc("")
	if byName != byIndex || byName < 0.9 {
		t.Errorf("label y by name: %.3f, by index 0: %.3f; want equal and >= 0.9 (a and b separate the classes)", byName, byIndex)
	}
	if last > 0.7 {
		t.Errorf("the default (last column, noise) scores %.3f: want near chance, below 0.7", last)
	}
	for _, c := range []struct{ label, want string }{
		{"nope", `no column named "nope" in the header`},
		{"9", "label column 9 is outside the 4 columns"},
	} {
		code, _, stderr := gitui(t, "run", spec(c.label), "--out", t.TempDir())
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("label_column %q: exit %d, %q; want exit 2 with %q", c.label, code, stderr, c.want)
		}
	}
	code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", t.TempDir(), "--set", "data.label_column=y")
	if code != 2 || !strings.Contains(stderr, "data.label_column applies to data.name file with a .csv, .tsv or .parquet path") {
		t.Errorf("label_column on xperm: exit %d, %q", code, stderr)
	}
}

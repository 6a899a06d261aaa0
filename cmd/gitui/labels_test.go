package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// writeClusters writes a CSV of n samples per label, label i's samples near 5·e_i in R^3
// (noise 0.3): three well separated clusters.
func writeClusters(t *testing.T, path string, labels []string, pos []int, n int, rng *rand.Rand) {
	t.Helper()
	var b strings.Builder
	b.WriteString("x,y,z,label\n")
	for k, l := range labels {
		for range n {
			v := [3]float64{rng.NormFloat64() * 0.3, rng.NormFloat64() * 0.3, rng.NormFloat64() * 0.3}
			v[pos[k]] += 5
			fmt.Fprintf(&b, "%.4f,%.4f,%.4f,%s\n", v[0], v[1], v[2], l)
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunSingleClassTestFile checks labels matched by value end to end: a 3-class CSV
// trained on labels 3/5/7 and tested on a file holding only label-7 samples scores at
// least 0.95 (it scored 0.00 when each file's labels were indexed on their own). A test
// file with a label absent from training exits 2 with one line naming it.
func TestRunSingleClassTestFile(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(37, 5))
	train, test := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test7.csv")
	writeClusters(t, train, []string{"3", "5", "7"}, []int{0, 1, 2}, 30, rng)
	writeClusters(t, test, []string{"7"}, []int{2}, 40, rng)
	spec := func(testPath string) string {
		p := filepath.Join(dir, "spec-"+filepath.Base(testPath)+".json")
		s := fmt.Sprintf(`{"name": "labels", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "file", "path": %q, "test_path": %q},
  "methods": [{"features": "raw", "learner": "rls"}, {"features": "raw", "learner": "1nn"}],
  "sizes": [15, 60], "repeats": 3}`, train, testPath)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out := filepath.Join(dir, "run")
	code, _, stderr := gitui(t, "run", spec(test), "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := model.ReadResult(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Series) != 2 {
		t.Fatalf("%d series, want 2", len(r.Series))
	}
	for _, s := range r.Series {
		for _, p := range s.Points {
			t.Logf("%s at %v: accuracy %.3f ± %.3f (%d runs)", s.Name, p.X, p.Mean, p.Std, p.Runs)
			if p.Mean < 0.95 {
				t.Errorf("%s at %v training samples: accuracy %.3f on the label-7 test file, want >= 0.95", s.Name, p.X, p.Mean)
			}
		}
	}

	bad := filepath.Join(dir, "test9.csv")
	writeClusters(t, bad, []string{"7", "9"}, []int{2, 0}, 5, rng)
	out9 := filepath.Join(dir, "run9")
	code, _, stderr = gitui(t, "run", spec(bad), "--out", out9)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if code != 2 || !strings.Contains(last, `"9" (5 samples)`) || !strings.Contains(last, bad) || !strings.Contains(last, "data.classes") {
		t.Errorf("label 9 only in the test file: exit %d, last line %q; want exit 2 naming the label, the file and the fix", code, last)
	}
	if _, err := os.Stat(filepath.Join(out9, "result.json")); err == nil {
		t.Error("a refused run wrote result.json")
	}
}

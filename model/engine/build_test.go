package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/model"
)

// writeClusterCSV writes n samples per label to path, one row "x0,x1,x2,label" each: the
// samples of the i-th label of labels lie near 5·e_(i mod 3) (noise 0.3), so the classes
// are well separated, also after scaling to unit norm. The row order is shuffled by rng.
func writeClusterCSV(t *testing.T, path string, labels []string, n int, rng *rand.Rand) {
	t.Helper()
	var rows []string
	for i, l := range labels {
		for range n {
			v := [3]float64{}
			for j := range v {
				v[j] = 0.3 * rng.NormFloat64()
			}
			v[i%3] += 5
			rows = append(rows, fmt.Sprintf("%.4f,%.4f,%.4f,%s", v[0], v[1], v[2], l))
		}
	}
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	if err := os.WriteFile(path, []byte("a,b,c,label\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadDataLabelsAcrossFiles loads a training and a test file whose labels the test
// file holds as a subset, in another order, spelled differently or as strings, and
// checks that every test sample's class (by name) is its label in the file: the test set
// is scored against the training set's classes.
func TestLoadDataLabelsAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 5))
	cases := []struct {
		name        string
		train, test []string
	}{
		{"subset of one class", []string{"3", "5", "7"}, []string{"7"}},
		{"subset of two, reversed", []string{"3", "5", "7"}, []string{"7", "3"}},
		{"permuted order, other spelling", []string{"3", "5", "7"}, []string{"7.0", "+3", "5"}},
		{"string labels", []string{"cat", "dog", "bird"}, []string{"bird", "cat"}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := filepath.Join(dir, fmt.Sprintf("train%d.csv", i))
			te := filepath.Join(dir, fmt.Sprintf("test%d.csv", i))
			writeClusterCSV(t, tr, c.train, 10, rng)
			// The test labels sit at the same clusters as in training.
			var pos []string
			for _, l := range c.test {
				at := slices.IndexFunc(c.train, func(s string) bool { return data.LabelKey(s) == data.LabelKey(l) })
				for len(pos) < at {
					pos = append(pos, "")
				}
				pos = append(pos[:at], l)
			}
			writeTestCSV(t, te, pos, 4, rng)
			pool, test, err := LoadData(model.DataSpec{Name: "file", Path: tr, TestPath: te}, "", 1)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(test.Classes, pool.Classes) {
				t.Fatalf("test classes %v, training classes %v: want one label map", test.Classes, pool.Classes)
			}
			raw, err := data.LoadCSV(te, data.CSVOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if test.Len() != raw.Len() {
				t.Fatalf("%d test samples, the file has %d", test.Len(), raw.Len())
			}
			for k := range test.Y {
				if got, want := test.Classes[test.Y[k]], raw.Classes[raw.Y[k]]; data.LabelKey(got) != data.LabelKey(want) {
					t.Fatalf("test sample %d labelled %q in its file is class %q", k, want, got)
				}
			}
		})
	}
}

// writeTestCSV writes n samples for each non-empty label of pos, at the cluster of its
// index (as writeClusterCSV places them).
func writeTestCSV(t *testing.T, path string, pos []string, n int, rng *rand.Rand) {
	t.Helper()
	var rows []string
	for i, l := range pos {
		if l == "" {
			continue
		}
		for range n {
			v := [3]float64{}
			for j := range v {
				v[j] = 0.3 * rng.NormFloat64()
			}
			v[i%3] += 5
			rows = append(rows, fmt.Sprintf("%.4f,%.4f,%.4f,%s", v[0], v[1], v[2], l))
		}
	}
	if err := os.WriteFile(path, []byte("a,b,c,label\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadDataUnknownTestLabel: a test label absent from training is an *InputError that
// names the label, both files and the fix; data.classes that drops it makes it load.
func TestLoadDataUnknownTestLabel(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(4, 5))
	tr, te := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	writeClusterCSV(t, tr, []string{"3", "5", "7"}, 5, rng)
	writeTestCSV(t, te, []string{"3", "9", "7"}, 3, rng)
	_, _, err := LoadData(model.DataSpec{Name: "file", Path: tr, TestPath: te}, "", 1)
	wantInputError(t, "label 9 only in the test file", err, te, tr, `"9" (3 samples)`, "data.classes")
	if err != nil && strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	pool, test, err := LoadData(model.DataSpec{Name: "file", Path: tr, TestPath: te, Classes: []int{7, 3}}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pool.Classes, []string{"7", "3"}) || !slices.Equal(test.Classes, pool.Classes) || test.Len() != 6 || pool.Len() != 10 {
		t.Fatalf("data.classes [7 3]: pool %d in %v, test %d in %v", pool.Len(), pool.Classes, test.Len(), test.Classes)
	}
}

// TestLoadDataClassesByValue: data.classes selects labels by value on data whose labels
// are numbers (also when the file's first-appearance order differs from their value
// order), by position in label order on named labels, and refuses a label that does not
// occur.
func TestLoadDataClassesByValue(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(6, 5))
	tr := filepath.Join(dir, "num.csv")
	writeClusterCSV(t, tr, []string{"7", "3", "5"}, 8, rng)
	pool, test, err := LoadData(model.DataSpec{Name: "file", Path: tr, TestSize: 6, Classes: []int{5, 7}}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pool.Classes, []string{"5", "7"}) || pool.Len()+test.Len() != 16 {
		t.Fatalf("pool %d in %v, test %d", pool.Len(), pool.Classes, test.Len())
	}
	_, _, err = LoadData(model.DataSpec{Name: "file", Path: tr, Classes: []int{0, 1}}, "", 1)
	wantInputError(t, "index-style classes on numeric labels", err, "data.classes: label 0 does not occur", "use labels among", "7", "3", "5")

	named := filepath.Join(dir, "named.csv")
	writeClusterCSV(t, named, []string{"cat", "dog", "bird"}, 8, rng)
	file, err := data.LoadCSV(named, data.CSVOptions{}) // its label order (first appearance)
	if err != nil {
		t.Fatal(err)
	}
	pool, _, err = LoadData(model.DataSpec{Name: "file", Path: named, Classes: []int{2, 0}}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{file.Classes[2], file.Classes[0]}; !slices.Equal(pool.Classes, want) {
		t.Errorf("named classes [2 0] keep %v, want %v", pool.Classes, want)
	}
	_, _, err = LoadData(model.DataSpec{Name: "file", Path: named, Classes: []int{0, 3}}, "", 1)
	wantInputError(t, "named label out of range", err, "label 3 is not one of the 3 classes", strings.Join(file.Classes, ", "))
}

// TestLoadDataTestSizeWithTestPath: data.test_size with a test file keeps a seeded,
// stratified subset of that file: the same for the same seed, another for another seed,
// every row a row of the file, class counts proportional (within one), and a size larger
// than the file is refused.
func TestLoadDataTestSizeWithTestPath(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 5))
	tr, te := filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	writeClusterCSV(t, tr, []string{"a", "b", "c"}, 10, rng)
	writeTestCSV(t, te, []string{"a", "b", "c"}, 20, rng) // 60 rows, 20 per class
	norm := false
	spec := model.DataSpec{Name: "file", Path: tr, TestPath: te, TestSize: 15, Normalize: &norm}
	_, full, err := LoadData(model.DataSpec{Name: "file", Path: tr, TestPath: te, Normalize: &norm}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	rowsOf := func(seed uint64) []string {
		t.Helper()
		_, test, err := LoadData(spec, "", seed)
		if err != nil {
			t.Fatal(err)
		}
		if test.Len() != 15 {
			t.Fatalf("seed %d: %d test samples, want data.test_size 15", seed, test.Len())
		}
		counts := data.ClassCounts(test.Y, len(test.Classes))
		for c, n := range counts {
			if n != 5 {
				t.Errorf("seed %d: class %s has %d test samples, want 5 (stratified 15 of 20/20/20)", seed, test.Classes[c], n)
			}
		}
		var rows []string
		for i := range test.Len() {
			r := fmt.Sprint(test.X.RawRowView(i), test.Classes[test.Y[i]])
			found := false
			for j := range full.Len() {
				if fmt.Sprint(full.X.RawRowView(j), full.Classes[full.Y[j]]) == r {
					found = true
				}
			}
			if !found {
				t.Fatalf("seed %d: test row %s is not a row of the file", seed, r)
			}
			rows = append(rows, r)
		}
		slices.Sort(rows)
		if len(slices.Compact(slices.Clone(rows))) != len(rows) {
			t.Fatalf("seed %d: a test row is drawn twice", seed)
		}
		return rows
	}
	a, b, c := rowsOf(1), rowsOf(1), rowsOf(2)
	if !slices.Equal(a, b) {
		t.Error("the same seed draws different test subsets")
	}
	if slices.Equal(a, c) {
		t.Error("seeds 1 and 2 draw the same test subset")
	}
	spec.TestSize = 61
	_, _, err = LoadData(spec, "", 1)
	wantInputError(t, "test_size above the file", err, "data.test_size 61", "60 samples of test file", te, "at most 60")
}

func TestLoadDataErrors(t *testing.T) {
	_, _, err := LoadData(model.DataSpec{Name: "mnist"}, t.TempDir(), 1)
	var ie *model.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "mnist") {
		t.Errorf("missing MNIST: err = %v, want an InputError naming mnist", err)
	}
	_, _, err = LoadData(model.DataSpec{Name: "xperm", TestSize: 40000}, "", 1)
	if !errors.As(err, &ie) {
		t.Errorf("test_size too large: err = %v, want an InputError", err)
	}
}

func TestBuildGroupErrors(t *testing.T) {
	var ie *model.InputError
	if _, err := BuildGroup(model.GroupSpec{Kind: "rotation", Angles: &model.AngleSpec{From: -10, To: 10, Count: 3}}, []int{40}, 1); !errors.As(err, &ie) {
		t.Errorf("rotation on vectors: err = %v, want an InputError", err)
	}
	if _, err := BuildGroup(model.GroupSpec{Kind: "local-shift", Radius: 30}, []int{28, 28}, 1); !errors.As(err, &ie) {
		t.Errorf("radius 30 on 28x28: err = %v, want an InputError", err)
	}
	g, err := BuildGroup(model.GroupSpec{Kind: "rotation+shift", Radius: 3, Angles: &model.AngleSpec{From: -20, To: 20, Count: 9}}, []int{28, 28}, 1)
	if err != nil || g.Len() != 441 {
		t.Fatalf("rotation+shift: %v, |G| = %v, want 441", err, g)
	}
	g, err = BuildGroup(model.GroupSpec{Kind: "permutation", Size: 10}, []int{5, 8}, 1)
	if err != nil || g.Len() != 10 {
		t.Fatalf("sampled permutations: %v, want |G| = 10", err)
	}
}

func TestLoadXPermSplit(t *testing.T) {
	pool, test, err := LoadData(model.DataSpec{Name: "xperm", TestSize: 1000}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Len()+test.Len() != 32768 || test.Len() != 1000 {
		t.Errorf("split %d + %d, want 31768 + 1000", pool.Len(), test.Len())
	}
	// Rows are scaled to unit norm: 5 ones / sqrt(5).
	row := pool.X.RawRowView(0)
	var s float64
	for _, v := range row {
		s += v * v
	}
	if s < 1-1e-12 || s > 1+1e-12 {
		t.Errorf("row norm^2 %v, want 1", s)
	}
}

// TestEveryDataNameRegistered checks that every data set name the spec accepts has a
// loader in core/data's table, and that the table holds no name the spec refuses.
func TestEveryDataNameRegistered(t *testing.T) {
	reg := data.Registered()
	for _, n := range model.DataNames {
		if !slices.Contains(reg, n) {
			t.Errorf("data.name %q has no registered loader", n)
		}
	}
	for _, n := range reg {
		if !slices.Contains(model.DataNames, n) {
			t.Errorf("registered data set %q is not in model.DataNames", n)
		}
	}
}

package data

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrecomputedKernel(t *testing.T) {
	// The layout svm_precomputed.sh writes (../shared/bench), with a comment and a blank line.
	text := "# K of 3 samples\n3 0:1 1:2 2:0.5 3:1e-2\n\n-1 0:2 1:0.5 2:4 3:0 # c\n3 0:3 1:1e-2 2:0 3:1\n"
	ds, err := ReadPrecomputedKernel(strings.NewReader(text), "gram-3.libsvm")
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, [][]float64{{2, 0.5, 1e-2}, {0.5, 4, 0}, {1e-2, 0, 1}}, []int{0, 1, 0}, []string{"3", "-1"}, []int{3})
	if ds.Name != "gram-3" {
		t.Errorf("name %q", ds.Name)
	}

	bad := []struct {
		name, text string
		line       int
		words      []string
	}{
		{"no serial", "1 1:1\n", 1, []string{"field 2", "want 0:1"}},
		{"wrong serial", "1 0:1 1:1 2:0\n1 0:3 1:0 2:1\n", 2, []string{"field 2", "want 0:2", `"0:3"`}},
		{"bad label", "x 0:1 1:1\n", 1, []string{"field 1", "label"}},
		{"no values", "1 0:1\n", 1, []string{"no kernel values"}},
		{"short row", "1 0:1 1:1 2:0\n1 0:2 1:0\n", 2, []string{"line 1 has 2"}},
		{"index order", "1 0:1 2:1 1:0\n", 1, []string{"field 3", "start with 1:"}},
		{"no colon", "1 0:1 1:1 2\n1 0:2 1:1 2:1\n", 1, []string{"field 4", "start with 2:"}},
		{"bad value", "1 0:1 1:z\n", 1, []string{"field 3", `"z" is not a number`}},
		{"NaN value", "1 0:1 1:nan\n", 1, []string{"field 3", "NaN"}},
		{"too many lines", "1 0:1 1:1\n1 0:2 1:1\n", 2, []string{"square"}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadPrecomputedKernel(strings.NewReader(c.text), "k.libsvm")
			wantParseError(t, err, c.line, c.words...)
		})
	}
	for _, c := range []struct{ text, word string }{
		{"", "no samples"}, {"# only\n", "no samples"}, {"1 0:1 1:1 2:0\n", "1 sample lines but 2 kernel values"},
	} {
		if _, err := ReadPrecomputedKernel(strings.NewReader(c.text), "k.libsvm"); err == nil || !strings.Contains(err.Error(), c.word) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: err = %v, want one line containing %q", c.text, err, c.word)
		}
	}
}

func TestLoadPrecomputedKernel(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "gram-2.libsvm.gz")
	if err := os.WriteFile(p, gz([]byte("1 0:1 1:4 2:1\n2 0:2 1:1 2:9\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := LoadPrecomputedKernel(p)
	if err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, [][]float64{{4, 1}, {1, 9}}, []int{0, 1}, []string{"1", "2"}, []int{2})
	if _, err := LoadPrecomputedKernel(filepath.Join(dir, "none.libsvm")); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.libsvm") {
		t.Errorf("missing file: %v", err)
	}
}

func FuzzPrecomputedKernel(f *testing.F) {
	for _, s := range []string{
		"1 0:1 1:2 2:1\n-1 0:2 1:1 2:3\n", "1 0:1 1:1 # c\n\n", "1 1:1\n", "1 0:2 1:1\n", "x 0:1 1:1\n",
		"1 0:1 1:nan\n", "1 0:1 2:1\n", "1 0:1\n", "", "1 0:1 1:1e308\n", "1 0:1 1: 2\n", "1 0:1 1:1 2:0\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		ds, err := ReadPrecomputedKernel(bytes.NewReader(text), "fuzz.libsvm")
		checkResult(t, ds, err)
		if err == nil {
			if r, c := ds.X.Dims(); r != c || r != ds.Len() {
				t.Fatalf("%d×%d kernel for %d samples", r, c, ds.Len())
			}
		}
	})
}

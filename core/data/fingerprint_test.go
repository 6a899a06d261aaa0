package data

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func randomSet(n, d int, seed uint64) *Dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, n*d)
	for i := range x {
		x[i] = r.Float64()
	}
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(3)
	}
	return &Dataset{Name: "a", X: mat.NewDense(n, d, x), Y: y, Classes: []string{"x", "y", "z"}, Shape: []int{d}}
}

// TestFingerprint: equal content gives an equal fingerprint whatever the name and the
// block layout (n above one block); one changed value, label, class name, shape or the
// order of the sets changes it.
func TestFingerprint(t *testing.T) {
	n := fingerprintBlock + 17 // two blocks, the last one short
	a, b := randomSet(n, 5, 1), randomSet(30, 5, 2)
	base := Fingerprint(a, b)
	c := a.Subset(firstRows(n))
	c.Name = "elsewhere"
	if Fingerprint(c, b) != base {
		t.Fatal("a copy under another name has another fingerprint")
	}
	if len(base) != 64 {
		t.Fatalf("fingerprint %q is not 64 hex digits", base)
	}
	change := map[string]func(d *Dataset){
		"a value in the last block": func(d *Dataset) { d.X.Set(n-1, 4, d.X.At(n-1, 4)+1e-12) },
		"a value in the first row":  func(d *Dataset) { d.X.Set(0, 0, -d.X.At(0, 0)) },
		"a label":                   func(d *Dataset) { d.Y[7] = (d.Y[7] + 1) % 3 },
		"a class name":              func(d *Dataset) { d.Classes[1] = "w" },
		"the shape":                 func(d *Dataset) { d.Shape = []int{5, 1} },
		"the units":                 func(d *Dataset) { d.Units = make([]int, n) },
	}
	for what, f := range change {
		d := a.Subset(firstRows(n))
		d.Classes = append([]string(nil), a.Classes...)
		f(d)
		if Fingerprint(d, b) == base {
			t.Errorf("changing %s left the fingerprint as it was", what)
		}
	}
	if Fingerprint(b, a) == base {
		t.Error("swapping pool and test left the fingerprint as it was")
	}
	if Fingerprint(a, nil) == Fingerprint(a) {
		t.Error("a nil test set is not told from no test set")
	}
}

// TestFileDigest: the SHA-256 of a file's bytes (the empty file's is the known
// e3b0c442…); a directory is refused.
func TestFileDigest(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "empty")
	os.WriteFile(p, nil, 0o644)
	if n, sum, err := FileDigest(p); err != nil || n != 0 || sum != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Fatalf("empty file: %d %s %v", n, sum, err)
	}
	if _, _, err := FileDigest(dir); err == nil {
		t.Fatal("a directory was fingerprinted")
	}
}

// BenchmarkFingerprint hashes a full-MNIST-sized pool (60,000 × 784 float64), the cost
// a run pays once to bind its journal to its data.
func BenchmarkFingerprint(b *testing.B) {
	ds := randomSet(60000, 784, 3)
	b.SetBytes(int64(60000 * 784 * 8))
	b.ResetTimer()
	for b.Loop() {
		Fingerprint(ds)
	}
}

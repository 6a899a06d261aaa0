package data

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeEMNIST writes EMNIST-format gzip IDX files of split into dir/emnist-letters/:
// the images stored transposed, as EMNIST stores them.
func writeEMNIST(t *testing.T, dir, split string, upright [][]byte, labels []uint8) {
	t.Helper()
	const n = 28
	img := &Images{N: len(upright), Rows: n, Cols: n}
	for _, u := range upright {
		st := make([]byte, n*n)
		for r := range n {
			for c := range n {
				st[c*n+r] = u[r*n+c]
			}
		}
		img.Pix = append(img.Pix, st...)
	}
	var ib, lb bytes.Buffer
	if err := WriteIDXImages(&ib, img); err != nil {
		t.Fatal(err)
	}
	if err := WriteIDXLabels(&lb, labels); err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, EMNISTLettersName)
	os.MkdirAll(d, 0o755)
	os.WriteFile(filepath.Join(d, "emnist-letters-"+split+"-images-idx3-ubyte.gz"), gz(ib.Bytes()), 0o644)
	os.WriteFile(filepath.Join(d, "emnist-letters-"+split+"-labels-idx1-ubyte.gz"), gz(lb.Bytes()), 0o644)
}

// letterL is an upright "L": ink down column 3 and along row 24.
func letterL() []byte {
	u := make([]byte, 28*28)
	for r := 3; r <= 24; r++ {
		u[r*28+3] = 255
	}
	for c := 3; c <= 20; c++ {
		u[24*28+c] = 255
	}
	return u
}

// TestEMNISTLettersTransposedUpright writes an upright "L" the way EMNIST stores it
// (transposed) and checks it reads back upright, with labels 1..26 as a..z.
func TestEMNISTLettersTransposedUpright(t *testing.T) {
	dir := t.TempDir()
	writeEMNIST(t, dir, "train", [][]byte{letterL(), letterL()}, []uint8{1, 26})
	writeEMNIST(t, dir, "test", [][]byte{letterL()}, []uint8{12})
	pool, test, ok, err := LoadNamed(context.Background(), LoadRequest{Name: EMNISTLettersName, Dir: dir})
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	want := letterL()
	for i, v := range want {
		if got := pool.X.At(0, i); got != float64(v)/255 {
			t.Fatalf("pixel (%d, %d) = %g, want %g: the letter is not upright", i/28, i%28, got, float64(v)/255)
		}
	}
	// Row 24 (the foot of the L) is inked from column 3 to 20; stored, it was column 24.
	if pool.X.At(0, 24*28+10) != 1 || pool.X.At(0, 10*28+24) != 0 {
		t.Error("the foot of the L is not on row 24")
	}
	if pool.Classes[pool.Y[0]] != "a" || pool.Classes[pool.Y[1]] != "z" || test.Classes[test.Y[0]] != "l" || len(pool.Classes) != 26 {
		t.Errorf("labels %s %s %s of %d classes, want a z l of 26", pool.Classes[pool.Y[0]], pool.Classes[pool.Y[1]], test.Classes[test.Y[0]], len(pool.Classes))
	}
	if pool.Shape[0] != 28 || pool.Shape[1] != 28 {
		t.Errorf("shape %v", pool.Shape)
	}
	av := Locations{Dir: dir}.Available()
	if len(av) != 2 || av[0].Name != EMNISTLettersName || av[0].N != 2 || av[1].N != 1 {
		t.Errorf("Available = %+v", av)
	}
	// Label 0 (or 27) is not a letter.
	writeEMNIST(t, dir, "test", [][]byte{letterL()}, []uint8{0})
	if _, err := OpenEMNISTLetters(context.Background(), dir, "test"); err == nil || !strings.Contains(err.Error(), "outside 1..26") {
		t.Errorf("label 0: %v", err)
	}
	if _, err := OpenEMNISTLetters(context.Background(), t.TempDir(), "train"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "gitui data fetch emnist-letters") {
		t.Errorf("missing files: %v", err)
	}
}

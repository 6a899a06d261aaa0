package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestLoadsAllocateTheirArraysOnce checks that a load holds no more
// than its final arrays: LoadLIBSVM of a gzipped file of 20,000 lines of 50 features
// (8 MB as float64) and LoadIDX of 20,000 images of 28×28 (125 MB as float64) each
// allocate in all at most 1.25 times their final arrays plus 2 MiB of buffers (no
// slice doubling, no sparse copy, no pixel buffer grown by copying).
func TestLoadsAllocateTheirArraysOnce(t *testing.T) {
	dir := t.TempDir()
	var svm bytes.Buffer
	const n, d = 20000, 50
	for i := range n {
		fmt.Fprintf(&svm, "%d", i%3)
		for j := 1; j <= d; j++ {
			fmt.Fprintf(&svm, " %d:%d", j, (i+j)%7+1)
		}
		svm.WriteByte('\n')
	}
	svmPath := writeFile(t, dir, "a.svm.gz", gz(svm.Bytes()))
	var ds *Dataset
	var err error
	a := allocated(func() { ds, err = LoadLIBSVM(svmPath) })
	if err != nil || ds.Len() != n || ds.Dim() != d || ds.X.At(n-1, d-1) != float64((n-1+d)%7+1) {
		t.Fatalf("LIBSVM: err %v", err)
	}
	final := uint64(n * (d + 1) * 8)
	if a > final*5/4+2<<20 {
		t.Errorf("LIBSVM: allocated %d bytes for final arrays of %d", a, final)
	}

	const m = 20000
	img := append(idxHeader(m, 28, 28), bytes.Repeat([]byte{0, 255, 7, 9}, m*196)...)
	lab := append([]byte{0, 0, 8, 1, 0, 0, m >> 8, m & 0xff}, bytes.Repeat([]byte{3}, m)...)
	ip := writeFile(t, dir, "t-images-idx3-ubyte.gz", gz(img))
	writeFile(t, dir, "t-labels-idx1-ubyte.gz", gz(lab))
	a = allocated(func() { ds, err = LoadFile(ip) })
	if err != nil || ds.Len() != m || ds.X.At(m-1, 1) != 1 {
		t.Fatalf("IDX: err %v", err)
	}
	final = uint64(m * (784 + 1) * 8)
	if a > final*5/4+2<<20 {
		t.Errorf("IDX: allocated %d bytes for final arrays of %d", a, final)
	}
}

// TestCountPassRefusesEarly checks that a gzipped CSV and LIBSVM file past the values
// limit are refused by the first pass, having allocated next to nothing, with the
// errors the parse gives (the limit is lowered to 10,000 values for the test).
func TestCountPassRefusesEarly(t *testing.T) {
	defer func(v uint64) { MaxValues = v }(MaxValues)
	MaxValues = 10000
	dir := t.TempDir()
	csv := writeFile(t, dir, "rows.csv.gz", gz(bytes.Repeat([]byte("0,0,0,0,1\n"), 1_000_000)))
	svm := writeFile(t, dir, "rows.svm.gz", gz(bytes.Repeat([]byte("1 1:1 4:1\n"), 1_000_000)))
	for _, c := range []struct{ path, want string }{{csv, "more than the limit of 10000 values"}, {svm, "dense matrix above the limit of 10000 values"}} {
		var err error
		if a := allocated(func() { _, err = LoadFile(c.path) }); a > 1<<20 {
			t.Errorf("%s: allocated %d bytes", c.path, a)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), MaxValuesEnv) {
			t.Errorf("%s: err = %v, want %q", c.path, err, c.want)
		}
	}
}

// TestSizeOfFile checks that SizeOfFile gives each format's size before the load (the
// rows and dimension of the loaded set; text files: their non-blank lines, here a
// CSV without a header) and that CheckFileMemory refuses, naming the size and the
// limit, a set whose three copies pass GITUI_MEMORY_LIMIT, and passes it under a larger
// limit.
func TestSizeOfFile(t *testing.T) {
	dir := t.TempDir()
	var csv bytes.Buffer
	for i := range 30000 {
		fmt.Fprintf(&csv, "%d,1,2,%d\n", i%5, i%2)
	}
	paths := []string{
		writeFile(t, dir, "a.csv", csv.Bytes()),
		writeFile(t, dir, "a.svm", []byte("1 3:1\n\n# note\n2 1:1 7:2\n")),
		writeFile(t, dir, "b_x.npy", rawNPY("<f8", false, "(2, 3, 2)", make([]byte, 96))),
		writeFile(t, dir, "m-images-idx3-ubyte", append(idxHeader(2, 4, 5), make([]byte, 40)...)),
	}
	writeFile(t, dir, "b_y.npy", rawNPY("<f8", false, "(2,)", make([]byte, 16)))
	writeFile(t, dir, "m-labels-idx1-ubyte", []byte{0, 0, 8, 1, 0, 0, 0, 2, 1, 2})
	for _, p := range paths {
		s, err := SizeOfFile(context.Background(), p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		ds, err := LoadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if s.Rows != ds.Len() || s.Dim != ds.Dim() {
			t.Errorf("%s: SizeOfFile %d×%d, loaded %d×%d", p, s.Rows, s.Dim, ds.Len(), ds.Dim())
		}
	}
	t.Setenv(MemoryEnv, "2MiB") // 30000 × 4 × 8 = 960 KB a copy, three copies 2.9 MB
	one, err := CheckFileMemory(context.Background(), 3, paths[0])
	if err == nil || !strings.Contains(err.Error(), "a.csv: 30000×3") || !strings.Contains(err.Error(), "2.00 MiB available ("+MemoryEnv+")") {
		t.Fatalf("err = %v, want a refusal naming the size and the limit", err)
	}
	if one != 30000*4*8 {
		t.Errorf("one copy = %d bytes, want %d", one, 30000*4*8)
	}
	t.Setenv(MemoryEnv, "4MiB")
	if _, err := CheckFileMemory(context.Background(), 3, paths[0], ""); err != nil {
		t.Errorf("under 4MiB: %v", err)
	}
}

// TestValueCapFromMemory checks that the value cap follows the memory available: under
// GITUI_MEMORY_LIMIT=8MiB (room for 917,504 float64 values beside an eighth of
// overhead) an IDX header of 2000 images of 28×28 (1,568,000 values, well under
// MaxValues) is refused from its header, naming the memory and its source.
func TestValueCapFromMemory(t *testing.T) {
	t.Setenv(MemoryEnv, "8MiB")
	_, err := ReadIDXImages(bytes.NewReader(idxHeader(2000, 28, 28)))
	if err == nil || !strings.Contains(err.Error(), "the 917504 values (7.00 MiB as float64) that fit in the 8.00 MiB of memory available ("+MemoryEnv+")") {
		t.Fatalf("err = %v, want the memory cap", err)
	}
}

// TestCheckVaries checks that a set whose samples are all the same is refused, naming
// the count and the features, and that one differing value anywhere (the last row's
// last feature) passes.
func TestCheckVaries(t *testing.T) {
	x := make([]float64, 40)
	ds := &Dataset{Name: "z", X: mat.NewDense(10, 4, x), Y: make([]int, 10), Classes: []string{"a"}, Shape: []int{4}}
	if err := ds.CheckVaries(); err == nil || !strings.Contains(err.Error(), "all 10 samples are the same (each of the 4 features is constant)") {
		t.Fatalf("err = %v", err)
	}
	x[39] = 1
	if err := ds.CheckVaries(); err != nil {
		t.Fatal(err)
	}
}

// TestSizeOfAbsurdHeader checks that an IDX header claiming 2^32-1 images of
// (2^32-1)×(2^32-1) pixels gives a saturated size, not a wrapped (small or negative)
// one, so CheckFileMemory refuses it.
func TestSizeOfAbsurdHeader(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "z-images-idx3-ubyte", idxHeader(1<<32-1, 1<<32-1, 1<<32-1))
	s, err := SizeOfFile(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Bytes() <= 0 || s.Bytes() < 1<<62 {
		t.Fatalf("Bytes() = %d, want a saturated size", s.Bytes())
	}
	if _, err := CheckFileMemory(context.Background(), 3, p); err == nil || !strings.Contains(err.Error(), "more than the") {
		t.Fatalf("err = %v, want a refusal", err)
	}
}

// TestBadMemoryLimitRefused checks the one rule of AvailableMemory: a malformed
// GITUI_MEMORY_LIMIT is an *InputError naming the variable and the units, for the
// readers and the memory guard as for the run (it was quietly ignored here).
func TestBadMemoryLimitRefused(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.csv", []byte("1,2,a\n3,4,b\n"))
	p := filepath.Join(dir, "a.csv")
	t.Setenv(MemoryEnv, "plenty")
	_, err := LoadFile(p)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), MemoryEnv+": ") || !strings.Contains(err.Error(), "KiB, MiB, GiB, TiB") {
		t.Errorf("LoadFile under %s=plenty: err = %v, want an *InputError naming %s and the units", MemoryEnv, err, MemoryEnv)
	}
	if _, err := CheckFileMemory(context.Background(), 3, p); !errors.As(err, &ie) {
		t.Errorf("CheckFileMemory under %s=plenty: err = %v, want an *InputError", MemoryEnv, err)
	}
}

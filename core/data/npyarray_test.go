package data

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// checkArray runs the single-array readers on b: an error is one line and comes without
// an array; an array has as many values as its shape says, and the integer reader
// accepts only what the float reader accepts.
func checkArray(t *testing.T, b []byte) {
	t.Helper()
	ia, ierr := ReadIntNPY(bytes.NewReader(b))
	fa, ferr := ReadFloatNPY(bytes.NewReader(b))
	for _, err := range []error{ierr, ferr} {
		if err != nil && strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("multi-line error %q", err)
		}
	}
	if (ierr == nil) != (ia != nil) || (ferr == nil) != (fa != nil) {
		t.Fatalf("array and error disagree: %v / %v", ierr, ferr)
	}
	count := func(shape []int) int {
		n := 1
		for _, s := range shape {
			n *= s
		}
		return n
	}
	if ia != nil {
		if ferr != nil {
			t.Fatalf("integer reader accepts what the float reader refuses: %v", ferr)
		}
		if count(ia.Shape) != len(ia.Data) {
			t.Fatalf("shape %v with %d values", ia.Shape, len(ia.Data))
		}
		for i, v := range ia.Data {
			if float64(v) != fa.Data[i] && (v < 1<<53 && v > -(1<<53)) {
				t.Fatalf("value %d: int %d, float %g", i, v, fa.Data[i])
			}
		}
	}
	if fa != nil && count(fa.Shape) != len(fa.Data) {
		t.Fatalf("shape %v with %d values", fa.Shape, len(fa.Data))
	}
}

func TestReadIntNPY(t *testing.T) {
	le := binary.LittleEndian
	enc := func(v any) []byte {
		var b bytes.Buffer
		binary.Write(&b, le, v)
		return b.Bytes()
	}
	a, err := ReadIntNPY(bytes.NewReader(rawNPY("<i8", false, "(2, 3)", enc([]int64{0, 1, 2, 2, 0, 1}))))
	if err != nil || !slices.Equal(a.Shape, []int{2, 3}) || !slices.Equal(a.Data, []int{0, 1, 2, 2, 0, 1}) {
		t.Fatalf("int64 rows: %v %+v", err, a)
	}
	// Fortran order is transposed to C order.
	a, err = ReadIntNPY(bytes.NewReader(rawNPY("<u1", true, "(2, 3)", []byte{0, 2, 1, 0, 2, 1})))
	if err != nil || !slices.Equal(a.Data, []int{0, 1, 2, 2, 0, 1}) {
		t.Fatalf("Fortran uint8: %v %+v", err, a)
	}
	for _, tc := range []struct {
		b    []byte
		want string
	}{
		{rawNPY("<f8", false, "(1, 2)", enc([]float64{0, 1})), "holds float values, not integers: save it with .astype(numpy.int64)"},
		{rawNPY("|b1", false, "(2,)", []byte{0, 1}), "holds bool values"},
		{[]byte("not npy"), "not a .npy file"},
	} {
		if _, err := ReadIntNPY(bytes.NewReader(tc.b)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("err = %v, want %q", err, tc.want)
		}
	}
	f, err := ReadFloatNPY(bytes.NewReader(rawNPY("<f4", false, "(1, 2, 2)", enc([]float32{1, 0, 0, 1}))))
	if err != nil || !slices.Equal(f.Shape, []int{1, 2, 2}) || !slices.Equal(f.Data, []float64{1, 0, 0, 1}) {
		t.Fatalf("float32 matrices: %v %+v", err, f)
	}
	dir := t.TempDir()
	if _, err := LoadIntNPY(filepath.Join(dir, "missing.npy")); err == nil || !strings.Contains(err.Error(), "missing.npy") {
		t.Errorf("missing file: %v", err)
	}
	p := filepath.Join(dir, "g.npy")
	os.WriteFile(p, rawNPY("<i4", false, "(1, 2)", enc([]int32{1, 0})), 0o644)
	if a, err := LoadIntNPY(p); err != nil || !slices.Equal(a.Data, []int{1, 0}) {
		t.Errorf("LoadIntNPY: %v %+v", err, a)
	}
	if a, err := LoadFloatNPY(p); err != nil || !slices.Equal(a.Data, []float64{1, 0}) {
		t.Errorf("LoadFloatNPY: %v %+v", err, a)
	}
}

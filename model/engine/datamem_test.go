package engine

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"gitui/model"
)

// TestFileMemoryEstimate checks the bound of a run on a data file against the count by
// hand: a 500×20 .npy file (labels beside it), its automatic test fifth (100 rows) and a
// pool of 400, kernel RLS on 300 of them (one cell: a 300×300 Gram matrix and its two
// factors, and the 100×300 test kernel). The load holds the file three times (loaded,
// split, normalized), the normalized copy being the kept rows the run then works on, so
// the bound is gitui itself, the cell and three copies of the file, with no fourth copy
// of the kept rows counted as "the data" on top.
func TestFileMemoryEstimate(t *testing.T) {
	t.Setenv(MemoryEnv, "64GiB")
	dir := t.TempDir()
	const rows, dim = 500, 20
	x := make([]float64, rows*dim)
	y := make([]float64, rows)
	for i := range rows {
		y[i] = float64(i % 2)
		for j := range dim {
			x[i*dim+j] = float64((i*7+j*3)%11) + 0.5*y[i]
		}
	}
	writeNPYFile(t, filepath.Join(dir, "set_x.npy"), "(500, 20)", x)
	writeNPYFile(t, filepath.Join(dir, "set_y.npy"), "(500,)", y)
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: filepath.Join(dir, "set_x.npy")},
		Methods: []model.Method{{Name: "linear RLS", Kernel: "linear", Learner: "rls"}}, Sizes: []int{300}}
	s.Defaults()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	est, ok, err := fileMemoryEstimate(context.Background(), s)
	if err != nil || !ok {
		t.Fatalf("fileMemoryEstimate: ok %v, err %v", ok, err)
	}
	const n, nt = 300.0, 100.0
	file := rows * (dim + 1) * 8.0 // values and labels as float64 (data.FileSize.Bytes)
	cell := 8 * (3*n*n + nt*n)     // estimateKernel's cell
	want := RuntimeBaseBytes + cell + 3*file
	if math.Abs(est.Bytes-want) > 0.5 {
		t.Fatalf("bound %.0f B, want %.0f B (gitui %d + cell %.0f + 3 copies of the file %.0f); items %+v", est.Bytes, want, RuntimeBaseBytes, cell, file, est.Items)
	}
	if err := checkFileMemory(context.Background(), s); err != nil {
		t.Fatalf("checkFileMemory under 64 GiB: %v", err)
	}
}

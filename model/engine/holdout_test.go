package engine

import (
	"fmt"
	"gitui/model"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoldoutOnSingleFile checks data.holdout on a single file: 100 rows with
// holdout 10 give a test set of 10 held-out rows and a pool of the other 90 (no
// automatic fifth set aside and lost first), as test_size 10 does; the holdout and the
// pool are disjoint and together the whole file; and holdout with test_size on a single
// file is refused by Validate, naming both.
func TestHoldoutOnSingleFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.csv")
	writeClusterCSV(t, path, []string{"a", "b"}, 50, rand.New(rand.NewPCG(3, 4)))
	norm := false
	for _, d := range []model.DataSpec{
		{Name: "file", Path: path, Holdout: 10, Normalize: &norm},
		{Name: "file", Path: path, TestSize: 10, Normalize: &norm},
	} {
		pool, test, err := LoadData(d, "", 1)
		if err != nil {
			t.Fatal(err)
		}
		if pool.Len() != 90 || test.Len() != 10 {
			t.Errorf("holdout %d, test_size %d: pool %d, test %d; want 90 and 10", d.Holdout, d.TestSize, pool.Len(), test.Len())
		}
		seen := map[string]bool{}
		for _, ds := range [...]struct {
			x interface{ RawRowView(int) []float64 }
			n int
		}{{pool.X, pool.Len()}, {test.X, test.Len()}} {
			for i := range ds.n {
				r := fmt.Sprint(ds.x.RawRowView(i))
				if seen[r] {
					t.Fatalf("row %s is in both the pool and the test set", r)
				}
				seen[r] = true
			}
		}
	}
	s := &model.Spec{Name: "h", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: path, Holdout: 10, TestSize: 10},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{20}}
	err := resolve(s)
	if err == nil || !strings.Contains(err.Error(), "data.test_size") || !strings.Contains(err.Error(), "data.holdout 10 with data.name file") {
		t.Fatalf("Validate: %v, want test_size with a holdout on a file refused", err)
	}
}

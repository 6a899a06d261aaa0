package engine

import (
	"context"
	"gitui/model"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// LoadPool gives the pool LoadDataContext gives, from a data directory that holds no
// test files at all (so it cannot have read one). Needs GITUI_DATA (real MNIST).
func TestLoadPoolReadsNoTestFile(t *testing.T) {
	real := os.Getenv("GITUI_DATA")
	if real == "" {
		t.Skip("set GITUI_DATA to the folder holding mnist/")
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mnist"), 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(real, "mnist"))
	if err != nil {
		t.Skip(err)
	}
	for _, e := range entries {
		if name := e.Name(); !strings.HasPrefix(name, "t10k") {
			if err := os.Symlink(filepath.Join(real, "mnist", name), filepath.Join(dir, "mnist", name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	d := model.DataSpec{Name: "mnist", Pool: 600, Classes: []int{3, 5, 8}}
	if _, _, err := LoadDataContext(context.Background(), d, dir, 1, nil); err == nil {
		t.Fatal("LoadDataContext found a test set in a directory without one")
	}
	pool, err := LoadPool(context.Background(), d, dir, 1)
	if err != nil {
		t.Fatalf("LoadPool without test files: %v", err)
	}
	want, _, err := LoadDataContext(context.Background(), d, real, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Len() != want.Len() || !mat.Equal(pool.X, want.X) || len(pool.Classes) != 3 {
		t.Fatalf("LoadPool: %d rows, %d classes; LoadDataContext: %d rows, or different rows", pool.Len(), len(pool.Classes), want.Len())
	}
	for i := range pool.Y {
		if pool.Y[i] != want.Y[i] {
			t.Fatalf("label %d: %d, want %d", i, pool.Y[i], want.Y[i])
		}
	}
}

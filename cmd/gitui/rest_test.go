package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeWideCSV writes rows samples of d coordinates and two classes into dir/name.
func writeWideCSV(t *testing.T, dir, name string, rows, d int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < rows; i++ {
		for k := 0; k < d; k++ {
			fmt.Fprintf(&b, "%.3f,", rng.Float64())
		}
		fmt.Fprintf(&b, "%d\n", i%2)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A group.size of 1e9 over S_100 on a small data file is refused naming the group
// tables (1e9 permutations of 100 coordinates) as the largest part, not the data file,
// which the file's memory check put first.
func TestGroupSizeRefusalNamesGroupTables(t *testing.T) {
	dir := t.TempDir()
	csv := writeWideCSV(t, dir, "d.csv", 60, 100)
	swap, cycle := make([]int, 100), make([]int, 100)
	for i := range swap {
		swap[i], cycle[i] = i, (i+1)%100
	}
	swap[0], swap[1] = 1, 0
	spec, _ := json.Marshal(map[string]any{
		"name": "big-group", "protocol": "sample-complexity",
		"data":    map[string]any{"name": "file", "path": csv, "test_size": 20},
		"group":   map[string]any{"kind": "generated", "generators": [][]int{swap, cycle}, "size": 1000000000},
		"methods": []any{map[string]any{"features": "cdf", "bins": 3, "templates": 3}},
		"sizes":   []int{20},
	})
	path := writeSpec(t, dir, "big", string(spec))
	t.Setenv("GITUI_MEMORY_LIMIT", "1GiB")
	out := filepath.Join(dir, "out")
	code, _, stderr := gitui(t, "run", path, "--out", out)
	msg := strings.TrimSpace(stderr)
	if code != exitUsage || strings.Contains(msg, "\n") ||
		!strings.Contains(msg, "the largest part is group tables: 1e+09 permutations of 100 coordinates") ||
		!strings.Contains(msg, "use a smaller group.size") {
		t.Fatalf("exit %d, %q; want 2 and one line naming the group tables as the largest part", code, msg)
	}
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
	"gitui/model/store"
)

// TestDegenerateFitSaid checks that a degenerate fit is said: a Haar kernel whose gamma makes
// the Gram numerically diagonal (1e308: every distinct orbit at kernel 0) or constant
// (1e-320: every entry 1) is said in the run log (stderr) and in result.json's notes
// table, while the preset's own gamma gives no note.
func TestDegenerateFitSaid(t *testing.T) {
	spec := filepath.Join(t.TempDir(), "haar.json")
	os.WriteFile(spec, []byte(`{"name": "haar", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "xperm", "test_size": 200}, "group": {"kind": "permutation"},
  "methods": [{"kernel": "haar", "base": "rbf", "gamma": 2.5}], "sizes": [20, 60], "repeats": 2}`), 0o644)
	for _, c := range []struct{ gamma, want string }{
		{"1e308", "degenerate: the kernel is numerically diagonal at gamma 1e+308"},
		{"1e-320", "degenerate: the kernel is numerically constant at gamma 1e-320"},
		{"2.5", ""},
	} {
		out := t.TempDir()
		code, _, stderr := gitui(t, "run", spec, "--out", out, "--set", "methods.0.gamma="+c.gamma)
		if code != 0 {
			t.Fatalf("gamma %s: exit %d: %s", c.gamma, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "result.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r model.Result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		var notes *model.Table
		for i := range r.Tables {
			if r.Tables[i].Name == store.NotesTableName {
				notes = &r.Tables[i]
			}
		}
		if c.want == "" {
			if notes != nil || strings.Contains(stderr, "degenerate") {
				t.Errorf("gamma %s: a note on a sound kernel: %+v %s", c.gamma, notes, stderr)
			}
			continue
		}
		if !strings.Contains(stderr, c.want) {
			t.Errorf("gamma %s: the run log does not say %q:\n%s", c.gamma, c.want, stderr)
		}
		if notes == nil || len(notes.Rows) != 2 {
			t.Fatalf("gamma %s: notes table %+v, want one row per size", c.gamma, notes)
		}
		for _, row := range notes.Rows {
			if row[len(row)-1] != c.want || row[2] != float64(2) || row[3] != float64(2) {
				t.Errorf("gamma %s: row %v, want 2 of 2 draws with %q", c.gamma, row, c.want)
			}
		}
	}
}

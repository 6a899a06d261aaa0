package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// noControlBytes fails when out holds a byte a terminal acts on other than a newline:
// C0 controls, DEL, the C1 range, or a bidirectional override.
func noControlBytes(t *testing.T, where, out string) {
	t.Helper()
	for i, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			lo, hi := max(0, i-30), min(len(out), i+30)
			t.Fatalf("%s writes %U: %q", where, r, out[lo:hi])
		}
	}
}

// TestFileStringsEscapedOnTheCLI: the strings a file brings (a result.json's preset,
// spec name, series names and error; a CSV's class labels and file name) reach stdout
// and stderr with their control characters as visible escapes, through `gitui export
// --csv -` and `--table md|latex|csv`, `gitui run`'s tables, for the spec named by a file name with an escape in it.
func TestFileStringsEscapedOnTheCLI(t *testing.T) {
	evil := "\x1b]0;PWNED\x07\x1b[2J\u202e\u009b"
	dir := t.TempDir()
	spec, _ := json.Marshal(map[string]any{"name": evil, "methods": []any{map[string]any{"features": "raw"}}})
	r := &model.Result{Schema: model.ResultSchema, Preset: evil, Spec: spec, Seed: 1, Partial: true, Error: evil,
		Series: []model.Series{{Name: evil, XLabel: evil, YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: 0.7, Std: 0.01, Runs: 3}}}}}
	res := filepath.Join(dir, "result.json")
	if err := r.WriteFile(res); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := gitui(t, "export", res, "--csv", "-")
	if code != 0 {
		t.Fatalf("export exit %d: %s", code, stderr)
	}
	noControlBytes(t, "export --csv - (stdout)", stdout)
	noControlBytes(t, "export --csv - (stderr)", stderr)
	if !strings.Contains(stdout, `\x1b]0;PWNED`) {
		t.Errorf("export does not show the escaped name:\n%s", stdout)
	}
	// The tables: the escape's backslash is itself escaped for Markdown and LaTeX.
	for format, shown := range map[string]string{"md": `\\x1b]0;PWNED`, "latex": `\textbackslash{}x1b]0;PWNED`, "csv": `\x1b]0;PWNED`} {
		code, stdout, stderr := gitui(t, "export", res, "--table", format)
		if code != 0 {
			t.Fatalf("export --table %s: exit %d: %s", format, code, stderr)
		}
		noControlBytes(t, "export --table "+format+" (stdout)", stdout)
		noControlBytes(t, "export --table "+format+" (stderr)", stderr)
		if !strings.Contains(stdout, shown) {
			t.Errorf("export --table %s does not show the escaped name as %s:\n%s", format, shown, stdout)
		}
	}

	csv := filepath.Join(dir, "evil\x1b[2J.csv")
	var rows strings.Builder
	for i := range 40 {
		label := evil
		if i%2 == 1 {
			label = "plain"
		}
		fmt.Fprintf(&rows, "%d,%d,%s\n", i%7, (i*i)%11, label)
	}
	if err := os.WriteFile(csv, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	sp, _ := json.Marshal(map[string]any{"name": "labels", "data": map[string]any{"name": "file", "path": csv, "test_size": 10},
		"protocol": "sample-complexity", "sizes": []int{20}, "repeats": 1, "methods": []any{map[string]any{"features": "raw", "learner": "1nn"}}})
	specPath := filepath.Join(dir, "s.json")
	os.WriteFile(specPath, sp, 0o644)
	code, stdout, stderr = gitui(t, "run", specPath, "--out", filepath.Join(dir, "run"))
	if code != 0 {
		t.Fatalf("run exit %d: %s", code, stderr)
	}
	noControlBytes(t, "run (stdout)", stdout)
	noControlBytes(t, "run (stderr)", stderr)
}

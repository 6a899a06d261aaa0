package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// writeResult writes a result of two series at three sizes whose spec has the given λ
// on its one method, and returns its path.
func writeResult(t *testing.T, dir string, lambda float64) string {
	t.Helper()
	spec, _ := json.Marshal(map[string]any{"name": "xperm-curve", "methods": []any{map[string]any{"features": "raw", "lambda": lambda}}})
	r := &model.Result{Schema: model.ResultSchema, Preset: "xperm-curve", Spec: spec, Seed: 1}
	for _, name := range []string{"raw RLS", "CDF(25,25) RLS"} {
		s := model.Series{Name: name, XLabel: "training set size", YLabel: "accuracy"}
		for i, x := range []float64{20, 100, 500} {
			s.Points = append(s.Points, model.Point{X: x, Mean: 0.7 + 0.1*float64(i) - lambda, Std: 0.01, Runs: 3})
		}
		r.Series = append(r.Series, s)
	}
	path := filepath.Join(dir, fmt.Sprintf("r-%g.json", lambda))
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExportSeveral checks `gitui export A B --png --svg --pdf --csv -`: exit 0, each
// image in its format, the CSV of both runs (labelled by the λ that tells them apart)
// on stdout alone, the "wrote" lines on stderr; and that a flag whose file has another
// extension, an image to "-", or an unreadable result exits 2 and writes nothing.
func TestExportSeveral(t *testing.T) {
	dir := t.TempDir()
	a, b := writeResult(t, dir, 0.001), writeResult(t, dir, 0.1)
	png, svg, pdf := filepath.Join(dir, "f.png"), filepath.Join(dir, "f.svg"), filepath.Join(dir, "f.pdf")
	code, stdout, stderr := gitui(t, "export", a, b, "--png", png, "--svg", svg, "--pdf", pdf, "--csv", "-")
	if code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for path, magic := range map[string]string{png: "\x89PNG", svg: "<?xml", pdf: "%PDF-"} {
		if b, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s: %v, starts %q, want %q", path, err, firstBytes(b), magic)
		}
		if !strings.Contains(stderr, "wrote "+path) {
			t.Errorf("stderr %q does not say it wrote %s", stderr, path)
		}
	}
	svgText, _ := os.ReadFile(svg)
	for _, want := range []string{"raw RLS · lambda=0.001", "CDF(25,25) RLS · lambda=0.1"} {
		if !bytes.Contains(svgText, []byte(want)) {
			t.Errorf("SVG legend lacks %q", want)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatalf("stdout is not CSV: %v: %q", err, stdout)
	}
	if len(rows) != 1+2*2*3 || rows[0][0] != "result" || rows[1][0] != "lambda=0.001" || rows[len(rows)-1][0] != "lambda=0.1" {
		t.Errorf("CSV of %d rows, first %v, last %v", len(rows), rows[0], rows[len(rows)-1])
	}
	out := filepath.Join(dir, "bad")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{a, "--png", out + ".svg"}, "--png " + out + ".svg: the file name must end in .png (or use --svg"},
		{[]string{a, "--pdf", out + ".png"}, "must end in .pdf"},
		{[]string{a, "--svg", out}, "must end in .svg"},
		{[]string{a, "--png", "-"}, "images go to a file"},
		{[]string{a, filepath.Join(dir, "missing.json"), "--png", out + ".png"}, "missing.json"},
		{[]string{"--png", out + ".png"}, "usage: gitui export RESULT.json..."},
	} {
		code, _, stderr := gitui(t, append([]string{"export"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("export %v: exit %d, stderr %q; want 2 and one line with %q", c.args, code, stderr, c.want)
		}
	}
	if m, _ := filepath.Glob(out + "*"); len(m) != 0 {
		t.Errorf("refused exports wrote %v", m)
	}
}

func firstBytes(b []byte) []byte { return b[:min(len(b), 8)] }

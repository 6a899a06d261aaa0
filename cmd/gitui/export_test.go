package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
		{[]string{"--png", out + ".png"}, "usage: gitui export RESULT.json|RUN_DIR|STUDY_DIR..."},
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

// mdRows returns the rows of the first Markdown pipe table in s (header first, the
// alignment row left out), each split on its unescaped pipes.
func mdRows(s string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(l, "| :---") {
			continue
		}
		var cells []string
		for _, c := range regexp.MustCompile(`[^\\]\|`).Split(" "+strings.TrimSpace(l)[1:], -1) {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells[:len(cells)-1])
	}
	return rows
}

// TestExportTableOfARun checks `gitui export RESULT.json|RUN_DIR --table md|latex|csv`:
// exit 0; Markdown on stdout with its caption, a header per x and a row per series, the
// series of the highest mean bold in each column (CDF(25,25) RLS: writeResult gives it
// the same means as raw RLS, so both are); --out FILE writes the LaTeX table there and
// says so, the run directory gives the same table as its result.json; two runs give
// two tables captioned by what tells them apart; CSV parses with a row per series.
func TestExportTableOfARun(t *testing.T) {
	dir := t.TempDir()
	res := writeResult(t, dir, 0.001)
	run := filepath.Join(dir, "run")
	os.MkdirAll(run, 0o755)
	b, _ := os.ReadFile(res)
	os.WriteFile(filepath.Join(run, "result.json"), b, 0o644)
	code, stdout, stderr := gitui(t, "export", res, "--table", "md")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.HasPrefix(stdout, "xperm-curve: test accuracy (%) by training set size, mean ± 1 std over 3 draws; the best per column in bold\n") {
		t.Errorf("caption: %q", stdout)
	}
	rows := mdRows(stdout)
	if len(rows) != 3 || strings.Join(rows[0], "|") != "accuracy (training set size)|20|100|500" {
		t.Fatalf("rows %q", rows)
	}
	for _, r := range rows[1:] {
		for _, c := range r[1:] {
			if !strings.HasPrefix(c, "**") {
				t.Errorf("row %q: equal means, every cell should be bold", r)
			}
		}
	}
	code, byRun, stderr := gitui(t, "export", run, "--table", "md")
	if code != exitOK || byRun != stdout {
		t.Fatalf("export RUN_DIR: exit %d, %s, output differs from its result.json's:\n%s", code, stderr, byRun)
	}
	tex := filepath.Join(dir, "t.tex")
	code, stdout, _ = gitui(t, "export", run, "--table", "latex", "--out", tex)
	got, err := os.ReadFile(tex)
	if code != exitOK || err != nil || stdout != "wrote "+tex+"\n" {
		t.Fatalf("exit %d, stdout %q, %v", code, stdout, err)
	}
	for _, want := range []string{`\begin{tabular}{lrrr}`, `\toprule`, `raw RLS & \textbf{69.90 $\pm$ 1.00}`, `\bottomrule`} {
		if !bytes.Contains(got, []byte(want)) {
			t.Errorf("the LaTeX table lacks %q:\n%s", want, got)
		}
	}
	code, stdout, _ = gitui(t, "export", res, writeResult(t, dir, 0.1), "--table", "md")
	if code != exitOK || strings.Count(stdout, "| accuracy (training set size) |") != 2 ||
		!strings.HasPrefix(stdout, "lambda=0.001: test accuracy") || !strings.Contains(stdout, "\n\nlambda=0.1: test accuracy") {
		t.Errorf("two runs: exit %d, want two tables captioned by their lambda:\n%s", code, stdout)
	}
	code, stdout, _ = gitui(t, "export", res, "--table", "csv", "--out", "-")
	recs, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if code != exitOK || err != nil || len(recs) != 3 || recs[1][0] != "raw RLS" || recs[1][4] != "20; 100; 500" {
		t.Errorf("csv: exit %d, %v, %q", code, err, recs)
	}
}

// TestExportTableOfAStudy runs a small study (9 trials on Gaussian blobs) and exports
// it by its directory and by its study.json: the same Markdown, a row per trial of
// study.json, the best trial (study.json's) bold and no other, its refit's test
// accuracy in the caption; the study directory also draws its refit's curve (--png).
func TestExportTableOfAStudy(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 9)
	sdir := filepath.Join(dir, "s")
	if code, _, stderr := gitui(t, "tune", spec, "--out", sdir); code != exitOK {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	f := readStudyFile(t, sdir)
	code, byDir, stderr := gitui(t, "export", sdir, "--table", "md")
	if code != exitOK {
		t.Fatalf("export STUDY_DIR: exit %d: %s", code, stderr)
	}
	code, byFile, stderr := gitui(t, "export", filepath.Join(sdir, "study.json"), "--table", "md")
	if code != exitOK || byFile != byDir {
		t.Fatalf("export study.json: exit %d (%s), output differs from the directory's:\n%s\n%s", code, stderr, byFile, byDir)
	}
	name, label := fmt.Sprintf("trial %d", f.Best.Trial), fmt.Sprint(f.Best.Trial)
	if f.Best.Baseline {
		name, label = "the baseline", "baseline"
	}
	wantCap := fmt.Sprintf("refit of %s at n %d: test accuracy %.4f", name, f.Best.N, *f.Best.Test)
	if !strings.HasPrefix(byDir, "blobs study: 9 trials") || !strings.Contains(strings.SplitN(byDir, "\n", 2)[0], wantCap) {
		t.Errorf("caption %q lacks %q", strings.SplitN(byDir, "\n", 2)[0], wantCap)
	}
	rows := mdRows(byDir)
	withBase := 0
	if f.Baseline != nil {
		withBase = 1 // the baseline's row
	}
	if len(rows) != 1+len(f.Trials)+withBase || rows[0][0] != "trial" || rows[0][1] != "methods.0.gamma" || rows[0][len(rows[0])-1] != "seconds" {
		t.Fatalf("%d rows for %d trials, header %q", len(rows), len(f.Trials), rows[0])
	}
	bold := 0
	for _, r := range rows[1:] {
		if strings.HasPrefix(r[0], "**") {
			bold++
			if r[0] != "**"+label+"**" || !strings.Contains(strings.Join(r, "|"), fmt.Sprintf("**%.4f**", f.Best.Validation)) {
				t.Errorf("bold row %q, want trial %d with %.4f", r, f.Best.Trial, f.Best.Validation)
			}
		}
	}
	if bold != 1 {
		t.Errorf("%d bold trials, want 1:\n%s", bold, byDir)
	}
	png := filepath.Join(dir, "s.png")
	if code, _, stderr := gitui(t, "export", sdir, "--png", png); code != exitOK {
		t.Errorf("export STUDY_DIR --png: exit %d: %s", code, stderr)
	}
}

// TestExportTableBadInput: an unknown --table, a directory that is neither a run nor a
// study, --out without --table, two outputs on stdout, and a study.json outside a study
// directory each exit 2 with one line naming the problem, and write nothing.
func TestExportTableBadInput(t *testing.T) {
	dir := t.TempDir()
	res := writeResult(t, dir, 0.001)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	lone := filepath.Join(dir, "lone")
	os.MkdirAll(lone, 0o755)
	os.WriteFile(filepath.Join(lone, "study.json"), []byte(`{"schema":"gitui.study/v1"}`), 0o644)
	out := filepath.Join(dir, "out.md")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{res, "--table", "html", "--out", out}, `--table "html" is not a table format: use md, latex, csv`},
		{[]string{empty, "--table", "md", "--out", out}, "is neither a run directory (no result.json) nor a study directory (no trials.jsonl)"},
		{[]string{res, "--out", out}, "--out names the file of --table: add --table md|latex|csv"},
		{[]string{res, "--table", "md", "--csv", "-"}, "both write to standard output"},
		{[]string{filepath.Join(lone, "study.json"), "--table", "md", "--out", out}, "holds no trials.jsonl"},
		{[]string{filepath.Join(dir, "none"), "--table", "md", "--out", out}, "pass a result.json, a run directory or a study directory"},
	} {
		code, stdout, stderr := gitui(t, append([]string{"export"}, c.args...)...)
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("export %v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, stdout, stderr, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused export wrote %s", out)
	}
}

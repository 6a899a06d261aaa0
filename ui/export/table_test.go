package export

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gitui/model"
	"gitui/model/study"
)

// randomResult returns a result of k series over the sizes xs with seeded random
// accuracies (3 runs each); series 1 lacks the last size, and series 2 ties series 0
// at the first size when tie is true.
func randomResult(seed uint64, k int, xs []float64, tie bool) *model.Result {
	rng := rand.New(rand.NewPCG(seed, 7))
	r := &model.Result{Schema: model.ResultSchema, Preset: "p", Seed: seed}
	for i := range k {
		s := model.Series{Name: fmt.Sprintf("method %d", i), XLabel: "training set size", YLabel: "accuracy"}
		for j, x := range xs {
			if i == 1 && j == len(xs)-1 {
				continue
			}
			s.Points = append(s.Points, model.Point{X: x, Mean: 0.5 + 0.5*rng.Float64(), Std: 0.05 * rng.Float64(), Runs: 3})
		}
		r.Series = append(r.Series, s)
	}
	if tie && k > 2 {
		r.Series[2].Points[0].Mean = r.Series[0].Points[0].Mean
	}
	return r
}

// mdCells splits a Markdown table row on its unescaped pipes.
func mdCells(line string) []string {
	var cells []string
	var cur strings.Builder
	esc := false
	for _, r := range strings.TrimSpace(line) {
		switch {
		case esc:
			cur.WriteRune('\\')
			cur.WriteRune(r)
			esc = false
		case r == '\\':
			esc = true
		case r == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return cells[1:] // the text before the first pipe
}

// TestMarkdownRunTable checks, over seeded random results of 2 to 6 series at 1 to 5
// sizes: one caption line, one header cell per x (in order) after the label column,
// one row per series with as many cells as the header, a missing point as "–", and in
// every column the bold cells are exactly those showing the highest mean: the series
// with the maximum mean is bold, and any other bold cell shows the same number.
func TestMarkdownRunTable(t *testing.T) {
	for seed := uint64(1); seed <= 40; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		k, nx := 2+rng.IntN(5), 1+rng.IntN(5)
		var xs []float64
		for j := range nx {
			xs = append(xs, float64(10*(j+1)))
		}
		r := randomResult(seed, k, xs, seed%2 == 0)
		var b bytes.Buffer
		if err := WriteTables(&b, FormatMarkdown, ResultTables(r, "")...); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if !strings.HasPrefix(lines[0], "p: test accuracy (%) by training set size, mean ± 1 std over 3 draws") || lines[1] != "" {
			t.Fatalf("seed %d: caption %q", seed, lines[:2])
		}
		head := mdCells(lines[2])
		if len(head) != nx+1 {
			t.Fatalf("seed %d: header %q, want %d x columns", seed, head, nx)
		}
		for j, x := range xs {
			if head[j+1] != strconv.FormatFloat(x, 'f', -1, 64) {
				t.Errorf("seed %d: header column %d is %q, want %v", seed, j+1, head[j+1], x)
			}
		}
		rows := lines[4:]
		if len(rows) != k {
			t.Fatalf("seed %d: %d rows for %d series:\n%s", seed, len(rows), k, b.String())
		}
		cells := make([][]string, k)
		for i, l := range rows {
			cells[i] = mdCells(l)
			if len(cells[i]) != nx+1 || cells[i][0] != fmt.Sprintf("method %d", i) {
				t.Fatalf("seed %d: row %q", seed, l)
			}
		}
		if nx > 1 && cells[1][nx] != "–" && cells[1][nx] != "**–**" {
			t.Errorf("seed %d: the missing point shows %q", seed, cells[1][nx])
		}
		for j, x := range xs {
			at, hi := -1, math.Inf(-1)
			for i, s := range r.Series {
				for _, p := range s.Points {
					if p.X == x && p.Mean > hi {
						at, hi = i, p.Mean
					}
				}
			}
			want := fmt.Sprintf("%.2f", 100*hi)
			if c := cells[at][j+1]; !strings.HasPrefix(c, "**"+want+" ± ") || !strings.HasSuffix(c, "**") {
				t.Errorf("seed %d, x %v: the maximum mean (series %d) shows %q, want it bold", seed, x, at, c)
			}
			for i := range k {
				c := cells[i][j+1]
				if bold := strings.HasPrefix(c, "**"); bold != strings.HasPrefix(strings.Trim(c, "*"), want+" ") {
					t.Errorf("seed %d, x %v: series %d shows %q (bold %v) while the best shows %s", seed, x, i, c, bold, want)
				}
			}
		}
	}
}

// TestLaTeXEscapesLabels checks the LaTeX table: a label holding every special
// character comes out as its escape, one pass (the reference strings are LaTeX's own
// commands: \_ \% \& \# \$ \{ \} \textasciitilde{} \textasciicircum{}
// \textbackslash{}); ± is $\pm$ in labels and cells; the best cell is \textbf; the
// tabular has one column spec per header cell and every row as many cells; booktabs
// rules frame it; the caption escapes the % of "(%)".
func TestLaTeXEscapesLabels(t *testing.T) {
	r := randomResult(3, 2, []float64{20, 100}, false)
	r.Series[0].Name = `a_b%& #$ {x} ~^\ (±1)`
	r.Series[1].Points[0].Mean = 1 // the best at x 20
	var b bytes.Buffer
	if err := WriteTables(&b, FormatLaTeX, ResultTables(r, "")...); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	want := `a\_b\%\& \#\$ \{x\} \textasciitilde{}\textasciicircum{}\textbackslash{} ($\pm$1) & `
	if !strings.Contains(out, "\n"+want) {
		t.Errorf("the label row does not start %q:\n%s", want, out)
	}
	if !strings.Contains(out, `\textbf{100.00 $\pm$ `) {
		t.Errorf("the best cell is not \\textbf{100.00 $\\pm$ ...}:\n%s", out)
	}
	if !strings.Contains(out, `\caption{p: test accuracy (\%) by training set size, mean $\pm$ 1 std over 3 draws; the best per column in bold}`) {
		t.Errorf("caption:\n%s", out)
	}
	for _, rule := range []string{`\begin{tabular}{lrr}`, `\toprule`, `\midrule`, `\bottomrule`, `\end{tabular}`} {
		if strings.Count(out, rule) != 1 {
			t.Errorf("%s appears %d times:\n%s", rule, strings.Count(out, rule), out)
		}
	}
	body := out[strings.Index(out, `\toprule`)+len(`\toprule`)+1 : strings.Index(out, `\bottomrule`)]
	for _, l := range strings.Split(strings.TrimSpace(body), "\n") {
		if l == `\midrule` {
			continue
		}
		if !strings.HasSuffix(l, ` \\`) || strings.Count(strings.ReplaceAll(l, `\&`, ""), "&") != 2 {
			t.Errorf("row %q: want 3 cells ending in \\\\", l)
		}
	}
	// Outside the escapes, no special character is left bare in the label row.
	at := strings.Index(out, "\n"+`a\_b`)
	if at < 0 {
		t.Fatalf("no label row:\n%s", out)
	}
	row := out[at+1:]
	row = row[:strings.Index(row, " & ")]
	bare := regexp.MustCompile(`\\(textasciitilde|textasciicircum|textbackslash)\{\}|\\[_%&#${}]|\$\\pm\$`).ReplaceAllString(row, "")
	if strings.ContainsAny(bare, `_%&#${}~^\`) {
		t.Errorf("label row %q keeps a bare special character: %q", row, bare)
	}
}

// TestMarkdownEscapesPipes checks that a label holding | \ * _ and ` is escaped so
// that its row still has as many cells as the header, and reads back unescaped.
func TestMarkdownEscapesPipes(t *testing.T) {
	r := randomResult(4, 2, []float64{20}, false)
	r.Series[0].Name = "a|b \\ *c* _d_ `e`"
	var b bytes.Buffer
	if err := WriteTables(&b, FormatMarkdown, ResultTables(r, "")...); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	c := mdCells(lines[4])
	if len(c) != 2 {
		t.Fatalf("row %q splits into %d cells, want 2", lines[4], len(c))
	}
	unesc := regexp.MustCompile(`\\(.)`).ReplaceAllString(c[0], "$1")
	if unesc != r.Series[0].Name {
		t.Errorf("label reads back %q, want %q (row %q)", unesc, r.Series[0].Name, lines[4])
	}
}

// TestCSVTableRoundTrips checks the CSV table: encoding/csv reads it back with a row
// per series, a label holding a comma, quotes and a newline-free long name in full, the
// cells "mean ± std", and a last "best" column naming the columns each row is best in.
func TestCSVTableRoundTrips(t *testing.T) {
	r := randomResult(5, 3, []float64{20, 100}, false)
	long := `L-TI-RI-SVM, "as the paper", ` + strings.Repeat("with a long tail ", 10)
	r.Series[2].Name = long
	r.Series[2].Points[0].Mean, r.Series[2].Points[1].Mean = 1, 1
	var b bytes.Buffer
	if err := WriteTables(&b, FormatCSV, ResultTables(r, "")...); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], "|") != "accuracy (training set size)|20|100|best" {
		t.Fatalf("rows %q", rows)
	}
	if rows[3][0] != long || rows[3][1] != "100.00 ± "+fmt.Sprintf("%.2f", 100*r.Series[2].Points[0].Std) || rows[3][3] != "20; 100" {
		t.Errorf("row %q", rows[3])
	}
	if rows[2][2] != "" || rows[1][3] != "" {
		t.Errorf("a missing point or a row best nowhere is not empty: %q, %q", rows[2], rows[1])
	}
}

// TestTablesWriteNoControlBytes: a series, x label and preset holding escape sequences
// reach every format with their control characters as visible escapes.
func TestTablesWriteNoControlBytes(t *testing.T) {
	evil := "raw\x1b[2J\x1b]0;pwned\x07\u202e"
	r := randomResult(6, 2, []float64{20}, false)
	r.Preset, r.Series[0].Name, r.Series[0].XLabel, r.Series[1].XLabel = evil, evil, evil, evil
	r.Tables = []model.Table{{Name: evil, Columns: []string{evil}, Rows: [][]any{{evil}}}}
	for _, f := range append([]string{FormatText}, TableFormats...) {
		var b bytes.Buffer
		if err := WriteTables(&b, f, append(ResultTables(r, ""), NamedTables(r, "")...)...); err != nil {
			t.Fatal(err)
		}
		for _, c := range b.String() {
			if c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 && c < 0xa0 || c == 0x202e {
				t.Fatalf("%s holds %U:\n%q", f, c, b.String())
			}
		}
		bell := map[string]string{FormatText: `\x07`, FormatCSV: `\x07`, FormatMarkdown: `\\x07`, FormatLaTeX: `\textbackslash{}x07`}[f]
		if !strings.Contains(b.String(), "0;pwned"+bell) {
			t.Errorf("%s does not show the escaped name (pwned%s):\n%s", f, bell, b.String())
		}
	}
}

// TestWriteTablesUnknownFormat: an unknown format is an error naming the formats.
func TestWriteTablesUnknownFormat(t *testing.T) {
	err := WriteTables(&bytes.Buffer{}, "html", ResultTables(randomResult(1, 2, []float64{1}, false), "")...)
	if err == nil || !strings.Contains(err.Error(), `"html"`) || !strings.Contains(err.Error(), "md, latex, csv") {
		t.Errorf("error %v", err)
	}
}

// TestStudyTable checks the trials table of a finished study of 6 trials over two
// parameters, rungs 20, 60, 180: a row per trial in id order; a column per parameter,
// rung, state and seconds; the seconds of a trial sum its jobs; the best trial
// (study.BestTrial: trial 4, the only one at the last rung) has its id and its last
// rung's score marked and no other cell is; a failed trial shows its error; the caption
// gives the refit's test accuracy.
func TestStudyTable(t *testing.T) {
	sizes := []int{20, 60, 180}
	s := study.Snapshot{}
	f := &study.File{Schema: study.StudySchema, Sampler: "tpe", Pruner: "asha", Eta: 3, Rungs: sizes, Validation: 400, Pool: 2000}
	for i := range 6 {
		p := map[string]any{"methods.0.bins": float64(5 + i), "methods.0.lambda": 1e-3 * float64(i+1)}
		ti := study.TrialInfo{ID: i, Params: p, State: "pruned"}
		top := 0
		switch i {
		case 2, 4:
			top = 1
		}
		if i == 4 {
			top, ti.State = 2, "complete"
		}
		for k := 0; k <= top; k++ {
			v := 0.6 + 0.01*float64(i) + 0.1*float64(k)
			j := study.Job{Trial: i, Rung: k, N: sizes[k], Params: p, Validation: v, Seconds: 0.5 * float64(k+1)}
			if i == 5 {
				j.Validation, j.Error = 0, "not positive definite"
				ti.State, ti.Error = "failed", j.Error
			} else {
				ti.Rungs = append(ti.Rungs, study.RungInfo{N: sizes[k], Validation: v})
			}
			s.Jobs = append(s.Jobs, j)
		}
		f.Trials = append(f.Trials, ti)
	}
	test := 0.9801
	f.Best = &study.BestInfo{Refit: study.Refit{Trial: 4, Validation: 0.84, ValidationN: 180, Test: &test}, N: 1000, Compared: 6}
	s.File = f
	tab := StudyTable(s, false, "blobs study")
	wantHead := "trial|methods.0.bins|methods.0.lambda|validation @ n=20|validation @ n=60|validation @ n=180|state|seconds"
	if h := strings.Join(tab.Header, "|"); h != wantHead {
		t.Fatalf("header %q, want %q", h, wantHead)
	}
	if len(tab.Rows) != 6 {
		t.Fatalf("%d rows, want 6", len(tab.Rows))
	}
	for i, row := range tab.Rows {
		if row[0].Text != strconv.Itoa(i) {
			t.Errorf("row %d is trial %s", i, row[0].Text)
		}
		for j, c := range row {
			if best := i == 4 && (j == 0 || j == 5); c.Best != best {
				t.Errorf("trial %d, column %s: best %v, want %v", i, tab.Header[j], c.Best, best)
			}
		}
	}
	if r := tab.Rows[4]; r[5].Text != "0.8400" || r[6].Text != "complete" || r[7].Text != "3.0" {
		t.Errorf("trial 4: %+v", r)
	}
	if r := tab.Rows[5]; r[6].Text != "failed: not positive definite" || !r[3].None {
		t.Errorf("trial 5: %+v", r)
	}
	if !strings.Contains(tab.Caption, "refit of trial 4 at n 1000: test accuracy 0.9801") || !strings.Contains(tab.Caption, "on 400 validation samples") {
		t.Errorf("caption %q", tab.Caption)
	}
	var b bytes.Buffer
	if err := WriteTables(&b, FormatMarkdown, tab); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(b.String(), "**"); got != 4 {
		t.Errorf("markdown has %d bold markers, want 4 (trial 4's id and score):\n%s", got, b.String())
	}
	if !strings.Contains(b.String(), "| **4** | 9 | 0.005 | 0.6400 | 0.7400 | **0.8400** | complete | 3.0 |") {
		t.Errorf("markdown lacks trial 4's row:\n%s", b.String())
	}
}

package runs

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/ui/curves"
	"gitui/ui/theme"
)

// Row is one line of the compare view's accuracy table: a series at one x, each run's
// point there (ok false where the run has none), and for every run after the first its
// difference from the first run and whether that difference exceeds the draws' spread.
type Row struct {
	Series string
	X      float64
	Points []eval.SeriesPoint
	Has    []bool
	// Diff[k] is mean(run k) − mean(run 0) (NaN where either lacks the point); Diff[0] is 0.
	Diff []float64
	// Exceeds[k] is |Diff[k]| > sqrt(std0² + stdk²): the difference is larger than the
	// spread of a difference of two independent draws with those standard deviations.
	Exceeds []bool
}

// Rows returns the accuracy table of runs: one row per series and x found in any run
// (series in the order they first appear, x increasing), the first run being the
// reference of the differences.
func Rows(runs []Entry) []Row {
	type key struct {
		s string
		x float64
	}
	var order []string
	xs := map[string][]float64{}
	seen := map[key]bool{}
	for _, r := range runs {
		for _, s := range r.Series {
			if _, ok := xs[s.Name]; !ok {
				order = append(order, s.Name)
				xs[s.Name] = nil
			}
			for _, p := range s.Points {
				if !seen[key{s.Name, p.X}] {
					seen[key{s.Name, p.X}] = true
					xs[s.Name] = append(xs[s.Name], p.X)
				}
			}
		}
	}
	var out []Row
	for _, name := range order {
		x := append([]float64(nil), xs[name]...)
		sortFloats(x)
		for _, xv := range x {
			row := Row{Series: name, X: xv, Points: make([]eval.SeriesPoint, len(runs)), Has: make([]bool, len(runs)),
				Diff: make([]float64, len(runs)), Exceeds: make([]bool, len(runs))}
			for k, r := range runs {
				row.Points[k], row.Has[k] = point(r, name, xv)
			}
			for k := 1; k < len(runs); k++ {
				if !row.Has[0] || !row.Has[k] {
					row.Diff[k] = math.NaN()
					continue
				}
				a, b := row.Points[0], row.Points[k]
				row.Diff[k] = b.Mean - a.Mean
				row.Exceeds[k] = math.Abs(row.Diff[k]) > math.Hypot(a.Std, b.Std)
			}
			out = append(out, row)
		}
	}
	return out
}

func sortFloats(x []float64) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

func point(e Entry, series string, x float64) (eval.SeriesPoint, bool) {
	for _, s := range e.Series {
		if s.Name == series {
			for _, p := range s.Points {
				if p.X == x {
					return p, true
				}
			}
		}
	}
	return eval.SeriesPoint{}, false
}

// Letter returns the short name of the k-th compared run: A, B, …, Z, then 27, 28, ….
func Letter(k int) string {
	if k < 26 {
		return string(rune('A' + k))
	}
	return fmt.Sprint(k + 1)
}

// RunLabel is how the compare chart names run k of runs: its letter, the spec's name
// and its start time ("B xperm-tiny 01:51:10"), or the letter and folder when the time
// is unknown.
func RunLabel(k int, e Entry) string {
	if e.Time.IsZero() {
		return Letter(k) + " " + e.ID
	}
	return Letter(k) + " " + e.Name + " " + e.Time.Format("15:04:05")
}

// Compare is the compare view of two or more runs: the spec fields that differ (a
// parameter diff on the flattened specs), the accuracy at each size side by side with
// the difference from the first run and whether it exceeds the draws' spread, and the
// runs' curves overlaid in one chart (one colour and glyph per series and run, as in
// the Curves pane). When the pane is tall enough the table is above the chart; else v
// switches between them.
type Compare struct {
	st        theme.Styles
	keys      KeyMap
	runs      []Entry
	diff      []string
	ident     identityDiff
	rows      []Row
	chart     curves.Model
	w, h      int
	scroll    int
	showChart bool
}

// NewCompare returns the compare view of runs (the first is the reference).
func NewCompare(st theme.Styles, runs []Entry) *Compare {
	c := &Compare{st: st, keys: DefaultKeyMap(), runs: runs, chart: curves.New(st)}
	c.ident = diffByIdentity(runs)
	c.diff = c.ident.keys
	c.rows = Rows(runs)
	for k, r := range runs {
		c.chart.AddRun(curves.Run{Label: RunLabel(k, r), Series: r.Series})
	}
	return c
}

// Runs returns the compared runs.
func (c *Compare) Runs() []Entry { return c.runs }

// DiffKeys returns the dotted spec keys whose values differ between the runs, methods
// matched by identity (diffByIdentity): methods.I.field names method I of the first run.
func (c *Compare) DiffKeys() []string { return c.diff }

// Rows returns the accuracy table.
func (c *Compare) Rows() []Row { return c.rows }

// Chart returns the overlaid curves.
func (c *Compare) Chart() *curves.Model { return &c.chart }

// split reports whether the table and the chart are both shown (the pane is tall).
func (c *Compare) split() bool { return c.h >= 30 }

func (c *Compare) chartHeight() int {
	if c.split() {
		return max(14, c.h/2)
	}
	return c.h
}

// SetSize sets the view's size.
func (c *Compare) SetSize(w, h int) {
	c.w, c.h = w, h
	c.chart.SetSize(w, c.chartHeight())
}

// Update scrolls the table (↑/↓), switches table and chart (v) and scrolls the chart's
// legend ({ }).
func (c *Compare) Update(k tea.KeyMsg) {
	switch {
	case key.Matches(k, c.keys.Up):
		c.scroll = max(0, c.scroll-1)
	case key.Matches(k, c.keys.Down):
		c.scroll++
	case key.Matches(k, c.keys.Toggle):
		c.showChart = !c.showChart
	default:
		c.chart.Focus(true)
		c.chart, _ = c.chart.Update(k)
	}
}

// View draws the table and the chart (or one of them, see Compare).
func (c *Compare) View() string {
	if !c.split() && c.showChart {
		return c.chart.View()
	}
	th := c.h
	if c.split() {
		th = c.h - c.chartHeight()
	}
	lines := c.Lines()
	c.scroll = min(c.scroll, max(0, len(lines)-th))
	text := theme.Clip(strings.Join(lines[c.scroll:], "\n"), c.w, th)
	if !c.split() {
		return text
	}
	return theme.Pad(text, c.w, th) + "\n" + c.chart.View()
}

// Lines returns the text of the compare view: the runs, the differing spec fields and
// the accuracy table, unclipped.
func (c *Compare) Lines() []string {
	st := c.st
	hint := "↑/↓ scroll · esc back"
	if !c.split() {
		hint = "v chart · " + hint
	}
	out := []string{st.Bold.Render(fmt.Sprintf("compare %d runs", len(c.runs))) + st.Muted.Render(" (A is the reference) · "+hint)}
	for k, r := range c.runs {
		acc := "—"
		if !math.IsNaN(r.Acc) {
			acc = fmt.Sprintf("%.3f", r.Acc)
		}
		out = append(out, fmt.Sprintf(" %s  %s  %s  acc %s", st.Bold.Render(Letter(k)), r.ID, st.Muted.Render(r.Status), acc))
	}
	out = append(out, "")
	total := map[string]bool{}
	for _, r := range c.runs {
		for k := range r.Params {
			total[k] = true
		}
	}
	out = append(out, st.Bold.Render(fmt.Sprintf("parameters that differ (%d of %d)", len(c.diff), len(total))))
	for _, m := range c.ident.missing {
		out = append(out, " "+st.Warn.Render(m))
	}
	if len(c.diff) == 0 && len(c.ident.missing) == 0 {
		out = append(out, st.Muted.Render(" none: the specs are the same"))
	} else {
		kw := 3
		for _, k := range c.diff {
			kw = max(kw, min(32, len(k)))
		}
		vw := make([]int, len(c.runs))
		for i, r := range c.runs {
			vw[i] = 1
			for _, k := range c.diff {
				vw[i] = max(vw[i], min(24, ansi.StringWidth(c.value(i, r, k))))
			}
		}
		hdr := " " + cell("key", kw, false)
		for i := range c.runs {
			hdr += "  " + cell(Letter(i), vw[i], false)
		}
		out = append(out, st.Muted.Render(hdr))
		for _, k := range c.diff {
			l := " " + cell(k, kw, false)
			for i, r := range c.runs {
				l += "  " + cell(c.value(i, r, k), vw[i], false)
			}
			out = append(out, l)
		}
	}
	out = append(out, "")
	out = append(out, st.Bold.Render("accuracy")+st.Muted.Render(" mean±std over draws · Δ = run − A · * where |Δ| > √(stdA²+std_run²)"))
	sw := 6
	for _, r := range c.rows {
		sw = max(sw, min(28, len(r.Series)+3+len(fmtX(r.X))))
	}
	hdr := " " + cell("series @ x", sw, false)
	for k := range c.runs {
		hdr += "  " + cell(Letter(k), 11, false)
	}
	for k := 1; k < len(c.runs); k++ {
		hdr += "  " + cell("Δ"+Letter(k), 8, true)
	}
	out = append(out, st.Muted.Render(hdr))
	if len(c.rows) == 0 {
		out = append(out, st.Muted.Render(" no points in these runs"))
	}
	for _, r := range c.rows {
		l := " " + cell(r.Series+" @ "+fmtX(r.X), sw, false)
		for k := range c.runs {
			v := "—"
			if r.Has[k] {
				v = fmt.Sprintf("%.3f±%.3f", r.Points[k].Mean, r.Points[k].Std)
			}
			l += "  " + cell(v, 11, false)
		}
		for k := 1; k < len(c.runs); k++ {
			v := "—"
			if !math.IsNaN(r.Diff[k]) {
				v = fmt.Sprintf("%+.3f", r.Diff[k])
				if r.Exceeds[k] {
					v += "*"
				} else {
					v += " "
				}
			}
			l += "  " + cell(v, 8, true)
		}
		out = append(out, l)
	}
	return out
}

// value returns the value of key k in run e's flattened spec; for a method's lambda or
// gamma the spec left to the fit (unset or 0), what the fit chose ("LOO: 2.5e-07",
// "median: 0.031"), read from the run's result; else "(unset)".
// value is run i's value of the identity key k (its own positional key for the values
// its fits chose).
func (c *Compare) value(i int, e Entry, k string) string {
	v, ok := c.ident.params[i][k]
	if ok && v != "0" {
		return v
	}
	if c := chosenOf(e, c.ident.localKey(i, k)); c != "" {
		return c
	}
	if ok {
		return v
	}
	return "(unset)"
}

// chosenOf returns what the fits of run e chose for the method field k
// (methods.N.lambda: "LOO: x"; methods.N.gamma: "median: x"), or "".
func chosenOf(e Entry, k string) string {
	var i int
	var field string
	if n, _ := fmt.Sscanf(strings.Replace(k, ".", " ", 2), "methods %d %s", &i, &field); n != 2 || i < 0 || i >= len(e.Chosen) {
		return ""
	}
	v, ok := e.Chosen[i][field]
	if !ok {
		return ""
	}
	switch field {
	case "lambda":
		return "LOO: " + strconv.FormatFloat(v, 'g', 2, 64)
	case "gamma":
		return "median: " + strconv.FormatFloat(v, 'g', 2, 64)
	}
	return "chosen: " + strconv.FormatFloat(v, 'g', 2, 64)
}

func fmtX(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e9 {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.3g", x)
}

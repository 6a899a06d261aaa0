package curves

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/ui/export"
	"gitui/ui/theme"
)

// The table view (v): the curves' points as the CLI's table, a row per series (pinned
// runs' too, labelled "name · run") and a column per x, each cell "mean±std" in percent
// for an accuracy, the best mean of each column marked with ★ (no series glyph) and bold. It is what a
// learning curve over two x values (liu-table2's 14 series) is read by.

// better returns +1 when a higher mean is better for the y label (an accuracy), -1 when
// a lower one is (an error), and 0 when neither is known: then no cell is marked.
func better(ylabel string) int {
	l := strings.ToLower(ylabel)
	switch {
	case strings.Contains(l, "accuracy"):
		return 1
	case strings.Contains(l, "error"):
		return -1
	}
	return 0
}

// tableCell formats a point as every table of gitui does (export.PointCell): percent
// with two decimals and "±std" for an accuracy, else the mean.
func tableCell(acc bool, mean, std float64, runs int) string {
	c := export.PointCell(acc, model.Point{Mean: mean, Std: std, Runs: runs})
	if c.Std != "" {
		return c.Text + "±" + c.Std
	}
	return c.Text
}

// tableGrid is the table of the drawn series: the sorted x values, the row labels, the
// cell texts ("" where a series has no point at an x) and, per column, the row of the
// best mean (-1 none).
type tableGrid struct {
	xs     []float64
	labels []string
	cells  [][]string
	best   []int
}

// grid builds the table of es, whose y label is yl.
func grid(es []entry, yl string) tableGrid {
	set := map[float64]bool{}
	for _, e := range es {
		for _, p := range e.s.Points {
			set[p.X] = true
		}
	}
	var g tableGrid
	for x := range set {
		g.xs = append(g.xs, x)
	}
	sort.Float64s(g.xs)
	col := make(map[float64]int, len(g.xs))
	for j, x := range g.xs {
		col[x] = j
	}
	dir, acc := better(yl), strings.Contains(strings.ToLower(yl), "accuracy")
	g.best = make([]int, len(g.xs))
	bestMean := make([]float64, len(g.xs))
	for j := range g.best {
		g.best[j] = -1
	}
	for i, e := range es {
		g.labels = append(g.labels, e.label)
		row := make([]string, len(g.xs))
		for _, p := range e.s.Points {
			j := col[p.X]
			row[j] = tableCell(acc, p.Mean, p.Std, p.Runs)
			if dir != 0 && !math.IsNaN(p.Mean) && (g.best[j] < 0 || float64(dir)*(p.Mean-bestMean[j]) > 0) {
				g.best[j], bestMean[j] = i, p.Mean
			}
		}
		g.cells = append(g.cells, row)
	}
	return g
}

// tableRows is how many series rows the table shows in the pane: its height less the
// title (and note), the header and the footer line.
func (m *Model) tableRows(n int) int {
	room := m.h - 3
	if m.note != "" {
		room--
	}
	return max(1, min(n, room))
}

// scrollTable moves the table's first row by d (clamped).
func (m *Model) scrollTable(d int) {
	n := len(m.entries())
	rows := m.tableRows(n)
	m.tableTop = min(max(0, m.tableTop+d), max(0, n-rows))
	m.dirty = true
}

// drawTable renders the table view under title. Columns that do not fit the width are
// dropped from the left (the largest x, the end of a curve, stays) and a line says so;
// series labels are cut to what is left, never below 12 columns.
func (m *Model) drawTable(title string, es []entry, yl string) string {
	g := grid(es, yl)
	const gap = 2
	cw := make([]int, len(g.xs))
	for j, x := range g.xs {
		cw[j] = ansi.StringWidth(fmtX(x))
		for i := range g.cells {
			cw[j] = max(cw[j], ansi.StringWidth(g.cells[i][j])+2) // room for the mark
		}
	}
	lw := ansi.StringWidth("series \\ " + shortX(es))
	for _, l := range g.labels {
		lw = max(lw, ansi.StringWidth(l)+2) // the series glyph and a space
	}
	lw = min(lw, max(12, m.w/2))
	first, used := len(g.xs), lw
	for first > 0 && used+gap+cw[first-1] <= m.w {
		first--
		used += gap + cw[first]
	}
	if first == len(g.xs) && len(g.xs) > 0 { // not even one column beside the labels: narrower labels
		first = len(g.xs) - 1
		lw = max(4, m.w-gap-cw[first])
	}
	pad := func(s string, w int, right bool) string {
		s = ansi.Truncate(s, w, "…")
		fill := strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
		if right {
			return fill + s
		}
		return s + fill
	}
	var lines []string
	lines = append(lines, title)
	hdr := pad("series \\ "+shortX(es), lw, false)
	for j := first; j < len(g.xs); j++ {
		hdr += strings.Repeat(" ", gap) + pad(fmtX(g.xs[j]), cw[j], true)
	}
	lines = append(lines, m.st.Bold.Render(hdr))
	rows := m.tableRows(len(es))
	top := min(m.tableTop, max(0, len(es)-rows))
	for i := top; i < min(len(es), top+rows); i++ {
		st := m.st.SeriesStyle(es[i].look.Color)
		line := st.Render(string(es[i].look.Glyph())) + " " + pad(g.labels[i], lw-2, false)
		for j := first; j < len(g.xs); j++ {
			c := g.cells[i][j]
			if c == "" {
				c = "—"
			}
			cell := pad(c, cw[j]-2, true)
			if g.best[j] == i {
				cell = m.st.Bold.Render("★ " + cell)
			} else {
				cell = "  " + cell
			}
			line += strings.Repeat(" ", gap) + cell
		}
		lines = append(lines, line)
	}
	var foot []string
	if len(es) > rows {
		foot = append(foot, fmt.Sprintf("rows %d–%d of %d ({ } scroll)", top+1, min(len(es), top+rows), len(es)))
	}
	if first > 0 {
		foot = append(foot, fmt.Sprintf("%d of %d x shown (z zooms)", len(g.xs)-first, len(g.xs)))
	}
	if better(yl) != 0 {
		foot = append(foot, "★ best per column")
	}
	if len(foot) > 0 {
		lines = append(lines, m.st.Muted.Render(ansi.Truncate(strings.Join(foot, " · "), m.w, "…")))
	}
	return theme.Clip(strings.Join(lines, "\n"), m.w, m.h)
}

// shortX is the x label of the table's header: the drawn series' x label.
func shortX(es []entry) string {
	for _, e := range es {
		if e.s.XLabel != "" {
			return e.s.XLabel
		}
	}
	return "x"
}

package runs

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/internal/printable"
	"gitui/ui/theme"
)

// The HParams view (h) of the Runs pane: the table HParams builds, over the runs the
// table lists (its filter and the group opened apply), sorted by a column of its own
// (o cycles it, O reverses it; by default the accuracy at the largest x, best first),
// its rows scrolled with the cursor (↑/↓), enter opening the curves of the row's run.
// It fits any width: columns that do not fit are dropped (first the metrics of the
// smaller x, then status, took and the chosen values, then parameters from the last),
// the run, series and parameter columns cut with …, and a line says what is hidden.

// hparamsView is the state of the HParams view (kept while it is closed).
type hparamsView struct {
	on       bool
	sortKey  string // HPColumn.Key sorted by; "" the metric of the largest x
	asc      bool   // increasing (the default is decreasing: the best first)
	cur, top int
	tbl      HPTable
}

// HParamsOpen reports whether the HParams view is open.
func (m *Model) HParamsOpen() bool { return m.hp.on }

// HParamsTable returns the HParams table as the view shows it (sorted).
func (m *Model) HParamsTable() HPTable { return m.hp.tbl }

// HParamsSort returns the key of the column the HParams view sorts by and whether it
// sorts decreasing.
func (m *Model) HParamsSort() (key string, desc bool) {
	return m.hp.tbl.Columns[m.hpSortCol()].Key, !m.hp.asc
}

// hpSortCol is the index of the sort column in the current table (0 when the table
// has no column of the sort key: the run's name).
func (m *Model) hpSortCol() int {
	if c := m.hp.tbl.Column(m.hp.sortKey); c >= 0 && m.hp.sortKey != "" {
		return c
	}
	if c := m.hp.tbl.lastMetric(); c >= 0 {
		return c
	}
	return 0
}

// syncHParams rebuilds the table from the runs shown (after a re-read, the filter or
// the table's sort changed), keeping the cursor on the same row when it is still there.
func (m *Model) syncHParams() {
	if !m.hp.on {
		return
	}
	var at HPRow
	had := m.hp.cur < len(m.hp.tbl.Rows)
	if had {
		at = m.hp.tbl.Rows[m.hp.cur]
	}
	m.hp.tbl = HParams(m.Entries(), m.now())
	m.hp.tbl.Sort(m.hpSortCol(), !m.hp.asc)
	if had {
		for i, r := range m.hp.tbl.Rows {
			if r.Run.Path == at.Run.Path && r.Series == at.Series {
				m.hp.cur = i
			}
		}
	}
	m.hp.cur = min(max(0, m.hp.cur), max(0, len(m.hp.tbl.Rows)-1))
}

// openHParams opens the view over the runs shown.
func (m *Model) openHParams() {
	m.hp.on = true
	m.syncHParams()
}

// hparamsKey handles a key in the view: ↑/↓ move, o and O sort, / filters, esc
// clears the filter (then closes), h closes, enter opens the row's run in Curves.
func (m *Model) hparamsKey(k tea.KeyMsg) tea.Cmd {
	n := len(m.hp.tbl.Rows)
	switch {
	case key.Matches(k, m.keys.Up):
		m.hp.cur = max(0, m.hp.cur-1)
	case key.Matches(k, m.keys.Down):
		m.hp.cur = max(0, min(n-1, m.hp.cur+1))
	case key.Matches(k, m.keys.Sort):
		c := (m.hpSortCol() + 1) % max(1, len(m.hp.tbl.Columns))
		m.hp.sortKey = m.hp.tbl.Columns[c].Key
		m.syncHParams()
	case key.Matches(k, m.keys.Reverse):
		m.hp.asc = !m.hp.asc
		m.syncHParams()
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
	case key.Matches(k, m.keys.Back) && m.filter != "":
		m.SetFilter("")
	case key.Matches(k, m.keys.Back), key.Matches(k, m.keys.HParams):
		m.hp.on = false
	case key.Matches(k, m.keys.Open) && n > 0:
		e := m.hp.tbl.Rows[m.hp.cur].Run
		return func() tea.Msg { return OpenMsg{Entries: []Entry{e}} }
	}
	return nil
}

// hparamsHelp returns the view's keys that work now.
func (m Model) hparamsHelp() []key.Binding {
	k := m.keys
	n := len(m.hp.tbl.Rows)
	k.Up.SetEnabled(n > 1)
	k.Down.SetEnabled(n > 1)
	k.Open.SetEnabled(n > 0)
	k.Open.SetHelp("enter", "open the row's run")
	k.HParams.SetHelp("h", "back to the runs")
	if m.filter != "" {
		k.Back.SetHelp("esc", "clear the filter")
	} else {
		k.Back.SetHelp("esc", "back to the runs")
	}
	return []key.Binding{k.Up, k.Down, k.Sort, k.Reverse, k.Filter, k.Open, k.HParams, k.Back}
}

// hpGap returns the space before a column of kind k: two before a right-aligned
// column (numbers), one before the others (left-aligned text).
func hpGap(k HPKind) int {
	if rightAligned(k) {
		return 2
	}
	return 1
}

// rightAligned reports whether the cells of a column of kind k are numbers, aligned right.
func rightAligned(k HPKind) bool { return k == HPMetric || k == HPChosen || k == HPTook }

// hpWidths returns the width of each column of t in w columns (0: dropped): each
// column as wide as its header and cells (run at most 20, series 24, a parameter or
// the status 14); then, while the row is too wide: series and run are cut to 16 and
// 14; status is dropped, then the metrics of the smaller x (the smallest first), took
// and the chosen values; series, run and parameters are cut to 14, 12 and 10;
// parameters are dropped from the last; series and run are cut to 6. Run, series and
// the metric of the largest x stay.
func hpWidths(t HPTable, w int) []int {
	ws := make([]int, len(t.Columns))
	for c, col := range t.Columns {
		ws[c] = ansi.StringWidth(col.Name) + 1 // room for the sort arrow
		for _, r := range t.Rows {
			ws[c] = max(ws[c], ansi.StringWidth(r.Cells[c]))
		}
		switch col.Kind {
		case HPRun:
			ws[c] = min(ws[c], 20)
		case HPSeries:
			ws[c] = min(ws[c], 24)
		case HPParam, HPStatus:
			ws[c] = min(ws[c], 14)
		}
	}
	total := func() int {
		s := 2 // the cursor
		first := true
		for c, x := range ws {
			if x > 0 {
				if !first {
					s += hpGap(t.Columns[c].Kind)
				}
				s += x
				first = false
			}
		}
		return s
	}
	last := t.lastMetric()
	drop := func(keep func(c int, col HPColumn) bool) {
		for c := range t.Columns {
			if total() <= w {
				return
			}
			if ws[c] > 0 && !keep(c, t.Columns[c]) {
				ws[c] = 0
			}
		}
	}
	dropLast := func(kind HPKind) {
		for c := len(t.Columns) - 1; c >= 0 && total() > w; c-- {
			if t.Columns[c].Kind == kind {
				ws[c] = 0
			}
		}
	}
	cut := func(kind HPKind, to int) {
		for c, col := range t.Columns {
			if total() > w && col.Kind == kind && ws[c] > to {
				ws[c] = max(to, ws[c]-(total()-w))
			}
		}
	}
	cut(HPSeries, 16)
	cut(HPRun, 14)
	dropLast(HPStatus)
	drop(func(c int, col HPColumn) bool { return col.Kind != HPMetric || c == last })
	dropLast(HPTook)
	dropLast(HPChosen)
	cut(HPSeries, 14)
	cut(HPRun, 12)
	cut(HPParam, 10)
	dropLast(HPParam)
	cut(HPSeries, 6)
	cut(HPRun, 6)
	return ws
}

// hparamsView draws the view.
func (m *Model) hparamsView() string {
	t := m.hp.tbl
	sc := m.hpSortCol()
	dir := "▼"
	if m.hp.asc {
		dir = "▲"
	}
	what := "hparams · " + plural(len(t.Rows), "row")
	out := m.summary(what, len(m.shown))
	out[0] = m.st.Bold.Render(ansi.Truncate(ansi.Strip(out[0])+" · sort: "+t.Columns[sc].Name+" "+dir, m.w, "…"))
	if n := m.tableNote(); n != "" {
		out = append(out, n)
	}
	if len(m.shown) == 0 {
		out = append(out, "", m.st.Muted.Render("no run matches the filter (esc clears it)"))
		return m.withSyntax(out)
	}
	ws := hpWidths(t, m.w)
	// join lays out the shown columns' texts after a two-column lead (cursor).
	join := func(lead string, text func(c int) string) string {
		var b strings.Builder
		b.WriteString(lead)
		first := true
		for c, col := range t.Columns {
			if ws[c] == 0 {
				continue
			}
			if !first {
				b.WriteString(strings.Repeat(" ", hpGap(col.Kind)))
			}
			first = false
			b.WriteString(cell(text(c), ws[c], rightAligned(col.Kind)))
		}
		return strings.TrimRight(b.String(), " ")
	}
	out = append(out, m.st.Muted.Render(join("  ", func(c int) string {
		if c == sc {
			return t.Columns[c].Name + dir
		}
		return t.Columns[c].Name
	})))
	syntax := m.syntaxLines()
	foot := 2 // the row under the cursor in full, and what is hidden
	rows := max(1, m.h-len(out)-foot-len(syntax))
	if m.hp.cur < m.hp.top {
		m.hp.top = m.hp.cur
	}
	if m.hp.cur >= m.hp.top+rows {
		m.hp.top = m.hp.cur - rows + 1
	}
	m.hp.top = max(0, min(m.hp.top, len(t.Rows)-rows))
	for i := m.hp.top; i < min(len(t.Rows), m.hp.top+rows); i++ {
		r := t.Rows[i]
		lead := "  "
		if i == m.hp.cur {
			lead = "▸ "
		}
		line := join(lead, func(c int) string { return r.Cells[c] })
		if i == m.hp.cur && m.focused {
			line = m.st.Selected.Render(theme.Pad(line, m.w, 1))
		}
		out = append(out, line)
	}
	for len(out) < m.h-foot-len(syntax) {
		out = append(out, "")
	}
	if m.hp.cur < len(t.Rows) {
		r := t.Rows[m.hp.cur]
		full := printable.String(r.Run.ID) + " · " + r.Cells[1] + " · " + printable.String(r.Run.Status)
		out = append(out, m.st.Muted.Render(ansi.Truncate("▸ "+full, m.w, "…")))
	} else {
		out = append(out, "")
	}
	var notes []string
	if len(t.Rows) > rows {
		notes = append(notes, fmt.Sprintf("rows %d–%d of %d", m.hp.top+1, min(len(t.Rows), m.hp.top+rows), len(t.Rows)))
	}
	var hidden []string
	for c, col := range t.Columns {
		if ws[c] == 0 {
			hidden = append(hidden, col.Name)
		}
	}
	if len(hidden) > 0 {
		notes = append(notes, fmt.Sprintf("%s not shown (too narrow): %s", plural(len(hidden), "column"), strings.Join(hidden, " ")))
	}
	if len(notes) == 0 {
		notes = append(notes, "accuracy in % (mean±std over the draws) · chosen: the fits' own, median over the draws")
	}
	out = append(out, m.st.Muted.Render(ansi.Truncate(strings.Join(notes, " · "), m.w, "…")))
	return m.withSyntax(out)
}

// withSyntax appends the filter's grammar while it is typed and clips to the pane.
func (m *Model) withSyntax(lines []string) string {
	if syntax := m.syntaxLines(); len(syntax) > 0 {
		lines = append(lines[:min(len(lines), max(1, m.h-len(syntax)))], syntax...)
	}
	return theme.Clip(strings.Join(lines, "\n"), m.w, m.h)
}

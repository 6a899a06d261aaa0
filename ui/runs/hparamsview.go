package runs

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/internal/printable"
	"gitui/ui/theme"
)

// The HParams view (h) of the Runs pane: the table HParams builds, over the runs the
// table lists (its filter and the group opened apply), sorted by a column of its own
// (o cycles it, O reverses it; by default final, the mean at each series' largest x,
// highest first), its rows scrolled with the cursor (↑/↓), enter opening the curves of
// the row's run. It fits any width (hpLayoutFor): run and series stay on the left,
// final, took, the chosen values and status on the right, and between them the
// settings that differ and the mean at each x, scrolled with ←/→ when they do not all
// fit; a line says what is not shown.

// hparamsView is the state of the HParams view (kept while it is closed).
type hparamsView struct {
	on       bool
	sortKey  string // HPColumn.Key sorted by; "" final
	asc      bool   // increasing (the default is decreasing: the best first)
	cur, top int
	left     int // the first setting shown (index among the parameter columns)
	tbl      HPTable
}

// HParamsOpen reports whether the HParams view is open.
func (m *Model) HParamsOpen() bool { return m.hp.on }

// HParamsTable returns the HParams table as the view shows it (sorted).
func (m *Model) HParamsTable() HPTable { return m.hp.tbl }

// HParamsSort returns the key of the column the HParams view sorts by and whether it
// sorts decreasing.
func (m *Model) HParamsSort() (key string, desc bool) {
	if len(m.hp.tbl.Columns) == 0 { // never opened
		return "", !m.hp.asc
	}
	return m.hp.tbl.Columns[m.hpSortCol()].Key, !m.hp.asc
}

// hpSortCol is the index of the sort column in the current table (0 when the table
// has no column of the sort key: the run's name).
func (m *Model) hpSortCol() int {
	if c := m.hp.tbl.Column(m.hp.sortKey); c >= 0 && m.hp.sortKey != "" {
		return c
	}
	if c := m.hp.tbl.final(); c >= 0 {
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
	case key.Matches(k, hpKeys.Left):
		m.hp.left = max(0, m.hp.left-1)
	case key.Matches(k, hpKeys.Right):
		m.hp.left = max(0, min(len(m.hp.tbl.scrollable())-1, m.hp.left+1))
	case key.Matches(k, m.keys.Up):
		m.hp.cur = max(0, m.hp.cur-1)
	case key.Matches(k, m.keys.Down):
		m.hp.cur = max(0, min(n-1, m.hp.cur+1))
	case key.Matches(k, m.keys.Sort) && len(m.hp.tbl.Columns) > 0:
		c := (m.hpSortCol() + 1) % len(m.hp.tbl.Columns)
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
	x := hpKeys
	x.Left.SetEnabled(len(m.hp.tbl.scrollable()) > 1)
	x.Right.SetEnabled(len(m.hp.tbl.scrollable()) > 1)
	return []key.Binding{k.Up, k.Down, x.Left, k.Sort, k.Reverse, k.Filter, k.Open, k.HParams, k.Back}
}

// hpKeys are the keys of the HParams view beside the table's.
var hpKeys = struct{ Left, Right key.Binding }{
	Left:  key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "scroll columns")),
	Right: key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "scroll columns")),
}

// scrollable returns the columns of t that scroll with ←/→, in order: the settings,
// then the mean at each x.
func (t *HPTable) scrollable() []int {
	var out []int
	for c, col := range t.Columns {
		if col.Kind == HPParam || col.Kind == HPMetric && col.Key != "final" {
			out = append(out, c)
		}
	}
	return out
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

// hpLayout is where the view draws the columns of a table in its width: the width of
// each column (0: not shown) and the scrolled columns shown (HPTable.scrollable),
// first..last-1 of n.
type hpLayout struct {
	ws             []int
	first, last, n int
}

// hpLayoutFor lays t out in w columns with the scrolled columns (the settings, then
// the mean at each x: HPTable.scrollable) shown from the left-th on:
//
//   - run and series on the left, cut to 14 and 16 below 100 columns, 20 and 24 from
//     there, and to at most 45% of w together (6 each at least);
//   - final, took, the chosen values and status, in that priority, while they fit in
//     what the scrolled columns leave them (those keep up to 45% of the room when
//     they need it);
//   - the scrolled columns from the left-th, a setting at most 14 wide, while they
//     fit (the first always, cut to the room).
func hpLayoutFor(t *HPTable, w, left int) hpLayout {
	l := hpLayout{ws: make([]int, len(t.Columns))}
	nat := slices.Clone(t.natural())
	params := t.scrollable()
	var others []int
	for c, col := range t.Columns {
		switch {
		case col.Kind == HPParam:
			nat[c] = min(nat[c], 14)
		case col.Kind == HPStatus:
			nat[c] = min(nat[c], 11)
			others = append(others, c)
		case col.Key == "final", col.Kind == HPChosen, col.Kind == HPTook:
			others = append(others, c)
		}
	}
	l.n = len(params)
	rank := func(c int) int {
		switch col := t.Columns[c]; {
		case col.Key == "final":
			return 0
		case col.Kind == HPTook:
			return 1
		case col.Kind == HPChosen:
			return 2
		}
		return 3 // status
	}
	slices.SortStableFunc(others, func(a, b int) int { return rank(a) - rank(b) })
	room := w - 2 // the cursor
	runMax, seriesMax := 14, 16
	if w >= 100 {
		runMax, seriesMax = 20, 24
	}
	for c, col := range t.Columns {
		switch col.Kind {
		case HPRun:
			l.ws[c] = min(nat[c], runMax)
		case HPSeries:
			l.ws[c] = min(nat[c], seriesMax)
		}
	}
	frozen := func() int {
		n := 0
		for c, col := range t.Columns {
			if col.Kind == HPRun || col.Kind == HPSeries {
				n += l.ws[c]
			}
		}
		return n
	}
	for frozen() > w*45/100 {
		cut := false
		for c, col := range t.Columns {
			if (col.Kind == HPRun || col.Kind == HPSeries) && l.ws[c] > 6 && frozen() > w*45/100 {
				l.ws[c]--
				cut = true
			}
		}
		if !cut {
			break
		}
	}
	room -= frozen() + 1 // the gap after run
	need := func(c int) int { return nat[c] + hpGap(t.Columns[c].Kind) }
	parNeed := 0
	for _, c := range params {
		parNeed += need(c)
	}
	budget := room - min(parNeed, room*45/100)
	used := 0
	place := func(budget int) {
		for i, c := range others {
			if l.ws[c] == 0 && (used+need(c) <= budget || i == 0 && used == 0) {
				l.ws[c] = nat[c]
				used += need(c)
			}
		}
	}
	place(budget)
	l.first = min(max(0, left), max(0, len(params)-1))
	l.last = l.first
	for _, c := range params[l.first:] {
		if used+need(c) > room {
			if l.last == l.first && room-used > hpGap(t.Columns[c].Kind)+1 { // the first always, cut
				l.ws[c] = room - used - hpGap(t.Columns[c].Kind)
				used = room
				l.last++
			}
			break
		}
		l.ws[c] = nat[c]
		used += need(c)
		l.last++
	}
	return l
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
	m.hp.left = min(m.hp.left, max(0, len(t.scrollable())-1))
	lay := hpLayoutFor(&m.hp.tbl, m.w, m.hp.left)
	ws := lay.ws
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
		if r.Final != "" {
			full += " · final at " + r.Final
		}
		out = append(out, m.st.Muted.Render(ansi.Truncate("▸ "+full, m.w, "…")))
	} else {
		out = append(out, "")
	}
	var notes []string
	if len(t.Rows) > rows {
		notes = append(notes, fmt.Sprintf("rows %d–%d of %d", m.hp.top+1, min(len(t.Rows), m.hp.top+rows), len(t.Rows)))
	}
	if lay.first > 0 || lay.last < lay.n {
		notes = append(notes, fmt.Sprintf("columns %d–%d of %d scroll with ←/→", lay.first+1, lay.last, lay.n))
	}
	var hidden []string
	for c, col := range t.Columns {
		if ws[c] == 0 && col.Kind != HPParam && (col.Kind != HPMetric || col.Key == "final") {
			hidden = append(hidden, col.Name)
		}
	}
	if len(hidden) > 0 {
		notes = append(notes, fmt.Sprintf("not shown (too narrow): %s", strings.Join(hidden, " ")))
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

package runs

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/ui/theme"
)

// viewMode is what the Runs pane draws besides the compare view.
type viewMode int

const (
	modeTable      viewMode = iota // one row per run
	modeGroups                     // one row per value of the field grouped on
	modeImportance                 // η² of each varying field, as bars
)

// explore is the Runs pane's state for grouping and parameter importance (kept apart
// from the table's so that other views of the pane merge without touching it).
type explore struct {
	mode    viewMode
	back    viewMode // the mode i returns to
	groupBy string   // flattened spec key grouped on ("" none)
	drill   *string  // the group opened with enter: the table lists its runs
	groups  []Group  // of the filtered runs, sorted
	xs      []float64
	gcur    int
	gtop    int
	gsort   int
	gdesc   bool
	note    string // one line: why g did nothing
	kind    string // the series kind the groups and importance measure ("" the best)
}

// exploreKeyMap holds the keys of grouping and importance.
type exploreKeyMap struct {
	Group, Ungroup, Importance, Kind key.Binding
}

func defaultExploreKeys() exploreKeyMap {
	return exploreKeyMap{
		Group:      key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "group by field")),
		Ungroup:    key.NewBinding(key.WithKeys("G"), key.WithHelp("G", "ungroup")),
		Importance: key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "importance")),
		Kind:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "next series")),
	}
}

var exploreKeys = defaultExploreKeys()

// GroupedBy returns the spec key the pane groups on ("" when not grouped).
func (m *Model) GroupedBy() string { return m.x.groupBy }

// Groups returns the grouped rows in the order shown (nil when not grouped).
func (m *Model) Groups() []Group {
	if m.x.groupBy == "" {
		return nil
	}
	return m.x.groups
}

// GroupCursor returns the index of the grouped row under the cursor.
func (m *Model) GroupCursor() int { return m.x.gcur }

// ShowingImportance reports whether the importance view is open.
func (m *Model) ShowingImportance() bool { return m.x.mode == modeImportance }

// Nested reports whether esc has a view to leave: the groups, a group's runs or the
// importance view.
func (m *Model) Nested() bool { return m.x.mode != modeTable || m.x.drill != nil || m.x.groupBy != "" }

// inGroup reports whether e is in the group opened with enter (true when none is).
func (m *Model) inGroup(e Entry) bool {
	return m.x.groupBy == "" || m.x.drill == nil || FieldValue(e, m.x.groupBy) == *m.x.drill
}

// filtered returns the runs that pass the filter, ignoring the group opened.
func (m *Model) filtered() []Entry {
	flt, err := ParseFilter(m.filter, Keys(m.all))
	if err != nil {
		return nil
	}
	var out []Entry
	for _, e := range m.all {
		if flt.Match(e) {
			out = append(out, e)
		}
	}
	return out
}

// regroup recomputes the grouped rows from the filtered runs.
func (m *Model) regroup() {
	if m.x.groupBy == "" {
		m.x.groups, m.x.xs = nil, nil
		return
	}
	es := m.filtered()
	m.x.xs = CommonXs(es)
	m.x.groups = GroupBy(es, m.x.groupBy, m.x.kind, m.x.xs)
	SortGroups(m.x.groups, m.x.gsort, m.x.gdesc)
	m.x.gcur = min(max(0, m.x.gcur), max(0, len(m.x.groups)-1))
}

// nextGroupField groups on the field after the current one among those that vary
// over the filtered runs; it says so when none varies.
func (m *Model) nextGroupField() {
	fs := Varying(m.filtered())
	if len(fs) == 0 {
		m.x.note = "no spec field differs among the runs shown: nothing to group on"
		return
	}
	next := fs[0]
	for i, f := range fs {
		if f == m.x.groupBy && i+1 < len(fs) {
			next = fs[i+1]
		}
	}
	m.x.groupBy, m.x.drill, m.x.mode, m.x.gcur, m.x.gtop = next, nil, modeGroups, 0, 0
	m.refresh()
}

// nextKind measures the groups and the importance on the next series kind of the
// filtered runs (Kinds), after the best of all ("").
func (m *Model) nextKind() {
	ks := append([]string{""}, Kinds(m.filtered())...)
	next := ""
	for i, k := range ks {
		if k == m.x.kind && i+1 < len(ks) {
			next = ks[i+1]
		}
	}
	m.x.kind = next
	m.regroup()
}

// Kind returns the series kind the groups and the importance view measure ("" for
// the best series of each run, the headline).
func (m *Model) Kind() string { return m.x.kind }

// kindName says what accuracy the groups and importance measure.
func (m *Model) kindName() string {
	if m.x.kind == "" {
		return "best series"
	}
	return m.x.kind
}

// ungroup leaves the grouped view (and the group opened).
func (m *Model) ungroup() {
	m.x.groupBy, m.x.drill, m.x.groups = "", nil, nil
	if m.x.mode == modeGroups {
		m.x.mode = modeTable
	}
	m.refresh()
}

// exploreKey handles the keys of grouping and importance; handled is false for the
// keys it leaves to the table.
func (m *Model) exploreKey(k tea.KeyMsg) (handled bool, cmd tea.Cmd) {
	m.x.note = ""
	switch m.x.mode {
	case modeImportance:
		switch {
		case key.Matches(k, m.keys.Back) && m.filter != "":
			m.SetFilter("")
		case key.Matches(k, exploreKeys.Importance), key.Matches(k, m.keys.Back):
			m.x.mode = m.x.back
		case key.Matches(k, m.keys.Filter):
			m.filtering = true
		case key.Matches(k, exploreKeys.Kind):
			m.nextKind()
		}
		return true, nil
	case modeGroups:
		switch {
		case key.Matches(k, m.keys.Up):
			m.x.gcur = max(0, m.x.gcur-1)
		case key.Matches(k, m.keys.Down):
			m.x.gcur = max(0, min(len(m.x.groups)-1, m.x.gcur+1))
		case key.Matches(k, exploreKeys.Group):
			m.nextGroupField()
		case key.Matches(k, exploreKeys.Ungroup), key.Matches(k, m.keys.Back) && m.filter == "":
			m.ungroup()
		case key.Matches(k, exploreKeys.Importance):
			m.x.back, m.x.mode = modeGroups, modeImportance
		case key.Matches(k, exploreKeys.Kind):
			m.nextKind()
		case key.Matches(k, m.keys.Open) && len(m.x.groups) > 0:
			v := m.x.groups[m.x.gcur].Value
			m.x.drill, m.x.mode = &v, modeTable
			m.cur, m.top = 0, 0
			m.refresh()
		case key.Matches(k, m.keys.Sort):
			m.x.gsort = (m.x.gsort + 1) % (GroupColAtX + len(m.x.xs))
			m.regroup()
		case key.Matches(k, m.keys.Reverse):
			m.x.gdesc = !m.x.gdesc
			m.regroup()
		case key.Matches(k, m.keys.Filter), key.Matches(k, m.keys.Back):
			return false, nil // / and esc (clear the filter) as in the table
		}
		return true, nil // marks and compare act on runs: not on the groups
	}
	switch {
	case key.Matches(k, exploreKeys.Group):
		m.nextGroupField()
	case key.Matches(k, exploreKeys.Ungroup) && m.x.groupBy != "":
		m.ungroup()
	case key.Matches(k, exploreKeys.Importance):
		m.x.back, m.x.mode = modeTable, modeImportance
	case key.Matches(k, m.keys.Back) && m.x.drill != nil && m.filter == "":
		m.x.drill, m.x.mode = nil, modeGroups
		m.refresh()
	default:
		return false, nil
	}
	return true, nil
}

// exploreHelp returns the keys of grouping and importance that work now, and
// whether they replace the table's.
func (m Model) exploreHelp() ([]key.Binding, bool) {
	k, x := m.keys, exploreKeys
	switch m.x.mode {
	case modeImportance:
		x.Importance.SetHelp("i/esc", "back")
		return []key.Binding{k.Filter, x.Kind, x.Importance}, true
	case modeGroups:
		k.Open.SetHelp("enter", "runs of the group")
		x.Group.SetHelp("g", "next field")
		return []key.Binding{k.Up, k.Down, k.Open, x.Group, x.Ungroup, x.Kind, k.Sort, k.Reverse, x.Importance, k.Filter}, true
	}
	x.Ungroup.SetEnabled(m.x.groupBy != "")
	x.Group.SetEnabled(len(m.shown) >= 2 || m.x.drill != nil)
	x.Importance.SetEnabled(len(m.shown) > 0)
	return []key.Binding{x.Group, x.Ungroup, x.Importance}, false
}

// exploreView draws the groups or the importance view; ok is false in the table.
func (m *Model) exploreView() (string, bool) {
	var lines []string
	switch m.x.mode {
	case modeGroups:
		lines = m.groupLines()
	case modeImportance:
		lines = m.importanceLines()
	default:
		return "", false
	}
	if syntax := m.syntaxLines(); len(syntax) > 0 {
		lines = append(lines[:min(len(lines), max(1, m.h-len(syntax)))], syntax...)
	}
	return theme.Clip(strings.Join(lines, "\n"), m.w, m.h), true
}

// tableNote is the line the table shows under its summary: the group opened, or why g
// did nothing ("" when neither).
func (m *Model) tableNote() string {
	if m.x.drill != nil {
		return m.st.Accent.Render(fmt.Sprintf("group %s = %s (%d runs) · esc: back to the groups", m.x.groupBy, *m.x.drill, len(m.shown)))
	}
	if m.x.note != "" {
		return m.st.Warn.Render(m.x.note)
	}
	return ""
}

// summary is the first line of the groups and importance views: runs shown, filter.
func (m *Model) summary(what string, n int) []string {
	head := fmt.Sprintf("%s · %s", what, plural(n, "run"))
	if m.filter != "" || m.filtering {
		head += " · filter: " + m.filter
		if m.filtering {
			head += "▏"
		}
	}
	out := []string{m.st.Bold.Render(ansi.Truncate(head, m.w, "…"))}
	if m.ferr != nil {
		out = append(out, m.st.Error.Render(ansi.Truncate("✗ filter "+m.ferr.Error(), m.w, "…")))
	}
	return out
}

// fmtStat is "0.812±0.013", "0.812±—" for one run, "—" for none.
func fmtStat(s Stat) string {
	switch {
	case s.N == 0:
		return "—"
	case math.IsNaN(s.Std):
		return fmt.Sprintf("%.3f±—", s.Mean)
	}
	return fmt.Sprintf("%.3f±%.3f", s.Mean, s.Std)
}

// groupLines draws one row per group: value, runs, headline mean ± std, and the mean
// ± std at each common size that fits.
func (m *Model) groupLines() []string {
	dir := "▲"
	if m.x.gdesc {
		dir = "▼"
	}
	es := m.filtered()
	fs := Varying(es)
	at := 0
	for i, f := range fs {
		if f == m.x.groupBy {
			at = i + 1
		}
	}
	what := fmt.Sprintf("grouped by %s (%d/%d, g: next) · %s", m.x.groupBy, at, len(fs), plural(len(m.x.groups), "value"))
	out := m.summary(what, len(es))
	const statW = 11
	short := m.x.groupBy[strings.LastIndexByte(m.x.groupBy, '.')+1:]
	valW := max(5, ansi.StringWidth(short)+1)
	for _, g := range m.x.groups {
		valW = max(valW, min(24, ansi.StringWidth(g.Value)))
	}
	valW = min(valW, max(5, m.w-2-5-statW-2))
	room := m.w - 2 - valW - 1 - 5 - statW - 1
	nx := min(len(m.x.xs), max(0, room/(statW+1)))
	names := []string{short, "runs", "acc"}
	for _, x := range m.x.xs[:nx] {
		names = append(names, "@"+fmtX(x))
	}
	widths := []int{valW, 4, statW}
	for range nx {
		widths = append(widths, statW)
	}
	var hdr strings.Builder
	hdr.WriteString("  ")
	for c, n := range names {
		if c == m.x.gsort {
			n += dir
		}
		hdr.WriteString(cell(n, widths[c], c > 0) + " ")
	}
	out = append(out, m.st.Muted.Render(strings.TrimRight(hdr.String(), " ")))
	if len(m.x.groups) == 0 {
		return append(out, "", m.st.Muted.Render("no run matches the filter (esc clears it)"))
	}
	rows := max(1, m.h-len(out)-1)
	if m.x.gcur < m.x.gtop {
		m.x.gtop = m.x.gcur
	}
	if m.x.gcur >= m.x.gtop+rows {
		m.x.gtop = m.x.gcur - rows + 1
	}
	m.x.gtop = min(m.x.gtop, max(0, len(m.x.groups)-rows))
	for i := m.x.gtop; i < min(len(m.x.groups), m.x.gtop+rows); i++ {
		g := m.x.groups[i]
		var b strings.Builder
		if i == m.x.gcur {
			b.WriteString("▸ ")
		} else {
			b.WriteString("  ")
		}
		vals := []string{g.Value, fmt.Sprint(len(g.Runs)), fmtStat(g.Acc)}
		for j := range nx {
			vals = append(vals, fmtStat(g.AtX[j]))
		}
		for c, v := range vals {
			b.WriteString(cell(v, widths[c], c > 0) + " ")
		}
		line := strings.TrimRight(b.String(), " ")
		if i == m.x.gcur && m.focused {
			line = m.st.Selected.Render(theme.Pad(line, m.w, 1))
		}
		out = append(out, line)
	}
	foot := "mean ± sample std over each group's runs · acc of " + m.kindName() + " (m: next)"
	if nx < len(m.x.xs) {
		foot += fmt.Sprintf("; %d more sizes do not fit", len(m.x.xs)-nx)
	}
	return append(out, m.st.Muted.Render(ansi.Truncate(foot, m.w, "…")))
}

// importanceLines draws η² of each varying field as a horizontal bar, most
// important first, or the reason there is none.
func (m *Model) importanceLines() []string {
	out := m.summary("parameter importance", len(m.shown))
	imps, why := Importances(m.Entries(), m.x.kind)
	if why != "" {
		return append(out, m.st.Muted.Render(ansi.Truncate("accuracy of "+m.kindName()+" (m: next)", m.w, "…")),
			"", m.st.Warn.Render(ansi.Truncate(why, m.w, "…")))
	}
	binned, lone := false, false
	labW := 8
	for _, im := range imps {
		labW = max(labW, ansi.StringWidth(im.Field))
		binned = binned || im.Binned
		lone = lone || im.Groups == im.Runs
	}
	how := "η² = SS between groups / SS total"
	if binned {
		how += fmt.Sprintf("; ≈: numbers in %d quantile bins", MaxBins)
	}
	out = append(out, m.st.Muted.Render(ansi.Truncate(fmt.Sprintf("share of the variance of the accuracy of %s (m: next), over %d runs,", m.kindName(), imps[0].Runs), m.w, "…")),
		m.st.Muted.Render(ansi.Truncate("explained by grouping on each field: "+how, m.w, "…")))
	labW = min(labW, max(8, m.w/3))
	const tail = 16 // " 0.83  12 groups"
	barW := min(48, max(4, m.w-labW-1-tail))
	rows := max(1, m.h-len(out)-1)
	for i, im := range imps {
		if i == rows {
			break
		}
		groups := fmt.Sprintf("%d groups", im.Groups)
		if im.Binned {
			groups = fmt.Sprintf("%d bins≈", im.Groups)
		}
		if im.Groups == im.Runs {
			groups += "!"
		}
		line := cell(im.Field, labW, false) + " " + bar(im.Eta2, barW, m.st) + " " + fmt.Sprintf("%4.2f %10s", im.Eta2, groups)
		out = append(out, line)
	}
	var foot []string
	if len(imps) > rows {
		foot = append(foot, fmt.Sprintf("%d more fields do not fit", len(imps)-rows))
	}
	if lone {
		foot = append(foot, "!: one run per value, explains all and says nothing")
	}
	if len(foot) > 0 {
		out = append(out, m.st.Muted.Render(ansi.Truncate(strings.Join(foot, " · "), m.w, "…")))
	}
	return out
}

// bar draws v in [0, 1] as a bar of w columns in eighths of a block, the rest dotted.
func bar(v float64, w int, st theme.Styles) string {
	if math.IsNaN(v) {
		v = 0
	}
	eighths := int(math.Round(max(0, min(1, v)) * float64(w*8)))
	full, part := eighths/8, eighths%8
	s := strings.Repeat("█", full)
	n := full
	if part > 0 {
		s += string([]rune("▏▎▍▌▋▊▉")[part-1])
		n++
	}
	return st.Accent.Render(s) + st.Muted.Render(strings.Repeat("·", w-n))
}

package runs

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model/store"
	"gitui/ui/internal/lineedit"
	"gitui/ui/parcoords"
	"gitui/ui/theme"
)

// LoadedMsg carries the runs read by LoadCmd.
type LoadedMsg struct {
	Entries []Entry
	Errs    []error
}

// LoadCmd returns the command that reads the runs of sources (see store.Load; isStore
// says that the first source is the run store, which may not exist yet).
func LoadCmd(sources []string, isStore bool) tea.Cmd {
	return func() tea.Msg {
		es, errs := store.Load(sources, isStore)
		return LoadedMsg{Entries: es, Errs: errs}
	}
}

// LabelledMsg reports that the label of the run at Path was written (Err nil) or not.
type LabelledMsg struct {
	Path, Label string
	Err         error
}

// ReloadMsg asks the workbench to read the runs again (r in the Runs pane).
type ReloadMsg struct{}

// OpenMsg asks the workbench to open the curves of runs: the run under the cursor
// (enter in the table), or every compared run (enter in the compare view).
type OpenMsg struct{ Entries []Entry }

// column is a sortable column of the table.
type column int

const (
	colName column = iota
	colTime
	colStatus
	colTook
	colData
	colGroup
	colMethods
	colAcc
	numCols
)

var colNames = [numCols]string{"name", "started", "status", "took", "data", "group", "methods", "acc"}

// KeyMap lists the Runs pane's keys.
type KeyMap struct {
	Up, Down, Filter, Mark, Open, Sort, Reverse, Compare, Back, Toggle, Accept key.Binding

	// Name (n) gives the run under the cursor a short label (run.json, store.SetLabel).
	Name key.Binding

	// Parcoords (p) opens the parallel-coordinates view of the runs shown.
	Parcoords key.Binding

	// Reload (r) re-reads the runs (ReloadMsg), in every view of the pane: r is the
	// pane's own key there, so that typing in the Runs pane never starts a run.
	Reload key.Binding

	// HParams (h) opens the HParams table of the runs listed (a row per run and
	// series, a column per differing setting and per metric) and closes it.
	HParams key.Binding
}

// DefaultKeyMap returns the Runs pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Filter:  key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Mark:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark")),
		Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open curves")),
		Sort:    key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort column")),
		Reverse: key.NewBinding(key.WithKeys("O"), key.WithHelp("O", "reverse sort")),
		Compare: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare marked")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Toggle:  key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "table/chart")),
		Accept:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
		Name:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "name run")),

		Parcoords: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "parallel axes")),
		Reload:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "re-read runs")),
		HParams:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "hparams table")),
	}
}

// Model is the Runs pane: the runs of the run store and of the folders given to
// `gitui open`, one row each (name, start time, status, data set, group, methods,
// headline accuracy), sortable by any column, filtered with /, marked with space for
// the compare view (c), opened with enter.
type Model struct {
	st        theme.Styles
	keys      KeyMap
	w, h      int
	focused   bool
	loaded    bool
	all       []Entry
	errs      []error
	shown     []int // indices into all, filtered and sorted
	cur, top  int   // cursor and first row shown, in shown
	marked    map[string]bool
	sortCol   column
	desc      bool
	filter    string
	filtering bool
	ferr      error // the filter is malformed: it matches no run
	x         explore
	cmp       *Compare
	pc        *parcoords.Model // the parallel-coordinates view (parcoords.go), kept while closed
	pcOn      bool
	hp        hparamsView // the HParams view (hparamsview.go)
	// naming is set while the label of the run at namePath is typed (n); nameErr is why
	// the last label was not written.
	naming         bool
	name, namePath string
	nameErr        error
	distinct       map[string]string // run path → what tells it from runs of its name (distinguish)
	now            func() time.Time  // the clock of the took column of runs still going
}

// New returns an empty Runs pane, sorted by start time, newest first.
func New(st theme.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), marked: map[string]bool{}, sortCol: colTime, desc: true, now: time.Now}
}

// SetSize sets the size of the pane's content area.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	if m.cmp != nil {
		m.cmp.SetSize(w, h)
	}
	if m.pc != nil {
		m.pc.SetSize(w, h)
	}
}

// Focus gives or takes the keyboard focus.
func (m *Model) Focus(on bool) { m.focused = on }

// Editing reports whether the pane takes every key (the filter is being typed).
func (m *Model) Editing() bool { return m.filtering || m.naming }

// Comparing reports whether the compare view is open.
func (m *Model) Comparing() bool { return m.cmp != nil }

// Compare returns the open compare view (nil when closed).
func (m *Model) Compare() *Compare { return m.cmp }

// Entries returns the runs shown, in the order shown (after filter and sort).
func (m *Model) Entries() []Entry {
	out := make([]Entry, len(m.shown))
	for i, k := range m.shown {
		out[i] = m.all[k]
	}
	return out
}

// Cursor returns the index, among the runs shown, of the run under the cursor.
func (m *Model) Cursor() int { return m.cur }

// Total returns the number of runs read (shown or filtered out).
func (m *Model) Total() int { return len(m.all) }

// Marked returns the marked runs, in the order shown.
func (m *Model) Marked() []Entry {
	var out []Entry
	for _, k := range m.shown {
		if m.marked[m.all[k].Path] {
			out = append(out, m.all[k])
		}
	}
	return out
}

// SetEntries replaces the runs listed (marks of runs still present are kept; the
// cursor stays on the same run when it is still shown).
func (m *Model) SetEntries(es []Entry, errs []error) {
	var at string
	if m.cur < len(m.shown) {
		at = m.all[m.shown[m.cur]].Path
	}
	m.all, m.errs, m.loaded = es, errs, true
	keep := map[string]bool{}
	for _, e := range es {
		if m.marked[e.Path] {
			keep[e.Path] = true
		}
	}
	m.marked = keep
	m.refresh()
	for i, k := range m.shown {
		if m.all[k].Path == at {
			m.cur = i
		}
	}
	m.clamp()
}

// SetFilter sets the filter text (see ParseFilter) and re-filters.
func (m *Model) SetFilter(f string) {
	m.filter = f
	m.refresh()
}

// Match reports whether e passes the filter f (ParseFilter, with e's own spec keys):
// plain words are substrings of the run's names, status, methods or a key=value of
// its flattened spec ("lambda=0.1" matches methods.0.lambda=0.1); an expression
// compares fields and metrics (templates>=100 && acc@1000>0.95). An empty filter
// matches every run; a malformed one matches none.
func Match(e Entry, f string) bool {
	flt, err := ParseFilter(f, Keys([]Entry{e}))
	return err == nil && flt.Match(e)
}

// refresh recomputes the shown rows from the filter and the sort.
func (m *Model) refresh() {
	m.shown = m.shown[:0]
	flt, err := ParseFilter(m.filter, Keys(m.all))
	m.ferr = err
	for i, e := range m.all {
		if err == nil && flt.Match(e) && m.inGroup(e) {
			m.shown = append(m.shown, i)
		}
	}
	less := func(a, b Entry) int {
		switch m.sortCol {
		case colName:
			return strings.Compare(a.Name, b.Name)
		case colStatus:
			return strings.Compare(a.Status, b.Status)
		case colData:
			return strings.Compare(a.Data, b.Data)
		case colGroup:
			return strings.Compare(a.Group, b.Group)
		case colMethods:
			return strings.Compare(strings.Join(a.Methods, ","), strings.Join(b.Methods, ","))
		case colTook:
			return cmp.Compare(a.Seconds, b.Seconds)
		case colAcc:
			return cmp.Compare(a.Acc, b.Acc) // a NaN (no accuracy) first
		}
		return a.Time.Compare(b.Time)
	}
	sort.SliceStable(m.shown, func(i, j int) bool {
		c := less(m.all[m.shown[i]], m.all[m.shown[j]])
		if m.desc {
			return c > 0
		}
		return c < 0
	})
	m.clamp()
	m.distinct = distinguish(m.all)
	m.regroup()
	m.syncParcoords()
	m.syncHParams()
}

// maxDistinct is the number of differing keys a row names before "+N more".
const maxDistinct = 3

// distinguish returns, for each run sharing its spec's name with another run, what
// tells it apart from them: the keys whose values differ within the runs of that name
// (Diff over their flattened specs), as key=value with the key shortened to its last
// part ("lambda=0.1" for methods.0.lambda and methods.1.lambda when the run gives both
// the same value; "m0.lambda=0.1 m1.lambda=1" when not), at most maxDistinct then
// "+N more". A run alone with its name, or whose specs are all equal, gets nothing.
func distinguish(es []Entry) map[string]string {
	byName := map[string][]int{}
	for i, e := range es {
		byName[e.Name] = append(byName[e.Name], i)
	}
	out := map[string]string{}
	for _, idx := range byName {
		if len(idx) < 2 {
			continue
		}
		ps := make([]map[string]string, len(idx))
		for j, i := range idx {
			ps[j] = es[i].Params
		}
		keys := Diff(ps...)
		if len(keys) == 0 {
			continue
		}
		var shorts []string // in the order of keys
		group := map[string][]string{}
		for _, k := range keys {
			short := k[strings.LastIndex(k, ".")+1:]
			if group[short] == nil {
				shorts = append(shorts, short)
			}
			group[short] = append(group[short], k)
		}
		for j, i := range idx {
			value := func(k string) string {
				if v, ok := ps[j][k]; ok && v != "" {
					return v
				}
				return "unset"
			}
			var parts []string
			for _, short := range shorts {
				ks := group[short]
				same := true
				for _, k := range ks[1:] {
					same = same && value(k) == value(ks[0])
				}
				if same {
					parts = append(parts, short+"="+value(ks[0]))
					continue
				}
				for _, k := range ks {
					parts = append(parts, shortKey(k)+"="+value(k))
				}
			}
			if len(parts) > maxDistinct {
				parts = append(parts[:maxDistinct], fmt.Sprintf("+%d more", len(parts)-maxDistinct))
			}
			out[es[i].Path] = strings.Join(parts, " ")
		}
	}
	return out
}

func (m *Model) clamp() {
	m.cur = min(max(0, m.cur), max(0, len(m.shown)-1))
}

// ShortHelp returns the keys that work now.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	if m.naming {
		k.Accept.SetHelp("enter", "save name")
		k.Back.SetHelp("esc", "keep the old name")
		return []key.Binding{k.Accept, k.Back}
	}
	if m.filtering {
		return []key.Binding{k.Accept, k.Back}
	}
	if m.pcOn {
		return m.pc.ShortHelp()
	}
	if m.hp.on && m.cmp == nil {
		return m.hparamsHelp()
	}
	if m.cmp != nil {
		k.Open.SetHelp("enter", "pin all to Curves")
		if m.cmp.split() {
			return []key.Binding{k.Up, k.Down, k.Open, k.Back}
		}
		return []key.Binding{k.Up, k.Down, k.Toggle, k.Open, k.Back}
	}
	xk, only := m.exploreHelp()
	if only {
		return xk
	}
	k.Compare.SetEnabled(len(m.Marked()) >= 2)
	k.Open.SetEnabled(len(m.shown) > 0)
	k.Mark.SetEnabled(len(m.shown) > 0)
	return append([]key.Binding{k.Filter, k.Mark, k.Open, k.Compare, k.HParams, k.Parcoords, k.Sort, k.Reverse}, xk...)
}

// FullHelp returns the pane's keys that work now, in columns. In the table: its keys,
// then the keys of the other views (p parallel axes, g and G groups, i importance, m
// the series they measure). In the groups or importance view: that view's keys.
// In the parallel-coordinates view: each of its keys (parcoords FullHelp). While the
// filter is typed, and in the compare view: the short help.
func (m Model) FullHelp() [][]key.Binding {
	k, x := m.keys, exploreKeys
	switch {
	case m.filtering || m.naming || m.cmp != nil:
		return [][]key.Binding{m.ShortHelp()}
	case m.pcOn:
		return m.pc.FullHelp()
	case m.hp.on:
		return [][]key.Binding{m.hparamsHelp()}
	}
	if xk, only := m.exploreHelp(); only {
		return [][]key.Binding{xk}
	}
	k.Compare.SetEnabled(len(m.Marked()) >= 2)
	k.Open.SetEnabled(len(m.shown) > 0)
	k.Mark.SetEnabled(len(m.shown) > 0)
	k.Name.SetEnabled(len(m.shown) > 0)
	k.Up.SetEnabled(len(m.shown) > 1)
	k.Down.SetEnabled(len(m.shown) > 1)
	switch {
	case m.x.drill != nil && m.filter == "":
		k.Back.SetHelp("esc", "back to the groups")
	case m.filter != "":
		k.Back.SetHelp("esc", "clear the filter")
	default:
		k.Back.SetEnabled(false)
	}
	x.Ungroup.SetEnabled(m.x.groupBy != "")
	x.Group.SetEnabled(len(m.shown) >= 2 || m.x.drill != nil)
	x.Importance.SetEnabled(len(m.shown) > 0)
	x.Kind.SetHelp("m", "next series (g, i views)")
	return [][]key.Binding{
		{k.Up, k.Down, k.Filter, k.Back, k.Mark, k.Open, k.Compare, k.Name, k.Sort, k.Reverse},
		{k.HParams, k.Parcoords, x.Group, x.Ungroup, x.Importance, x.Kind},
	}
}

// HelpText is the page the full help adds for the pane: the filter's grammar
// (FilterSyntax).
func (m Model) HelpText() (title string, lines []string) {
	return "Filter grammar (/)", FilterSyntax
}

// Init does nothing.
func (m Model) Init() tea.Cmd { return nil }

// Update handles the pane's keys (when focused) and LoadedMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case LoadedMsg:
		m.SetEntries(msg.Entries, msg.Errs)
		return m, nil
	case LabelledMsg:
		m.nameErr = msg.Err
		if msg.Err == nil {
			for i := range m.all {
				if m.all[i].Path == msg.Path {
					m.all[i].Label = msg.Label
				}
			}
			m.refresh()
		}
		return m, nil
	case tea.KeyMsg:
		if !m.focused {
			return m, nil
		}
		if m.naming {
			return m, m.nameKey(msg)
		}
		if m.filtering {
			m.filterKey(msg)
			return m, nil
		}
		if key.Matches(msg, m.keys.Reload) {
			return m, func() tea.Msg { return ReloadMsg{} }
		}
		if m.pcOn {
			m.parcoordsKey(msg)
			return m, nil
		}
		if m.cmp != nil {
			if key.Matches(msg, m.keys.Back) {
				m.cmp = nil
				return m, nil
			}
			if key.Matches(msg, m.keys.Open) {
				es := append([]Entry(nil), m.cmp.runs...)
				return m, func() tea.Msg { return OpenMsg{Entries: es} }
			}
			m.cmp.Update(msg)
			return m, nil
		}
		if m.hp.on {
			return m, m.hparamsKey(msg)
		}
		if ok, cmd := m.exploreKey(msg); ok {
			return m, cmd
		}
		return m, m.key(msg)
	}
	return m, nil
}

func (m *Model) filterKey(k tea.KeyMsg) {
	switch k.Type {
	case tea.KeyEnter:
		m.filtering = false
	case tea.KeyEsc:
		m.filtering = false
		m.SetFilter("")
	default:
		if f, ok := lineedit.Apply(m.filter, k); ok { // ctrl+u, ctrl+w: readline habits
			m.SetFilter(f)
		}
	}
}

// nameKey edits the label being typed: enter writes it (store.SetLabel, off the
// Update loop) and reports LabelledMsg, esc drops it.
func (m *Model) nameKey(k tea.KeyMsg) tea.Cmd {
	switch k.Type {
	case tea.KeyEnter:
		m.naming = false
		path, label := m.namePath, strings.TrimSpace(m.name)
		return func() tea.Msg { return LabelledMsg{Path: path, Label: label, Err: store.SetLabel(path, label)} }
	case tea.KeyEsc:
		m.naming = false
	default:
		if s, ok := lineedit.Apply(m.name, k); ok {
			m.name = s
		}
	}
	return nil
}

func (m *Model) key(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, m.keys.Name) && len(m.shown) > 0:
		e := m.all[m.shown[m.cur]]
		m.naming, m.name, m.namePath, m.nameErr = true, e.Label, e.Path, nil
	case key.Matches(k, m.keys.Up):
		m.cur--
		m.clamp()
	case key.Matches(k, m.keys.Down):
		m.cur++
		m.clamp()
	case key.Matches(k, m.keys.Filter):
		m.filtering = true
	case key.Matches(k, m.keys.Back) && m.filter != "":
		m.SetFilter("")
	case key.Matches(k, m.keys.Mark) && len(m.shown) > 0:
		p := m.all[m.shown[m.cur]].Path
		if m.marked[p] {
			delete(m.marked, p)
		} else {
			m.marked[p] = true
		}
		m.cur = min(m.cur+1, len(m.shown)-1)
	case key.Matches(k, m.keys.Open) && len(m.shown) > 0:
		e := m.all[m.shown[m.cur]]
		return func() tea.Msg { return OpenMsg{Entries: []Entry{e}} }
	case key.Matches(k, m.keys.Sort):
		m.sortCol = (m.sortCol + 1) % numCols
		m.refresh()
	case key.Matches(k, m.keys.Reverse):
		m.desc = !m.desc
		m.refresh()
	case key.Matches(k, m.keys.Parcoords):
		m.openParcoords()
	case key.Matches(k, m.keys.HParams):
		m.openHParams()
	case key.Matches(k, m.keys.Compare):
		if mk := m.Marked(); len(mk) >= 2 {
			c := NewCompare(m.st, mk)
			c.SetSize(m.w, m.h)
			m.cmp = c
		}
	}
	return nil
}

// Click moves the cursor to the run drawn on line y of the pane (0 is the first line;
// the column x does not matter), as a mouse click does; it reports whether a run was
// there. The compare view ignores it.
func (m *Model) Click(_, y int) bool {
	if m.cmp != nil || m.filtering || m.pcOn || m.hp.on || m.x.mode != modeTable {
		return false
	}
	head := 2 // summary and column names
	if len(m.errs) > 0 {
		head++
	}
	if m.nameErr != nil {
		head++
	}
	if m.ferr != nil {
		head++
	}
	if m.tableNote() != "" {
		head++
	}
	i := m.top + y - head
	if y < head || i < 0 || i >= len(m.shown) || y >= m.h {
		return false
	}
	m.cur = i
	return true
}

// View draws the table, or the compare or parallel-coordinates view when open.
func (m *Model) View() string {
	if m.cmp != nil {
		return m.cmp.View()
	}
	if m.pcOn {
		return m.pc.View()
	}
	if m.hp.on {
		return m.hparamsView()
	}
	if v, ok := m.exploreView(); ok {
		return v
	}
	return theme.Clip(strings.Join(m.lines(), "\n"), m.w, m.h)
}

// widths returns the width of each column for the pane's width (0: column hidden).
func (m *Model) widths() [numCols]int {
	var w [numCols]int
	w[colName], w[colTime], w[colStatus], w[colTook], w[colAcc] = 4, 16, 6, 4, 5
	w[colData], w[colGroup] = 4, 5
	for _, k := range m.shown {
		e := m.all[k]
		w[colName] = max(w[colName], min(20, ansi.StringWidth(e.Name)))
		w[colStatus] = max(w[colStatus], min(11, ansi.StringWidth(e.Status)))
		w[colData] = max(w[colData], min(12, ansi.StringWidth(e.Data)))
		w[colGroup] = max(w[colGroup], min(12, ansi.StringWidth(e.Group)))
		w[colTook] = max(w[colTook], len(took(e, m.now())))
		if math.IsNaN(e.Acc) && e.Study != nil && !math.IsNaN(e.BestValidation) {
			w[colAcc] = 6 // v0.972
		}
	}
	fixed := func() int {
		s := 2 // cursor and mark
		for c := colName; c < numCols; c++ {
			if c != colMethods && w[c] > 0 {
				s += w[c] + 1
			}
		}
		return s
	}
	for _, drop := range []column{colGroup, colTook, colData, colStatus} {
		if m.w-fixed() >= 12 {
			break
		}
		w[drop] = 0
	}
	if w[colStatus] > 0 {
		// A long status (a run followed live: shards, cells, squeue) takes the room the
		// methods can spare beyond 20 columns.
		full := 0
		for _, k := range m.shown {
			full = max(full, ansi.StringWidth(m.all[k].Status))
		}
		if extra := min(full-w[colStatus], m.w-fixed()-1-20); extra > 0 {
			w[colStatus] += extra
		}
	}
	w[colMethods] = max(0, m.w-fixed()-1)
	return w
}

func (m *Model) lines() []string {
	var out []string
	dir := "▲"
	if m.desc {
		dir = "▼"
	}
	head := plural(len(m.all), "run")
	if !m.loaded {
		head = "reading the run store…"
	}
	if m.filter != "" || m.filtering {
		head = fmt.Sprintf("%d of %s · filter: %s", len(m.shown), plural(len(m.all), "run"), m.filter)
		if m.filtering {
			head += "▏"
		}
	}
	if m.x.drill != nil && m.filter == "" && !m.filtering {
		head = fmt.Sprintf("%d of %s", len(m.shown), plural(len(m.all), "run"))
	}
	if n := len(m.Marked()); n > 0 {
		head += fmt.Sprintf(" · %d marked", n)
		if n >= 2 {
			head += " (c compares)"
		}
	}
	out = append(out, m.st.Bold.Render(head)+m.st.Muted.Render(" · sort: "+colNames[m.sortCol]+" "+dir))
	if m.naming {
		out[len(out)-1] = m.st.Bold.Render("name run: "+m.name+"▏") + m.st.Muted.Render(" · enter saves · esc keeps the old name")
	}
	if m.nameErr != nil {
		out = append(out, m.st.Error.Render(ansi.Truncate("✗ name not saved: "+m.nameErr.Error(), m.w, "…")))
	}
	if len(m.errs) > 0 {
		out = append(out, m.st.Error.Render(fmt.Sprintf("%d run(s) could not be read: %v", len(m.errs), m.errs[0])))
	}
	if m.ferr != nil {
		out = append(out, m.st.Error.Render(ansi.Truncate("✗ filter "+m.ferr.Error(), m.w, "…")))
	}
	if n := m.tableNote(); n != "" {
		out = append(out, n)
	}
	w := m.widths()
	var hdr strings.Builder
	hdr.WriteString("  ")
	for c := colName; c < numCols; c++ {
		if w[c] == 0 {
			continue
		}
		name := colNames[c]
		if c == m.sortCol {
			name += dir
		}
		hdr.WriteString(cell(name, w[c], c == colAcc) + " ")
	}
	out = append(out, m.st.Muted.Render(strings.TrimRight(hdr.String(), " ")))
	if m.loaded && len(m.all) == 0 {
		out = append(out, "", m.st.Muted.Render("no runs yet: every run started with r is saved in the run store;"),
			m.st.Muted.Render("gitui open DIR|RESULT.json lists runs written elsewhere"))
		return out
	}
	syntax := m.syntaxLines()
	if m.loaded && len(m.shown) == 0 {
		out = append(out, "", m.st.Muted.Render("no run matches the filter (esc clears it)"))
		return append(out, syntax...)
	}
	rows := max(1, m.h-len(out)-len(syntax))
	if m.cur < m.top {
		m.top = m.cur
	}
	if m.cur >= m.top+rows {
		m.top = m.cur - rows + 1
	}
	m.top = min(m.top, max(0, len(m.shown)-rows))
	for i := m.top; i < min(len(m.shown), m.top+rows); i++ {
		e := m.all[m.shown[i]]
		var b strings.Builder
		if i == m.cur {
			b.WriteString("▸")
		} else {
			b.WriteString(" ")
		}
		if m.marked[e.Path] {
			b.WriteString("●")
		} else {
			b.WriteString(" ")
		}
		what := strings.Join(e.Methods, ", ")
		switch { // what tells the run from its neighbours comes first
		case e.Label != "":
			what = "“" + e.Label + "” · " + what
		case m.distinct[e.Path] != "":
			what = m.distinct[e.Path] + " · " + what
		}
		vals := [numCols]string{e.Name, "", e.Status, took(e, m.now()), e.Data, e.Group, what, "—"}
		if !e.Time.IsZero() {
			vals[colTime] = e.Time.Format("2006-01-02 15:04")
		}
		switch {
		case !math.IsNaN(e.Acc):
			vals[colAcc] = fmt.Sprintf("%.3f", e.Acc)
		case e.Study != nil && !math.IsNaN(e.BestValidation):
			vals[colAcc] = fmt.Sprintf("v%.3f", e.BestValidation) // a study's best validation before its test
		}
		for c := colName; c < numCols; c++ {
			if w[c] > 0 {
				b.WriteString(cell(vals[c], w[c], c == colAcc) + " ")
			}
		}
		line := strings.TrimRight(b.String(), " ")
		if i == m.cur && m.focused {
			line = m.st.Selected.Render(theme.Pad(line, m.w, 1))
		}
		out = append(out, line)
	}
	if len(syntax) > 0 {
		for len(out) < m.h-len(syntax) {
			out = append(out, "")
		}
		out = append(out, syntax...)
	}
	return out
}

// took is the duration column: the run's wall time (e.Seconds), or for a run still
// going the time since it started, "" when unknown.
func took(e Entry, now time.Time) string {
	sec := e.Seconds
	if sec <= 0 && strings.HasPrefix(e.Status, "running") && !e.Time.IsZero() {
		sec = now.Sub(e.Time).Seconds()
	}
	if sec <= 0 {
		return ""
	}
	d := time.Duration(sec * float64(time.Second))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.0fs", math.Max(1, math.Round(sec)))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// plural returns "n thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// cell fits s into w columns (cut with …), right-aligned when right.
func cell(s string, w int, right bool) string {
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	pad := strings.Repeat(" ", w-ansi.StringWidth(s))
	if right {
		return pad + s
	}
	return s + pad
}

// Live reports whether some run read is a sharded run still running elsewhere
// (Entry.Live): the workbench then re-reads the runs on a tick while the pane shows.
func (m *Model) Live() bool {
	for _, e := range m.all {
		if e.Live() {
			return true
		}
	}
	return false
}

// shortKey abbreviates a flattened spec key for a row: methods.N.KEY becomes mN.KEY.
func shortKey(k string) string {
	if rest, ok := strings.CutPrefix(k, "methods."); ok {
		return "m" + rest
	}
	return k
}

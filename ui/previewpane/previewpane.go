package previewpane

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/internal/pix"
	"gitui/ui/internal/specmsg"
	"gitui/ui/pane"
	"gitui/ui/theme"
)

// maxOrbit is the most group elements the orbit row applies (evenly spaced over G);
// the row shows as many of them as fit.
const maxOrbit = 12

// builtMsg carries the group built in the background for request tag (act nil: the
// identity only).
type builtMsg struct {
	tag int
	act group.Action
	err error
}

// keyMap holds the pane's bindings.
type keyMap struct {
	PrevClass, NextClass, PrevSample, NextSample key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		PrevClass:  key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/h", "previous class")),
		NextClass:  key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next class")),
		PrevSample: key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous sample")),
		NextSample: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next sample")),
	}
}

// Model is the Data preview pane: the loaded pool's samples grouped by class, one of
// them selected, and the orbit of the selected sample under the spec's group.
type Model struct {
	st      theme.Styles
	keys    keyMap
	spec    *model.Spec
	w, h    int
	focused bool

	// dataTag is the newest datapane.LoadedMsg taken (older loads are stale); loading is
	// set from a change of the data until it arrives.
	dataTag int
	loading bool
	pool    *data.Dataset
	loadErr error
	byClass [][]int // pool indices of each class, in pool order
	cls     int     // selected class
	pos     int     // selected sample within the class

	tag      int // of the newest group build
	building bool
	act      group.Action
	gerr     error
	elems    []int       // the group elements of the orbit row
	orbit    [][]float64 // g_elems[k] · x for the selected x
}

// New returns the pane over spec (it shows nothing until a datapane.LoadedMsg arrives).
func New(st theme.Styles, spec *model.Spec) Model {
	return Model{st: st, keys: defaultKeys(), spec: spec, loading: true}
}

// Of returns a new pane over spec as a pane.Component (the workbench's declaration).
func Of(st theme.Styles, spec *model.Spec) pane.Component {
	m := New(st, spec)
	return pane.Of(&m)
}

// SetSize sets the content size (the orbit row is chosen anew for its width).
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.applyOrbit()
}

// Focus gives (on) or takes the keyboard.
func (m *Model) Focus(on bool) { m.focused = on }

// ShortHelp returns the keys that move the selection now (none before a data set).
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	nc := len(m.byClass)
	k.PrevClass.SetEnabled(nc > 1)
	k.NextClass.SetEnabled(nc > 1)
	more := nc > 0 && len(m.byClass[m.cls]) > 1
	k.PrevSample.SetEnabled(more)
	k.NextSample.SetEnabled(more)
	return []key.Binding{k.PrevClass, k.NextClass, k.PrevSample, k.NextSample}
}

// FullHelp returns the short help as one column.
func (m Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// Selected returns the pool index and class of the selected sample; ok is false while
// no data set is loaded.
func (m *Model) Selected() (index, class int, ok bool) {
	if len(m.byClass) == 0 {
		return 0, 0, false
	}
	return m.byClass[m.cls][m.pos], m.cls, true
}

// Orbit returns the group elements of the orbit row and their images g·x of the
// selected sample (nil while the group builds or when it failed: GroupErr). The slices
// are the pane's: the caller must not modify them.
func (m *Model) Orbit() (elems []int, images [][]float64) { return m.elems, m.orbit }

// GroupErr returns the error of building the spec's group on the data (nil when it built
// or is building).
func (m *Model) GroupErr() error { return m.gerr }

// Update takes the data set (datapane.LoadedMsg), a new spec (specmsg.Msg), the spec's
// changes (form.ChangedMsg: a group field or the seed rebuilds the group), the built
// group, and the keys that move the selection.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case specmsg.Msg:
		m.spec, m.pool, m.byClass, m.loading = msg.Spec, nil, nil, true
		m.dropOrbit()
		return m, nil
	case datapane.LoadedMsg:
		if msg.Tag < m.dataTag {
			return m, nil
		}
		m.dataTag, m.loading, m.loadErr = msg.Tag, false, msg.Err
		m.setPool(msg.Pool)
		return m, m.build()
	case form.ChangedMsg:
		switch {
		case strings.HasPrefix(msg.Key, "data.") || msg.Key == "seed":
			m.loading, m.pool, m.byClass = true, nil, nil // the data pane reloads: its LoadedMsg rebuilds
			m.dropOrbit()
		case strings.HasPrefix(msg.Key, "group."):
			return m, m.build()
		}
		return m, nil
	case builtMsg:
		if msg.tag == m.tag {
			m.building, m.act, m.gerr = false, msg.act, msg.err
			m.applyOrbit()
		}
		return m, nil
	case tea.KeyMsg:
		m.move(msg)
	}
	return m, nil
}

// move changes the selection for key k, and the orbit with it.
func (m *Model) move(k tea.KeyMsg) {
	nc := len(m.byClass)
	if nc == 0 {
		return
	}
	switch {
	case key.Matches(k, m.keys.NextClass):
		m.cls, m.pos = (m.cls+1)%nc, 0
	case key.Matches(k, m.keys.PrevClass):
		m.cls, m.pos = (m.cls+nc-1)%nc, 0
	case key.Matches(k, m.keys.NextSample):
		m.pos = (m.pos + 1) % len(m.byClass[m.cls])
	case key.Matches(k, m.keys.PrevSample):
		n := len(m.byClass[m.cls])
		m.pos = (m.pos + n - 1) % n
	default:
		return
	}
	m.applyOrbit()
}

// setPool takes the pool p (nil: none) and selects the first sample of its first class
// that has samples.
func (m *Model) setPool(p *data.Dataset) {
	m.pool, m.byClass, m.cls, m.pos = p, nil, 0, 0
	m.dropOrbit()
	if p == nil || p.Len() == 0 {
		m.pool = nil
		return
	}
	idx := make([][]int, len(p.Classes))
	for i, y := range p.Y {
		if y >= 0 && y < len(idx) {
			idx[y] = append(idx[y], i)
		}
	}
	for _, is := range idx { // classes without samples in the pool are not shown
		if len(is) > 0 {
			m.byClass = append(m.byClass, is)
		}
	}
}

// dropOrbit forgets the built group and its orbit (a new data set or spec).
func (m *Model) dropOrbit() {
	m.tag++ // a build in flight is stale
	m.building, m.act, m.gerr, m.elems, m.orbit = false, nil, nil, nil, nil
}

// build starts building the spec's group for the pool's shape in the background (nil
// when no data set is loaded).
func (m *Model) build() tea.Cmd {
	m.dropOrbit()
	if m.pool == nil {
		return nil
	}
	m.building = true
	tag, g, shape, seed := m.tag, m.spec.Clone().Group, append([]int(nil), m.pool.Shape...), m.spec.Seed
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = builtMsg{tag: tag, err: fmt.Errorf("building group %s panicked: %v", g.Kind, r)}
			}
		}()
		a, err := engine.BuildGroup(g, shape, seed)
		return builtMsg{tag: tag, act: a, err: err}
	}
}

// applyOrbit applies as many elements of the built group as the row has room for (at
// most maxOrbit), evenly spaced from index 0 to the last, to the selected sample.
func (m *Model) applyOrbit() {
	m.elems, m.orbit = nil, nil
	i, _, ok := m.Selected()
	if !ok || m.building || m.gerr != nil {
		return
	}
	x := m.pool.X.RawRowView(i)
	if m.act == nil {
		m.elems, m.orbit = []int{0}, [][]float64{x}
		return
	}
	if m.act.Dim() != len(x) {
		m.gerr = fmt.Errorf("the group acts on %d values, a sample has %d", m.act.Dim(), len(x))
		return
	}
	n := m.act.Len()
	k := max(1, min(n, maxOrbit, m.w/(m.cellFor().w+1)))
	for j := range k {
		e := 0
		if k > 1 {
			e = j * (n - 1) / (k - 1)
		}
		dst := make([]float64, len(x))
		m.act.Apply(dst, x, e)
		m.elems = append(m.elems, e)
		m.orbit = append(m.orbit, dst)
	}
}

// View draws a head line, the class rows (the selected sample marked ▸) and the orbit
// row, exactly m.w×m.h (clipped).
func (m *Model) View() string {
	var out []string
	switch {
	case m.loadErr != nil:
		out = theme.WrapLines(m.st.Error.Render, "✗ "+m.loadErr.Error(), m.w, 2)
	case m.loading:
		out = []string{m.st.Muted.Render("waiting for the data set…")}
	case m.pool == nil:
		out = []string{m.st.Muted.Render("the data set has no samples")}
	default:
		out = m.body()
	}
	return theme.Pad(theme.Clip(strings.Join(out, "\n"), m.w, m.h), m.w, m.h)
}

// body draws the loaded data set: head, class rows, orbit.
func (m *Model) body() []string {
	p := m.pool
	idx, _, _ := m.Selected()
	cell := m.cellFor()
	head := m.st.Bold.Render(fmt.Sprintf("%s · class %s (%d of %d) · sample %d of %d",
		m.spec.Data.Name, p.Classes[p.Y[idx]], m.cls+1, len(m.byClass), m.pos+1, len(m.byClass[m.cls]))) +
		m.st.Muted.Render(fmt.Sprintf(" · #%d", idx))
	out := []string{head}
	orbit := m.orbitRows(cell)
	rows := max(1, (m.h-len(out)-len(orbit))/max(1, cell.h))
	first := 0
	if m.cls >= rows {
		first = m.cls - rows + 1
	}
	lw := 0
	for _, c := range p.Classes {
		lw = max(lw, ansi.StringWidth(c))
	}
	for c := first; c < min(len(m.byClass), first+rows); c++ {
		out = append(out, m.classRow(c, lw, cell)...)
	}
	return append(out, orbit...)
}

// classRow draws the samples of class c that fit the width after a label column of lw
// (the selected one marked ▸; the selected class's window follows the selection).
func (m *Model) classRow(c, lw int, cell cellShape) []string {
	is := m.byClass[c]
	k := max(1, (m.w-lw-1)/(cell.w+1))
	start := 0
	if c == m.cls && m.pos >= k {
		start = m.pos - k + 1
	}
	var xs [][]float64
	sel := -1
	for j := start; j < min(len(is), start+k); j++ {
		xs = append(xs, m.pool.X.RawRowView(is[j]))
		if c == m.cls && j == m.pos {
			sel = len(xs) - 1
		}
	}
	label := m.st.Muted
	if c == m.cls {
		label = m.st.Accent
	}
	name := m.pool.Classes[m.pool.Y[is[0]]]
	col := label.Render(name + strings.Repeat(" ", lw-ansi.StringWidth(name)+1))
	return m.joinCells(col, xs, nil, sel, cell)
}

// orbitRows draws the orbit section: its head and the images g·x with the element
// index above each; or why there is none.
func (m *Model) orbitRows(cell cellShape) []string {
	switch {
	case m.building:
		return []string{m.st.Muted.Render("building the group…")}
	case m.gerr != nil:
		return theme.WrapLines(m.st.Error.Render, "✗ group: "+m.gerr.Error(), m.w, 2)
	case len(m.orbit) == 0:
		return nil
	}
	what := "identity only (no group)"
	if m.act != nil {
		what = fmt.Sprintf("%s, |G| = %d", m.act.Name(), m.act.Len())
	}
	head := m.st.Bold.Render("orbit of the selected x: g·x") + m.st.Muted.Render(" under "+what)
	labels := make([]string, len(m.orbit))
	for j, e := range m.elems {
		labels[j] = fmt.Sprintf("g%d", e)
	}
	return append([]string{head}, m.joinCells("", m.orbit, labels, -1, cell)...)
}

// cellShape is how one sample is drawn: its width and height in cells and the image
// scale (0 when the sample is not an image).
type cellShape struct {
	w, h  int
	image bool
	maxW  int // pix.Image's width limit
}

// cellFor chooses how samples are drawn in m.w×m.h. An image is block-averaged by the
// smallest factor that fits the head, two class rows and the orbit row (its labels and
// images) in the height, down to 4 pixels a side; a sequence takes one line of letters;
// anything else one line of its first values.
func (m *Model) cellFor() cellShape {
	s := m.pool.Shape
	switch {
	case len(s) == 2 && s[0] >= 8 && s[1] >= 8:
		f := 1
		lines := func(f int) int { return (s[0]/f + 1) / 2 }
		for s[0]/(f+1) >= 4 && s[1]/(f+1) >= 4 && 1+2*lines(f)+2+lines(f) > m.h {
			f++
		}
		return cellShape{w: s[1] / f, h: lines(f), image: true, maxW: s[1] / f}
	case len(s) == 2:
		return cellShape{w: s[0], h: 1}
	}
	return cellShape{w: 24, h: 1}
}

// joinCells draws samples xs side by side after the label column col (on their first
// line), each with a one-column gutter (▸ on the selected one, index sel) and its label
// above it when labels are given, as many as fit in the width.
func (m *Model) joinCells(col string, xs [][]float64, labels []string, sel int, cell cellShape) []string {
	blocks := []string{col}
	used := ansi.StringWidth(col)
	for j, x := range xs {
		if used+cell.w+1 > m.w && j > 0 {
			break
		}
		lines := m.draw(x, cell)
		gutter := " "
		if j == sel {
			gutter = m.st.Accent.Render("▸")
		}
		for r := range lines {
			g := " "
			if r == 0 {
				g = gutter
			}
			lines[r] = g + lines[r]
		}
		if labels != nil {
			lines = append([]string{" " + m.st.Muted.Render(ansi.Truncate(labels[j], cell.w, ""))}, lines...)
		}
		blocks = append(blocks, strings.Join(lines, "\n"))
		used += cell.w + 1
	}
	return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, blocks...), "\n")
}

// draw renders one sample as cell says.
func (m *Model) draw(x []float64, cell cellShape) []string {
	s := m.pool.Shape
	switch {
	case cell.image:
		return pix.Image(m.st, x, s[0], s[1], cell.maxW)
	case len(s) == 2:
		return []string{pix.Sequence(x, s[0], s[1])}
	}
	return []string{ansi.Truncate(fmt.Sprintf("%.3v", x), cell.w, "…")}
}

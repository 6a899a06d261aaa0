package parcoords

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gitui/ui/theme"
)

// MaxAxes is the most axes drawn at once (fields and the accuracy).
const MaxAxes = 8

// minGap is the fewest columns between two axes: room for a label of minGap−1 columns.
const minGap = 11

// eps absorbs the rounding of brush positions built from sums of steps.
const eps = 1e-9

// Interval is a brush on an axis: the positions Lo..Hi (0 bottom, 1 top), both included.
type Interval struct{ Lo, Hi float64 }

// Contains reports whether position p is in the interval (within 1e-9).
func (iv Interval) Contains(p float64) bool { return p >= iv.Lo-eps && p <= iv.Hi+eps }

// Action is what a key asks of the pane that holds the view.
type Action int

const (
	// None: the key was handled here (or ignored).
	None Action = iota
	// Close (esc, p): back to the table, the brushes kept for the next time.
	Close
	// Mark (enter): mark the runs of Brushed in the table and go back to it.
	Mark
)

// KeyMap lists the view's keys.
type KeyMap struct {
	Left, Right, Up, Down, Widen, Narrow, Clear, ClearAll, Prev, Next, Mark, Close key.Binding
	Hide, Restore                                                                  key.Binding
}

// DefaultKeyMap returns the view's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Left:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "axis")),
		Right:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next axis")),
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/↓", "brush / move it")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "move brush down")),
		Widen:    key.NewBinding(key.WithKeys("shift+up", "K"), key.WithHelp("K/J", "widen/narrow brush")),
		Narrow:   key.NewBinding(key.WithKeys("shift+down", "J"), key.WithHelp("J", "narrow brush")),
		Clear:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x/X", "clear brush/all")),
		ClearAll: key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "clear all brushes")),
		Prev:     key.NewBinding(key.WithKeys(","), key.WithHelp(", .", "page fields")),
		Next:     key.NewBinding(key.WithKeys("."), key.WithHelp(".", "next fields")),
		Mark:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "mark brushed")),
		Close:    key.NewBinding(key.WithKeys("esc", "p"), key.WithHelp("esc/p", "table")),
		Hide:     key.NewBinding(key.WithKeys("-"), key.WithHelp("-/+", "hide field/restore")),
		Restore:  key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "restore fields")),
	}
}

// style indices of a cell
const (
	sPlain = iota
	sMuted
	sSel
	sBrush
	sMark  // a marked run (Run.Mark)
	sScale // sScale+i: the i-th colour of the accuracy palette
)

// Model is the parallel-coordinates view of a set of runs: one vertical axis per field
// that varies among them (Fields; as many as the width allows, at most MaxAxes with the
// accuracy, paged with , and .), then the headline accuracy; each run a braille
// polyline across the axes, coloured by its accuracy, and keyboard brushes (one
// interval per axis) that select the runs whose values fall in every brush.
type Model struct {
	st     theme.Styles
	keys   KeyMap
	styles []lipgloss.Style
	sgr    [][2]string // each style's opening and closing sequences, rendered once
	w, h   int
	runs   []Run
	all    []string        // the fields that vary (Fields)
	fields []string        // all but the hidden ones: the fields drawn, paged
	hidden map[string]bool // fields hidden with -
	same   int
	axes   map[string]Axis
	pos    map[string][]float64 // pos[key][i]: run i's position on the axis, NaN when it has none
	hasAcc bool
	first  int // first field shown
	sel    int // selected axis, among Visible
	brush  map[string]Interval
}

// New returns an empty view drawn with st.
func New(st theme.Styles) *Model {
	m := &Model{st: st, keys: DefaultKeyMap(), brush: map[string]Interval{}, hidden: map[string]bool{}}
	m.styles = []lipgloss.Style{st.Text, st.Muted, st.TitleFocused, st.Accent, st.Warn}
	if len(st.ScaleFg) > 2 {
		// the two darkest colours of the scale vanish on a dark background
		m.styles = append(m.styles, st.ScaleFg[2:]...)
	}
	for _, s := range m.styles {
		pre, suf, _ := strings.Cut(s.Render("\u2800"), "\u2800")
		m.sgr = append(m.sgr, [2]string{pre, suf})
	}
	return m
}

// SetSize sets the size of the view's content area.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// SetRuns replaces the runs drawn: the fields and scales are recomputed; brushes on
// fields that still vary are kept (as positions on their axis), the others dropped;
// hidden fields stay hidden.
func (m *Model) SetRuns(runs []Run) {
	m.runs = runs
	m.all, m.same = Fields(runs)
	m.fields = nil
	for _, k := range m.all {
		if !m.hidden[k] {
			m.fields = append(m.fields, k)
		}
	}
	m.axes = map[string]Axis{}
	m.pos = map[string][]float64{}
	m.hasAcc = false
	for _, r := range runs {
		if !math.IsNaN(r.Acc) {
			m.hasAcc = true
		}
	}
	keys := append([]string(nil), m.all...)
	if m.hasAcc {
		keys = append(keys, AccKey)
	}
	for _, k := range keys {
		vals := make([]string, len(runs))
		for i, r := range runs {
			vals[i] = r.value(k)
		}
		a := NewAxis(k, vals)
		m.axes[k] = a
		ps := make([]float64, len(runs))
		for i, v := range vals {
			ps[i] = math.NaN()
			if p, ok := a.Pos(v); ok {
				ps[i] = p
			}
		}
		m.pos[k] = ps
	}
	for k := range m.brush {
		if _, ok := m.axes[k]; !ok {
			delete(m.brush, k)
		}
	}
	m.clamp()
}

// Axis returns the scale of field key (ok false when it is not an axis).
func (m *Model) Axis(key string) (Axis, bool) {
	a, ok := m.axes[key]
	return a, ok
}

// Fields returns the fields drawn (paged): those that vary among the runs, in axis
// order, but the hidden ones (the accuracy not included); and how many were left out as
// equal to one of them.
func (m *Model) Fields() ([]string, int) { return m.fields, m.same }

// fit returns how many axes the width allows (1..MaxAxes).
func (m *Model) fit() int {
	n := 1
	for n < MaxAxes && (m.w-(minGap-1))/n >= minGap {
		n++
	}
	return n
}

// shownFields returns how many fields are drawn at once.
func (m *Model) shownFields() int {
	n := m.fit()
	if m.hasAcc {
		n--
	}
	return max(0, min(len(m.fields), n))
}

// Visible returns the keys of the axes drawn, left to right: a page of fields, then
// AccKey when some run has an accuracy.
func (m *Model) Visible() []string {
	n := m.shownFields()
	out := append([]string(nil), m.fields[m.first:m.first+n]...)
	if m.hasAcc {
		out = append(out, AccKey)
	}
	return out
}

func (m *Model) clamp() {
	m.first = max(0, min(m.first, len(m.fields)-m.shownFields()))
	m.sel = max(0, min(m.sel, len(m.Visible())-1))
}

// Selected returns the key of the selected axis ("" when there is none).
func (m *Model) Selected() string {
	v := m.Visible()
	if len(v) == 0 {
		return ""
	}
	return v[m.sel]
}

// Brushes returns the brushes by field key.
func (m *Model) Brushes() map[string]Interval { return m.brush }

// SetBrush sets the brush of field key (an axis) to [lo, hi], clamped to [0, 1].
func (m *Model) SetBrush(key string, lo, hi float64) {
	if _, ok := m.axes[key]; !ok {
		return
	}
	lo, hi = math.Max(0, math.Min(lo, hi)), math.Min(1, math.Max(lo, hi))
	m.brush[key] = Interval{lo, hi}
}

// In reports whether r is in every brush: for each brushed axis, r has a value whose
// position lies in the interval (a run missing the field is out). With no brush every
// run is in.
func (m *Model) In(r Run) bool {
	for k, iv := range m.brush {
		p, ok := m.axes[k].Pos(r.value(k))
		if !ok || !iv.Contains(p) {
			return false
		}
	}
	return true
}

// Brushed returns the IDs of the runs in every brush, in the order given to SetRuns.
func (m *Model) Brushed() []string {
	var out []string
	for i, r := range m.runs {
		if m.in(i) {
			out = append(out, r.ID)
		}
	}
	return out
}

// in is In for the i-th run, from the positions computed by SetRuns.
func (m *Model) in(i int) bool {
	for k, iv := range m.brush {
		if p := m.pos[k][i]; math.IsNaN(p) || !iv.Contains(p) {
			return false
		}
	}
	return true
}

// Key handles one key and says what the holder should do (see Action).
func (m *Model) Key(k tea.KeyMsg) Action {
	sel := m.Selected()
	a, isAxis := m.axes[sel]
	switch {
	case key.Matches(k, m.keys.Mark):
		return Mark
	case key.Matches(k, m.keys.Close):
		return Close
	case key.Matches(k, m.keys.Left):
		m.sel--
	case key.Matches(k, m.keys.Right):
		m.sel++
	case key.Matches(k, m.keys.Prev):
		m.first -= m.shownFields()
	case key.Matches(k, m.keys.Next):
		m.first += m.shownFields()
	case key.Matches(k, m.keys.ClearAll):
		m.brush = map[string]Interval{}
	case key.Matches(k, m.keys.Restore):
		m.hidden = map[string]bool{}
		m.SetRuns(m.runs)
	case key.Matches(k, m.keys.Hide) && isAxis && sel != AccKey:
		m.hidden[sel] = true
		delete(m.brush, sel)
		m.SetRuns(m.runs)
	case !isAxis:
	case key.Matches(k, m.keys.Clear):
		delete(m.brush, sel)
	case key.Matches(k, m.keys.Up), key.Matches(k, m.keys.Down):
		iv, ok := m.brush[sel]
		if !ok {
			m.brush[sel] = defaultBrush(a)
			break
		}
		d := a.Step()
		if key.Matches(k, m.keys.Down) {
			d = -math.Min(d, iv.Lo)
		} else {
			d = math.Min(d, 1-iv.Hi)
		}
		m.brush[sel] = Interval{snap(iv.Lo+d, a), snap(iv.Hi+d, a)}
	case key.Matches(k, m.keys.Widen):
		iv, ok := m.brush[sel]
		if !ok {
			m.brush[sel] = defaultBrush(a)
			break
		}
		if s := a.Step(); iv.Lo-s >= -eps {
			iv.Lo = snap(iv.Lo-s, a)
		} else {
			iv.Hi = snap(math.Min(1, iv.Hi+s), a)
		}
		m.brush[sel] = iv
	case key.Matches(k, m.keys.Narrow):
		if iv, ok := m.brush[sel]; ok && iv.Hi-iv.Lo >= a.Step()-eps {
			iv.Lo = snap(iv.Lo+a.Step(), a)
			m.brush[sel] = iv
		}
	}
	m.clamp()
	return None
}

// Handles reports whether k is one of the view's keys.
func (m *Model) Handles(k tea.KeyMsg) bool {
	b := m.keys
	return key.Matches(k, b.Left, b.Right, b.Up, b.Down, b.Widen, b.Narrow, b.Clear, b.ClearAll, b.Prev, b.Next, b.Mark, b.Close, b.Hide, b.Restore)
}

// defaultBrush is the first brush on a: its top category, or its top quarter.
func defaultBrush(a Axis) Interval {
	if a.Kind == Categorical {
		return Interval{1, 1}
	}
	return Interval{0.75, 1}
}

// snap rounds p to a multiple of a's step, within [0, 1].
func snap(p float64, a Axis) float64 {
	s := a.Step()
	return math.Max(0, math.Min(1, math.Round(p/s)*s))
}

// ShortHelp returns the view's keys.
func (m *Model) ShortHelp() []key.Binding {
	k := m.keys
	k.Prev.SetEnabled(len(m.fields) > m.shownFields())
	_, brushed := m.brush[m.Selected()]
	k.Clear.SetEnabled(brushed || len(m.brush) > 0)
	return []key.Binding{k.Left, k.Up, k.Widen, k.Clear, k.Prev, k.Hide, k.Mark, k.Close}
}

// FullHelp returns each of the view's keys that work now, with its own help, in two
// columns: the axis and its brush; the fields shown, marking and closing.
func (m *Model) FullHelp() [][]key.Binding {
	k := m.keys
	sel := m.Selected()
	_, isAxis := m.axes[sel]
	_, brushed := m.brush[sel]
	paged := len(m.fields) > m.shownFields()
	k.Left.SetHelp("←/h", "previous axis")
	k.Right.SetHelp("→/l", "next axis")
	k.Up.SetHelp("↑/k", "brush axis / move brush up")
	k.Down.SetHelp("↓/j", "brush axis / move brush down")
	k.Widen.SetHelp("K/shift+↑", "widen the brush")
	k.Narrow.SetHelp("J/shift+↓", "narrow the brush")
	k.Clear.SetHelp("x", "clear the axis's brush")
	k.ClearAll.SetHelp("X", "clear all brushes")
	k.Prev.SetHelp(",", "previous fields")
	k.Next.SetHelp(".", "next fields")
	k.Hide.SetHelp("-", "hide the field")
	k.Restore.SetHelp("+/=", "show the hidden fields")
	k.Mark.SetHelp("enter", "mark the brushed runs")
	k.Close.SetHelp("esc/p", "back to the table")
	for _, b := range []*key.Binding{&k.Up, &k.Down, &k.Widen, &k.Narrow} {
		b.SetEnabled(isAxis)
	}
	k.Clear.SetEnabled(isAxis && brushed)
	k.ClearAll.SetEnabled(len(m.brush) > 0)
	k.Prev.SetEnabled(paged)
	k.Next.SetEnabled(paged)
	k.Hide.SetEnabled(isAxis && sel != AccKey)
	k.Restore.SetEnabled(len(m.hidden) > 0)
	return [][]key.Binding{
		{k.Left, k.Right, k.Up, k.Down, k.Widen, k.Narrow, k.Clear, k.ClearAll},
		{k.Prev, k.Next, k.Hide, k.Restore, k.Mark, k.Close},
	}
}

// BrushText returns the brushes as text: "lambda∈[1e-3,0.1] features∈{cdf,raw}"
// (fields by their short name, in axis order; numeric bounds are the values at the
// brush's ends), or "" when there is none.
func (m *Model) BrushText() string {
	keys := append([]string(nil), m.all...)
	if m.hasAcc {
		keys = append(keys, AccKey)
	}
	short := ShortNames(keys)
	var parts []string
	for _, k := range keys {
		iv, ok := m.brush[k]
		if !ok {
			continue
		}
		a := m.axes[k]
		if a.Kind == Categorical {
			var in []string
			for _, c := range a.Cats {
				if p, _ := a.Pos(c); iv.Contains(p) {
					in = append(in, c)
				}
			}
			parts = append(parts, short[k]+"∈{"+strings.Join(in, ",")+"}")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s∈[%s,%s]", short[k], Fmt(a.Value(iv.Lo)), Fmt(a.Value(iv.Hi))))
	}
	return strings.Join(parts, " ")
}

// canvas is a grid of cells, each a rune of width 1 and a style index.
type canvas struct {
	w     int
	runes [][]rune
	style [][]int
}

func newCanvas(w, h int) *canvas {
	c := &canvas{w: w}
	for range h {
		r := make([]rune, w)
		for i := range r {
			r[i] = ' '
		}
		c.runes = append(c.runes, r)
		c.style = append(c.style, make([]int, w))
	}
	return c
}

// put writes s from column x of row y (cut at the right edge; runes wider than one
// column become '?').
func (c *canvas) put(x, y int, s string, st int) {
	if y < 0 || y >= len(c.runes) {
		return
	}
	for _, r := range s {
		if x >= c.w {
			return
		}
		if !narrow(r) {
			r = '?'
		}
		if x >= 0 {
			c.runes[y][x], c.style[y][x] = r, st
		}
		x++
	}
}

// narrow reports whether r takes one column (ASCII, box drawing, blocks and braille
// without asking the width tables).
func narrow(r rune) bool {
	return r >= 0x20 && r < 0x7f || r >= 0x2500 && r <= 0x28ff || ansi.StringWidth(string(r)) == 1
}

// centre writes s (cut to w columns) centred on column x, inside the canvas.
func (c *canvas) centre(x, y int, s string, w, st int) {
	s = cut(s, w)
	n := ansi.StringWidth(s)
	c.put(max(0, min(c.w-n, x-(n-1)/2)), y, s, st)
}

// cut fits s into w columns, ending with … when it is cut.
func cut(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// lines renders the rows, each run of cells of one style wrapped in that style's
// sequences (sgr, from Model.sgr).
func (c *canvas) lines(sgr [][2]string) []string {
	out := make([]string, len(c.runes))
	for y, row := range c.runes {
		var b strings.Builder
		for x := 0; x < len(row); {
			e := x
			for e < len(row) && c.style[y][e] == c.style[y][x] {
				e++
			}
			seg := string(row[x:e])
			if s := c.style[y][x]; s != sPlain && strings.TrimSpace(seg) != "" {
				seg = sgr[s][0] + seg + sgr[s][1]
			}
			b.WriteString(seg)
			x = e
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// View draws the view into exactly the size given to SetSize (at most w×h).
func (m *Model) View() string {
	return theme.Clip(strings.Join(m.lines(), "\n"), m.w, m.h)
}

func (m *Model) lines() []string {
	n := len(m.runs)
	in := 0
	for i := range m.runs {
		if m.in(i) {
			in++
		}
	}
	vis := m.Visible()
	// the header: the count, then what fits of the paging, hidden and left-out notes
	head := fmt.Sprintf("%d of %d runs in brush", in, n)
	var notes []string
	for _, l := range m.marks() {
		notes = append(notes, MarkGlyph+" "+l)
	}
	if nf := m.shownFields(); len(m.fields) > nf {
		notes = append(notes, fmt.Sprintf("fields %d–%d of %d (, . page)", m.first+1, m.first+nf, len(m.fields)))
	} else {
		verb := " vary"
		if len(m.fields) == 1 {
			verb = " varies"
		}
		notes = append(notes, plural(len(m.fields), "field")+verb)
	}
	if h := len(m.all) - len(m.fields); h > 0 {
		notes = append(notes, fmt.Sprintf("%d hidden (+ shows)", h))
	}
	if m.same > 0 {
		notes = append(notes, fmt.Sprintf("+%d equal to one shown", m.same))
	}
	for _, s := range notes {
		if ansi.StringWidth(head+" · "+s) <= m.w {
			head += " · " + s
		}
	}
	bt := m.BrushText()
	if bt == "" {
		bt = "none: ↑/↓ on an axis starts one"
	}
	out := []string{m.st.Bold.Render(head), "brush: " + bt}
	switch {
	case n == 0:
		return append(out, "", m.st.Muted.Render("no runs to draw (the filter hides them all?)"))
	case len(vis) < 2:
		acc := ", no accuracy"
		if m.hasAcc {
			acc = " and the accuracy"
		}
		return append(out, "", m.st.Muted.Render(fmt.Sprintf("nothing to draw: %s%s (two axes needed)",
			plural(len(m.fields), "varying field"), acc)))
	case m.w < 2*minGap || m.h < 10:
		return append(out, "", m.st.Muted.Render("too small to draw: z zooms the pane"))
	}
	anyLog := false
	for _, k := range vis {
		if m.axes[k].Kind == Log {
			anyLog = true
		}
	}
	// rows: names, max labels, plot, min labels, [scale kinds], description of the selected axis
	rows := m.h - len(out) - 4
	if anyLog {
		rows--
	}
	c := newCanvas(m.w, rows+3+btoi(anyLog))
	plotTop := 2
	gap := float64(m.w-1) / float64(len(vis)-1)
	lw := min(14, int(gap)-1)
	half := lw / 2
	span := float64(m.w - lw)
	xs := make([]int, len(vis))
	for i := range vis {
		xs[i] = half + int(math.Round(float64(i)*span/float64(len(vis)-1)))
	}
	dotY := func(p float64) int { return int(math.Round((1 - p) * float64(4*rows-1))) }

	// the runs: brushed-in solid and coloured by accuracy, brushed-out sparse and muted
	inG, outG := NewGrid(m.w, rows), NewGrid(m.w, rows)
	colour := make([]int, m.w*rows)
	for i := range colour {
		colour[i] = -1
	}
	accPos := m.pos[AccKey] // nil without accuracy axis
	ncol := len(m.styles) - sScale
	visPos := make([][]float64, len(vis))
	for i, k := range vis {
		visPos[i] = m.pos[k]
	}
	markG := NewGrid(m.w, rows)
	for ri, r := range m.runs {
		if r.Mark != "" {
			// over the others, solid in its own colour (sparse and muted when brushed out)
			g, step := markG, 1
			if !m.in(ri) {
				g, step = outG, 3
			}
			for i := 0; i+1 < len(vis); i++ {
				p0, p1 := visPos[i][ri], visPos[i+1][ri]
				if !math.IsNaN(p0) && !math.IsNaN(p1) {
					g.Line(2*xs[i]+2, dotY(p0), 2*xs[i+1]-1, dotY(p1), step)
				}
			}
			continue
		}
		ci := -1
		if accPos != nil && !math.IsNaN(accPos[ri]) && ncol > 0 {
			ci = int(math.Round(accPos[ri] * float64(ncol-1)))
		}
		isIn := m.in(ri)
		for i := 0; i+1 < len(vis); i++ {
			p0, p1 := visPos[i][ri], visPos[i+1][ri]
			if math.IsNaN(p0) || math.IsNaN(p1) {
				continue
			}
			x0, x1 := 2*xs[i]+2, 2*xs[i+1]-1
			if !isIn {
				outG.Line(x0, dotY(p0), x1, dotY(p1), 3)
				continue
			}
			line(x0, dotY(p0), x1, dotY(p1), 1, func(x, y int) {
				inG.Set(x, y)
				if x >= 0 && y >= 0 && x < 2*m.w && y < 4*rows {
					j := (y/4)*m.w + x/2
					colour[j] = max(colour[j], ci)
				}
			})
		}
	}
	for y := range rows {
		for x := range m.w {
			b := inG.Bits(x, y) | outG.Bits(x, y) | markG.Bits(x, y)
			if b == 0 {
				continue
			}
			st := sMuted
			switch {
			case markG.Bits(x, y) != 0:
				st = sMark
			case inG.Bits(x, y) != 0:
				st = sPlain
				if j := colour[y*m.w+x]; j >= 0 {
					st = sScale + j
				}
			}
			c.put(x, plotTop+y, string(rune(0x2800+rune(b))), st)
		}
	}

	// the axes, their brushes, names and labels
	short := ShortNames(vis)
	for i, k := range vis {
		a, x := m.axes[k], xs[i]
		selected := i == m.sel
		iv, brushed := m.brush[k]
		blo, bhi := rows, -1
		if brushed {
			bhi, blo = dotY(iv.Lo)/4, dotY(iv.Hi)/4
		}
		for y := range rows {
			switch {
			case y >= blo && y <= bhi:
				c.put(x, plotTop+y, "█", sBrush)
			case selected:
				c.put(x, plotTop+y, "┃", sSel)
			default:
				c.put(x, plotTop+y, "│", sMuted)
			}
		}
		name := short[k]
		if selected {
			c.centre(x, 0, "▸"+name, lw, sSel)
		} else {
			c.centre(x, 0, name, lw, sPlain)
		}
		if a.Kind == Categorical {
			last := -1
			for j := len(a.Cats) - 1; j >= 0; j-- {
				p, _ := a.Pos(a.Cats[j])
				y := dotY(p) / 4
				if y == last {
					continue
				}
				last = y
				c.put(x+1, plotTop+y, cut(a.Cats[j], int(gap)-2), sPlain)
			}
			continue
		}
		c.centre(x, 1, Fmt(a.Max), lw, sMuted)
		c.centre(x, plotTop+rows, Fmt(a.Min), lw, sMuted)
		if a.Kind == Log {
			c.centre(x, plotTop+rows+1, "log", lw, sMuted)
		}
	}
	// the marked runs' crossings, over the axes
	for ri, r := range m.runs {
		if r.Mark == "" {
			continue
		}
		st := sMark
		if !m.in(ri) {
			st = sMuted
		}
		for i := range vis {
			if p := visPos[i][ri]; !math.IsNaN(p) {
				c.put(xs[i], plotTop+dotY(p)/4, MarkGlyph, st)
			}
		}
	}
	out = append(out, c.lines(m.sgr)...)
	return append(out, m.st.Muted.Render(m.describe(m.Selected())))
}

// marks returns the labels of the marked runs (Run.Mark), in run order, each once.
func (m *Model) marks() []string {
	var out []string
	for _, r := range m.runs {
		if r.Mark != "" && !slices.Contains(out, r.Mark) {
			out = append(out, r.Mark)
		}
	}
	return out
}

// describe says what the selected axis is: its full key, its scale and range.
func (m *Model) describe(k string) string {
	a := m.axes[k]
	s := "▸ " + k
	if k == AccKey {
		s = "▸ acc (headline accuracy)"
	}
	switch a.Kind {
	case Log:
		s += fmt.Sprintf(": log scale, %s..%s", Fmt(a.Min), Fmt(a.Max))
	case Linear:
		s += fmt.Sprintf(": %s..%s", Fmt(a.Min), Fmt(a.Max))
	case Categorical:
		s += fmt.Sprintf(": %s", plural(len(a.Cats), "value"))
	}
	missing := 0
	for _, r := range m.runs {
		if r.value(k) == "" {
			missing++
		}
	}
	if missing > 0 {
		s += fmt.Sprintf(" · %d run(s) without it", missing)
	}
	for _, r := range m.runs {
		if v := r.value(k); r.Mark != "" && v != "" {
			if f, ok := number(v); ok && a.Kind != Categorical {
				v = Fmt(f)
			}
			s += fmt.Sprintf(" · %s %s %s", MarkGlyph, r.Mark, v)
		}
	}
	return s
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

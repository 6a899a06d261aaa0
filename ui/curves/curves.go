package curves

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/canvas/graph"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/ui/theme"
)

// Run is one run's curves: a label ("run 3 xperm-curve") and its series, each with
// points sorted by X.
type Run struct {
	Label  string
	Series []eval.Series
}

// Point returns the point of series name at x, if present.
func (r Run) Point(name string, x float64) (eval.SeriesPoint, bool) {
	for _, s := range r.Series {
		if s.Name != name {
			continue
		}
		for _, p := range s.Points {
			if p.X == x {
				return p, true
			}
		}
	}
	return eval.SeriesPoint{}, false
}

// add inserts or replaces the point (series p.Series, abscissa p.X), keeping X sorted.
func (r *Run) add(p eval.Point) {
	i := 0
	for i < len(r.Series) && r.Series[i].Name != p.Series {
		i++
	}
	if i == len(r.Series) {
		r.Series = append(r.Series, eval.Series{Name: p.Series, XLabel: p.XLabel, YLabel: p.YLabel})
	}
	s := &r.Series[i]
	sp := eval.SeriesPoint{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs}
	j := sort.Search(len(s.Points), func(k int) bool { return s.Points[k].X >= p.X })
	if j < len(s.Points) && s.Points[j].X == p.X {
		s.Points[j] = sp
		return
	}
	s.Points = append(s.Points, eval.SeriesPoint{})
	copy(s.Points[j+1:], s.Points[j:])
	s.Points[j] = sp
}

func (r Run) clone() Run {
	c := Run{Label: r.Label, Series: make([]eval.Series, len(r.Series))}
	for i, s := range r.Series {
		s.Points = append([]eval.SeriesPoint(nil), s.Points...)
		c.Series[i] = s
	}
	return c
}

// KeyMap lists the keys of the curves pane.
type KeyMap struct {
	Bars, Log, Unpin, LegendUp, LegendDown, Table key.Binding
}

// DefaultKeyMap returns the curves pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Bars:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "bars/band")),
		Log:        key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "log x on/off")),
		Unpin:      key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unpin last")),
		LegendUp:   key.NewBinding(key.WithKeys("{", "pgup"), key.WithHelp("{/}", "scroll legend")),
		LegendDown: key.NewBinding(key.WithKeys("}", "pgdown"), key.WithHelp("}", "scroll legend down")),
		Table:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "table/curves")),
	}
}

// Model is the curves pane: accuracy (mean ± std over repeats) against the x of the
// protocol, for the current run and every pinned run, with axes, labels and a legend.
// Drawing happens only when the data or the size changed (a dirty flag); View returns
// the cached frame.
type Model struct {
	st      theme.Styles
	keys    KeyMap
	w, h    int
	focused bool
	cur     Run
	pinned  []Run
	// curPinned says the last pinned run is a copy of the current one (Pin): the current
	// run is then drawn once, as that pin, as the saved files draw it.
	curPinned bool
	band      bool // draw a shaded band instead of error bars
	logX      int  // 0 auto, 1 on, -1 off
	dirty     bool
	frame     string
	cells     map[cellKey]string // rendered (style, rune) pairs, reused across draws
	// legendTop is the first legend entry shown when the legend scrolls; -1 follows
	// the end (the newest series).
	legendTop int
	// cellsDone and cellsTotal are the run's cell progress, said while it has no points.
	cellsDone, cellsTotal int
	// note is a line under the title about the current run (SetNote), "" none.
	note string
	// table shows the points as a table (v): a row per series, a column per x, the best
	// of each column marked; tableTop is its first row shown ({ } scroll it).
	table    bool
	tableTop int
}

// cellKey identifies how one canvas cell renders: its rune and the style attributes
// the chart uses (foreground colour and faintness).
type cellKey struct {
	fg    lipgloss.TerminalColor
	faint bool
	r     rune
}

// New returns an empty curves pane drawing with st.
func New(st theme.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), dirty: true, legendTop: -1}
}

// SetSize sets the outer size of the pane's content area, w columns by h rows.
func (m *Model) SetSize(w, h int) {
	if w != m.w || h != m.h {
		m.w, m.h, m.dirty = w, h, true
	}
}

// Focus gives or takes the keyboard focus.
func (m *Model) Focus(on bool) { m.focused = on }

// Reset starts a new current run with the given label and no points.
func (m *Model) Reset(label string) {
	m.cur = Run{Label: label}
	m.note = ""
	m.curPinned = false
	m.cellsDone, m.cellsTotal = 0, 0
	m.legendTop = -1
	m.dirty = true
}

// SetNote shows s on a line of its own under the title, about the current run (that
// its curves are an earlier spec's, say); "" removes it. Reset removes it too.
func (m *Model) SetNote(s string) {
	if s != m.note {
		m.note, m.dirty = s, true
	}
}

// SetProgress records that done of total cells of the current run are finished; while
// the run has no points the pane says "running: done of total cells done".
func (m *Model) SetProgress(done, total int) {
	if done != m.cellsDone || total != m.cellsTotal {
		m.cellsDone, m.cellsTotal = done, total
		if len(m.cur.Series) == 0 {
			m.dirty = true
		}
	}
}

// AddRun overlays r as a pinned run under its own label (a past run opened from the
// Runs pane, or one run of a comparison). Runs without series are ignored.
func (m *Model) AddRun(r Run) {
	if len(r.Series) == 0 {
		return
	}
	m.pinned = append(m.pinned, r.clone())
	m.curPinned = false
	m.legendTop = -1
	m.dirty = true
}

// UpdateRun replaces the series of the pinned run labelled label (a run followed live,
// whose journals grew). It returns false when no pinned run has that label (it was
// unpinned); runs without series leave the overlay as it is (true).
func (m *Model) UpdateRun(label string, series []eval.Series) bool {
	for i := range m.pinned {
		if m.pinned[i].Label != label {
			continue
		}
		if len(series) > 0 {
			m.pinned[i] = Run{Label: label, Series: series}.clone()
			m.dirty = true
		}
		return true
	}
	return false
}

// Add merges points into the current run: a point replaces an earlier one of the same
// series and X (a cell whose repeats progressed).
func (m *Model) Add(ps ...eval.Point) {
	for _, p := range ps {
		m.cur.add(p)
	}
	if len(ps) > 0 {
		m.dirty = true
		m.curPinned = false
	}
}

// SetOutcome replaces the current run's series by the final (or partial) outcome.
func (m *Model) SetOutcome(out *eval.Outcome) {
	if out == nil {
		return
	}
	r := Run{Label: m.cur.Label}
	for _, s := range out.Series {
		for _, p := range s.Points {
			r.add(eval.Point{Series: s.Name, XLabel: s.XLabel, YLabel: s.YLabel, X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
		}
	}
	m.cur = r
	m.curPinned = false
	m.dirty = true
}

// Current returns the current run (shared slices; do not modify).
func (m *Model) Current() Run { return m.cur }

// Pinned returns the pinned runs, oldest first (shared slices; do not modify).
func (m *Model) Pinned() []Run { return m.pinned }

// Pin copies the current run into the pinned overlays. It returns false when the
// current run has no points.
func (m *Model) Pin() bool {
	if len(m.cur.Series) == 0 {
		return false
	}
	c := m.cur.clone()
	c.Label = fmt.Sprintf("pin %d: %s", len(m.pinned)+1, m.cur.Label)
	m.pinned = append(m.pinned, c)
	m.curPinned = true
	m.dirty = true
	return true
}

// Unpin removes the most recent pinned run; it returns false when nothing is pinned.
func (m *Model) Unpin() bool {
	if len(m.pinned) == 0 {
		return false
	}
	m.pinned = m.pinned[:len(m.pinned)-1]
	m.curPinned = false
	m.dirty = true
	return true
}

// ShortHelp returns the pane's keys for the short help line.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	k.Unpin.SetEnabled(len(m.pinned) > 0)
	k.LegendUp.SetEnabled(m.legendScrolls())
	k.LegendDown.SetEnabled(false) // listed with LegendUp
	if m.table {
		k.Bars.SetEnabled(false)
		k.Log.SetEnabled(false)
		n := len(m.entries())
		k.LegendUp.SetEnabled(n > m.tableRows(n))
		k.LegendUp.SetHelp("{/}", "scroll rows")
	}
	return []key.Binding{k.Table, k.Bars, k.Log, k.Unpin, k.LegendUp}
}

// FullHelp returns the pane's keys as one help column.
func (m Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// Init does nothing: the pane has no timers.
func (m Model) Init() tea.Cmd { return nil }

// Update handles the pane's keys when focused.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || !m.focused {
		return m, nil
	}
	switch {
	case key.Matches(km, m.keys.Table):
		m.table = !m.table
		m.dirty = true
	case m.table && key.Matches(km, m.keys.LegendUp):
		m.scrollTable(-1)
	case m.table && key.Matches(km, m.keys.LegendDown):
		m.scrollTable(1)
	case m.table && (key.Matches(km, m.keys.Bars) || key.Matches(km, m.keys.Log)):
		// the table has no bars and no axis: nothing to change
	case key.Matches(km, m.keys.Bars):
		m.band = !m.band
		m.dirty = true
	case key.Matches(km, m.keys.Log):
		if m.useLog() {
			m.logX = -1
		} else {
			m.logX = 1
		}
		m.dirty = true
	case key.Matches(km, m.keys.Unpin):
		m.Unpin()
	case key.Matches(km, m.keys.LegendUp):
		m.scrollLegend(-1)
	case key.Matches(km, m.keys.LegendDown):
		m.scrollLegend(1)
	}
	return m, nil
}

// Dirty reports whether the next View will redraw the chart.
func (m *Model) Dirty() bool { return m.dirty }

// Cached returns the last drawn frame without drawing (the root uses it to throttle
// redraws to the frame rate while events stream in).
func (m *Model) Cached() string { return m.frame }

// View returns the pane, drawing it first if anything changed since the last call.
func (m *Model) View() string {
	if m.dirty {
		m.frame = m.draw()
		m.dirty = false
	}
	return m.frame
}

// entry is one drawn series: its data, legend label and look.
type entry struct {
	s     eval.Series
	label string
	look  theme.Look // colour, glyph and dash: theme.Looks, as the exported figures draw it
}

// drawnRuns returns the runs drawn, in drawing order: the pinned runs, then the current
// run unless it has no series or was just pinned (it is drawn once, as its pin).
func (m *Model) drawnRuns() []Run {
	runs := append([]Run(nil), m.pinned...)
	if len(m.cur.Series) > 0 && !m.curPinned {
		runs = append(runs, m.cur)
	}
	return runs
}

// entries lists every drawn series, pinned runs first. Where several runs are drawn a
// series is labelled "name · run", else by its name alone. Each gets theme.Looks of
// (series name, run index) in this order.
func (m *Model) entries() []entry {
	var es []entry
	var keys []theme.SeriesKey
	runs := m.drawnRuns()
	for k, r := range runs {
		for _, s := range r.Series {
			label := s.Name
			if len(runs) > 1 && r.Label != "" {
				label = s.Name + " · " + r.Label
			}
			es = append(es, entry{s: s, label: label})
			keys = append(keys, theme.SeriesKey{Name: s.Name, Run: k})
		}
	}
	for i, l := range theme.Looks(keys) {
		es[i].look = l
	}
	return es
}

// useLog reports whether the x axis is logarithmic: forced by L, else when every x is
// positive and they span at least a factor 8 (training sizes).
func (m *Model) useLog() bool {
	if m.logX != 0 {
		return m.logX > 0
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range m.entries() {
		for _, p := range e.s.Points {
			lo, hi = math.Min(lo, p.X), math.Max(hi, p.X)
		}
	}
	return lo > 0 && hi/lo >= 8
}

func (m *Model) draw() string {
	if m.w < 20 || m.h < 6 {
		return theme.Clip("curves: pane too small", m.w, m.h)
	}
	es := m.entries()
	var xl, yl string
	for _, e := range es {
		if xl == "" {
			xl, yl = e.s.XLabel, e.s.YLabel
		}
	}
	if yl == "" {
		yl = "accuracy"
	}
	if xl == "" {
		xl = "training set size"
	}
	logX := m.useLog()
	title := m.st.Bold.Render(yl) + m.st.Muted.Render(" vs "+xl)
	if logX && !m.table {
		title += m.st.Muted.Render(" (log)")
	}
	if m.note != "" {
		title += "\n" + m.st.Warn.Render(ansi.Truncate(m.note, m.w, "…"))
	}
	if len(es) == 0 {
		body := m.st.Muted.Render("no points yet: press r to run (p picks a preset)")
		if m.cellsTotal > 0 {
			body = m.st.Accent.Render(fmt.Sprintf("running: %d of %d cells done", m.cellsDone, m.cellsTotal)) +
				"\n" + m.st.Muted.Render("the curves appear when the first cell's draws are in")
		}
		return theme.Clip(title+"\n\n"+body, m.w, m.h)
	}
	if m.table {
		return m.drawTable(title, es, yl)
	}
	legendRows := m.legendRows(len(es))
	ch := m.h - 2 - legendRows // title, x label
	if m.note != "" {
		ch-- // the note's line
	}
	chart := m.chart(es, logX, m.w, ch, yl == "accuracy")
	lines := []string{title, chart, center(m.st.Muted.Render(xl), m.w)}
	lines = append(lines, m.legend(es, legendRows)...)
	return theme.Clip(strings.Join(lines, "\n"), m.w, m.h)
}

// legendRows is how many rows the legend of n series takes: one per series, up to a
// third of the pane (less when the chart would keep fewer than 4 rows); when the
// series do not fit, one of the rows says which are shown and how to scroll.
func (m *Model) legendRows(n int) int {
	room := max(1, (m.h-2)/3)
	if m.h-2-room < 4 {
		room = max(0, m.h-2-4)
	}
	if n <= room {
		return n
	}
	return room
}

// legendScrolls reports whether the legend holds more series than it shows.
func (m *Model) legendScrolls() bool {
	n := len(m.entries())
	return n > 0 && n > m.legendRows(n)
}

// scrollLegend moves the legend by d entries (clamped when drawn).
func (m *Model) scrollLegend(d int) {
	n := len(m.entries())
	rows := m.legendRows(n)
	if n <= rows {
		return
	}
	page := max(1, rows-1)
	top := m.legendTop
	if top < 0 {
		top = n - page
	}
	top = min(max(0, top+d), n-page)
	m.legendTop = top
	if top == n-page {
		m.legendTop = -1
	}
	m.dirty = true
}

// legend lists the series in rows lines: every series when they fit, else a window of
// rows-1 of them (scrolled with { and }, following the newest by default) under a line
// saying which are shown. No series is ever folded away.
func (m *Model) legend(es []entry, rows int) []string {
	if rows == 0 {
		return nil
	}
	show := es
	var out []string
	if len(es) > rows {
		page := max(1, rows-1)
		top := m.legendTop
		if top < 0 || top > len(es)-page {
			top = len(es) - page
		}
		show = es[top : top+page]
		out = append(out, m.st.Muted.Render(fmt.Sprintf("legend %d–%d of %d series ({ } scroll)", top+1, top+page, len(es))))
	}
	for _, e := range show {
		st := m.st.SeriesStyle(e.look.Color)
		mark := st.Render(string(e.look.Glyph()) + e.look.DashSample(theme.DashCells))
		last := ""
		if n := len(e.s.Points); n > 0 {
			p := e.s.Points[n-1]
			last = m.st.Muted.Render(fmt.Sprintf("  x=%s %.3f±%.3f (%d runs)", fmtX(p.X), p.Mean, p.Std, p.Runs))
		}
		out = append(out, mark+" "+e.label+last)
	}
	return out
}

func fmtX(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e9 {
		return fmt.Sprintf("%d", int64(x))
	}
	return fmt.Sprintf("%.3g", x)
}

// ranges returns the plotted x (log10 when logX) and y ranges, padded and never empty;
// for an accuracy (acc) the y range stays within [0, 1].
func ranges(es []entry, logX, acc bool) (x0, x1, y0, y1 float64) {
	x0, x1, y0, y1 = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for _, e := range es {
		for _, p := range e.s.Points {
			x := px(p.X, logX)
			x0, x1 = math.Min(x0, x), math.Max(x1, x)
			y0, y1 = math.Min(y0, p.Mean-p.Std), math.Max(y1, p.Mean+p.Std)
		}
	}
	if x1-x0 < 1e-12 {
		pad := 1.0
		if logX {
			pad = 0.1
		}
		x0, x1 = x0-pad, x1+pad
	}
	if y1-y0 < 0.05 {
		mid := (y0 + y1) / 2
		y0, y1 = mid-0.025, mid+0.025
	}
	pad := 0.05 * (y1 - y0)
	y0, y1 = y0-pad, y1+pad
	if y0 < 0 && y1 <= 1.05 {
		y0 = math.Max(y0, 0)
	}
	if acc {
		y0, y1 = math.Max(y0, 0), math.Min(y1, 1)
		if y1-y0 < 0.05 {
			y0 = y1 - 0.05
		}
	}
	return x0, x1, y0, y1
}

func px(x float64, logX bool) float64 {
	if logX {
		return math.Log10(x)
	}
	return x
}

// chart draws the axes, the bands or error bars, the mean lines and the point glyphs.
func (m *Model) chart(es []entry, logX bool, w, h int, acc bool) string {
	x0, x1, y0, y1 := ranges(es, logX, acc)
	// x tick labels at the abscissae of the data: the formatter sees every column
	// (xStep 1) and labels only columns that hold a point.
	lc := linechart.New(w, h, x0, x1, y0, y1,
		linechart.WithXYSteps(1, 2),
		linechart.WithStyles(m.st.Axis, m.st.Muted, m.st.Text),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return fmt.Sprintf("%.2f", v) }),
	)
	lc.XLabelFormatter = func(int, float64) string { return "" }
	lc.Clear()
	lc.DrawXYAxisAndLabel()
	m.xTicks(&lc, es, logX, w)
	if m.band {
		for _, e := range es {
			m.drawBand(&lc, e, logX)
		}
	}
	for _, e := range es {
		drawLine(&lc, e, logX, m.st.SeriesStyle(e.look.Color))
	}
	for _, e := range es {
		st := m.st.SeriesStyle(e.look.Color)
		for _, p := range e.s.Points {
			x := px(p.X, logX)
			if !m.band && p.Std > 0 {
				lc.DrawRuneLineWithStyle(canvas.Float64Point{X: x, Y: p.Mean - p.Std},
					canvas.Float64Point{X: x, Y: p.Mean + p.Std}, '│', st)
			}
			lc.DrawRuneWithStyle(canvas.Float64Point{X: x, Y: p.Mean}, e.look.Glyph(), st)
		}
	}
	return m.render(&lc.Canvas)
}

// drawLine draws the mean line of e in braille dots, dashed by e's look (one dot per
// point of the pattern, its phase running on from one segment to the next), as
// linechart's DrawBrailleLineWithStyle draws a solid segment.
func drawLine(lc *linechart.Model, e entry, logX bool, st lipgloss.Style) {
	pts := e.s.Points
	if len(pts) < 2 {
		return
	}
	g := graph.NewBrailleGrid(lc.GraphWidth(), lc.GraphHeight(), lc.MinX(), lc.MaxX(), lc.MinY(), lc.MaxY())
	dash := e.look.DashPattern()
	dist := 0.0
	for i := 0; i+1 < len(pts); i++ {
		p1 := g.GridPoint(canvas.Float64Point{X: px(pts[i].X, logX), Y: pts[i].Mean})
		p2 := g.GridPoint(canvas.Float64Point{X: px(pts[i+1].X, logX), Y: pts[i+1].Mean})
		line := graph.GetLinePoints(p1, p2)
		if len(line) > 0 && line[0] != p1 {
			slices.Reverse(line)
		}
		for j, p := range line {
			if j > 0 {
				q := line[j-1]
				dist += math.Hypot(float64(p.X-q.X), float64(p.Y-q.Y))
			} else if i > 0 {
				continue // the previous segment's last dot
			}
			if theme.On(dash, dist) {
				g.Set(p)
			}
		}
	}
	startX := 0
	if lc.YStep() > 0 {
		startX = lc.Origin().X + 1
	}
	graph.DrawBraillePatterns(&lc.Canvas, canvas.Point{X: startX, Y: 0}, g.BraillePatterns(), st)
}

// render draws the canvas like canvas.Model.View, but renders each distinct (style,
// rune) pair once and reuses it, which makes a redraw a few map lookups per cell.
func (m *Model) render(c *canvas.Model) string {
	if m.cells == nil {
		m.cells = map[cellKey]string{}
	}
	var sb strings.Builder
	w, h := c.Width(), c.Height()
	for y := 0; y < h; y++ {
		if y > 0 {
			sb.WriteByte('\n')
		}
		for x := 0; x < w; x++ {
			cell := c.Cell(canvas.Point{X: x, Y: y})
			r := cell.Rune
			if r == 0 {
				r = ' '
			}
			k := cellKey{fg: cell.Style.GetForeground(), faint: cell.Style.GetFaint(), r: r}
			s, ok := m.cells[k]
			if !ok {
				s = cell.Style.Render(string(r))
				m.cells[k] = s
			}
			sb.WriteString(s)
		}
	}
	return sb.String()
}

// xTicks labels the x axis at the abscissae of the data, centred under each point and
// skipping a label that would touch the previous one.
func (m *Model) xTicks(lc *linechart.Model, es []entry, logX bool, w int) {
	var xs []float64
	for _, e := range es {
		for _, p := range e.s.Points {
			xs = append(xs, p.X)
		}
	}
	sort.Float64s(xs)
	o := lc.Origin()
	next := o.X + 1
	for i, x := range xs {
		if i > 0 && x == xs[i-1] {
			continue
		}
		sp := lc.ScaleFloat64Point(canvas.Float64Point{X: px(x, logX), Y: lc.MinY()})
		l := fmtX(x)
		c := o.X + 1 + int(math.Round(sp.X)) - len(l)/2
		c = min(max(c, next), w-len(l))
		if c < next {
			continue
		}
		lc.Canvas.SetStringWithStyle(canvas.Point{X: c, Y: o.Y + 1}, l, m.st.Muted)
		next = c + len(l) + 1
	}
}

// drawBand shades, column by column, the cells between the interpolated mean-std and
// mean+std of e (a dotted rune where the cell is empty, so it shows without colour).
func (m *Model) drawBand(lc *linechart.Model, e entry, logX bool) {
	pts := e.s.Points
	st := m.st.SeriesStyle(e.look.Color).Faint(true)
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		xa, xb := px(a.X, logX), px(b.X, logX)
		ca := lc.ScaleFloat64Point(canvas.Float64Point{X: xa, Y: 0})
		cb := lc.ScaleFloat64Point(canvas.Float64Point{X: xb, Y: 0})
		for c := int(math.Round(ca.X)); c <= int(math.Round(cb.X)); c++ {
			t := 0.0
			if cb.X > ca.X {
				t = (float64(c) - ca.X) / (cb.X - ca.X)
			}
			t = math.Max(0, math.Min(1, t))
			x := xa + t*(xb-xa)
			mean := a.Mean + t*(b.Mean-a.Mean)
			sd := a.Std + t*(b.Std-a.Std)
			lc.DrawRuneLineWithStyle(canvas.Float64Point{X: x, Y: mean - sd}, canvas.Float64Point{X: x, Y: mean + sd}, '·', st)
		}
	}
}

func center(s string, w int) string {
	pad := (w - lipgloss.Width(s)) / 2
	if pad <= 0 {
		return s
	}
	return strings.Repeat(" ", pad) + s
}

// Dims returns the size set by SetSize.
func (m *Model) Dims() (w, h int) { return m.w, m.h }

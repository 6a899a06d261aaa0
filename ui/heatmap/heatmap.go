package heatmap

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/ui/theme"
)

// RequestMsg asks the root to compute the base and invariant Gram matrices of N pool
// samples for the current spec (the pane cannot reach the engine itself).
type RequestMsg struct{ N int }

// KeyMap lists the keys of the heatmap pane.
type KeyMap struct {
	Compute, Next, Prev, Page, Scale, More, Less key.Binding
}

// DefaultKeyMap returns the heatmap pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Compute: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "sample Gram now")),
		Next:    key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→", "next matrix")),
		Prev:    key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "previous matrix")),
		Page:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next pair")),
		Scale:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "colour scale")),
		More:    key.NewBinding(key.WithKeys("+", "="), key.WithHelp("+", "more samples")),
		Less:    key.NewBinding(key.WithKeys("-"), key.WithHelp("-", "fewer samples")),
	}
}

// Scale is how a matrix's values map to the colour scale. Every range is the matrix's
// own, taken from all its entries before any resampling, so a matrix looks the same at
// every pane size.
type Scale int

// The colour scales, in the order the Scale key cycles through them.
const (
	// MinMax maps [min K, max K] onto the colours.
	MinMax Scale = iota
	// DiagCentred puts the mean of the diagonal, d = mean_i K_ii (the typical
	// self-similarity), at the middle colour, over [d - r, d + r] with
	// r = max_ij |K_ij - d|: entries below d (pairs less alike than a sample with
	// itself) take the lower half.
	DiagCentred
	// Quantile maps the 2% and 98% quantiles of the entries onto the ends of the scale
	// (entries beyond them are clipped), so a few extreme entries (a dominant diagonal)
	// do not wash out the rest.
	Quantile
	numScales
)

// String names the scale as the pane shows it.
func (s Scale) String() string {
	switch s {
	case MinMax:
		return "min–max"
	case DiagCentred:
		return "centred on diagonal mean"
	case Quantile:
		return "quantiles 2–98%"
	}
	return fmt.Sprintf("Scale(%d)", int(s))
}

// Range returns the colour range [lo, hi] of mat under scale s (lo == hi for a constant
// matrix). It panics with a "heatmap:" prefix on an empty matrix.
//
//	MinMax:      lo = min K_ij, hi = max K_ij
//	DiagCentred: lo = d - r, hi = d + r, d = mean_i K_ii, r = max_ij |K_ij - d|
//	Quantile:    lo = q(0.02), hi = q(0.98), q the linear-interpolation quantile of all N² entries
func Range(mat eval.Matrix, s Scale) (lo, hi float64) {
	if mat.N == 0 || len(mat.Data) == 0 {
		panic("heatmap: range of an empty matrix")
	}
	switch s {
	case DiagCentred:
		d := 0.0
		for i := 0; i < mat.N; i++ {
			d += mat.Data[i*mat.N+i]
		}
		d /= float64(mat.N)
		r := 0.0
		for _, v := range mat.Data {
			r = math.Max(r, math.Abs(v-d))
		}
		return d - r, d + r
	case Quantile:
		v := append([]float64(nil), mat.Data...)
		sort.Float64s(v)
		return quantile(v, 0.02), quantile(v, 0.98)
	default:
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, v := range mat.Data {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		return lo, hi
	}
}

// quantile returns the q-quantile of the sorted values v, interpolating linearly
// between order statistics at position q·(len(v)-1).
func quantile(v []float64, q float64) float64 {
	pos := q * float64(len(v)-1)
	i := int(pos)
	if i >= len(v)-1 {
		return v[len(v)-1]
	}
	f := pos - float64(i)
	return v[i]*(1-f) + v[i+1]*f
}

// Model is the kernel heatmap pane: Gram matrices sorted by class, block-averaged to
// the pane and drawn with '▀' half blocks (foreground = pixel row 2k, background = row
// 2k+1, so pixels are square), each with its colour scale, smallest eigenvalue and PD
// verdict. Up to two matrices (base and invariant kernel) are shown side by side.
type Model struct {
	st      theme.Styles
	keys    KeyMap
	w, h    int
	focused bool
	mats    []eval.Matrix
	ranges  [][numScales][2]float64 // ranges[i][s]: Range(mats[i], s), computed once in Set
	scale   Scale
	bound   boundaryCells
	first   int    // index of the first matrix shown
	n       int    // sample size for the next Compute request
	status  string // e.g. "computing…" or an error, shown under the matrices
	isErr   bool
	dirty   bool
	frame   string
}

// New returns an empty heatmap pane drawing with st; Compute requests n samples.
func New(st theme.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), n: 200, dirty: true, bound: newBoundaryCells(st)}
}

// boundaryCells are the rendered '▀' cells of a class boundary pixel (in the text
// colour) above or below a scale colour, built once: top[j] has the boundary on top and
// scale colour j below, bottom[j] the reverse, both is boundary on both halves.
type boundaryCells struct {
	top, bottom []string
	both        string
}

func newBoundaryCells(st theme.Styles) boundaryCells {
	if !st.Color || len(st.Cells) == 0 || st.Renderer == nil {
		return boundaryCells{}
	}
	bc := st.Text.GetForeground()
	var b boundaryCells
	for j := range st.Cells {
		col := st.Cells[0][j].GetBackground()
		b.top = append(b.top, st.Renderer.NewStyle().Foreground(bc).Background(col).Render("▀"))
		b.bottom = append(b.bottom, st.Renderer.NewStyle().Foreground(col).Background(bc).Render("▀"))
	}
	b.both = st.Renderer.NewStyle().Foreground(bc).Background(bc).Render("▀")
	return b
}

// SetScale selects the colour scale.
func (m *Model) SetScale(s Scale) {
	if s >= 0 && s < numScales && s != m.scale {
		m.scale, m.dirty = s, true
	}
}

// CurrentScale returns the colour scale in use.
func (m *Model) CurrentScale() Scale { return m.scale }

// SetSize sets the size of the pane's content area.
func (m *Model) SetSize(w, h int) {
	if w != m.w || h != m.h {
		m.w, m.h, m.dirty = w, h, true
	}
}

// Focus gives or takes the keyboard focus.
func (m *Model) Focus(on bool) { m.focused = on }

// Samples returns the sample size the next Compute request asks for.
func (m *Model) Samples() int { return m.n }

// Failed reports whether the pane shows an error (a Gram computation failed).
func (m *Model) Failed() bool { return m.isErr && m.status != "" }

// Problem returns the error the pane shows (a Gram computation failed), or nil.
func (m *Model) Problem() error {
	if !m.Failed() {
		return nil
	}
	return errors.New(m.status)
}

// SetStatus shows a status under the matrices (isErr selects the error style, and an
// error is wrapped over as many lines as it needs); "" clears it.
func (m *Model) SetStatus(s string, isErr bool) {
	m.status, m.isErr, m.dirty = s, isErr, true
}

// Set shows mat, replacing a matrix of the same name. Rows and columns are permuted
// (stably) so that Labels are non-decreasing when they are not already. It panics if
// len(Data) != N*N or Labels is neither empty nor of length N.
func (m *Model) Set(mat eval.Matrix) {
	if len(mat.Data) != mat.N*mat.N || (len(mat.Labels) != 0 && len(mat.Labels) != mat.N) {
		panic(fmt.Sprintf("heatmap: matrix %q has %d entries and %d labels for n=%d", mat.Name, len(mat.Data), len(mat.Labels), mat.N))
	}
	mat = SortByClass(mat)
	var r [numScales][2]float64
	if mat.N > 0 {
		for s := range numScales {
			r[s][0], r[s][1] = Range(mat, s)
		}
	}
	for i := range m.mats {
		if m.mats[i].Name == mat.Name {
			m.mats[i], m.ranges[i] = mat, r
			m.dirty = true
			return
		}
	}
	m.mats = append(m.mats, mat)
	m.ranges = append(m.ranges, r)
	if len(m.mats) > 2 && m.first == len(m.mats)-3 {
		m.first = len(m.mats) - 2 // follow new matrices
	}
	m.dirty = true
}

// Clear removes every matrix.
func (m *Model) Clear() { m.mats, m.ranges, m.first, m.dirty = nil, nil, 0, true }

// Matrices returns the matrices held, in arrival order (shared; do not modify).
func (m *Model) Matrices() []eval.Matrix { return m.mats }

// SortByClass returns mat with rows and columns permuted so that Labels are
// non-decreasing (a stable sort; mat itself is returned when already sorted).
func SortByClass(mat eval.Matrix) eval.Matrix {
	if sort.IntsAreSorted(mat.Labels) {
		return mat
	}
	n := mat.N
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return mat.Labels[idx[a]] < mat.Labels[idx[b]] })
	out := mat
	out.Data = make([]float64, n*n)
	out.Labels = make([]int, n)
	for a, i := range idx {
		out.Labels[a] = mat.Labels[i]
		for b, j := range idx {
			out.Data[a*n+b] = mat.Data[i*n+j]
		}
	}
	return out
}

// ShortHelp returns the pane's keys for the short help line.
func (m Model) ShortHelp() []key.Binding {
	k := m.keys
	k.Next.SetEnabled(len(m.mats) > 2)
	k.Prev.SetEnabled(len(m.mats) > 2)
	k.Page.SetEnabled(len(m.mats) > 2)
	k.Scale.SetEnabled(len(m.mats) > 0)
	return []key.Binding{k.Scale, k.Prev, k.Next, k.Page, k.Compute, k.More, k.Less}
}

// FullHelp returns the pane's keys as one help column.
func (m Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// Init does nothing: the pane has no timers.
func (m Model) Init() tea.Cmd { return nil }

// Update handles the pane's keys when focused; Compute returns a RequestMsg command.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || !m.focused {
		return m, nil
	}
	switch {
	case key.Matches(km, m.keys.Compute):
		n := m.n
		return m, func() tea.Msg { return RequestMsg{N: n} }
	case key.Matches(km, m.keys.More):
		m.n = min(1000, m.n*3/2)
		m.dirty = true
	case key.Matches(km, m.keys.Less):
		m.n = max(10, m.n*2/3)
		m.dirty = true
	case key.Matches(km, m.keys.Page):
		if len(m.mats) > 2 {
			m.first = (m.first + 2) % len(m.mats)
			m.dirty = true
		}
	case key.Matches(km, m.keys.Next):
		if len(m.mats) > 2 {
			m.first = (m.first + 1) % len(m.mats)
			m.dirty = true
		}
	case key.Matches(km, m.keys.Prev):
		if len(m.mats) > 2 {
			m.first = (m.first + len(m.mats) - 1) % len(m.mats)
			m.dirty = true
		}
	case key.Matches(km, m.keys.Scale):
		m.scale = (m.scale + 1) % numScales
		m.dirty = true
	}
	return m, nil
}

// Dirty reports whether the next View will redraw the matrices.
func (m *Model) Dirty() bool { return m.dirty }

// Cached returns the last drawn frame without drawing.
func (m *Model) Cached() string { return m.frame }

// View returns the pane, drawing it first if anything changed since the last call.
func (m *Model) View() string {
	if m.dirty {
		m.frame = m.draw()
		m.dirty = false
	}
	return m.frame
}

func (m *Model) draw() string {
	status := ""
	if m.status != "" {
		if m.isErr {
			status = strings.Join(theme.WrapLines(m.st.Error.Render, m.status, m.w, 2), "\n") // wrapped, never cut
		} else {
			status = m.st.Muted.Render(m.status)
		}
	}
	if len(m.mats) == 0 {
		title := m.title("")
		body := theme.WrapLines(m.st.Muted.Render, "no matrix yet: a run shows its kernels' Gram matrices of a training sample while it builds them; g computes them for the spec now", m.w, 0)
		return theme.Clip(strings.Join([]string{title, "", strings.Join(body, "\n"), status}, "\n"), m.w, m.h)
	}
	k := min(2, len(m.mats))
	const gap = 3
	cw := (m.w - gap*(k-1)) / k
	if k == 2 && cw < 22 {
		k, cw = 1, m.w
	}
	pos := ""
	if len(m.mats) > k {
		last := (m.first+k-1)%len(m.mats) + 1
		pos = fmt.Sprintf("%d–%d", m.first+1, last)
		if k == 1 {
			pos = fmt.Sprint(m.first + 1)
		}
		pos = fmt.Sprintf("%s of %d ←/→", pos, len(m.mats))
	}
	title := m.title(pos)
	bh := m.h - 1 // title
	// A matrix name wider than its block is cut there with …; the footer then gives it
	// whole (wrapped), so "CDF(10,30) RBF RLS (range threshold)" is never lost.
	var full []string
	for i := 0; i < k; i++ {
		if name := m.mats[(m.first+i)%len(m.mats)].Name; ansi.StringWidth(name) > cw {
			full = append(full, name)
		}
	}
	if len(full) > 0 {
		names := strings.Join(theme.WrapLines(m.st.Muted.Render, "full name: "+strings.Join(full, " · "), m.w, 3), "\n")
		if status != "" {
			status = names + "\n" + status
		} else {
			status = names
		}
	}
	if status != "" {
		bh = max(1, bh-strings.Count(status, "\n")-1)
	}
	var blocks []string
	for i := 0; i < k; i++ {
		j := (m.first + i) % len(m.mats)
		blocks = append(blocks, m.block(m.mats[j], m.ranges[j][m.scale], cw, bh))
	}
	sep := strings.Repeat(" ", gap)
	body := lipgloss.JoinHorizontal(lipgloss.Top, joinWith(blocks, sep)...)
	out := title + "\n" + body
	if status != "" {
		out += "\n" + status
	}
	return theme.Clip(out, m.w, m.h)
}

// title is the pane's first line: "kernel Gram matrices", then as many of these as fit
// the width, in this order: pos (which matrices are shown), the colour scale, "sorted
// by class", the sample size g asks for.
func (m *Model) title(pos string) string {
	var parts []string
	if pos != "" {
		parts = append(parts, pos)
	}
	if len(m.mats) > 0 {
		parts = append(parts, "c "+m.scale.String())
	}
	parts = append(parts, "sorted by class", fmt.Sprintf("g n=%d", m.n))
	head := "kernel Gram matrices"
	info := ""
	for _, p := range parts {
		if ansi.StringWidth(head+info+" · "+p) > m.w {
			continue
		}
		info += " · " + p
	}
	return m.st.Bold.Render(head) + m.st.Muted.Render(info)
}

func joinWith(blocks []string, sep string) []string {
	var out []string
	for i, b := range blocks {
		if i > 0 {
			out = append(out, sep)
		}
		out = append(out, b)
	}
	return out
}

// block renders one matrix, exactly w columns wide and at most h rows tall: its name,
// the class labels above the columns where each class starts, the pixels with the
// class labels in the left margin and class boundary lines, the colour bar of the
// range r (the matrix's own, under the pane's scale), and the smallest eigenvalue.
func (m *Model) block(mat eval.Matrix, r [2]float64, w, h int) string {
	lines := []string{m.st.Bold.Render(ansi.Truncate(mat.Name, w, "…"))} // whole in the footer (draw)
	margin := labelWidth(mat)
	ph := (h - 4) * 2      // pixel rows available (name, column labels, bar, eigenvalue lines)
	p := min(w-margin, ph) // the margin holds the row labels
	if p < 2 || mat.N == 0 {
		return theme.Pad(strings.Join(append(lines, m.st.Muted.Render("(too small)")), "\n"), w, h)
	}
	if mat.N <= p {
		p = mat.N * (p / mat.N)
	}
	px, _, _ := Resample(mat, p)
	lo, hi := r[0], r[1]
	starts := classStarts(mat, p)
	lines = append(lines, m.columnLabels(starts, margin))
	lines = append(lines, m.render(px, p, lo, hi, starts, margin, m.boundaryLines(mat, p))...)
	lines = append(lines, m.colourBar(lo, hi, min(w, max(p+margin, 24))))
	eig := fmt.Sprintf("n=%d  λmin=%.3g  ", mat.N, mat.MinEig)
	switch v := Verdict(mat); v {
	case "not PD":
		lines = append(lines, m.st.Muted.Render(eig)+m.st.Error.Render(v))
	default:
		lines = append(lines, m.st.Muted.Render(eig)+m.st.OK.Render(v))
	}
	return theme.Pad(strings.Join(lines, "\n"), w, h)
}

// boundaryLines reports whether class boundary lines fit a p-pixel image of mat: each
// line takes the place of one pixel (of a text row of two without colour), so they are
// drawn only when the smallest class spans at least 4 pixels (6 without colour, three
// text rows); otherwise the labels alone mark where classes start.
func (m *Model) boundaryLines(mat eval.Matrix, p int) bool {
	if len(mat.Labels) != mat.N || mat.N == 0 {
		return false
	}
	need := 4
	if !m.st.Color {
		need = 6
	}
	run := 0
	for i, l := range mat.Labels {
		if i > 0 && l != mat.Labels[i-1] {
			if run*p < need*mat.N {
				return false
			}
			run = 0
		}
		run++
	}
	return run*p >= need*mat.N
}

// labelWidth is the width of the widest class label of mat (at least 1).
func labelWidth(mat eval.Matrix) int {
	w := 1
	for i, l := range mat.Labels {
		if i == 0 || l != mat.Labels[i-1] {
			w = max(w, len(strconv.Itoa(l)))
		}
	}
	return w
}

// columnLabels is the line above the pixels: each class's label at the column where
// the class starts (left out when it would run into the previous label).
func (m *Model) columnLabels(starts []int, margin int) string {
	line := []rune(strings.Repeat(" ", margin+len(starts)))
	next := margin // first column free for a label
	for b, l := range starts {
		if l < 0 {
			continue
		}
		lab := strconv.Itoa(l)
		at := margin + b
		if at < next || at+len(lab) > len(line) {
			continue
		}
		copy(line[at:], []rune(lab))
		next = at + len(lab) + 1
	}
	return m.st.Muted.Render(string(line))
}

// Resample block-averages the N×N matrix to p×p pixels (nearest-neighbour when N < p)
// and returns them row-major with the pixel range [lo, hi]. It panics if p < 1.
//
//	pixel(a, b) = mean of K[i][j] over i in [a N/p, (a+1) N/p), j in [b N/p, (b+1) N/p)
func Resample(mat eval.Matrix, p int) (px []float64, lo, hi float64) {
	if p < 1 {
		panic("heatmap: resample to fewer than 1 pixel")
	}
	n := mat.N
	px = make([]float64, p*p)
	span := func(a int) (int, int) {
		i0, i1 := a*n/p, (a+1)*n/p
		if i1 <= i0 {
			i1 = i0 + 1
		}
		return i0, min(i1, n)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for a := 0; a < p; a++ {
		i0, i1 := span(a)
		for b := 0; b < p; b++ {
			j0, j1 := span(b)
			s := 0.0
			for i := i0; i < i1; i++ {
				row := mat.Data[i*n : i*n+n]
				for j := j0; j < j1; j++ {
					s += row[j]
				}
			}
			v := s / float64((i1-i0)*(j1-j0))
			px[a*p+b] = v
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return px, lo, hi
}

// classStarts maps each pixel row to the class whose block starts there (-1 if none).
func classStarts(mat eval.Matrix, p int) []int {
	out := make([]int, p)
	for a := range out {
		out[a] = -1
	}
	if len(mat.Labels) != mat.N {
		return out
	}
	for i, l := range mat.Labels {
		if i == 0 || l != mat.Labels[i-1] {
			a := i * p / mat.N
			if out[a] == -1 {
				out[a] = l
			}
		}
	}
	return out
}

// level maps v in [lo, hi] to 0..k-1 (the middle level when hi == lo).
func level(v, lo, hi float64, k int) int {
	if !(hi > lo) {
		return k / 2
	}
	l := int((v - lo) / (hi - lo) * float64(k))
	return max(0, min(k-1, l))
}

// render draws the p×p pixels two pixel rows per line ('▀': foreground the upper
// pixel, background the lower), mapping [lo, hi] onto the colour scale, with the class
// label right-aligned in a margin of the given width on the line where each class
// starts, and, with lines set, a boundary line (in the text colour; '─', '│' and '┼'
// without colour) along the first pixel row and column of every class but the first.
func (m *Model) render(px []float64, p int, lo, hi float64, starts []int, margin int, lines bool) []string {
	var out []string
	k := len(m.st.CellStr)
	colour := m.st.Color && k > 0 && len(m.bound.top) == k
	edge := func(a int) bool { return lines && a > 0 && a < p && starts[a] >= 0 }
	var sb strings.Builder
	for r := 0; 2*r < p; r++ {
		sb.Reset()
		lab := ""
		for _, a := range []int{2 * r, 2*r + 1} {
			if a < p && starts[a] >= 0 && lab == "" {
				lab = strconv.Itoa(starts[a])
			}
		}
		sb.WriteString(m.st.Muted.Render(fmt.Sprintf("%*s", margin, lab)))
		a0, a1 := 2*r, 2*r+1
		for b := 0; b < p; b++ {
			top := px[a0*p+b]
			if !colour {
				rowEdge, colEdge := edge(a0) || edge(a1), edge(b)
				switch {
				case rowEdge && colEdge:
					sb.WriteRune('┼')
				case rowEdge:
					sb.WriteRune('─')
				case colEdge:
					sb.WriteRune('│')
				default:
					v := top
					if a1 < p {
						v = (top + px[a1*p+b]) / 2
					}
					sb.WriteRune(theme.Shades[level(v, lo, hi, len(theme.Shades))])
				}
				continue
			}
			upEdge := edge(a0) || edge(b)
			if a1 >= p {
				if upEdge {
					sb.WriteString(m.st.Text.Render("▀"))
				} else {
					sb.WriteString(m.st.ScaleFg[level(top, lo, hi, k)].Render("▀"))
				}
				continue
			}
			downEdge := edge(a1) || edge(b)
			lt, lb := level(top, lo, hi, k), level(px[a1*p+b], lo, hi, k)
			switch {
			case upEdge && downEdge:
				sb.WriteString(m.bound.both)
			case upEdge:
				sb.WriteString(m.bound.top[lb])
			case downEdge:
				sb.WriteString(m.bound.bottom[lt])
			default:
				sb.WriteString(m.st.CellStr[lt][lb])
			}
		}
		out = append(out, sb.String())
	}
	return out
}

func (m *Model) colourBar(lo, hi float64, w int) string {
	l, h := fmt.Sprintf("%.3g ", lo), fmt.Sprintf(" %.3g", hi)
	bw := w - len(l) - len(h)
	if bw < 2 {
		return m.st.Muted.Render(strings.TrimSpace(l) + ".." + strings.TrimSpace(h))
	}
	var sb strings.Builder
	for i := 0; i < bw; i++ {
		if !m.st.Color || len(m.st.ScaleFg) == 0 {
			sb.WriteRune(theme.Shades[i*len(theme.Shades)/bw])
			continue
		}
		sb.WriteString(m.st.ScaleFg[i*len(m.st.ScaleFg)/bw].Render("█"))
	}
	return m.st.Muted.Render(l) + sb.String() + m.st.Muted.Render(h)
}

// Verdict classifies a Gram matrix by its smallest eigenvalue: "PD" when it is
// positive, "PSD" when it is negative by no more than rounding,
//
//	|λmin| <= 1e-9 · max_i |K_ii|,
//
// and "not PD" otherwise.
func Verdict(mat eval.Matrix) string {
	if mat.MinEig > 0 {
		return "PD"
	}
	d := 0.0
	for i := 0; i < mat.N; i++ {
		d = math.Max(d, math.Abs(mat.Data[i*mat.N+i]))
	}
	if mat.MinEig >= -1e-9*d {
		return "PSD"
	}
	return "not PD"
}

package heatmap

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gitui/core/eval"
	"gitui/ui/theme"
)

// RequestMsg asks the root to compute the base and invariant Gram matrices of N pool
// samples for the current spec (the pane cannot reach the engine itself).
type RequestMsg struct{ N int }

// KeyMap lists the keys of the heatmap pane.
type KeyMap struct {
	Compute, Next, More, Less key.Binding
}

// DefaultKeyMap returns the heatmap pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Compute: key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "sample Gram")),
		Next:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next matrices")),
		More:    key.NewBinding(key.WithKeys("+", "l", "right"), key.WithHelp("+", "more samples")),
		Less:    key.NewBinding(key.WithKeys("-", "h", "left"), key.WithHelp("-", "fewer samples")),
	}
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
	first   int    // index of the first matrix shown
	n       int    // sample size for the next Compute request
	status  string // e.g. "computing…" or an error, shown under the matrices
	isErr   bool
	dirty   bool
	frame   string
}

// New returns an empty heatmap pane drawing with st; Compute requests n samples.
func New(st theme.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), n: 200, dirty: true}
}

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
	for i := range m.mats {
		if m.mats[i].Name == mat.Name {
			m.mats[i] = mat
			m.dirty = true
			return
		}
	}
	m.mats = append(m.mats, mat)
	if len(m.mats) > 2 && m.first == len(m.mats)-3 {
		m.first = len(m.mats) - 2 // follow new matrices
	}
	m.dirty = true
}

// Clear removes every matrix.
func (m *Model) Clear() { m.mats, m.first, m.dirty = nil, 0, true }

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
	return []key.Binding{k.Compute, k.More, k.Less, k.Next}
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
	case key.Matches(km, m.keys.Next):
		if len(m.mats) > 2 {
			m.first = (m.first + 2) % len(m.mats)
			m.dirty = true
		}
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
	title := m.st.Bold.Render("kernel Gram matrices") + m.st.Muted.Render(fmt.Sprintf(" sorted by class · g computes n=%d", m.n))
	status := ""
	if m.status != "" {
		if m.isErr {
			status = strings.Join(theme.WrapLines(m.st.Error.Render, m.status, m.w, 2), "\n") // wrapped, never cut
		} else {
			status = m.st.Muted.Render(m.status)
		}
	}
	if len(m.mats) == 0 {
		body := m.st.Muted.Render("no matrix yet: press g for the base vs invariant Gram of a pool sample")
		return theme.Clip(strings.Join([]string{title, "", body, status}, "\n"), m.w, m.h)
	}
	show := m.mats[m.first:]
	k := min(2, len(show))
	const gap = 3
	cw := (m.w - gap*(k-1)) / k
	if k == 2 && cw < 22 {
		k, cw = 1, m.w
	}
	bh := m.h - 1 // title
	if status != "" {
		bh = max(1, bh-strings.Count(status, "\n")-1)
	}
	var blocks []string
	for i := 0; i < k; i++ {
		blocks = append(blocks, m.block(show[i], cw, bh))
	}
	sep := strings.Repeat(" ", gap)
	body := lipgloss.JoinHorizontal(lipgloss.Top, joinWith(blocks, sep)...)
	out := title + "\n" + body
	if status != "" {
		out += "\n" + status
	}
	return theme.Clip(out, m.w, m.h)
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

// block renders one matrix with its name, class margin, colour bar and eigenvalue,
// exactly w columns wide and at most h rows tall.
func (m *Model) block(mat eval.Matrix, w, h int) string {
	lines := []string{m.st.Bold.Render(mat.Name)}
	ph := (h - 3) * 2 // pixel rows available (name, bar, eigenvalue lines)
	p := min(w-1, ph) // one column of class labels
	if p < 2 || mat.N == 0 {
		return theme.Pad(strings.Join(append(lines, m.st.Muted.Render("(too small)")), "\n"), w, h)
	}
	if mat.N <= p {
		p = mat.N * (p / mat.N)
	}
	px, lo, hi := Resample(mat, p)
	lines = append(lines, m.render(px, p, lo, hi, classStarts(mat, p))...)
	lines = append(lines, m.colourBar(lo, hi, min(w, max(p+1, 24))))
	eig := fmt.Sprintf("n=%d  λmin=%.3g  ", mat.N, mat.MinEig)
	switch v := Verdict(mat); v {
	case "not PD":
		lines = append(lines, m.st.Muted.Render(eig)+m.st.Error.Render(v))
	default:
		lines = append(lines, m.st.Muted.Render(eig)+m.st.OK.Render(v))
	}
	return theme.Pad(strings.Join(lines, "\n"), w, h)
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

func (m *Model) render(px []float64, p int, lo, hi float64, starts []int) []string {
	var lines []string
	k := len(m.st.CellStr)
	var sb strings.Builder
	for r := 0; 2*r < p; r++ {
		sb.Reset()
		lab := " "
		for _, a := range []int{2 * r, 2*r + 1} {
			if a < p && starts[a] >= 0 && lab == " " {
				lab = fmt.Sprint(starts[a] % 10)
			}
		}
		sb.WriteString(m.st.Muted.Render(lab))
		for b := 0; b < p; b++ {
			top := px[2*r*p+b]
			if !m.st.Color || k == 0 {
				v := top
				if 2*r+1 < p {
					v = (top + px[(2*r+1)*p+b]) / 2
				}
				sb.WriteRune(theme.Shades[level(v, lo, hi, len(theme.Shades))])
				continue
			}
			if 2*r+1 < p {
				sb.WriteString(m.st.CellStr[level(top, lo, hi, k)][level(px[(2*r+1)*p+b], lo, hi, k)])
			} else {
				sb.WriteString(m.st.ScaleFg[level(top, lo, hi, k)].Render("▀"))
			}
		}
		lines = append(lines, sb.String())
	}
	return lines
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

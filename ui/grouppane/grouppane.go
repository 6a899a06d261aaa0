package grouppane

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/internal/pix"
	"gitui/ui/internal/specmsg"
	"gitui/ui/theme"
)

// orbitMsg carries the orbit preview built in the background for request tag.
type orbitMsg struct {
	tag   int
	name  string
	size  int
	idx   []int       // group element of each image
	xs    [][]float64 // g_idx[k] · x
	shape []int
	// labels name the elements when the group knows them (pitch-tempo: "+400c x0.5"), and
	// spectrogram says to draw rows bottom-up (band 0, the lowest, at the bottom).
	labels      []string
	spectrogram bool
	// what says, for a group the user brings (model.FileGroupKinds), whether it is a
	// group ("group (closed)") or only a set ("set"), and how says it in words (the
	// Describe of core/group's PermSet and LinearSet); both empty for the built-in kinds.
	what, how string
	err       error
}

// shown are the keys of the registry's group fields the pane edits, in order.
var shown = []string{"group.kind", "group.radius", "group.angles.from", "group.angles.to", "group.angles.count",
	"group.shears.from", "group.shears.to", "group.shears.count", "group.scales.from", "group.scales.to", "group.scales.count",
	"group.path", "group.generators_path", "group.axis", "group.size"}

// Fields returns the group pane's fields for s: those of shown that apply to its group
// kind, with their labels, ranges and help from the registry (model.SpecFields). Shears
// and scales are shown (and edited) when the spec gives them: a spec file or
// --set group.shears={"from":-0.3,"to":0.3,"count":5} adds them. A group the user brings
// shows its file (permutations, linear), its generators file (generated: inline
// group.generators come from a spec file or --set) or its mirror axis.
func Fields(s *model.Spec) []form.Field {
	var fs []form.Field
	for _, k := range shown {
		if !model.SpecFieldOf(k).Applies(s) ||
			strings.HasPrefix(k, "group.shears.") && s.Group.Shears == nil || strings.HasPrefix(k, "group.scales.") && s.Group.Scales == nil {
			continue
		}
		fs = append(fs, form.FromSpec(k))
	}
	return fs
}

// ProblemKeys are the fields whose Validate problems the pane shows (model.Problem.Under):
// the spec's group (not group_sizes, nor a method's own group).
var ProblemKeys = []string{"group"}

// Model is the group pane: its fields and a preview of one sample's orbit
// (x, g1 x, g2 x, ...) under the group built from them.
type Model struct {
	st theme.Styles
	form.Split
	spec   *model.Spec
	sample []float64
	shape  []int
	tag    int
	orbit  orbitMsg
	busy   bool
	// dataTag is the tag of the newest data set taken (datapane.LoadedMsg.Tag, which
	// grows with every load): an older load's result, arriving late, is stale.
	dataTag int
}

// New returns the pane over spec.
func New(st theme.Styles, spec *model.Spec) Model {
	return Model{st: st, spec: spec, Split: form.Split{Editor: form.New(st, spec, Fields, ProblemKeys)}}
}

// Form returns the pane's form.
func (m *Model) Form() *form.Model { return &m.Editor }

// SetSpec points the pane at a new spec (the orbit follows the next LoadedMsg).
func (m *Model) SetSpec(s *model.Spec) { m.spec = s; m.Editor.SetSpec(s) }

// Err returns the error of building the current group on the current data (nil while
// building or when it built): for example a shift group on sequence data.
func (m *Model) Err() error {
	if m.busy {
		return nil
	}
	return m.orbit.err
}

// Problem returns what the pane shows as an error: a spec problem of its fields, else
// the error of building the group on the data (nil when there is neither).
func (m *Model) Problem() error {
	if err := m.Split.Problem(); err != nil {
		return err
	}
	return m.Err()
}

// Update handles keys, group changes (rebuild the orbit), a new data set and orbitMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case specmsg.Msg:
		m.SetSpec(msg.Spec) // the orbit follows the next LoadedMsg
		return m, nil
	case datapane.LoadedMsg:
		if msg.Tag < m.dataTag {
			return m, nil // a stale load (the data pane drops it too)
		}
		m.dataTag = msg.Tag
		if msg.Err != nil || msg.Pool == nil || msg.Pool.Len() == 0 {
			m.sample, m.shape = nil, nil
			return m, nil
		}
		m.sample, m.shape = pickSample(msg.Pool), msg.Pool.Shape
		return m, m.build()
	case form.ChangedMsg:
		if msg.Key == "group.kind" {
			defaults(&m.spec.Group)
		}
		if strings.HasPrefix(msg.Key, "group.") || msg.Key == "seed" {
			return m, m.build()
		}
		return m, nil
	case orbitMsg:
		if msg.tag == m.tag {
			m.orbit, m.busy = msg, false
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.Editor, cmd = m.Editor.Update(msg)
	return m, cmd
}

// defaults gives a group kind that was just chosen the settings it needs to be valid:
// rotation angles ±20° in 9 steps and a local-shift radius of 1 (the values the papers'
// local-invariance experiments use), leaving values already set alone.
func defaults(g *model.GroupSpec) {
	if model.TakesAngles(g.Kind) && g.Angles == nil {
		g.Angles = &model.AngleSpec{From: -20, To: 20, Count: 9}
	}
	if g.Kind == model.GroupLocalShift && g.Radius == 0 {
		g.Radius = 1
	}
}

// pickSample returns a copy of the first sample of the pool.
func pickSample(p *data.Dataset) []float64 {
	return append([]float64(nil), p.X.RawRowView(0)...)
}

// build starts building the group and the orbit of the sample in the background.
func (m *Model) build() tea.Cmd {
	if m.sample == nil {
		return nil
	}
	if err := groupProblem(m.spec); err != "" {
		m.tag++
		m.busy = false
		m.orbit = orbitMsg{tag: m.tag, err: fmt.Errorf("%s", err)}
		return nil
	}
	m.tag++
	m.busy = true
	tag, g, shape, x, seed := m.tag, m.spec.Group, m.shape, m.sample, m.spec.Seed
	for _, p := range []**model.AngleSpec{&g.Angles, &g.Shears, &g.Scales} {
		if *p != nil {
			a := **p
			*p = &a
		}
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = orbitMsg{tag: tag, err: fmt.Errorf("building group %s panicked: %v", g.Kind, r)}
			}
		}()
		return orbit(tag, g, shape, x, seed)
	}
}

// groupProblem returns the first Validate problem about the group (ProblemKeys; "" if
// none) of s with its defaults filled: an invalid group is not built.
func groupProblem(s *model.Spec) string {
	c := s.Clone()
	c.Defaults()
	var ps model.Problems
	if errors.As(c.Validate(), &ps) {
		if g := ps.Under(ProblemKeys...); len(g) > 0 {
			return "fix the group first: " + g[0].Msg
		}
	}
	return ""
}

// orbit builds the group and applies up to 8 evenly spaced elements to x.
func orbit(tag int, g model.GroupSpec, shape []int, x []float64, seed uint64) orbitMsg {
	a, err := engine.BuildGroup(g, shape, seed)
	if err != nil {
		return orbitMsg{tag: tag, err: err}
	}
	if a == nil {
		return orbitMsg{tag: tag, name: "identity only (no group)", size: 1, idx: []int{0}, xs: [][]float64{x}, shape: shape}
	}
	n := a.Len()
	k := min(8, n)
	out := orbitMsg{tag: tag, name: a.Name(), size: n, shape: shape}
	picks := make([]int, 0, k)
	for j := 0; j < k; j++ {
		i := 0
		if k > 1 {
			i = j * (n - 1) / (k - 1)
		}
		picks = append(picks, i)
	}
	out.what, out.how = closure(g, a)
	pt, isPT := a.(*group.PitchTempo)
	if isPT {
		out.spectrogram = true
		picks = pitchTempoPicks(pt)
	}
	for _, i := range picks {
		dst := make([]float64, a.Dim())
		a.Apply(dst, x, i)
		out.idx = append(out.idx, i)
		out.xs = append(out.xs, dst)
		if isPT {
			out.labels = append(out.labels, pt.Label(i, 12))
		}
	}
	return out
}

// closure says whether a, built from g, is a group or only a set, for the groups a user
// brings (model.FileGroupKinds; "" for the built-in kinds): "group (closed)" or "set",
// and in words the Describe of core/group's PermSet or LinearSet ("a group of 8
// elements", "a set of 50 permutations, not closed under composition (...)"). A seeded
// sample of such a group (group.size) is a set.
func closure(g model.GroupSpec, a group.Action) (what, how string) {
	if !model.FileGroupKind(g.Kind) {
		return "", ""
	}
	c, ok := a.(interface {
		Closed() bool
		Describe() string
	})
	if !ok {
		return "set", fmt.Sprintf("a sample of %d elements (group.size): the Haar kernel needs the whole group", a.Len())
	}
	if c.Closed() {
		return "group (closed)", c.Describe()
	}
	return "set", c.Describe() + ": the Haar kernel needs a group"
}

// pitchTempoPicks returns the elements a spectrogram preview shows: the identity, the
// extreme pitch shifts, the extreme tempo warps, and the two diagonal corners (at most
// eight elements, in the set's order of appearance).
func pitchTempoPicks(pt *group.PitchTempo) []int {
	lo, hi := 0, 0
	rlo, rhi := 1.0, 1.0
	for i := range pt.Len() {
		s, r := pt.Element(i)
		lo, hi = min(lo, s), max(hi, s)
		rlo, rhi = min(rlo, r), max(rhi, r)
	}
	want := [][2]float64{{0, 1}, {float64(lo), 1}, {float64(hi), 1}, {0, rlo}, {0, rhi}, {float64(hi), rlo}, {float64(lo), rhi}}
	var picks []int
	for _, w := range want {
		for i := range pt.Len() {
			s, r := pt.Element(i)
			if float64(s) == w[0] && r == w[1] && !slices.Contains(picks, i) {
				picks = append(picks, i)
			}
		}
	}
	return picks
}

// View renders the form beside (wide) or above (narrow) the orbit preview.
func (m *Model) View() string {
	f := m.Editor.View()
	if m.Side() {
		pw := m.W - m.FormWidth() - 2
		left := theme.Pad(f, m.FormWidth(), m.H)
		m.FormRows = m.H
		return lipgloss.JoinHorizontal(lipgloss.Top, left, "  ", theme.Clip(m.preview(pw, m.H), pw, m.H))
	}
	fh := min(lipgloss.Height(f), m.H/2+1)
	m.FormRows = fh
	return theme.Clip(theme.Clip(f, m.W, fh)+"\n"+m.preview(m.W, m.H-fh-1), m.W, m.H)
}

func (m *Model) preview(w, h int) string {
	o := m.orbit
	var out []string
	switch {
	case m.sample == nil:
		out = append(out, m.st.Muted.Render("waiting for the data set…"))
	case m.busy:
		out = append(out, m.st.Muted.Render("building the group…"))
	case o.err != nil:
		out = append(out, theme.WrapLines(m.st.Error.Render, "✗ "+o.err.Error(), w, 2)...) // wrapped, never cut
	default:
		out = append(out, m.st.Bold.Render(fmt.Sprintf("|G| = %d", o.size))+m.st.Muted.Render("  "+o.name))
		if o.what != "" {
			style := m.st.OK
			if o.what == "set" {
				style = m.st.Warn
			}
			out = append(out, style.Render(o.what))
			out = append(out, theme.WrapLines(m.st.Muted.Render, o.how, w, 2)...)
		}
		if o.spectrogram {
			out = append(out, m.st.Muted.Render("orbit of one spectrogram (bands up, frames right): x, g·x, ..."))
		} else {
			out = append(out, m.st.Muted.Render("orbit of one sample: x, g·x, ..."))
		}
		out = append(out, m.draw(w, h-len(out))...)
	}
	return theme.Clip(strings.Join(out, "\n"), w, h)
}

func (m *Model) draw(w, h int) []string {
	o := m.orbit
	if o.spectrogram && len(o.shape) == 2 {
		return m.drawGrid(w, h)
	}
	if len(o.shape) == 2 && o.shape[0] >= 8 && o.shape[1] >= 8 {
		cw := min(o.shape[1], max(8, (h-1)*2)) + 1
		k := min(len(o.xs), max(1, w/cw))
		var blocks []string
		for j := 0; j < k; j++ {
			x := o.xs[j]
			if o.spectrogram {
				x = flipRows(x, o.shape[0], o.shape[1])
			}
			img := pix.Image(m.st, x, o.shape[0], o.shape[1], cw-1)
			label := fmt.Sprintf("g%d", o.idx[j])
			if j < len(o.labels) {
				label = o.labels[j]
			}
			blocks = append(blocks, strings.Join(append([]string{m.st.Muted.Render(label)}, img...), "\n"), " ")
		}
		return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, blocks...), "\n")
	}
	if len(o.shape) == 2 {
		var out []string
		for j, x := range o.xs {
			out = append(out, fmt.Sprintf("g%-4d %s", o.idx[j], pix.Sequence(x, o.shape[0], o.shape[1])))
		}
		return out
	}
	var out []string
	for j, x := range o.xs {
		out = append(out, fmt.Sprintf("g%-4d %.3v", o.idx[j], x))
	}
	return out
}

// flipRows returns the h×w image x with its rows in reverse order (a spectrogram's band 0,
// the lowest, drawn at the bottom).
func flipRows(x []float64, h, w int) []float64 {
	out := make([]float64, len(x))
	for r := range h {
		copy(out[(h-1-r)*w:(h-r)*w], x[r*w:(r+1)*w])
	}
	return out
}

// drawGrid draws the orbit's spectrograms small, several to a row and as many rows as fit
// in h lines, each under its label (cents and playback rate).
func (m *Model) drawGrid(w, h int) []string {
	o := m.orbit
	const cw = 15 // 14 columns of image and a space
	perRow := max(1, w/cw)
	var lines []string
	for start := 0; start < len(o.xs); start += perRow {
		var blocks []string
		for j := start; j < min(start+perRow, len(o.xs)); j++ {
			img := pix.Image(m.st, flipRows(o.xs[j], o.shape[0], o.shape[1]), o.shape[0], o.shape[1], cw-1)
			label := fmt.Sprintf("g%d", o.idx[j])
			if j < len(o.labels) {
				label = o.labels[j]
			}
			blocks = append(blocks, strings.Join(append([]string{m.st.Muted.Render(label)}, img...), "\n"), " ")
		}
		row := strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, blocks...), "\n")
		if len(lines)+len(row) > h {
			break
		}
		lines = append(lines, row...)
	}
	return lines
}

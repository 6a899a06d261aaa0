package datapane

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gitui/core/data"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/form"
	"gitui/ui/internal/pix"
	"gitui/ui/internal/specmsg"
	"gitui/ui/theme"
)

// LoadedMsg reports the data set loaded for the preview (and for the group pane's
// orbit): the pool and test sets of Spec, or the error that loading gave. Tag
// identifies the request; a message with a stale tag is ignored.
type LoadedMsg struct {
	Tag        int
	Spec       model.DataSpec
	Pool, Test *data.Dataset
	Err        error
}

// shown are the keys of the registry's data fields the pane edits, in order.
var shown = []string{"data.name", "data.path", "data.test_path", "data.pool", "data.test_size", "data.normalize"}

// Fields returns the data pane's fields for s: those of shown that apply to s, with
// their labels, ranges and help from the registry (model.SpecFields). The paths are
// offered for data.name file (spoken digits find their corpus by themselves).
func Fields(s *model.Spec) []form.Field {
	var fs []form.Field
	for _, k := range shown {
		if f := model.SpecFieldOf(k); !f.Applies(s) || strings.HasSuffix(k, "path") && s.Data.Name != "file" {
			continue
		}
		fs = append(fs, form.FromSpec(k))
	}
	return fs
}

// ProblemKeys are the fields whose Validate problems the pane shows (model.Problem.Under):
// the data set's.
var ProblemKeys = []string{"data"}

// Model is the data set pane: its fields, what the data directory holds, and a preview
// of the loaded pool (class counts and a few samples).
type Model struct {
	st theme.Styles
	form.Split
	spec    *model.Spec
	dir     string
	avail   []data.Source
	tag     int
	loading bool
	cancel  context.CancelFunc // stops the load in flight (a stale one: the spec changed)
	pool    *data.Dataset
	test    *data.Dataset
	err     error
}

// New returns the pane over spec; dir is the data directory searched for IDX files
// ("" when none).
func New(st theme.Styles, spec *model.Spec, dir string) Model {
	m := Model{st: st, spec: spec, dir: dir, Split: form.Split{Editor: form.New(st, spec, Fields, ProblemKeys)}}
	if dir != "" {
		m.avail = data.Available(dir)
	}
	return m
}

// Form returns the pane's form (for the root: editing state, issues).
func (m *Model) Form() *form.Model { return &m.Editor }

// SetSpec points the pane at a new spec and returns the command that reloads the preview.
func (m *Model) SetSpec(s *model.Spec) tea.Cmd {
	m.spec = s
	m.Editor.SetSpec(s)
	return m.Load()
}

// Err returns the error of the last load of the current data spec (nil when it loaded
// or is loading): a file that does not parse shows here and blocks a run.
func (m *Model) Err() error {
	if m.loading {
		return nil
	}
	return m.err
}

// Problem returns what the pane shows as an error: a spec problem of its fields, else
// the error of loading the data set (nil when there is neither).
func (m *Model) Problem() error {
	if err := m.Split.Problem(); err != nil {
		return err
	}
	return m.Err()
}

// Loading reports whether a preview load is in flight.
func (m *Model) Loading() bool { return m.loading }

// Pool returns the loaded training pool (nil until loaded).
func (m *Model) Pool() *data.Dataset { return m.pool }

// Test returns the loaded test set (nil until loaded).
func (m *Model) Test() *data.Dataset { return m.test }

// Load starts loading the current data spec in the background and returns the command.
// A load still in flight is cancelled: its result would be stale (tens of thousands of
// audio files stop within milliseconds).
//
// The preview of the old spec is dropped at once (the pane shows "loading…" until the
// new one arrives), and a stale load's result is dropped when it arrives, its memory
// given back to the system (releaseMemory), so a large file abandoned for another
// path is not held until exit.
func (m *Model) Load() tea.Cmd {
	m.tag++
	m.loading = true
	m.pool, m.test = nil, nil
	if m.cancel != nil {
		m.cancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.cancel = cancel
	tag, d, dir, seed := m.tag, m.spec.Data, m.dir, m.spec.Seed
	return func() (msg tea.Msg) {
		defer cancel()
		defer func() {
			if r := recover(); r != nil {
				msg = LoadedMsg{Tag: tag, Spec: d, Err: fmt.Errorf("loading %s panicked: %v", d.Name, r)}
			}
		}()
		pool, test, err := engine.LoadDataContext(ctx, d, dir, seed, nil)
		return LoadedMsg{Tag: tag, Spec: d, Pool: pool, Test: test, Err: err}
	}
}

// Init loads the preview of the spec's data set (Load).
func (m *Model) Init() tea.Cmd { return m.Load() }

// releaseMemory is a command that collects garbage and returns the freed memory to the
// operating system (debug.FreeOSMemory): run after a stale preview load is dropped, as
// the idle TUI would otherwise keep the heap it grew to. It reports no message.
func releaseMemory() tea.Msg {
	debug.FreeOSMemory()
	return nil
}

// Update handles keys (to the form), the form's changes (reload) and LoadedMsg.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case specmsg.Msg:
		return m, m.SetSpec(msg.Spec)
	case LoadedMsg:
		if msg.Tag != m.tag {
			// A stale load (cancelled, or finished after the spec changed): what it
			// read is garbage now; give it back rather than keep it until exit.
			return m, releaseMemory
		}
		m.loading = false
		m.pool, m.test, m.err = msg.Pool, msg.Test, msg.Err
		return m, nil
	case form.ChangedMsg:
		if strings.HasPrefix(msg.Key, "data.") || msg.Key == "seed" {
			return m, m.Load()
		}
		return m, nil
	}
	var cmd tea.Cmd
	m.Editor, cmd = m.Editor.Update(msg)
	return m, cmd
}

// View renders the form beside (wide) or above (narrow) the preview.
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
	f = theme.Clip(f, m.W, fh)
	return theme.Clip(f+"\n"+m.preview(m.W, m.H-fh-1), m.W, m.H)
}

func (m *Model) preview(w, h int) string {
	var out []string
	switch {
	case m.loading:
		out = append(out, m.st.Muted.Render("loading "+m.spec.Data.Name+"…"))
	case m.err != nil:
		out = append(out, theme.WrapLines(m.st.Error.Render, "✗ "+m.err.Error(), w, 2)...) // wrapped, never cut
	case m.pool != nil:
		out = append(out, m.summary(w)...)
		out = append(out, m.samples(w, h-len(out)-4)...)
	}
	out = append(out, m.sources(w)...)
	return theme.Clip(strings.Join(out, "\n"), w, h)
}

func (m *Model) summary(w int) []string {
	p := m.pool
	head := m.st.Bold.Render(fmt.Sprintf("%s: %d training, %d test, shape %v", m.spec.Data.Name, p.Len(), m.test.Len(), p.Shape))
	counts := make([]int, len(p.Classes))
	for _, y := range p.Y {
		counts[y]++
	}
	var parts []string
	for i, c := range counts {
		parts = append(parts, fmt.Sprintf("%s:%d", p.Classes[i], c))
	}
	line := m.st.Muted.Render("classes " + strings.Join(parts, " "))
	return []string{head, line}
}

// samples draws the first sample of up to a few classes.
func (m *Model) samples(w, h int) []string {
	p := m.pool
	if h < 2 {
		return nil
	}
	var idx []int
	seen := map[int]bool{}
	for i, y := range p.Y {
		if !seen[y] {
			seen[y] = true
			idx = append(idx, i)
		}
	}
	shape := p.Shape
	switch {
	case len(shape) == 2 && shape[0] >= 8 && shape[1] >= 8: // images
		cw := min(shape[1], max(8, (h-1)*2)) + 1
		k := min(len(idx), max(1, w/cw))
		var blocks []string
		for _, i := range idx[:k] {
			img := pix.Image(m.st, p.X.RawRowView(i), shape[0], shape[1], cw-1)
			blocks = append(blocks, strings.Join(append([]string{m.st.Muted.Render("class " + p.Classes[p.Y[i]])}, img...), "\n"), " ")
		}
		return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, blocks...), "\n")
	case len(shape) == 2: // one-hot sequences
		var out []string
		for _, i := range idx {
			out = append(out, fmt.Sprintf("%-4s %s", p.Classes[p.Y[i]], pix.Sequence(p.X.RawRowView(i), shape[0], shape[1])))
		}
		return out
	case len(shape) == 1 && shape[0] == 2: // points in the plane
		n := min(p.Len(), 400)
		xs, ys, cls := make([]float64, n), make([]float64, n), make([]int, n)
		for i := 0; i < n; i++ {
			xs[i], ys[i], cls[i] = p.X.At(i, 0), p.X.At(i, 1), p.Y[i]
		}
		return pix.Scatter(m.st, xs, ys, cls, min(w, 2*h), min(h, 12))
	}
	return nil
}

func (m *Model) sources(w int) []string {
	out := []string{"", m.st.Bold.Render("available")}
	out = append(out, m.st.Muted.Render("xperm, circle (generated) · embedded digits (built in)"))
	if m.dir == "" {
		return append(out, m.st.Muted.Render("no data directory: use --data DIR or GITUI_DATA"))
	}
	for _, s := range m.avail {
		if s.Err != nil {
			out = append(out, m.st.Error.Render(fmt.Sprintf("%s %s: %v", s.Name, s.Split, s.Err)))
			continue
		}
		out = append(out, m.st.Muted.Render(fmt.Sprintf("%s %s: %d × %dx%d  %s", s.Name, s.Split, s.N, s.Rows, s.Cols, s.Images)))
	}
	if len(m.avail) == 0 {
		out = append(out, m.st.Muted.Render("no IDX files under "+m.dir+" (gitui data fetch mnist)"))
	}
	return out
}

package methodpane

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/ui/form"
	"gitui/ui/internal/specmsg"
	"gitui/ui/theme"
)

// protocolFields are the keys of the registry's spec-level fields the pane edits
// after the method's, in order (each shown where it applies).
var protocolFields = []string{"protocol", "sizes", "grid.bins", "grid.templates", "grid.size", "group_sizes",
	"approx.pairs", "approx.templates", "approx.bins", "repeats", "sampling", "seed"}

// Fields returns the fields of method i of s that apply to its feature map, kernel and
// learner (from the schema model.MethodFields: nested objects and lists are edited in a
// spec file), then the protocol fields that apply to s (model.SpecFields).
func Fields(s *model.Spec, i int) []form.Field {
	var fs []form.Field
	if i < len(s.Methods) {
		mt := s.Methods[i]
		for _, f := range model.MethodFields {
			if !f.Applies(mt) || f.Key == "preprocess" && !model.ImageData(s.Data) {
				continue
			}
			if ff, ok := form.FromMethod(i, f, mt); ok {
				fs = append(fs, ff)
			}
		}
	}
	for _, k := range protocolFields {
		if model.SpecFieldOf(k).Applies(s) {
			fs = append(fs, form.FromSpec(k))
		}
	}
	return fs
}

// ProblemKeys are the fields whose Validate problems the pane shows (model.Problem.Under):
// the methods, and the protocol with its sizes, repeats, sampling and seed, including
// the objects of the protocols edited in a spec file (pd, sweep) and nested.
var ProblemKeys = func() []string {
	out := []string{"methods", "pd", "sweep", "nested"}
	for _, k := range protocolFields {
		if top, _, _ := strings.Cut(k, "."); !slices.Contains(out, top) {
			out = append(out, top)
		}
	}
	return out
}()

// KeyMap lists the method pane's own keys (besides the form's).
type KeyMap struct {
	PrevMethod, NextMethod, Add, Delete key.Binding
	// Tune (t) marks the selected field to tune, or unmarks it (tune.go).
	Tune key.Binding
}

// DefaultKeyMap returns the method pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		PrevMethod: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous method")),
		NextMethod: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next method")),
		Add:        key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add method (copy)")),
		Delete:     key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete method")),
		Tune:       key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "tune field (T starts)")),
	}
}

// Model is the method pane: the methods of the spec (one edited at a time), the
// protocol and its sizes, with validation as you type and the equivalent headless
// command line.
type Model struct {
	st   theme.Styles
	keys KeyMap
	form form.Model
	spec *model.Spec
	cur  *int // method being edited (shared with the form's field function)
	cmd  string
	w, h int
	// tabs are the columns of the method tabs in the last View: tab i spans
	// [tabs[i].x0, tabs[i].x1) on the pane's first line.
	tabs []tabSpan
	// tune holds the fields marked to tune: key → distribution (tune.go).
	tune map[string]string
	// est holds each method's time estimate ("~40 s", "" unknown) and total the run's,
	// set by the workbench when the spec or the data change (SetEstimates);
	// calibrated says the rates were measured on this machine.
	est        []string
	total      string
	calibrated bool
}

// tabSpan is where the tab of method i was drawn.
type tabSpan struct{ i, x0, x1 int }

// New returns the pane over spec.
func New(st theme.Styles, spec *model.Spec) Model {
	cur := new(int)
	fields := func(s *model.Spec) []form.Field { return Fields(s, min(*cur, max(0, len(s.Methods)-1))) }
	m := Model{st: st, keys: DefaultKeyMap(), spec: spec, cur: cur, form: form.New(st, spec, fields, ProblemKeys), tune: map[string]string{}}
	m.form.SetNote(m.tuneNote)
	return m
}

// Form returns the pane's form.
func (m *Model) Form() *form.Model { return &m.form }

// SetSpec points the pane at a new spec and selects its first method.
// The marks of fields to tune are dropped.
func (m *Model) SetSpec(s *model.Spec) { m.spec, *m.cur = s, 0; m.form.SetSpec(s); clear(m.tune) }

// SetCommand sets the equivalent `gitui run ...` line shown at the bottom.
func (m *Model) SetCommand(c string) { m.cmd = c }

// SetEstimates sets the time estimates shown on the line above the headless command:
// per[i] of method i ("~40 s"; "" shows none) and total, the run's ("" shows no line),
// marked "uncalibrated" unless calibrated (rates measured by `gitui bench --calibrate`).
func (m *Model) SetEstimates(per []string, total string, calibrated bool) {
	m.est, m.total, m.calibrated = per, total, calibrated
}

// Estimates returns the per-method estimates shown and the run's.
func (m *Model) Estimates() ([]string, string) { return m.est, m.total }

// Command returns the command line shown.
func (m *Model) Command() string { return m.cmd }

// Method returns the index of the method being edited.
func (m *Model) Method() int { return *m.cur }

// SetSize sets the pane's content size.
func (m *Model) SetSize(w, h int) {
	m.w, m.h = w, h
	m.form.SetSize(w, h-m.footer())
}

// footer is the rows under the form: the time line (when an estimate is known), then
// "headless:" (not in a short pane with a time line) and the command in what is left.
func (m *Model) footer() int {
	if m.h < 12 {
		return 2
	}
	return 4
}

// timeLine is the time estimate of each method and of the run, the edited method's in
// bold: "time: 1 <1 s · 2 ~20 s · run ~25 s, uncalibrated" (cut with … to the width).
func (m *Model) timeLine() string {
	var parts []string
	for i, e := range m.est {
		if e == "" {
			continue
		}
		p := fmt.Sprintf("%d %s", i+1, e)
		if i == *m.cur {
			p = m.st.Bold.Render(p)
		}
		parts = append(parts, p)
	}
	run := "run " + m.total
	if !m.calibrated {
		run += ", uncalibrated"
	}
	parts = append(parts, m.st.Muted.Render(run))
	return ansi.Truncate(m.st.Muted.Render("time: ")+strings.Join(parts, m.st.Muted.Render(" · ")), m.w, "…")
}

// Focus gives or takes the keyboard focus.
func (m *Model) Focus(on bool) { m.form.Focus(on) }

// Editing reports whether the form is in a text edit (it then takes every key).
func (m *Model) Editing() bool { return m.form.Editing() }

// Problem returns the first spec problem of the methods or the protocol, or nil.
func (m *Model) Problem() error { return m.form.Problem() }

func (m Model) keysNow() []key.Binding {
	if m.form.Editing() {
		return nil
	}
	k := m.keys
	n := len(m.spec.Methods)
	k.PrevMethod.SetEnabled(n > 1)
	k.NextMethod.SetEnabled(n > 1)
	k.Delete.SetEnabled(n > 1)
	k.Tune.SetEnabled(n > 0)
	return []key.Binding{k.PrevMethod, k.NextMethod, k.Add, k.Delete, k.Tune}
}

// ShortHelp returns the keys that work now.
func (m Model) ShortHelp() []key.Binding { return append(m.form.ShortHelp(), m.keysNow()...) }

// FullHelp returns the keys that work now, as two columns.
func (m Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{m.form.ShortHelp(), m.keysNow()}
}

// Update handles the method keys and passes the rest to the form. Adding or deleting a
// method returns a form.ChangedMsg("methods") command.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if sm, ok := msg.(specmsg.Msg); ok {
		m.SetSpec(sm.Spec)
		return m, nil
	}
	km, ok := msg.(tea.KeyMsg)
	if ok && !m.form.Editing() {
		n := len(m.spec.Methods)
		changed := func() tea.Msg { return form.ChangedMsg{Key: "methods"} }
		switch {
		case key.Matches(km, m.keys.PrevMethod) && n > 1:
			*m.cur = (*m.cur + n - 1) % n
			return m, nil
		case key.Matches(km, m.keys.NextMethod) && n > 1:
			*m.cur = (*m.cur + 1) % n
			return m, nil
		case key.Matches(km, m.keys.Add):
			c := model.Method{Features: "raw", Learner: "rls"}
			if n > 0 {
				c = m.spec.Methods[min(*m.cur, n-1)]
				c.Name = ""
			}
			m.spec.Methods = append(m.spec.Methods, c)
			m.spec.Defaults()
			// A copy would share its source's series and pool with it: "raw RLS (2)".
			m.spec.Methods[n].Name = m.spec.UniqueName(n)
			*m.cur = len(m.spec.Methods) - 1
			return m, changed
		case key.Matches(km, m.keys.Delete) && n > 1:
			i := min(*m.cur, n-1)
			m.spec.Methods = append(m.spec.Methods[:i], m.spec.Methods[i+1:]...)
			*m.cur = min(i, len(m.spec.Methods)-1)
			clear(m.tune) // the methods' indices moved
			return m, changed
		case key.Matches(km, m.keys.Tune) && n > 0:
			return m, m.toggleTune()
		}
	}
	if _, ok := msg.(form.ChangedMsg); ok {
		m.pruneTune()
	}
	var cmd tea.Cmd
	m.form, cmd = m.form.Update(msg)
	return m, cmd
}

// Click acts on a mouse click at column x, line y of the pane's content (as last drawn):
// on a method's tab it edits that method; on a field of the form it selects the field.
// It reports whether something was there.
func (m *Model) Click(x, y int) bool {
	if y == 0 {
		for _, t := range m.tabs {
			if x >= t.x0 && x < t.x1 && t.i < len(m.spec.Methods) && !m.form.Editing() {
				*m.cur = t.i
				return true
			}
		}
		return false
	}
	if y-1 >= m.h-m.footer()-1 {
		return false // the headless command
	}
	return m.form.Click(y - 1)
}

// View renders the method tabs, the form and the command line.
func (m *Model) View() string {
	var tabs []string
	for i, mt := range m.spec.Methods {
		name := mt.DisplayName()
		if i == *m.cur {
			tabs = append(tabs, m.st.TabActive.Render(fmt.Sprintf("%d %s", i+1, name)))
		} else {
			tabs = append(tabs, m.st.Tab.Render(fmt.Sprintf("%d %s", i+1, name)))
		}
	}
	// Keep the edited method's tab visible: drop tabs from the left while they overflow.
	first := 0
	for first < *m.cur && ansi.StringWidth(strings.Join(tabs[first:], "")) > m.w-1 {
		first++
	}
	head := strings.Join(tabs[first:], "")
	x := 0
	if first > 0 {
		head = m.st.Muted.Render("‹") + head
		x = 1
	}
	m.tabs = m.tabs[:0]
	for i := first; i < len(tabs); i++ {
		w := ansi.StringWidth(tabs[i])
		m.tabs = append(m.tabs, tabSpan{i: i, x0: x, x1: x + w})
		x += w
	}
	if len(m.spec.Methods) == 0 {
		head = m.st.Error.Render("no method: press a to add one")
	}
	m.form.SetSize(m.w, m.h-m.footer()-1)
	body := m.form.View()
	body = theme.Pad(body, m.w, m.h-m.footer()-1)
	var foot []string
	if m.total != "" {
		foot = append(foot, m.timeLine())
	}
	if len(foot) == 0 || m.footer() > 2 {
		foot = append(foot, m.st.Muted.Render("headless:"))
	}
	// The command wraps at spaces (never inside "--set"); past the footer's rows it is cut with "…".
	lines := strings.Split(theme.Wrap(m.cmd, m.w), "\n")
	if rows := m.footer() - len(foot); rows >= 1 && len(lines) > rows {
		lines = lines[:rows]
		lines[rows-1] = ansi.Truncate(lines[rows-1], m.w-1, "") + "…"
	}
	foot = append(foot, lines...)
	return theme.Clip(head+"\n"+body+"\n"+strings.Join(foot, "\n"), m.w, m.h)
}

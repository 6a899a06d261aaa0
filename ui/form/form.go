package form

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/model"
	"gitui/ui/theme"
)

// Kind is the type of a field's value, which decides parsing, stepping and editing.
type Kind int

// Field kinds.
const (
	Int      Kind = iota // whole number; step ±Step
	Float                // real number; step ±Step
	LogFloat             // positive real on a log scale (lambda, gamma); step ×/÷ Step
	Enum                 // one of Options; step cycles
	Text                 // free text (paths)
	Bool                 // true/false; step toggles
	IntList              // comma-separated whole numbers ("100,200,500")
)

// Field is one editable value of the spec, addressed by its dotted JSON path (the same
// path `gitui run --set` takes).
type Field struct {
	Key     string // e.g. "methods.0.bins"
	Label   string // e.g. "bins n"
	Help    string // one line shown while the field is selected
	Kind    Kind
	Options []string // Enum
	// Min and Max bound numeric values (inclusive) and every entry of an IntList;
	// both zero means unbounded. They are the registry's range (model.SpecField,
	// model.MethodField), the one `--set` and Validate accept.
	Min, Max float64
	// StepMin and StepMax, when either is set, bound what ←/→ steps to (the registry's
	// UIMin and UIMax: gamma steps within 1e-8..1e8) instead of Min and Max.
	StepMin, StepMax float64
	// Step is the Int/Float increment (default 1) or the LogFloat factor (default 10).
	Step float64
	// Zero explains an empty or zero value, e.g. "auto: leave-one-out".
	Zero string
}

// ChangedMsg reports that the field Key of the shared spec was changed by the user.
type ChangedMsg struct{ Key string }

// KeyMap lists the form's keys.
type KeyMap struct {
	Up, Down, Dec, Inc, Edit, Commit, Discard key.Binding
}

// DefaultKeyMap returns the form's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "previous field")),
		Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "next field")),
		Dec:     key.NewBinding(key.WithKeys("left", "h", "-"), key.WithHelp("←/h/-", "step down")),
		Inc:     key.NewBinding(key.WithKeys("right", "l", "+", "="), key.WithHelp("→/l/+", "step up")),
		Edit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "edit")),
		Commit:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		Discard: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "discard edit")),
	}
}

// Model edits fields of a spec shared with the rest of the workbench. A value is
// parsed and range-checked before it is assigned, so a letter in a number field or an
// out-of-range value never reaches the spec: it stays in the editor with an inline
// message. Spec-level problems (Spec.Validate) are shown under the fields by SetIssues.
type Model struct {
	st     theme.Styles
	keys   KeyMap
	spec   *model.Spec
	fields func(*model.Spec) []Field
	// problemKeys are the field paths whose problems the form shows (model.Problem.Under);
	// nil: every problem.
	problemKeys []string

	cur     int
	top     int
	shown   []int // the field index of each line of the last View's field rows
	editing bool
	in      editor
	// choosing is set while the list of an Enum field is open (enter; choice.go).
	choosing bool
	ch       choice
	inErr    string
	errs     map[string]string
	issues   model.Problems
	w, h     int
	focused  bool
	// note, when set, returns a remark drawn after a field's value (SetNote).
	note func(key string) string
}

// SetNote sets the function whose non-empty result for a field's key is drawn after
// its value (the method pane marks the fields to tune with it); nil draws none.
func (m *Model) SetNote(note func(key string) string) { m.note = note }

// New returns a form over spec whose fields are listed by fields (called on every
// draw, so the list may depend on the spec); problemKeys are the field paths whose
// Validate problems concern this form (SetIssues), nil for every problem.
func New(st theme.Styles, spec *model.Spec, fields func(*model.Spec) []Field, problemKeys []string) Model {
	return Model{st: st, keys: DefaultKeyMap(), spec: spec, fields: fields, problemKeys: problemKeys, errs: map[string]string{}}
}

// SetSpec points the form at another spec (a preset was loaded) and drops edits.
func (m *Model) SetSpec(s *model.Spec) {
	m.spec, m.editing, m.choosing, m.inErr, m.errs = s, false, false, "", map[string]string{}
}

// SetSize sets the form's size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Focus gives or takes the keyboard focus (an edit in progress, or an open choice
// list, is discarded on blur).
func (m *Model) Focus(on bool) {
	m.focused = on
	if !on && m.editing {
		m.editing, m.inErr = false, ""
	}
	if !on {
		m.choosing = false
	}
}

// Editing reports whether a text edit is in progress or a choice list is open (the
// form then takes every key).
func (m *Model) Editing() bool { return m.editing || m.choosing }

// Selected returns the selected field and whether there is one.
func (m *Model) Selected() (Field, bool) {
	fs := m.fields(m.spec)
	if len(fs) == 0 {
		return Field{}, false
	}
	return fs[min(m.cur, len(fs)-1)], true
}

// Select moves the cursor to the field with the given key; it reports whether found.
func (m *Model) Select(key string) bool {
	for i, f := range m.fields(m.spec) {
		if f.Key == key {
			m.cur = i
			return true
		}
	}
	return false
}

// SetIssues keeps the Validate problems of ps that concern this form: those about the
// fields under its keys (model.Problems.Under), all of them for a form without keys.
func (m *Model) SetIssues(ps model.Problems) {
	if m.problemKeys != nil {
		ps = ps.Under(m.problemKeys...)
	}
	m.issues = ps
}

// Issues returns the messages of the spec-level problems shown by this form.
func (m *Model) Issues() []string { return m.issues.Messages() }

// Problem returns the first of the problems shown as an error (a model.Problem), or nil
// when there is none.
func (m *Model) Problem() error {
	if len(m.issues) == 0 {
		return nil
	}
	return m.issues[0]
}

// FieldError returns the inline error of the field key ("" if none): the last rejected
// value, or the parse error of the text being typed.
func (m *Model) FieldError(key string) string {
	if f, ok := m.Selected(); ok && m.editing && f.Key == key {
		return m.inErr
	}
	return m.errs[key]
}

// ShortHelp returns the keys that work now.
func (m Model) ShortHelp() []key.Binding {
	if m.choosing {
		return []key.Binding{choiceKeys.Up, choiceKeys.Choose, choiceKeys.Cancel}
	}
	if m.editing {
		return []key.Binding{m.keys.Commit, m.keys.Discard}
	}
	return []key.Binding{m.keys.Up, m.keys.Down, m.keys.Dec, m.keys.Inc, m.keys.Edit}
}

// FullHelp returns the keys that work now as one column.
func (m Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// Update handles keys when focused. A committed change returns a ChangedMsg command.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || !m.focused {
		return m, nil
	}
	fs := m.fields(m.spec)
	if len(fs) == 0 {
		return m, nil
	}
	m.cur = min(m.cur, len(fs)-1)
	f := fs[m.cur]
	if m.choosing {
		if f.Kind != Enum { // the fields changed under the list
			m.choosing = false
			return m, nil
		}
		return m, m.choiceKey(f, km)
	}
	if m.editing {
		switch {
		case key.Matches(km, m.keys.Commit):
			if err := m.commit(f, m.in.Value()); err != nil {
				m.inErr = err.Error()
				return m, nil
			}
			m.editing, m.inErr = false, ""
			return m, changed(f.Key)
		case key.Matches(km, m.keys.Discard):
			m.editing, m.inErr = false, ""
			return m, nil
		}
		m.in.Update(km)
		if _, err := parse(f, m.in.Value()); err != nil {
			m.inErr = err.Error()
		} else {
			m.inErr = ""
		}
		return m, nil
	}
	switch {
	case key.Matches(km, m.keys.Up):
		m.cur = (m.cur + len(fs) - 1) % len(fs)
	case key.Matches(km, m.keys.Down):
		m.cur = (m.cur + 1) % len(fs)
	case key.Matches(km, m.keys.Dec), key.Matches(km, m.keys.Inc):
		v, ok := Step(f, Get(m.spec, f.Key), key.Matches(km, m.keys.Inc))
		if !ok {
			return m, nil
		}
		if err := m.commit(f, v); err != nil {
			m.errs[f.Key] = err.Error()
			return m, nil
		}
		return m, changed(f.Key)
	case key.Matches(km, m.keys.Edit):
		switch f.Kind {
		case Enum:
			m.openChoice(f, Get(m.spec, f.Key))
			return m, nil
		case Bool:
			v, _ := Step(f, Get(m.spec, f.Key), true)
			if err := m.commit(f, v); err != nil {
				m.errs[f.Key] = err.Error()
				return m, nil
			}
			return m, changed(f.Key)
		}
		m.editing, m.inErr = true, ""
		m.in.SetValue(Get(m.spec, f.Key))
		return m, nil
	}
	return m, nil
}

func changed(k string) tea.Cmd { return func() tea.Msg { return ChangedMsg{Key: k} } }

// commit parses text for f and assigns it to the spec. A method whose name was the
// automatic one (empty, or the derived name made unique by a " (k)" suffix) keeps
// following its settings, and stays distinct from the other methods' names.
func (m *Model) commit(f Field, text string) error {
	v, err := parse(f, text)
	if err != nil {
		return err
	}
	mi := -1
	auto := false
	if parts := strings.Split(f.Key, "."); len(parts) > 2 && parts[0] == "methods" && parts[2] != "name" {
		if i, err := strconv.Atoi(parts[1]); err == nil && i < len(m.spec.Methods) {
			mi = i
			mt := m.spec.Methods[i]
			name := mt.Name
			mt.Name = ""
			derived := mt.DisplayName()
			auto = name == "" || name == derived || strings.HasPrefix(name, derived+" (") && strings.HasSuffix(name, ")")
		}
	}
	if err := m.spec.Set(f.Key + "=" + v); err != nil {
		return fmt.Errorf("%s: %w", f.Label, err)
	}
	if mi >= 0 && auto {
		m.spec.Methods[mi].Name = ""
		m.spec.Methods[mi].Name = m.spec.UniqueName(mi)
	}
	delete(m.errs, f.Key)
	return nil
}

// parse checks text against f and returns the JSON value to assign, or a one-line
// error naming the problem and the fix.
func parse(f Field, text string) (string, error) {
	t := strings.TrimSpace(text)
	num := func(s string) (float64, error) {
		if f.Kind == Int || f.Kind == IntList {
			n, err := strconv.Atoi(s)
			if errors.Is(err, strconv.ErrRange) {
				return 0, fmt.Errorf("%s: %s is out of range: use %s..%s", f.Label, s, fmtNum(f.Min), fmtNum(f.Max))
			}
			if err != nil {
				return 0, fmt.Errorf("%s: %q is not a whole number: type digits, e.g. %s", f.Label, s, example(f))
			}
			return float64(n), nil
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s: %q is not a number: type e.g. %s", f.Label, s, example(f))
		}
		return x, nil
	}
	bounded := func(x float64) error {
		if (f.Min != 0 || f.Max != 0) && (x < f.Min || x > f.Max) {
			return fmt.Errorf("%s: %s is out of range: use %s..%s", f.Label, fmtNum(x), fmtNum(f.Min), fmtNum(f.Max))
		}
		return nil
	}
	switch f.Kind {
	case Int, Float, LogFloat:
		if t == "" {
			t = "0"
		}
		x, err := num(t)
		if err != nil {
			return "", err
		}
		if f.Kind == LogFloat && x < 0 {
			return "", fmt.Errorf("%s: %s is negative: use a value >= 0 (0 = %s)", f.Label, t, orAuto(f.Zero))
		}
		if x != 0 || f.Kind != LogFloat {
			if err := bounded(x); err != nil {
				return "", err
			}
		}
		if f.Kind == Int { // the digits typed: a seed of 2^53+1 stays exact
			n, _ := strconv.ParseInt(t, 10, 64)
			return strconv.FormatInt(n, 10), nil
		}
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	case IntList:
		var xs []int
		for _, p := range strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			x, err := num(p)
			if err != nil {
				return "", err
			}
			if err := bounded(x); err != nil {
				return "", err
			}
			xs = append(xs, int(x))
		}
		if len(xs) == 0 {
			return "", fmt.Errorf("%s is empty: list values separated by commas, e.g. %s", f.Label, example(f))
		}
		b, _ := json.Marshal(xs)
		return string(b), nil
	case Enum:
		for _, o := range f.Options {
			if o == t {
				b, _ := json.Marshal(t)
				return string(b), nil
			}
		}
		return "", fmt.Errorf("%s: %q is unknown: use one of %s", f.Label, t, strings.Join(f.Options, ", "))
	case Bool:
		b, err := strconv.ParseBool(t)
		if err != nil {
			return "", fmt.Errorf("%s: %q is not true or false", f.Label, t)
		}
		return strconv.FormatBool(b), nil
	default:
		b, _ := json.Marshal(t)
		return string(b), nil
	}
}

func orAuto(z string) string {
	if z == "" {
		return "default"
	}
	return z
}

func example(f Field) string {
	switch {
	case f.Kind == IntList:
		return "100,200,500"
	case f.Max > 0:
		return fmtNum(math.Min(f.Max, math.Max(f.Min, 1)))
	}
	return "1"
}

func fmtNum(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// Step returns the value one step up (or down) from cur for f: ±Step for numbers
// (clamped to [Min, Max], or to [StepMin, StepMax] when either is set), ×/÷ Step
// (default 10) for LogFloat (from 0 up it starts at that minimum or 1e-6), the next/previous option for Enum, the negation for Bool. ok is false
// for kinds without steps (Text, IntList).
//
//	Int, Float: v ± Step      LogFloat: v · Step^{±1}
func Step(f Field, cur string, up bool) (next string, ok bool) {
	if f.StepMin != 0 || f.StepMax != 0 {
		f.Min, f.Max = f.StepMin, f.StepMax
	}
	switch f.Kind {
	case Enum:
		if len(f.Options) == 0 {
			return "", false
		}
		i := 0
		for k, o := range f.Options {
			if o == cur {
				i = k
			}
		}
		if up {
			i = (i + 1) % len(f.Options)
		} else {
			i = (i + len(f.Options) - 1) % len(f.Options)
		}
		return f.Options[i], true
	case Bool:
		b, _ := strconv.ParseBool(cur)
		if cur == "" {
			b = true // absent normalize means the default, true
		}
		return strconv.FormatBool(!b), true
	case Int, Float:
		x, _ := strconv.ParseFloat(cur, 64)
		st := f.Step
		if st == 0 {
			st = 1
		}
		if !up {
			st = -st
		}
		x += st
		if f.Min != 0 || f.Max != 0 {
			x = math.Max(f.Min, math.Min(f.Max, x))
		}
		if f.Kind == Int {
			x = math.Round(x)
		}
		return fmtNum(x), true
	case LogFloat:
		x, _ := strconv.ParseFloat(cur, 64)
		fac := f.Step
		if fac <= 1 {
			fac = 10
		}
		switch {
		case x <= 0 && up:
			x = f.Min
			if x <= 0 {
				x = 1e-6
			}
		case x <= 0:
			return "0", true
		case up:
			x *= fac
		default:
			x /= fac
		}
		if f.Max > 0 {
			x = math.Min(x, f.Max)
		}
		if f.Min > 0 && x < f.Min*(1-1e-9) {
			x = 0 // below the smallest value: back to automatic
		}
		return strconv.FormatFloat(x, 'g', 6, 64), true
	}
	return "", false
}

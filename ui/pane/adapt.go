package pane

import (
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Model is the shape of a pane package's model, reached through P = *M: bubbles'
// component shape (a value-returning Update, which the pane's own tests use), a View, its
// keys (help.KeyMap), its content size and the keyboard focus.
type Model[M any] interface {
	*M
	Update(msg tea.Msg) (M, tea.Cmd)
	View() string
	help.KeyMap
	SetSize(width, height int)
	Focus(on bool)
}

// Of returns m as a Component: its Update hands the message to *m and stores the model
// returned there, so the root and the pane package share one model.
//
// The methods a Component needs beyond Model are forwarded when *m has them, and
// otherwise take the value of a pane without that capability:
//
//	Init() tea.Cmd            nil: nothing to load at start
//	Editing() bool            false: no text field
//	Wants(tea.KeyMsg) bool    false: no global key bound over
//	Problem() error           nil: no error held
//
// Capabilities beyond the Component (Clicker, Cacher) stay the model's: As finds them.
//
// Of panics if m is nil (a programmer error).
func Of[M any, P Model[M]](m P) Component {
	if m == nil {
		panic("pane: Of(nil)")
	}
	return adapter[M, P]{m}
}

// adapter is the Component over one pane model (Of).
type adapter[M any, P Model[M]] struct{ m P }

// Init returns the model's first command, or nil when it has none.
func (a adapter[M, P]) Init() tea.Cmd {
	if i, ok := any(a.m).(interface{ Init() tea.Cmd }); ok {
		return i.Init()
	}
	return nil
}

// Update hands msg to the model and keeps the model it returns.
func (a adapter[M, P]) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := a.m.Update(msg)
	*a.m = next
	return a, cmd
}

// View returns the model's content.
func (a adapter[M, P]) View() string { return a.m.View() }

// ShortHelp returns the model's short help.
func (a adapter[M, P]) ShortHelp() []key.Binding { return a.m.ShortHelp() }

// FullHelp returns the model's full help.
func (a adapter[M, P]) FullHelp() [][]key.Binding { return a.m.FullHelp() }

// SetSize sets the model's content size.
func (a adapter[M, P]) SetSize(w, h int) { a.m.SetSize(w, h) }

// Focus gives the model the keyboard.
func (a adapter[M, P]) Focus() { a.m.Focus(true) }

// Blur takes the keyboard from the model.
func (a adapter[M, P]) Blur() { a.m.Focus(false) }

// Editing reports whether the model holds the keyboard (false when it has no Editing).
func (a adapter[M, P]) Editing() bool {
	if e, ok := any(a.m).(interface{ Editing() bool }); ok {
		return e.Editing()
	}
	return false
}

// Wants reports whether the model takes k before the global keys (false when it has no
// Wants).
func (a adapter[M, P]) Wants(k tea.KeyMsg) bool {
	if w, ok := any(a.m).(interface{ Wants(tea.KeyMsg) bool }); ok {
		return w.Wants(k)
	}
	return false
}

// Problem returns the model's error (nil when it has no Problem).
func (a adapter[M, P]) Problem() error {
	if p, ok := any(a.m).(interface{ Problem() error }); ok {
		return p.Problem()
	}
	return nil
}

// Unwrap returns the model (*M), for As.
func (a adapter[M, P]) Unwrap() any { return a.m }

// As finds in c a capability T that only some panes have (Clicker, Cacher, or one the
// root defines), as errors.As finds an error: c itself when it implements T, else the
// model Of wraps. It reports false when neither does.
func As[T any](c Component) (T, bool) {
	if t, ok := c.(T); ok {
		return t, true
	}
	if u, ok := c.(interface{ Unwrap() any }); ok {
		t, ok := u.Unwrap().(T)
		return t, ok
	}
	var zero T
	return zero, false
}

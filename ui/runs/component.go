package runs

import (
	tea "github.com/charmbracelet/bubbletea"

	uipane "gitui/ui/pane"
)

// Component returns the pane as a uipane.Component over m: its Update updates *m.
func (m *Model) Component() uipane.Component { return component{m} }

// component adapts *Model to uipane.Component.
type component struct{ *Model }

// Update hands msg to the model and keeps the result.
func (c component) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := c.Model.Update(msg)
	*c.Model = next
	return c, cmd
}

// Focus gives the pane the keyboard.
func (c component) Focus() { c.Model.Focus(true) }

// Blur takes the keyboard from the pane.
func (c component) Blur() { c.Model.Focus(false) }

// Click moves the cursor to the run drawn at line y (the column does not matter).
func (c component) Click(_, y int) bool { return c.Model.Click(y) }

// Problem returns nil: the Runs pane shows unreadable runs in its list, not as an error.
func (c component) Problem() error { return nil }

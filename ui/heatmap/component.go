package heatmap

import (
	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/pane"
)

// Component returns the pane as a pane.Component over m: its Update updates *m.
func (m *Model) Component() pane.Component { return component{m} }

// component adapts *Model to pane.Component.
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

// Editing reports false: the Heatmap pane has no text field.
func (c component) Editing() bool { return false }

// Wants reports false: the Heatmap pane binds no global key.
func (c component) Wants(tea.KeyMsg) bool { return false }

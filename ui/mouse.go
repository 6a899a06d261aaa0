package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/pane"
)

// handleMouse turns mouse events into focus and pane actions (mouse capture is on only
// with Options.Mouse):
//   - a left click on a tab of the header focuses that pane;
//   - a left click in a pane focuses it and acts where it lands: on a field of the data,
//     group or method form it selects that field (on a method's tab, that method); in
//     the Runs pane it moves the cursor to the run clicked;
//   - the wheel scrolls the pane under the pointer (focusing it): the legend in the
//     Curves pane, the list or form (↑/↓) elsewhere, and the presets while the picker
//     is open.
//
// The mouse is ignored while a question or the Slurm dialog is open, or the window is
// too small.
func (a *App) handleMouse(m tea.MouseMsg) tea.Cmd {
	if a.confirm != confirmNone || a.slurm.open || a.lay.tooSmall {
		return nil
	}
	wheel := 0
	switch m.Button {
	case tea.MouseButtonWheelUp:
		wheel = -1
	case tea.MouseButtonWheelDown:
		wheel = 1
	case tea.MouseButtonLeft:
		if m.Action != tea.MouseActionPress {
			return nil
		}
	default:
		return nil
	}
	if a.picker.open {
		if n := len(a.pickerShown()); wheel != 0 && n > 0 {
			a.picker.cur = max(0, min(n-1, a.picker.cur+wheel))
		}
		return nil
	}
	if a.helpOpen && m.Y >= a.lay.header {
		// the help covers the panes: the wheel turns its pages, a click does nothing
		switch {
		case wheel < 0:
			return a.handleHelp(tea.KeyMsg{Type: tea.KeyPgUp})
		case wheel > 0:
			return a.handleHelp(tea.KeyMsg{Type: tea.KeyPgDown})
		}
		return nil
	}
	if m.Y < a.lay.header {
		if p, ok := a.tabAt(m.X); ok && wheel == 0 && p != a.focus {
			return a.focusTo(p)
		}
		return nil
	}
	p, r, ok := a.bodyPaneAt(m.X, m.Y)
	if !ok {
		return nil
	}
	var cmds []tea.Cmd
	if p != a.focus {
		cmds = append(cmds, a.focusTo(p))
	}
	wk := p.decl().wheel
	switch {
	case wheel < 0 && wk[0] != "":
		cmds = append(cmds, a.toFocused(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(wk[0])}))
	case wheel > 0 && wk[1] != "":
		cmds = append(cmds, a.toFocused(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(wk[1])}))
	case wheel < 0:
		cmds = append(cmds, a.toFocused(tea.KeyMsg{Type: tea.KeyUp}))
	case wheel > 0:
		cmds = append(cmds, a.toFocused(tea.KeyMsg{Type: tea.KeyDown}))
	default:
		// inside the pane's frame: border, title line, then the pane's content
		x := m.X - r.x - a.st.Pane.GetBorderLeftSize()
		y := m.Y - r.y - a.st.Pane.GetBorderTopSize() - 1
		if c, ok := pane.As[pane.Clicker](a.panes[p]); ok {
			c.Click(x, y)
		}
	}
	return tea.Batch(cmds...)
}

// bodyPaneAt returns the pane drawn at cell (x, y) of the body and its frame's
// rectangle: the focused pane when one fills the body, else the pane of the grid there.
func (a *App) bodyPaneAt(x, y int) (paneID, rect, bool) {
	in := func(r rect) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }
	if a.fullBody() {
		return a.focus, a.lay.body, in(a.lay.body)
	}
	for _, s := range gridSlots {
		if r := a.lay.rectOfSlot(s); in(r) {
			return a.slotPane(s), r, true
		}
	}
	return 0, rect{}, false
}

// tabAt returns the pane whose tab of the header was drawn at column x (in the last
// frame: the tabs are compact when the window is narrow).
func (a *App) tabAt(x int) (paneID, bool) {
	spans := a.tabSpans
	if spans == nil {
		spans = a.headerTabs(true, tabsFull).spans
	}
	for _, t := range spans {
		if x >= t.x0 && x < t.x1 {
			return t.p, true
		}
	}
	return 0, false
}

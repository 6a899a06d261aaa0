package ui

import (
	"fmt"

	"github.com/charmbracelet/x/ansi"

	tea "github.com/charmbracelet/bubbletea"
)

// handleMouse focuses the pane or tab under a left click (in the Runs pane, a click on
// a run moves the cursor to it) and turns the wheel into ↑/↓ for the focused pane (mouse capture is on only with Options.Mouse). Clicks while a
// question or the preset picker is open are ignored.
func (a *App) handleMouse(m tea.MouseMsg) tea.Cmd {
	if a.confirm != confirmNone || a.picker.open || a.lay.tooSmall {
		return nil
	}
	switch {
	case m.Button == tea.MouseButtonWheelUp:
		return a.toFocused(tea.KeyMsg{Type: tea.KeyUp})
	case m.Button == tea.MouseButtonWheelDown:
		return a.toFocused(tea.KeyMsg{Type: tea.KeyDown})
	case m.Button != tea.MouseButtonLeft || m.Action != tea.MouseActionPress:
		return nil
	}
	if p, ok := a.paneAt(m.X, m.Y); ok && p != a.focus {
		return a.focusTo(p)
	}
	if a.focus == paneRuns && m.Y >= a.lay.body.y {
		// inside the body's frame: border, title line, then the pane's lines
		a.runs.Click(m.Y - a.lay.body.y - a.st.Pane.GetBorderTopSize() - 1)
	}
	return nil
}

// paneAt returns the pane drawn at cell (x, y): a tab of the header, or a pane of the
// grid (the body's pane when one fills it).
func (a *App) paneAt(x, y int) (paneID, bool) {
	if y < a.lay.header {
		col := ansi.StringWidth("gitui ")
		for p := paneData; p < numPanes; p++ {
			w := ansi.StringWidth(fmt.Sprintf("%d %s", p+1, p)) + 2 // the tab's padding
			if x >= col && x < col+w {
				return p, true
			}
			col += w
		}
		return 0, false
	}
	if a.fullBody() {
		return 0, false
	}
	in := func(r rect) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }
	switch {
	case in(a.lay.config):
		return a.config, true
	case in(a.lay.run):
		return paneRun, true
	case in(a.lay.curves):
		return paneCurves, true
	case in(a.lay.heat):
		return paneHeat, true
	}
	return 0, false
}

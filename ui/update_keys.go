package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKey routes a key: ctrl+c always quits (interrupted: Run returns ErrInterrupted); a pending question or the preset
// picker take every key; a text edit in the focused pane takes every key; then the
// global keys; the rest goes to the focused pane.
func (a *App) handleKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, a.keys.ForceQuit) {
		a.cancelRun() // the program exits 130 once the finished cells are saved
		return tea.Interrupt
	}
	if k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Paste && !a.editing() {
		// Keys typed faster than the terminal is read arrive as one message ("jjj"):
		// handle them one by one, as typed.
		var cmds []tea.Cmd
		for _, r := range k.Runes {
			if a.editing() { // a key of the batch opened an editor: it takes the rest
				cmds = append(cmds, a.toFocused(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
				continue
			}
			cmds = append(cmds, a.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: k.Alt}))
		}
		return tea.Batch(cmds...)
	}
	if a.confirm != confirmNone {
		return a.handleConfirm(k)
	}
	if a.picker.open {
		return a.handlePicker(k)
	}
	if a.editing() {
		return a.toFocused(k)
	}
	switch {
	case key.Matches(k, a.keys.NextPane):
		a.setFocus((a.focus + 1) % numPanes)
	case key.Matches(k, a.keys.PrevPane):
		a.setFocus((a.focus + numPanes - 1) % numPanes)
	case key.Matches(k, a.keys.Jump):
		a.setFocus(paneID(k.Runes[0] - '1'))
	case key.Matches(k, a.keys.Help):
		a.help.ShowAll = !a.help.ShowAll
		a.relayout()
	case key.Matches(k, a.keys.Quit):
		if a.r.running {
			a.confirm = confirmQuit
			return nil
		}
		return tea.Quit
	case key.Matches(k, a.keys.Cancel):
		a.cancelRun()
	case k.String() == "esc" && a.help.ShowAll:
		a.help.ShowAll = false
		a.relayout()
	case key.Matches(k, a.keys.Run):
		if a.r.running {
			a.confirm = confirmRestart
			return nil
		}
		return a.startRun()
	case k.String() == "r":
		a.refuse(a.blocker())
	case key.Matches(k, a.keys.Presets):
		a.picker.open = true
		a.picker.quick = a.quick
		for i, p := range a.opts.Presets {
			if p.Name == a.preset {
				a.picker.cur = i
			}
		}
	case key.Matches(k, a.keys.Save):
		return a.save()
	case key.Matches(k, a.keys.Pin):
		a.pin()
	default:
		return a.toFocused(k)
	}
	return nil
}

// toFocused hands a key to the focused pane.
func (a *App) toFocused(k tea.KeyMsg) tea.Cmd {
	var cmd tea.Cmd
	switch a.focus {
	case paneData:
		a.data, cmd = a.data.Update(k)
	case paneGroup:
		a.group, cmd = a.group.Update(k)
	case paneMethod:
		a.method, cmd = a.method.Update(k)
	case paneRun:
		a.run, cmd = a.run.Update(k)
	case paneCurves:
		a.curves, cmd = a.curves.Update(k)
	case paneHeat:
		a.heat, cmd = a.heat.Update(k)
	}
	return cmd
}

func (a *App) handleConfirm(k tea.KeyMsg) tea.Cmd {
	what := a.confirm
	switch {
	case key.Matches(k, a.keys.Yes):
		a.confirm = confirmNone
		if what == confirmQuit {
			a.cancelRun()
			return tea.Quit
		}
		a.abandonRun()
		return a.startRun()
	case key.Matches(k, a.keys.No):
		a.confirm = confirmNone
	}
	return nil
}

func (a *App) handlePicker(k tea.KeyMsg) tea.Cmd {
	n := len(a.opts.Presets)
	switch {
	case key.Matches(k, a.keys.Up):
		a.picker.cur = (a.picker.cur + n - 1) % max(n, 1)
	case key.Matches(k, a.keys.Down):
		a.picker.cur = (a.picker.cur + 1) % max(n, 1)
	case key.Matches(k, a.keys.Toggle):
		a.picker.quick = !a.picker.quick
	case key.Matches(k, a.keys.Load) && n > 0:
		a.picker.open = false
		return a.loadPreset(a.picker.cur, a.picker.quick)
	case key.Matches(k, a.keys.Close):
		a.picker.open = false
	}
	return nil
}

// loadPreset puts preset i (quick or full) into the panes.
func (a *App) loadPreset(i int, quick bool) tea.Cmd {
	p := a.opts.Presets[i]
	s := p.Build(quick)
	s.Defaults()
	a.spec, a.preset, a.quick, a.base = s, p.Name, quick, s.Clone()
	a.group.SetSpec(s)
	a.method.SetSpec(s)
	cmd := a.data.SetSpec(s)
	a.revalidate()
	v := "full"
	if quick {
		v = "quick"
	}
	a.setStatus("loaded preset "+p.Name+" ("+v+")", false)
	return cmd
}

// pin overlays the current curves for comparison with later runs.
func (a *App) pin() {
	if !a.curves.Pin() {
		return
	}
	a.pins = append(a.pins, a.currentResult())
	a.setStatus("pinned "+a.r.label, false)
}

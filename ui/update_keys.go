package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/model/engine"
	"gitui/ui/internal/lineedit"
	"gitui/ui/internal/specmsg"
)

// handleKey routes a key: ctrl+c always quits (interrupted: Run returns ErrInterrupted); a pending question, the preset
// picker and the full help take every key; a text edit in the focused pane takes every
// key; then the global keys; the rest goes to the focused pane.
func (a *App) handleKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, a.keys.ForceQuit) {
		a.cancelRun() // the program exits 130 once the finished cells are saved
		return tea.Interrupt
	}
	if key.Matches(k, a.keys.Suspend) {
		return tea.Suspend // the run goes on; fg brings the workbench back
	}
	if a.slurm.open {
		return a.handleSlurm(k)
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
	if a.helpOpen {
		return a.handleHelp(k)
	}
	if a.tuneOpen {
		return a.handleTuneKey(k)
	}
	if a.editing() {
		return a.toFocused(k)
	}
	if c := a.focus.decl().confirm; c != "" && k.String() == c && len(a.spec.Methods) > 1 {
		a.confirm = confirmDelete // the pane deletes after y
		return nil
	}
	if a.paneTakes(k) {
		return a.toFocused(k) // e.g. the Runs pane's p and r, and esc closing its compare view rather than cancelling the run
	}
	switch {
	case key.Matches(k, a.keys.NextPane):
		return a.focusTo((a.focus + 1) % numPanes)
	case key.Matches(k, a.keys.PrevPane):
		return a.focusTo((a.focus + numPanes - 1) % numPanes)
	case key.Matches(k, a.keys.Jump):
		p, _ := paneWithKey(k.String())
		return a.focusTo(p)
	case key.Matches(k, a.keys.Zoom):
		a.zoom = !a.zoom
		a.relayout()
	case a.focus.decl().slurm && key.Matches(k, a.keys.Slurm):
		a.openSlurm()
	case key.Matches(k, a.keys.Help):
		a.openHelp()
	case key.Matches(k, a.keys.Tune):
		return a.tuneKey()
	case key.Matches(k, a.keys.Quit):
		if a.r.running || a.study.running {
			a.confirm = confirmQuit
			return nil
		}
		return tea.Quit
	case key.Matches(k, a.keys.Cancel):
		if a.r.running { // cancelling asks, as quitting does
			a.confirm = confirmCancel
		}
	case key.Matches(k, a.keys.Run):
		if a.r.running {
			a.confirm = confirmRestart
			return nil
		}
		if why := a.longRun(); why != "" && a.blocker() == "" {
			a.confirm, a.longWhy = confirmLong, why
			return nil
		}
		return a.startRun()
	case k.String() == "r":
		a.refuse(a.blocker())
	case key.Matches(k, a.keys.Presets):
		// The picker's quick/full mode is its own: only f changes it, so opening a
		// study's best spec (a full spec) does not make the next preset a full run.
		a.picker.open = true
		a.picker.filter, a.picker.filtering = "", false
		a.pickerEstimates()
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

// longRun returns the time estimate of the spec in the panes when it is above
// Options.AskAbove (default 10 minutes), "" when it is below, when asking is off, or when
// the data's size is not known (a file not loaded yet; see dataSize): "about 3 h 10 min
// (Haar RLS 3 h)".
func (a *App) longRun() string {
	limit := a.opts.AskAbove
	if limit == 0 {
		limit = 10 * time.Minute
	}
	if limit < 0 || a.spec == nil {
		return ""
	}
	s := a.spec.Clone()
	s.Defaults()
	ds, ok := a.dataSize(s)
	if !ok {
		return ""
	}
	est := engine.EstimateTime(s, ds, loadRates())
	if est.Seconds <= limit.Seconds() {
		return ""
	}
	why := "about " + engine.Duration(est.Seconds)
	if len(est.Items) > 0 {
		why += fmt.Sprintf(" (%s: %s)", est.Items[0].What, engine.Duration(est.Items[0].Seconds()))
	}
	return why
}

// paneTakes reports whether k goes to the focused pane before the global keys: the
// pane wants it (pane.Component.Wants), or its key map binds it, enabled now or not
// (any key of its ShortHelp or FullHelp). A key a pane binds never fires the
// workbench's action of the same key through it.
func (a *App) paneTakes(k tea.KeyMsg) bool {
	c := a.focused()
	if c.Wants(k) {
		return true
	}
	s := k.String()
	binds := func(bs []key.Binding) bool {
		for _, b := range bs {
			for _, bk := range b.Keys() {
				if bk == s {
					return true
				}
			}
		}
		return false
	}
	if binds(c.ShortHelp()) {
		return true
	}
	for _, col := range c.FullHelp() {
		if binds(col) {
			return true
		}
	}
	return false
}

// toFocused hands a key to the focused pane.
func (a *App) toFocused(k tea.KeyMsg) tea.Cmd {
	_, cmd := a.focused().Update(k)
	return cmd
}

// focusTo moves the focus to p; a pane that re-reads what it shows (paneDecl.shown:
// the Runs pane) does so when it gains the focus.
func (a *App) focusTo(p paneID) tea.Cmd {
	was := a.focus
	a.setFocus(p)
	if shown := p.decl().shown; shown != nil && p != was {
		return shown(a)
	}
	return nil
}

// Notes in the status line for a key that answers no pending question.
const (
	answerYN   = "answer y or n first"
	answerLong = "answer r (start) or esc (edit) first"
)

// handleConfirm answers the pending question with k; a key that answers nothing leaves
// it up and says so in the status line (answerYN, answerLong) instead of being
// swallowed silently.
func (a *App) handleConfirm(k tea.KeyMsg) tea.Cmd {
	what := a.confirm
	answered := func() {
		a.confirm = confirmNone
		if a.status == answerYN || a.status == answerLong {
			a.setStatus("", false)
		}
	}
	if what == confirmLong {
		switch {
		case key.Matches(k, a.keys.Run), key.Matches(k, a.keys.Yes):
			answered()
			return a.startRun()
		case key.Matches(k, a.keys.No):
			answered()
		default:
			a.setStatus(answerLong, false)
		}
		return nil
	}
	switch {
	case key.Matches(k, a.keys.Yes):
		answered()
		if what == confirmDelete {
			return a.toFocused(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("D")})
		}
		if what == confirmQuit {
			a.cancelRun()
			a.cancelStudy()
			return tea.Quit
		}
		if what == confirmCancel {
			a.cancelRun()
			return nil
		}
		if what == confirmStudy {
			a.cancelStudy()
			return nil
		}
		a.abandonRun()
		return a.startRun()
	case key.Matches(k, a.keys.No):
		answered()
	default:
		a.setStatus(answerYN, false)
	}
	return nil
}

func (a *App) handlePicker(k tea.KeyMsg) tea.Cmd {
	if a.picker.filtering {
		switch k.Type {
		case tea.KeyEnter:
			a.picker.filtering = false
		case tea.KeyEsc:
			a.picker.filtering, a.picker.filter = false, ""
		default:
			a.picker.filter, _ = lineedit.Apply(a.picker.filter, k) // ctrl+u, ctrl+w too
		}
		a.picker.cur = min(a.picker.cur, max(0, len(a.pickerShown())-1))
		return nil
	}
	shown := a.pickerShown()
	n := len(shown)
	switch {
	case key.Matches(k, a.keys.Filter):
		a.picker.filtering = true
		a.picker.cur = 0
	case k.Type == tea.KeyEsc && a.picker.filter != "":
		a.picker.filter = ""
		a.picker.cur = 0
	case key.Matches(k, a.keys.Up):
		a.picker.cur = (a.picker.cur + n - 1) % max(n, 1)
	case key.Matches(k, a.keys.Down):
		a.picker.cur = (a.picker.cur + 1) % max(n, 1)
	case key.Matches(k, a.keys.Toggle):
		a.picker.quick = !a.picker.quick
		a.pickerEstimates()
	case key.Matches(k, a.keys.Load) && n > 0:
		a.picker.open = false
		return a.loadPreset(shown[a.picker.cur], a.picker.quick)
	case key.Matches(k, a.keys.Close):
		a.picker.open = false
	}
	return nil
}

// pickerShown returns the indices of the presets whose name or summary holds every
// word of the picker's filter (ignoring case), in order.
func (a *App) pickerShown() []int {
	terms := strings.Fields(strings.ToLower(a.picker.filter))
	var out []int
	for i, p := range a.opts.Presets {
		hay := strings.ToLower(p.Name + " " + p.Summary)
		ok := true
		for _, t := range terms {
			ok = ok && strings.Contains(hay, t)
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// loadPreset puts preset i (quick or full) into the panes. The curves and heatmaps of
// the last run belong to the old spec: they are cleared (pinned curves stay, and so does
// the run log), and a sample Gram matrix still being computed for the old spec is
// dropped. A run still going keeps its curves and matrices, which its points keep
// filling; both panes then say that they are that run's, not the spec's in the panes.
func (a *App) loadPreset(i int, quick bool) tea.Cmd {
	p := a.opts.Presets[i]
	s := p.Build(quick)
	s.Defaults()
	a.spec, a.preset, a.quick, a.base = s, p.Name, quick, s.Clone()
	cmd := a.fanOut(specmsg.Msg{Spec: s})
	a.revalidate()
	v := "full"
	if quick {
		v = "quick"
	}
	a.gramTag++ // a sample Gram of the old spec arriving now is stale
	switch {
	case a.r.running:
		a.r.stale = true
		note := a.r.label + ": not the spec in the panes (preset " + p.Name + " loaded)"
		a.curves.SetNote(note)
		a.heat.SetStatus(note, false)
	case len(a.curves.Current().Series) > 0 || len(a.heat.Matrices()) > 0:
		old := a.r.label
		if old == "" {
			old = "the sample Gram matrices"
		}
		a.curves.Reset("")
		a.heat.Clear()
		a.heat.SetStatus("", false)
		a.run.Logf(a.now(), "loaded preset %s (%s): the curves and heatmaps of %s were cleared (pinned curves stay)", p.Name, v, old)
	default:
		a.heat.SetStatus("", false)
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

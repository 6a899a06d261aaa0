package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/ui/form"
)

// startRun starts a new run of a copy of the spec (edits made while it runs do not
// change it), saved into a new directory of the run store. The caller has checked that
// no run is going.
func (a *App) startRun() tea.Cmd {
	if b := a.blocker(); b != "" {
		a.refuse(b)
		return nil
	}
	id := a.r.id + 1
	spec := a.spec.Clone()
	// A run of an edited preset is named after what it is, not after the preset alone.
	spec.Name = form.RunName(a.base, spec)
	label := fmt.Sprintf("run %d %s", id, spec.Name)
	now := a.now()
	if a.r.stale {
		a.heat.SetStatus("", false) // the old run's "not the spec in the panes"
	}
	a.r = runState{id: id, label: label, spec: spec, running: true, started: now}
	*a.partial = partial{spec: spec, started: now}
	a.curves.Reset(label)
	a.heat.Clear() // the new run sends its own matrices
	a.run.Start(label, now)
	a.setStatus("", false)
	j, note := newJob(id, label, a.opts.Store, spec, store.RunMeta{DataDir: a.opts.DataDir, Quick: a.quick}, now)
	if note != "" {
		a.run.Logf(now, "%s", note)
	}
	ctx, cancel := context.WithCancel(a.ctx)
	opts := engine.RunOptions{DataDir: a.opts.DataDir, Quick: a.quick}
	if j.rd != nil { // a nil *RunDir in the interface would not compare equal to nil
		opts.Dir = j.rd
	}
	ev := a.start(ctx, spec, opts)
	j.batches = coalesce(j.pipe(ev), batchWait, batchMax)
	a.jobs = append(a.jobs, j)
	a.r.job, a.r.cancel, a.r.batches = j, cancel, j.batches
	return tea.Batch(nextBatch(id, a.r.batches), a.tick(id))
}

// refuse says why r does not run (why, from blocker): in the status line and, whole,
// in the run log, with every problem of the spec on its own line (the status line has
// room for the first only).
func (a *App) refuse(why string) {
	a.setStatus("cannot run: "+why, true)
	if len(a.issues) > 1 {
		now := a.now()
		for _, is := range a.issues[1:] {
			a.run.Logf(now, "  %s", is)
		}
	}
}

// cancelRun asks the current run to stop; its finished cells and Done still arrive.
func (a *App) cancelRun() {
	if !a.r.running || a.r.cancelling {
		return
	}
	a.r.cancelling = true
	if a.r.cancel != nil {
		a.r.cancel()
	}
	a.run.Cancelling(a.now())
}

// abandonRun cancels the current run before a restart: its remaining events are
// drained in the background so the engine's goroutines can finish.
func (a *App) abandonRun() {
	a.cancelRun()
	if ch := a.r.batches; ch != nil {
		go func() {
			for range ch {
			}
		}()
	}
	a.r.running = false
}

// handleRun applies the messages of the run family. Messages of another run id are
// stale and dropped (a stale started run is cancelled and drained).
func (a *App) handleRun(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runEventsMsg:
		if msg.id != a.r.id || !a.r.running {
			return nil
		}
		a.apply(msg.events)
		return tea.Batch(nextBatch(msg.id, a.r.batches), a.throttle())
	case runFinishedMsg:
		if msg.id != a.r.id || !a.r.running {
			return nil
		}
		cmd := a.finish()
		if a.confirm == confirmCancel { // the run ended while x asked: nothing left to cancel
			a.confirm = confirmNone
		}
		if shown := a.focus.decl().shown; shown != nil { // the run's result.json is written: list it
			return tea.Batch(cmd, shown(a))
		}
		return cmd
	case tickedMsg:
		if msg.id != a.r.id || !a.r.running {
			return nil // idle: the tick stops here
		}
		a.run.Tick(a.now())
		return a.tick(msg.id)
	case gramComputedMsg:
		if msg.tag != a.gramTag {
			return nil
		}
		if msg.err != nil {
			if errors.Is(msg.err, context.Canceled) {
				a.heat.SetStatus("", false)
			} else {
				a.heat.SetStatus("✗ "+msg.err.Error(), true)
			}
			return nil
		}
		a.heat.SetStatus("", false)
		a.heat.Set(msg.base)
		a.heat.Set(msg.inv)
	case savedMsg:
		// The title bar cuts a long path: the run log holds where each file went.
		now := a.now()
		if len(msg.files) > 0 {
			a.run.Logf(now, "saved %d files to %s:", len(msg.files), msg.dir)
			for _, f := range msg.files {
				a.run.Logf(now, "  %s", filepath.Join(msg.dir, f))
			}
		}
		if msg.err != nil {
			a.run.Logf(now, "save failed: %v", msg.err)
			a.setStatus("save failed (the run log says why): "+msg.err.Error(), true)
			return nil
		}
		a.setStatus(fmt.Sprintf("saved %d files to %s (listed in the run log)", len(msg.files), msg.dir), false)
	}
	return nil
}

// apply hands one batch of engine events to the panes.
func (a *App) apply(evs []eval.Event) {
	now := a.now()
	var pts []eval.Point
	for _, e := range evs {
		switch e := e.(type) {
		case eval.Progress:
			a.run.Progress(e, now)
			if e.Stage == "cells" {
				a.curves.SetProgress(e.Done, e.Total)
			}
		case eval.Point:
			pts = append(pts, e)
		case eval.Matrix:
			a.heat.Set(e)
			a.r.gotMatrix = true
		case eval.Log:
			a.run.Log(e)
		case eval.Done:
			a.r.outcome, a.r.err, a.r.gotDone = e.Outcome, e.Err, true
		}
	}
	a.curves.Add(pts...)
	a.partial.points = a.curves.Current().Series
	a.partial.outcome = a.r.outcome
}

// finish ends the run: final curves, result, summary, and (when the engine sent no
// matrix) the sample Gram matrices of the spec for the heatmap.
func (a *App) finish() tea.Cmd {
	now := a.now()
	if a.r.outcome != nil {
		a.curves.SetOutcome(a.r.outcome)
	}
	err := a.r.err
	if !a.r.gotDone {
		err = errors.New("the engine ended without a Done event")
	}
	a.r.running, a.r.cancelling = false, false
	a.r.result = a.currentResult()
	npts := 0
	for _, s := range a.curves.Current().Series {
		npts += len(s.Points)
	}
	a.run.Finish(err, fmt.Sprintf("%d points in %d series", npts, len(a.curves.Current().Series)), now)
	if j := a.r.job; j != nil && j.saved.note != "" {
		a.run.Logf(now, "%s", j.saved.note)
		if j.saved.err != nil {
			a.status, a.statusEr = a.r.label+": "+j.saved.note, true // logged just above
		}
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		a.status, a.statusEr = a.r.label+" failed: "+err.Error(), true // the run log has it whole
	}
	if err == nil && !a.r.gotMatrix && !a.r.stale && a.r.spec.Protocol != model.ProtocolApprox {
		return a.requestGram(a.heat.Samples())
	}
	return nil
}

// requestGram starts the sample Gram computation for the heatmap.
func (a *App) requestGram(n int) tea.Cmd {
	if len(a.issues) > 0 {
		a.heat.SetStatus("fix the spec first: "+a.issues[0], true)
		return nil
	}
	a.gramTag++
	a.heat.SetStatus(fmt.Sprintf("computing base and invariant Gram matrices of %d samples…", n), false)
	return computeGram(a.ctx, a.gramTag, a.spec.Clone(), a.opts.DataDir, n)
}

// currentResult returns the result of the current run: the finished one, or one built
// from the points received so far (partial).
func (a *App) currentResult() *model.Result {
	if a.r.result != nil && !a.r.running {
		return a.r.result
	}
	spec := a.r.spec
	if spec == nil {
		spec = a.spec
	}
	out := a.r.outcome
	if out == nil {
		out = &eval.Outcome{Series: a.curves.Current().Series}
	}
	err := a.r.err
	if a.r.running {
		err = context.Canceled
	}
	r := model.NewResult(spec, out, err, a.now().Sub(a.r.started))
	if a.preset != "" && r.Preset == "" {
		r.Preset = a.preset
	}
	return r
}

// throttle holds the chart redraws after a batch when the last redraw was less than
// frameEvery ago, and schedules the one redrawDueMsg that releases them. Wall-clock
// time is used (not the injectable clock), as this is about the terminal's frame rate.
func (a *App) throttle() tea.Cmd {
	since := time.Since(a.lastDraw)
	if since >= frameEvery {
		return nil
	}
	a.holdCharts = true
	if a.redrawTimer {
		return nil
	}
	a.redrawTimer = true
	return tea.Tick(frameEvery-since, func(time.Time) tea.Msg { return redrawDueMsg{} })
}

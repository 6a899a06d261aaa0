package ui

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
)

// Coalescing limits: a batch is sent when it holds batchMax events or batchWait
// passed since its first event, whichever comes first (STYLE.md: ~50 ms / 512 events).
const (
	batchWait = 50 * time.Millisecond
	batchMax  = 512
)

// starter starts the engine for a spec; engine.Start in production, a fake in tests.
type starter func(ctx context.Context, spec *model.Spec, opts engine.RunOptions) <-chan eval.Event

// nextBatch returns the command that waits for the next batch of run id; when the
// channel is closed it reports runFinishedMsg. Update issues it again after every batch.
func nextBatch(id int, in <-chan []eval.Event) tea.Cmd {
	return func() tea.Msg {
		if b, ok := <-in; ok {
			return runEventsMsg{id: id, events: b}
		}
		return runFinishedMsg{id: id}
	}
}

// coalesce groups the events of in into batches of at most n events, each sent at most
// wait after its first event arrived, and closes the output when in is closed (after
// the last, possibly short, batch). A panic in the goroutine is reported as a final
// eval.Done carrying the error, so the run always ends.
func coalesce(in <-chan eval.Event, wait time.Duration, n int) <-chan []eval.Event {
	out := make(chan []eval.Event, 4)
	go func() {
		defer close(out)
		defer func() {
			if r := recover(); r != nil {
				out <- []eval.Event{eval.Done{Err: fmt.Errorf("event pump panicked: %v\n%s", r, debug.Stack())}}
			}
		}()
		for {
			first, ok := <-in
			if !ok {
				return
			}
			batch := []eval.Event{first}
			timer := time.NewTimer(wait)
		fill:
			for len(batch) < n {
				select {
				case e, ok := <-in:
					if !ok {
						break fill
					}
					batch = append(batch, e)
				case <-timer.C:
					break fill
				}
			}
			timer.Stop()
			out <- batch
		}
	}()
	return out
}

// tick returns the one-second tick of run id; it is only scheduled while a run is
// going, so an idle workbench does no work at all.
func tick(id int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickedMsg{id: id} })
}

// computeGram returns the command computing the sample Gram matrices of spec.
func computeGram(ctx context.Context, tag int, spec *model.Spec, dir string, n int) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = gramComputedMsg{tag: tag, err: fmt.Errorf("Gram computation panicked: %v", r)}
			}
		}()
		base, inv, err := engine.SampleGram(ctx, spec, dir, n)
		return gramComputedMsg{tag: tag, base: base, inv: inv, err: err}
	}
}

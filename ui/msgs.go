package ui

import (
	"gitui/core/eval"
)

// runEventsMsg: a coalesced batch of events of run id.
type runEventsMsg struct {
	id     int
	events []eval.Event
}

// runFinishedMsg: the event channel of run id closed (after its Done event).
type runFinishedMsg struct{ id int }

// tickedMsg: a second passed while run id is going (elapsed time and ETA refresh).
type tickedMsg struct{ id int }

// gramComputedMsg: the sample Gram matrices of request tag were computed (or failed).
type gramComputedMsg struct {
	tag       int
	base, inv eval.Matrix
	err       error
}

// savedMsg: the current and pinned runs were written to dir (files), or err.
type savedMsg struct {
	dir   string
	files []string
	err   error
}

// errMsg is an error to show in the status line.
type errMsg struct{ err error }

func (e errMsg) Error() string { return e.err.Error() }

// redrawDueMsg: the throttle interval after a batch passed; the charts may redraw.
type redrawDueMsg struct{}

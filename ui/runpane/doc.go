// Package runpane is the workbench's run pane: the state of the current run, one
// progress bar per stage with its ETA, and the run log.
//
// # Overview
//
// The root feeds it eval.Progress and eval.Log events, Start, Cancelling and Finish.
// The ETA of a stage extrapolates its rate since the stage was first reported (ETA).
// ↑/↓ (k/j) scroll the log when the pane has the focus.
//
// # Shapes
//
// Status line, one line per stage, then the newest log lines that fit.
//
// # Errors
//
// Finish shows a failed run's error on the status line.
//
// # Concurrency
//
// Used from the Bubble Tea loop only; the clock is passed in (Tick), so the pane never
// schedules timers itself.
package runpane

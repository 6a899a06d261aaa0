package engine

import (
	"context"
	"fmt"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
)

// RunOptions are the run-time settings that are not part of a Spec.
type RunOptions struct {
	DataDir string // directory holding mnist/, fashion-mnist/ (resolved by the caller)
	Quick   bool   // informative only: presets already hold their quick variant
	// Dir, if set, journals every finished cell (fsynced before its point is reported)
	// and supplies the cells an earlier run of the same spec already journaled, which
	// are not run again. The run store's directory implements it; the engine knows
	// only this interface.
	Dir Journal
	// NoMatrices skips the heatmap's Gram matrices of a training sample (eval.Matrix
	// events; see Start), for a consumer that does not show them (the headless runner).
	NoMatrices bool
	// Shard, when Count > 0, runs only shard Index of Count: the cells eval.AssignShards
	// gives it over every stage of the run; the others are listed in Outcome.Missing.
	Shard eval.Shard
	// NoRun runs no cell at all: the outcome holds only the cells of Dir's journal and
	// lists the others as Missing (gitui merge derives a result this way).
	NoRun bool
	// Loaded, if set, replaces the data load: the engine takes Pool and Test as they are
	// (already normalised, classes kept). A study (model/study) passes the training part
	// of the pool and its validation split here, so that its trials neither load the data
	// again nor read the test set.
	Loaded *LoadedData
}

// LoadedData is a data set loaded once and reused by many runs (RunOptions.Loaded).
type LoadedData struct {
	Pool, Test *data.Dataset
}

// Journal is what the engine needs of a run's cell journal: the cells already done
// (not run again), an append that makes a finished cell durable before its point is
// reported, and the test labels that predictions are judged against.
type Journal interface {
	// Done returns the journaled cells by key; the engine skips them.
	Done() map[eval.CellKey]eval.Cell
	// Append journals one finished cell durably (it returns only once it is safe).
	Append(c eval.Cell) error
	// SetTest records the labels of the test rows (2N rows when transformed is true:
	// the plain test set followed by its transformed copy) for the confusion tables.
	SetTest(y []int, classes []string, transformed bool)
}

// Start validates spec, builds the engine objects (data, group, methods) and runs its
// protocol in background goroutines. It returns at once with the event channel: Progress,
// Point, Matrix and Log events, and exactly one final eval.Done holding the (possibly
// partial) outcome, after which the channel is closed. Once the spec is built and checked,
// and while the cells run, the training Gram matrices of a class-sorted sample of at most
// GramSamples pool rows arrive as Matrix events: the linear kernel on the inputs first,
// then each method's kernel, named as the method (sample-complexity, sweep, grid and
// group-size protocols; not with NoMatrices). Cancelling ctx stops the run
// promptly (finished cells are kept in Done.Outcome, Done.Err is context.Canceled).
// A spec or data error is reported as Done.Err before any other event (but the "load"
// Progress of spoken-digit recordings, which may precede a recording that cannot be read);
// its message is one line naming the problem and the fix. A panic while building the engine objects (a
// bug: bad input is validated before) is recovered and reported as Done.Err, so that it
// cannot take the TUI's terminal down with it.
func Start(ctx context.Context, spec *model.Spec, opts RunOptions) <-chan eval.Event {
	ch := make(chan eval.Event, 64)
	go func() {
		defer close(ch)
		out, err := runRecovered(ctx, spec, opts, ch)
		ch <- eval.Done{Outcome: out, Err: err}
	}()
	return ch
}

// runRecovered is run with a panic turned into an error.
func runRecovered(ctx context.Context, spec *model.Spec, opts RunOptions, ch chan<- eval.Event) (out *eval.Outcome, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, err = nil, fmt.Errorf("internal error (please report): %v", v)
		}
	}()
	return run(ctx, spec, opts, ch)
}

package eval

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// chosenKey is the context key of a cell's chosen hyperparameters.
type chosenKey struct{}

// chosen collects the hyperparameters one cell's fit chose itself.
type chosen struct {
	mu    sync.Mutex
	v     map[string]float64
	notes []string
}

// withChosen returns ctx carrying an empty collection for one cell, and functions that
// return the values and the notes recorded in it (nil if nothing).
func withChosen(ctx context.Context) (context.Context, func() map[string]float64, func() []string) {
	c := &chosen{}
	return context.WithValue(ctx, chosenKey{}, c), func() map[string]float64 {
			c.mu.Lock()
			defer c.mu.Unlock()
			return maps.Clone(c.v)
		}, func() []string {
			c.mu.Lock()
			defer c.mu.Unlock()
			return slices.Clone(c.notes)
		}
}

// RecordNote records a one-line remark about the fit running under ctx that a reader of
// its accuracy must see, such as "degenerate: the kernel is numerically constant at
// gamma 1e+308": the protocol keeps it in the cell's Notes (journaled with the cell),
// logs it once per series, and the result lists it. A note already recorded for the cell
// is not repeated. Outside a protocol cell it does nothing. It is safe for concurrent use.
func RecordNote(ctx context.Context, note string) {
	c, ok := ctx.Value(chosenKey{}).(*chosen)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.notes, note) {
		c.notes = append(c.notes, note)
	}
}

// RecordChosen records that the fit running under ctx chose the value v for the
// hyperparameter name (RLS's leave-one-out lambda, the median heuristic's gamma of a
// draw): the protocol keeps it in the cell's Chosen, and the run's journal with the
// cell. A later value for the same name replaces the earlier. Outside a protocol cell
// it does nothing. It is safe for concurrent use.
func RecordChosen(ctx context.Context, name string, v float64) {
	c, ok := ctx.Value(chosenKey{}).(*chosen)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.v == nil {
		c.v = map[string]float64{}
	}
	c.v[name] = v
}

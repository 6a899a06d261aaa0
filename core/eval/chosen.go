package eval

import (
	"context"
	"maps"
	"sync"
)

// chosenKey is the context key of a cell's chosen hyperparameters.
type chosenKey struct{}

// chosen collects the hyperparameters one cell's fit chose itself.
type chosen struct {
	mu sync.Mutex
	v  map[string]float64
}

// withChosen returns ctx carrying an empty collection for one cell, and a function that
// returns what was recorded in it (nil if nothing).
func withChosen(ctx context.Context) (context.Context, func() map[string]float64) {
	c := &chosen{}
	return context.WithValue(ctx, chosenKey{}, c), func() map[string]float64 {
		c.mu.Lock()
		defer c.mu.Unlock()
		return maps.Clone(c.v)
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

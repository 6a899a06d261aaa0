package engine

import (
	"context"
	"math"
	"sync"

	"gitui/core/learn"
)

// looKey carries a *looScore in a context (WithLOOScore).
type looKey struct{}

type looScore struct {
	mu  sync.Mutex
	acc float64
	set bool
}

// WithLOOScore returns ctx carrying a slot for the leave-one-out accuracy of the RLS
// fits run under it (a study scored by tune.score loo runs one fit per context), and a
// function that returns the last accuracy recorded, false when no RLS fit recorded one
// (a method with no leave-one-out path, or a fit that failed).
func WithLOOScore(ctx context.Context) (context.Context, func() (float64, bool)) {
	s := &looScore{}
	return context.WithValue(ctx, looKey{}, s), func() (float64, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.acc, s.set
	}
}

// recordLOO records info's leave-one-out accuracy at its lambda in the slot of ctx, if
// ctx has one (WithLOOScore) and the accuracy was computed.
func recordLOO(ctx context.Context, info learn.RLSInfo) {
	s, ok := ctx.Value(looKey{}).(*looScore)
	if !ok {
		return
	}
	acc := info.LOOAccuracy()
	if math.IsNaN(acc) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.acc, s.set = acc, true
}

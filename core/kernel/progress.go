package kernel

import (
	"context"
	"sync"
)

// Progress receives the progress of a long Gram builder: done of total units (rows of
// the result, for the FFT builders) are finished.
type Progress func(done, total int)

// progressKey is the context key of a Progress.
type progressKey struct{}

// WithProgress returns ctx carrying fn. The FFT Gram builders ([CyclicGram],
// [CyclicSymGram], and through them [HaarGram] and [HaarSymGram] over a full cyclic
// group and Liu et al.'s TI kernels, [Liu.SymGram] and [Liu.Gram]) call fn(done, total) after every block of rows they
// finish, with total the rows of their result and done increasing to total; the calls
// come from the builders' worker goroutines, one at a time, so the other workers wait
// while fn runs: fn should return quickly (throttle its events). A nil fn returns ctx
// unchanged.
func WithProgress(ctx context.Context, fn Progress) context.Context {
	if fn == nil {
		return ctx
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// rowCounter counts the finished rows of one builder and reports them to its Progress.
type rowCounter struct {
	mu          sync.Mutex
	done, total int
	fn          Progress
}

// progressFor returns a counter of total rows reporting to ctx's Progress, nil (every
// method a no-op) if ctx carries none.
func progressFor(ctx context.Context, total int) *rowCounter {
	fn, ok := ctx.Value(progressKey{}).(Progress)
	if !ok {
		return nil
	}
	return &rowCounter{total: total, fn: fn}
}

// add records k more finished rows and reports the count.
func (c *rowCounter) add(k int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = min(c.total, c.done+k)
	c.fn(c.done, c.total)
}

// offsetProgress returns ctx whose Progress receives done+off of total, reporting to
// ctx's Progress (for a builder that fills rows [off, off+k) of a result of total rows
// block by block); ctx unchanged if it carries none.
func offsetProgress(ctx context.Context, off, total int) context.Context {
	fn, ok := ctx.Value(progressKey{}).(Progress)
	if !ok {
		return ctx
	}
	return WithProgress(ctx, func(done, _ int) { fn(off+done, total) })
}

package linalg

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ParallelFor calls fn(lo, hi) for the consecutive blocks
//
//	[0, b), [b, 2b), ..., [k*b, n)        b = blockSize
//
// on up to GOMAXPROCS worker goroutines, blocks handed out in increasing order. It checks
// ctx before each block and returns ctx.Err() (undecorated) once cancelled; otherwise it
// returns the first non-nil error a block returned (no new blocks start after an error)
// or nil. It returns when every started block has finished. n == 0 returns nil at once.
//
// It panics if n < 0 or blockSize < 1. A panic inside fn is recovered in the worker and
// re-raised in the caller's goroutine, wrapped with the block bounds.
func ParallelFor(ctx context.Context, n, blockSize int, fn func(lo, hi int) error) error {
	if n < 0 || blockSize < 1 {
		panic(fmt.Sprintf("linalg: ParallelFor(n=%d, blockSize=%d): need n >= 0 and blockSize >= 1", n, blockSize))
	}
	if n == 0 {
		return ctx.Err()
	}
	nb := (n + blockSize - 1) / blockSize
	workers := min(runtime.GOMAXPROCS(0), nb)
	var (
		next     atomic.Int64
		stop     atomic.Bool
		once     sync.Once
		firstErr error
		panicked any
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		once.Do(func() { firstErr = err })
		stop.Store(true)
	}
	work := func() {
		defer wg.Done()
		for !stop.Load() {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return
			}
			if err := ctx.Err(); err != nil {
				fail(err)
				return
			}
			lo := b * blockSize
			hi := min(lo+blockSize, n)
			if err := runBlock(fn, lo, hi, &panicked); err != nil {
				fail(err)
				return
			}
		}
	}
	wg.Add(workers)
	for range workers - 1 {
		go work()
	}
	work()
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	return firstErr
}

var panicMu sync.Mutex

// runBlock calls fn and turns a panic into an error after recording it in *p.
func runBlock(fn func(lo, hi int) error, lo, hi int, p *any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			panicMu.Lock()
			if *p == nil {
				*p = fmt.Sprintf("linalg: ParallelFor block [%d,%d): %v", lo, hi, r)
			}
			panicMu.Unlock()
			err = errPanicked
		}
	}()
	return fn(lo, hi)
}

var errPanicked = fmt.Errorf("linalg: block panicked")

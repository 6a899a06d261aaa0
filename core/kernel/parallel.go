package kernel

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelBlocks calls fn(b) for b = 0..nb-1 on up to GOMAXPROCS goroutines, blocks
// handed out in increasing order. It checks ctx before each block and returns ctx.Err()
// once cancelled (blocks already running finish first). A panic in fn is recovered in
// its worker and re-raised in the caller after all workers stopped.
func parallelBlocks(ctx context.Context, nb int, fn func(b int)) error {
	if nb <= 0 {
		return ctx.Err()
	}
	workers := min(runtime.GOMAXPROCS(0), nb)
	var (
		next     atomic.Int64
		stop     atomic.Bool
		wg       sync.WaitGroup
		mu       sync.Mutex
		panicked any
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					if panicked == nil {
						panicked = r
					}
					mu.Unlock()
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				b := int(next.Add(1) - 1)
				if b >= nb || ctx.Err() != nil {
					return
				}
				fn(b)
			}
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(fmt.Sprint(panicked))
	}
	return ctx.Err()
}

package learn

import (
	"runtime"
	"sync"

	"gitui/core/linalg"
)

// wideReduceMin is the smallest order whose reduction lets the BLAS library use more
// than one thread: below it the reduction takes well under a second.
const wideReduceMin = 1000

// workload counts the RLS work in progress in the process and sets the BLAS thread
// count it implies while a wide reduction runs (see widenBLAS).
type workload struct {
	mu       sync.Mutex
	work     int // fits and scorings in progress
	reducing int // wide reductions in progress
	base     int // the BLAS thread setting found when the first of them began
}

// busy is the process's workload.
var busy workload

// beginWork marks an RLS fit or scoring (FitRLS, FitRLSRows, FitKernelRLS,
// FitRBFRowsRLS, and the DecisionRows of LinearRLS and RBFRowsRLS) in progress until the
// returned function is called.
func beginWork() (end func()) {
	busy.mu.Lock()
	busy.work++
	busy.setThreads()
	busy.mu.Unlock()
	return func() {
		busy.mu.Lock()
		busy.work--
		busy.setThreads()
		busy.mu.Unlock()
	}
}

// setThreads gives the BLAS library GOMAXPROCS / (work in progress) threads, at least
// 1, while a wide reduction runs, and returns the previous setting; it leaves the
// setting alone (and returns 0) otherwise. The caller holds w.mu.
func (w *workload) setThreads() (prev int) {
	if w.reducing == 0 {
		return 0
	}
	return linalg.SetBLASThreads(max(1, runtime.GOMAXPROCS(0)/max(1, w.work)))
}

// widenBLAS lets the tridiagonal reduction of order r >= wideReduceMin (LAPACK's
// dsytrd and dorgtr in the openblas build: one call that no goroutine can split) use
// the cores that no other RLS work is using. The engine runs up to GOMAXPROCS cells at
// once and each parallelises its own products over the cores, so a reduction with one
// BLAS thread leaves the other cores idle whenever it runs alone: a run of one cell,
// or the last cell of a stage (in mnist-cdf the 10,000-digit draw shares the cores with
// the smaller draws nearly throughout, so its wall time did not move). While a wide
// reduction runs, the BLAS has GOMAXPROCS / (fits and scorings in progress) threads,
// updated as work begins and ends: the reduction of a 5,000×5,000 matrix takes 8.4 s with two threads
// instead of 16.8 s with one on the 2-core machine (quiet), while 4 threads on 2 cores
// cost more than they give (see the linalg package doc). The setting is process-wide:
// the last reduction to end restores the one found when the first began. The pure-Go
// build has no thread setting (SetBLASThreads returns 0) and is unchanged. Call the
// returned function when the reduction ends.
func widenBLAS(r int) (restore func()) {
	if r < wideReduceMin {
		return func() {}
	}
	busy.mu.Lock()
	busy.reducing++
	if prev := busy.setThreads(); busy.reducing == 1 {
		busy.base = prev
	}
	busy.mu.Unlock()
	return func() {
		busy.mu.Lock()
		busy.reducing--
		if busy.reducing == 0 && busy.base > 0 {
			linalg.SetBLASThreads(busy.base)
		}
		busy.mu.Unlock()
	}
}

package learn

import (
	"runtime"
	"testing"

	"gitui/core/linalg"
)

// TestWidenBLAS checks the BLAS thread setting around reductions: a reduction with no
// other work in progress gets GOMAXPROCS threads, and GOMAXPROCS / (work in progress)
// as fits and scorings begin and end; a small one is left alone; the last to end
// restores the setting found before.
func TestWidenBLAS(t *testing.T) {
	if linalg.SetBLASThreads(1) == 0 {
		t.Skip("this build's BLAS has no thread setting (pure Go)")
	}
	threads := func() int { // read by setting: SetBLASThreads returns the previous value
		v := linalg.SetBLASThreads(1)
		linalg.SetBLASThreads(v)
		return v
	}
	procs := runtime.GOMAXPROCS(0)
	end1 := beginWork()
	small := widenBLAS(wideReduceMin - 1)
	if got := threads(); got != 1 {
		t.Errorf("a reduction of order %d set %d BLAS threads, want 1 (unchanged)", wideReduceMin-1, got)
	}
	small()
	r1 := widenBLAS(wideReduceMin)
	if got := threads(); got != procs {
		t.Errorf("a lone fit's reduction has %d BLAS threads, want GOMAXPROCS = %d", got, procs)
	}
	end2 := beginWork() // a second cell's fit or scoring begins
	if got, want := threads(), max(1, procs/2); got != want {
		t.Errorf("with two pieces of work in progress the BLAS has %d threads, want %d", got, want)
	}
	r2 := widenBLAS(4 * wideReduceMin)
	r2()
	if got, want := threads(), max(1, procs/2); got != want {
		t.Errorf("after the second reduction ended (the first still running) the setting is %d, want %d", got, want)
	}
	end2()
	if got := threads(); got != procs {
		t.Errorf("after the other work ended the reduction has %d BLAS threads, want %d", got, procs)
	}
	r1()
	end1()
	if got := threads(); got != 1 {
		t.Errorf("after the last reduction the BLAS has %d threads, want the 1 found before", got)
	}
	if busy.work != 0 || busy.reducing != 0 {
		t.Errorf("work %d, reductions %d still counted", busy.work, busy.reducing)
	}
}

package linalg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

func TestParallelForCoversEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 7, 64, 1000, 1001} {
		for _, bs := range []int{1, 3, 64, 5000} {
			hits := make([]atomic.Int32, n)
			err := ParallelFor(context.Background(), n, bs, func(lo, hi int) error {
				if hi-lo > bs || lo >= hi {
					t.Errorf("n=%d bs=%d: bad block [%d,%d)", n, bs, lo, hi)
				}
				for i := lo; i < hi; i++ {
					hits[i].Add(1)
				}
				return nil
			})
			if err != nil {
				t.Fatalf("n=%d bs=%d: %v", n, bs, err)
			}
			for i := range hits {
				if h := hits[i].Load(); h != 1 {
					t.Fatalf("n=%d bs=%d: index %d visited %d times", n, bs, i, h)
				}
			}
		}
	}
}

func TestParallelForError(t *testing.T) {
	boom := errors.New("boom")
	var calls atomic.Int32
	err := ParallelFor(context.Background(), 1000, 1, func(lo, hi int) error {
		calls.Add(1)
		if lo == 10 {
			return boom
		}
		return nil
	})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if c := calls.Load(); c == 1000 {
		t.Errorf("all %d blocks ran after an error at block 10", c)
	}
}

func TestParallelForCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	start := time.Now()
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	err := ParallelFor(ctx, 1<<20, 1, func(lo, hi int) error {
		calls.Add(1)
		time.Sleep(time.Millisecond)
		return nil
	})
	if err != context.Canceled { // undecorated, by contract
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("cancel took %v", d)
	}
	// A pre-cancelled context runs nothing.
	calls.Store(0)
	if err := ParallelFor(ctx, 10, 1, func(lo, hi int) error { calls.Add(1); return nil }); err != context.Canceled || calls.Load() != 0 {
		t.Errorf("pre-cancelled: err %v, %d calls", err, calls.Load())
	}
}

func TestParallelForPanicReachesCaller(t *testing.T) {
	defer func() {
		r := recover()
		s, _ := r.(string)
		if !strings.Contains(s, "kaput") || !strings.HasPrefix(s, "linalg: ") {
			t.Fatalf("recovered %v, want the worker's panic", r)
		}
	}()
	_ = ParallelFor(context.Background(), 100, 10, func(lo, hi int) error {
		if lo == 50 {
			panic("kaput")
		}
		return nil
	})
	t.Fatal("ParallelFor returned after a panicking block")
}

func TestConversions(t *testing.T) {
	src := []float64{0, 1, -2.5, 1e-8, 3.14159265358979}
	f32 := make([]float32, len(src))
	ToFloat32(f32, src)
	back := make([]float64, len(src))
	ToFloat64(back, f32)
	for i := range src {
		// float32 has a 24-bit significand: relative rounding error <= 2^-24.
		if math.Abs(back[i]-src[i]) > math.Abs(src[i])*0x1p-24 {
			t.Errorf("%d: %v -> %v", i, src[i], back[i])
		}
	}
	x := mat.NewDense(3, 2, []float64{3, 4, 0, 0, 1, 0})
	sub := x.Slice(1, 3, 0, 2).(*mat.Dense) // stride 2 view; rows [0 0], [1 0]
	got := RowsToFloat32(make([]float32, 10), x, 0, 2, true)
	want := []float32{0.6, 0.8, 0, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("unit rows: got %v, want %v", got, want)
		}
	}
	got = RowsToFloat32(make([]float32, 4), sub, 1, 2, false)
	if len(got) != 2 || got[0] != 1 || got[1] != 0 {
		t.Fatalf("sub-view row: got %v", got)
	}
}

// TestBLASGemmAgrees checks that whichever BLAS this build uses computes Sgemm and Dgemm
// like the plain triple loop (float32: relative error ~1e-6 for k = 300 terms of size 1).
func TestBLASGemmAgrees(t *testing.T) {
	t.Logf("BLAS: %s", BLAS())
	rng := rand.New(rand.NewPCG(1, 1))
	const m, n, k = 37, 53, 300
	a := make([]float64, m*k)
	b := make([]float64, n*k)
	for i := range a {
		a[i] = rng.NormFloat64()
	}
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	c64 := make([]float64, m*n)
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, blas64.General{Rows: m, Cols: k, Stride: k, Data: a},
		blas64.General{Rows: n, Cols: k, Stride: k, Data: b}, 0, blas64.General{Rows: m, Cols: n, Stride: n, Data: c64})
	a32, b32 := make([]float32, len(a)), make([]float32, len(b))
	ToFloat32(a32, a)
	ToFloat32(b32, b)
	c32 := make([]float32, m*n)
	blas32.Gemm(blas.NoTrans, blas.Trans, 1, blas32.General{Rows: m, Cols: k, Stride: k, Data: a32},
		blas32.General{Rows: n, Cols: k, Stride: k, Data: b32}, 0, blas32.General{Rows: m, Cols: n, Stride: n, Data: c32})
	for i := range m {
		for j := range n {
			var s float64
			for l := range k {
				s += a[i*k+l] * b[j*k+l]
			}
			if d := math.Abs(c64[i*n+j] - s); d > 1e-12*k {
				t.Fatalf("Dgemm (%d,%d): %v vs %v", i, j, c64[i*n+j], s)
			}
			// |a|,|b| ~ 1: float32 inputs carry 2^-24 relative error each, sum of k terms.
			if d := math.Abs(float64(c32[i*n+j]) - s); d > 1e-5*k {
				t.Fatalf("Sgemm (%d,%d): %v vs %v", i, j, c32[i*n+j], s)
			}
		}
	}
}

func TestSetBLASThreads(t *testing.T) {
	prev := SetBLASThreads(2)
	if BLAS() == "OpenBLAS (cgo)" {
		if prev != 1 {
			t.Errorf("OpenBLAS start-up thread count %d, want 1", prev)
		}
		if p := SetBLASThreads(prev); p != 2 {
			t.Errorf("thread count read back %d, want 2", p)
		}
	} else if prev != 0 {
		t.Errorf("pure-Go build returned %d, want 0", prev)
	}
}

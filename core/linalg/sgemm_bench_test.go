package linalg

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// The projection's GEMM (core/feature): 256 input rows × 784 pixels times 4096
// transformed templates × 784, C = A·Bᵀ (256×4096).
const benchM, benchN, benchK = 256, 4096, 784

func benchData(seed uint64, n int) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.Float64())
	}
	return s
}

// reportGFLOPS reports 2·m·n·k flops per product times products per op, per second of
// wall time (GFLOP/s) and, where the OS reports it, per CPU-second of the whole process
// since cpu0 = cpuSeconds() (GFLOP/cpu-s: what one core delivers when the machine is
// shared, as it is here).
func reportGFLOPS(b *testing.B, products int, cpu0 float64) {
	flops := 2 * benchM * benchN * benchK * float64(products) * float64(b.N)
	b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	if cpu1 := cpuSeconds(); cpu0 >= 0 && cpu1 > cpu0 {
		b.ReportMetric(flops/(cpu1-cpu0)/1e9, "GFLOP/cpu-s")
	}
}

// BenchmarkSgemmProjection measures GFLOP/s at the projection shape:
//
//	K/1          one MulNT on a PackB'd B (the packed path with micro-kernel K: avx2, or
//	             avx512 where the CPU has it), calling goroutine
//	K/workers    GOMAXPROCS goroutines, each its own 256-row MulNT on the shared packed B
//	             (what the projection workers do); flops of all of them per op
//	K/split      one 256-row product split by rows over GOMAXPROCS goroutines
//	blas32       blas32.Gemm (gonum's pure Go, itself parallel over GOMAXPROCS; OpenBLAS
//	             with one thread under -tags openblas)
//	blas32/workers GOMAXPROCS goroutines, each its own blas32.Gemm
//
// Run with -cpu 1,2 for single-core and two-core figures.
func BenchmarkSgemmProjection(b *testing.B) {
	bm := benchData(2, benchN*benchK)
	w := runtime.GOMAXPROCS(0)
	as := make([][]float32, w)
	cs := make([][]float32, w)
	for i := range w {
		as[i] = benchData(uint64(10+i), benchM*benchK)
		cs[i] = make([]float32, benchM*benchN)
	}
	for _, kc := range asmKernels() {
		pb := packB(benchN, benchK, append([]float32(nil), bm...), benchK, true, kc.kern)
		b.Run(kc.name+"/1", func(b *testing.B) {
			cpu0 := cpuSeconds()
			for b.Loop() {
				pb.MulNT(benchM, as[0], benchK, cs[0], benchN)
			}
			reportGFLOPS(b, 1, cpu0)
		})
		b.Run(kc.name+"/workers", func(b *testing.B) {
			cpu0 := cpuSeconds()
			for b.Loop() {
				var wg sync.WaitGroup
				for i := range w {
					wg.Go(func() { pb.MulNT(benchM, as[i], benchK, cs[i], benchN) })
				}
				wg.Wait()
			}
			reportGFLOPS(b, w, cpu0)
		})
		b.Run(kc.name+"/split", func(b *testing.B) {
			cpu0 := cpuSeconds()
			rows := (benchM + w - 1) / w
			for b.Loop() {
				var wg sync.WaitGroup
				for i := range w {
					lo, hi := i*rows, min((i+1)*rows, benchM)
					wg.Go(func() {
						pb.MulNT(hi-lo, as[0][lo*benchK:], benchK, cs[0][lo*benchN:], benchN)
					})
				}
				wg.Wait()
			}
			reportGFLOPS(b, 1, cpu0)
		})
	}
	gemm := func(a, c []float32) {
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: benchM, Cols: benchK, Stride: benchK, Data: a},
			blas32.General{Rows: benchN, Cols: benchK, Stride: benchK, Data: bm},
			0, blas32.General{Rows: benchM, Cols: benchN, Stride: benchN, Data: c})
	}
	b.Run("blas32", func(b *testing.B) {
		cpu0 := cpuSeconds()
		b.Logf("blas32 is %s", BLAS())
		for b.Loop() {
			gemm(as[0], cs[0])
		}
		reportGFLOPS(b, 1, cpu0)
	})
	b.Run("blas32/workers", func(b *testing.B) {
		cpu0 := cpuSeconds()
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range w {
				wg.Go(func() { gemm(as[i], cs[i]) })
			}
			wg.Wait()
		}
		reportGFLOPS(b, w, cpu0)
	})
}

// BenchmarkSgemmKernel measures the micro-kernel alone on L1-resident panels (kc = 256):
// the ceiling of the packed path on this CPU.
func BenchmarkSgemmKernel(b *testing.B) {
	if !useAsmSgemm {
		b.Skip("no AVX2+FMA assembly in this build or on this CPU")
	}
	const kc = 256
	a, bp, c := benchData(3, kc*mr), benchData(4, kc*nr), make([]float32, mr*nr)
	for _, k := range asmKernels() {
		b.Run(k.name, func(b *testing.B) {
			cpu0 := cpuSeconds()
			for b.Loop() {
				k.kern(kc, a, bp, c, nr, true)
			}
			flops := 2 * mr * nr * kc * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			if cpu1 := cpuSeconds(); cpu0 >= 0 && cpu1 > cpu0 {
				b.ReportMetric(flops/(cpu1-cpu0)/1e9, "GFLOP/cpu-s")
			}
		})
	}
}

// BenchmarkBlas32Gemm times blas32.Gemm (Float32 in the default build, OpenBLAS in the
// openblas build, gonum with -tags purego) on the shapes its callers use: the locality
// kernels' best-fit tiles (504 transformed rows against 256 rows of a 32,928-wide
// explicit map, C = A·Bᵀ) and a square product. It reports GFLOP/s.
func BenchmarkBlas32Gemm(b *testing.B) {
	for _, sz := range [][3]int{{504, 256, 32928}, {1000, 1000, 1000}} {
		m, n, k := sz[0], sz[1], sz[2]
		b.Run(fmt.Sprintf("%dx%dx%d", m, n, k), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 1))
			a := blas32.General{Rows: m, Cols: k, Stride: k, Data: make([]float32, m*k)}
			bt := blas32.General{Rows: n, Cols: k, Stride: k, Data: make([]float32, n*k)}
			for i := range a.Data {
				a.Data[i] = float32(rng.Float64())
			}
			for i := range bt.Data {
				bt.Data[i] = float32(rng.Float64())
			}
			c := blas32.General{Rows: m, Cols: n, Stride: n, Data: make([]float32, m*n)}
			b.ResetTimer()
			for range b.N {
				blas32.Gemm(blas.NoTrans, blas.Trans, 1, a, bt, 0, c)
			}
			b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

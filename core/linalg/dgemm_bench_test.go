package linalg

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// BenchmarkDgemm measures C = A·B (and A·Bᵀ) at 2000×2000×2000 in GFLOP/s (2·m·n·k per
// product) through blas64, the implementation this build installs: Float64 on the
// packed micro-kernel in the default build (DgemmImpl: avx512 or avx2), OpenBLAS under
// -tags openblas (with GOMAXPROCS threads for the call), and gonum's pure Go for
// comparison. Run with -cpu 1,2 for one and two cores. It also reports GFLOP per
// CPU-second of the whole process, the figure to trust when other load shares the cores.
func BenchmarkDgemm(b *testing.B) {
	const n = 2000
	rng := rand.New(rand.NewPCG(1, 2))
	x, y, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range x {
		x[i], y[i] = rng.Float64(), rng.Float64()
	}
	b.Logf("blas64: %s (%s), dgemm: %s", BLAS(), BLASCore(), DgemmImpl())
	impls := []struct {
		name string
		impl blas.Float64
	}{{"blas64=" + DgemmImpl(), blas64.Implementation()}, {"gonum", ref}}
	for _, im := range impls {
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			b.Run(fmt.Sprintf("%s/N%c/%d", im.name, tB, n), func(b *testing.B) {
				if prev := SetBLASThreads(runtime.GOMAXPROCS(0)); prev > 0 {
					defer SetBLASThreads(prev)
				}
				cpu0 := cpuSeconds()
				for b.Loop() {
					im.impl.Dgemm(blas.NoTrans, tB, n, n, n, 1, x, n, y, n, 0, c, n)
				}
				reportRate(b, 2*float64(n)*n*n*float64(b.N)/1e9, "GFLOP", cpu0)
			})
		}
	}
}

// BenchmarkDgemmKernel measures each assembly micro-kernel alone on L1-resident panels
// (kc = 256): the ceiling of the packed path on this CPU.
func BenchmarkDgemmKernel(b *testing.B) {
	if len(dkernAsmAll()) == 0 {
		b.Skip("no float64 assembly in this build or on this CPU")
	}
	const kc = 256
	for _, kn := range dkernAsmAll() {
		a, bp, c := make([]float64, kc*kn.mr), make([]float64, kc*kn.nr), make([]float64, kn.mr*kn.nr)
		for i := range a {
			a[i] = 1e-3
		}
		for i := range bp {
			bp[i] = 1e-3
		}
		b.Run(kn.name, func(b *testing.B) {
			cpu0 := cpuSeconds()
			for b.Loop() {
				kn.fn(kc, a, bp, c, kn.nr, true)
			}
			reportRate(b, 2*float64(kn.mr*kn.nr*kc)*float64(b.N)/1e9, "GFLOP", cpu0)
		})
	}
}

// BenchmarkDgemv measures y = A·x and y = Aᵀ·x at 4000×4000 in GB/s (the 128 MB of A
// read per product, the vectors besides) through blas64, the implementation this build
// installs (Float64 on the AVX2 kernels in the default build, OpenBLAS under -tags
// openblas), and gonum's pure Go for comparison; also GB per CPU-second of the whole
// process, the figure to trust when other load shares the cores. Run with -cpu 1,2.
func BenchmarkDgemv(b *testing.B) {
	const n = 4000
	rng := rand.New(rand.NewPCG(1, 3))
	a, x, y := make([]float64, n*n), make([]float64, n), make([]float64, n)
	for i := range a {
		a[i] = rng.Float64()
	}
	for i := range x {
		x[i] = rng.Float64()
	}
	impls := []struct {
		name string
		impl blas.Float64
	}{{"blas64=" + DgemmImpl(), blas64.Implementation()}, {"gonum", ref}}
	for _, im := range impls {
		for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			b.Run(fmt.Sprintf("%s/%c/%d", im.name, tA, n), func(b *testing.B) {
				if prev := SetBLASThreads(runtime.GOMAXPROCS(0)); prev > 0 {
					defer SetBLASThreads(prev)
				}
				cpu0 := cpuSeconds()
				for b.Loop() {
					im.impl.Dgemv(tA, n, n, 1, a, n, x, 1, 0.5, y, 1)
				}
				reportRate(b, 8*float64(n)*n*float64(b.N)/1e9, "GB", cpu0)
			})
		}
	}
}

// reportRate reports units (of unit: GFLOP, GB) done per second of the benchmark and per
// CPU-second of the whole process since cpuSeconds returned cpu0.
func reportRate(b *testing.B, units float64, unit string, cpu0 float64) {
	b.ReportMetric(units/b.Elapsed().Seconds(), unit+"/s")
	if cpu1 := cpuSeconds(); cpu0 >= 0 && cpu1 > cpu0 {
		b.ReportMetric(units/(cpu1-cpu0), unit+"/cpu-s")
	}
}

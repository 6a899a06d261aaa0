package kernel

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkLiuLocalTI is the ±2 zero-fill TI kernel (Liu with Shifts 2: 25 shifts
// through the GEMM best-fit path, degree-8 polynomial) on 500 synthetic 28×28 images
// (MNIST size, no data needed): the symmetric training Gram. Each pair costs 25 inner
// products of length 784 (2·25·784 flops), reported as pairs/s and GFLOP/s.
// BenchmarkLiuLocalTIMNIST times it on real digits with the test block.
func BenchmarkLiuLocalTI(b *testing.B) {
	ctx := context.Background()
	X := randImages(rand.New(rand.NewPCG(1, 1)), 500, 28, 28, false)
	k, err := NewLiu(LiuOptions{H: 28, W: 28, Base: Poly{Gamma: 0.01, Degree: 8},
		Invariance: TI, Fit: BestFit, Translation: ZeroFill, Shifts: 2})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := k.SymGram(ctx, X); err != nil {
			b.Fatal(err)
		}
	}
	pairs := 500 * 501 / 2 * float64(b.N)
	b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
	b.ReportMetric(2*25*784*pairs/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

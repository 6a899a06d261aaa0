package kernel_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gitui/core/kernel"
)

// BenchmarkLiuLocalTIMNIST times the ±2 zero-fill TI kernel (kernel.Liu with Shifts 2:
// the 25 shifts |dy|, |dx| <= 2 through the GEMM best-fit path, degree-8 polynomial with
// gamma 0.01 on [0,1] pixels, as the Liu presets) on real MNIST: the training Gram of 500
// digits and the block of the 10000 official test digits against them, and the same two
// for the full zero-fill range (Shifts 0: the FFT on the 56×56 canvas) for comparison.
// Each reports s/gram and pairs/s. Skipped without GITUI_DATA holding mnist/.
func BenchmarkLiuLocalTIMNIST(b *testing.B) {
	pool, test := mnist(b)
	ctx := context.Background()
	X := pool.Subset(rand.New(rand.NewPCG(0, 0)).Perm(pool.Len())[:500]).X
	nt := test.Len()
	for _, r := range []int{2, 0} {
		k, err := kernel.NewLiu(kernel.LiuOptions{H: 28, W: 28, Base: kernel.Poly{Gamma: 0.01, Degree: 8},
			Invariance: kernel.TI, Fit: kernel.BestFit, Translation: kernel.ZeroFill, Shifts: r})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("shifts=%d/sym/n=500", r), func(b *testing.B) {
			for b.Loop() {
				if _, err := k.SymGram(ctx, X); err != nil {
					b.Fatal(err)
				}
			}
			s := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(s, "s/gram")
			b.ReportMetric(500*501/2/s, "pairs/s")
		})
		b.Run(fmt.Sprintf("shifts=%d/test/%dx500", r, nt), func(b *testing.B) {
			for b.Loop() {
				if _, err := k.Gram(ctx, test.X, X); err != nil {
					b.Fatal(err)
				}
			}
			s := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(s, "s/gram")
			b.ReportMetric(float64(nt)*500/s, "pairs/s")
		})
	}
}

package kernel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gitui/core/group"
)

// BenchmarkFitGram: the finite-set GEMM path on 28×28 images with the 49 zero-fill
// local shifts (|dy|, |dx| <= 3) and 9 rotations, degree-8 polynomial base, best fit:
// symmetric n = 500 and a 250×500 rectangle. Each pair costs |G| inner products of
// length 784 (2·|G|·784 flops), reported as pairs/s and GFLOP/s.
func BenchmarkFitGram(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 500
	X := randImages(rng, n, 28, 28, false)
	Xt := randImages(rng, n/2, 28, 28, false)
	k0 := Poly{Gamma: 0.01, Degree: 8}
	for _, G := range []group.Action{group.LocalShifts(28, 28, 3), group.Rotations(28, 28, group.AngleRange(-20, 20, 9))} {
		g := float64(G.Len())
		b.Run(fmt.Sprintf("sym/G=%d/n=%d", G.Len(), n), func(b *testing.B) {
			for b.Loop() {
				if _, err := FitSymGram(ctx, k0, G, BestFit, X); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(n) * (n + 1) / 2 * float64(b.N)
			b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
			b.ReportMetric(2*g*784*pairs/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("rect/G=%d/%dx%d", G.Len(), n/2, n), func(b *testing.B) {
			for b.Loop() {
				if _, err := FitGram(ctx, k0, G, BestFit, Xt, X); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(n/2) * n * float64(b.N)
			b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
			b.ReportMetric(2*g*784*pairs/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkLocality: the locality kernel (3×3 patches, one layer) on 28×28 images,
// symmetric Gram of 300 images.
func BenchmarkLocality(b *testing.B) {
	ctx := context.Background()
	X := randImages(rand.New(rand.NewPCG(1, 1)), 300, 28, 28, false)
	k := Locality{H: 28, W: 28, K1: 3, D1: 2, D2: 8, S1: 1.0 / 36}
	for b.Loop() {
		if _, err := PairSymGram(ctx, k, X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(300*301/2*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

// BenchmarkLocalityMap is BenchmarkLocality's Gram (300 28×28 images, k1 = 3, d1 = 2,
// d2 = 8) through the explicit feature map and a matrix product.
func BenchmarkLocalityMap(b *testing.B) {
	ctx := context.Background()
	X := randImages(rand.New(rand.NewPCG(1, 1)), 300, 28, 28, false)
	k := Locality{H: 28, W: 28, K1: 3, D1: 2, D2: 8, S1: 1.0 / 36}
	for b.Loop() {
		if _, err := LocalitySymGram(ctx, k, X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(300*301/2*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

// BenchmarkFitLocality is the L-TI training Gram over the 9 local shifts of radius 1
// (300 28×28 images, k1 = 3, d1 = 2, d2 = 4) on the matrix-product path; pairs/s counts
// image pairs (each pools 9 transformed copies).
func BenchmarkFitLocality(b *testing.B) {
	ctx := context.Background()
	X := randImages(rand.New(rand.NewPCG(1, 1)), 300, 28, 28, false)
	k := Locality{H: 28, W: 28, K1: 3, D1: 2, D2: 4, S1: 1.0 / 36}
	G := group.LocalShifts(28, 28, 1)
	for b.Loop() {
		if _, err := FitLocalitySymGram(ctx, k, G, BestFit, X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(300*301/2*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
}

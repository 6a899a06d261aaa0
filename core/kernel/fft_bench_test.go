package kernel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCyclicGram: the TI best-fit FFT path over all cyclic shifts of 28×28 images
// (784 shifts) and 64×64 images (4096), degree-8 polynomial base: the symmetric Gram
// of n images (upper triangle) and an n/2 × n rectangle. Peer:
// /work/shared/bench/ti_gram.py (scipy batched FFT, float32, 2 workers; FINDINGS.md:
// about 2.07 s for the 1000×1000 upper triangle, 3.7 us per pair).
func BenchmarkCyclicGram(b *testing.B) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 1))
	k0 := Poly{Gamma: 0.01, Degree: 8}
	for _, sz := range []int{28, 64} {
		n := 1000
		if sz == 64 {
			n = 200
		}
		X := randImages(rng, n, sz, sz, false)
		A, err := NewSpectra(ctx, sz, sz, Shift2D, X, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("sym/%dx%d/n=%d", sz, sz, n), func(b *testing.B) {
			for b.Loop() {
				if _, err := CyclicSymGram(ctx, k0, BestFit, A); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(n) * float64(n+1) / 2 * float64(b.N)
			b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
			b.ReportMetric(b.Elapsed().Seconds()/pairs*1e6, "us/pair")
		})
		Xt := randImages(rng, n/2, sz, sz, false)
		T, err := NewSpectra(ctx, sz, sz, Shift2D, Xt, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("rect/%dx%d/%dx%d", sz, sz, n/2, n), func(b *testing.B) {
			for b.Loop() {
				if _, err := CyclicGram(ctx, k0, BestFit, T, A); err != nil {
					b.Fatal(err)
				}
			}
			pairs := float64(n/2) * float64(n) * float64(b.N)
			b.ReportMetric(pairs/b.Elapsed().Seconds(), "pairs/s")
			b.ReportMetric(b.Elapsed().Seconds()/pairs*1e6, "us/pair")
		})
	}
}

// BenchmarkSpectra: forward transforms of 28×28 images.
func BenchmarkSpectra(b *testing.B) {
	ctx := context.Background()
	X := randImages(rand.New(rand.NewPCG(1, 1)), 2000, 28, 28, false)
	for b.Loop() {
		if _, err := NewSpectra(ctx, 28, 28, Shift2D, X, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2000*float64(b.N)/b.Elapsed().Seconds(), "images/s")
}

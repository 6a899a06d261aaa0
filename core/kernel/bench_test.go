package kernel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"gitui/core/group"
	_ "gitui/core/linalg" // -tags openblas routes blas64 through OpenBLAS

	"gonum.org/v1/gonum/mat"
)

// BenchmarkGramRBF: RBF Gram matrices of MNIST-sized data (d = 784), n = 2000.
func BenchmarkGramRBF(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n, d = 2000, 784
	X := randDense(rng, n, d)
	Z := randDense(rng, n, d)
	k := RBF{Gamma: 1.0 / d}
	ctx := context.Background()
	b.Run(fmt.Sprintf("Gram/n=%d/m=%d/d=%d", n, n, d), func(b *testing.B) {
		var dst mat.Dense
		for b.Loop() {
			dst.Reset()
			if err := GramTo(ctx, &dst, k, X, Z); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		b.ReportMetric(2*float64(n)*n*d*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	// Reference: the bare product X Zᵀ in one mat.Mul call (one Dgemm), to read the
	// builders' overhead under the same machine load. (mat.Mul(X, X.T()) would use
	// Dsyrk, half the work: compare that with SymGram.)
	b.Run(fmt.Sprintf("reference-Mul/n=%d/d=%d", n, d), func(b *testing.B) {
		var dst mat.Dense
		for b.Loop() {
			dst.Reset()
			dst.Mul(X, Z.T())
		}
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		b.ReportMetric(2*float64(n)*n*d*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	})
	b.Run(fmt.Sprintf("SymGram/n=%d/d=%d", n, d), func(b *testing.B) {
		var dst mat.SymDense
		for b.Loop() {
			dst.Reset()
			if err := SymGramTo(ctx, &dst, k, X); err != nil {
				b.Fatal(err)
			}
		}
		// Pairs of the full matrix per second (each unordered pair computed once).
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	})
}

// BenchmarkHaarGram: Haar-integration Gram matrices (RBF base) on X_perm-shaped data
// (5 one-hot blocks of 8, S_5, |G| = 120), n = 1000 training draws.
func BenchmarkHaarGram(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	const n = 1000
	X, _ := xpermDraw(rng, n, 5, 8)
	G := group.Permutations(5, 8, nil, 0)
	k := RBF{Gamma: 0.25}
	ctx := context.Background()
	b.Run(fmt.Sprintf("direct/n=%d/G=120", n), func(b *testing.B) {
		out := mat.NewDense(n, n, nil)
		for b.Loop() {
			if err := haarDirect(ctx, k, G, X, X, true, out.RawMatrix()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	})
	b.Run(fmt.Sprintf("HaarSymGram/n=%d/G=120", n), func(b *testing.B) {
		for b.Loop() {
			if _, err := HaarSymGram(ctx, k, G, X); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	})
	pool := mat.NewDense(32768, 40, nil)
	for s := range 32768 {
		v := s
		for l := range 5 {
			pool.Set(s, l*8+v%8, 1)
			v /= 8
		}
	}
	b.Run("OrbitTable/build/pool=32768", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewOrbitTable(ctx, k, G, pool); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(792*792*float64(b.N)/b.Elapsed().Seconds(), "orbit-pairs/s")
	})
	tab, err := NewOrbitTable(ctx, k, G, pool)
	if err != nil {
		b.Fatal(err)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = rng.IntN(32768)
	}
	b.Run(fmt.Sprintf("OrbitTable/SymGram/n=%d", n), func(b *testing.B) {
		for b.Loop() {
			tab.SymGram(idx)
		}
		b.ReportMetric(float64(n)*n*float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
	})
}

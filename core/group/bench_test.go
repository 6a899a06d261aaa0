package group

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkApply: transformed images per second for the MNIST actions.
func BenchmarkApply(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := randVec(rng, 784)
	dst := make([]float64, 784)
	for _, c := range []struct {
		name string
		a    Action
	}{
		{"rotations9", Rotations(28, 28, AngleRange(-20, 20, 9))},
		{"localshifts3", LocalShifts(28, 28, 3)},
		{"cyclicshifts", AllCyclicShifts(28, 28)},
		{"rot9xshift3", Product(Rotations(28, 28, AngleRange(-20, 20, 9)), LocalShifts(28, 28, 3))},
	} {
		b.Run(c.name, func(b *testing.B) {
			k := 0
			for b.Loop() {
				c.a.Apply(dst, x, k)
				k++
				if k == c.a.Len() {
					k = 0
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "images/s")
		})
	}
}

// BenchmarkCanonicalXPerm: orbit classes of the whole X_perm pool (32,768 rows, S_5).
func BenchmarkCanonicalXPerm(b *testing.B) {
	X := denseFromRows(xperm(5, 8))
	g := Permutations(5, 8, nil, 0)
	for b.Loop() {
		if _, _, err := Canonical(context.Background(), g, X); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(32768*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// matRows stacks equal-length rows into a matrix.
func matRows(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// corrAll returns the 784 cyclic correlations <S_s x, z> of two 28×28 images by the
// definition, indexed by shift.
func corrAll(x, z []float64) []float64 {
	out := make([]float64, 0, 784)
	for dy := range 28 {
		for dx := range 28 {
			s := 0.0
			for y := range 28 {
				for c := range 28 {
					s += x[((y+dy)%28)*28+(c+dx)%28] * z[y*28+c]
				}
			}
			out = append(out, s)
		}
	}
	return out
}

// TestPFA28AsmMatchesDefinition: the assembly pipeline's largest and smallest
// correlation equal the definition's to 1e-12 of ||x||·||z|| (both sum 784 products in
// float64; the transforms add a few ulps per stage), for non-negative, signed, sparse,
// constant and zero images.
func TestPFA28AsmMatchesDefinition(t *testing.T) {
	if !useAVX28 {
		t.Skip("no AVX2+FMA assembly in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(7, 28))
	X := randImages(rng, 6, 28, 28, false)
	Xs := randImages(rng, 6, 28, 28, true)
	imgs := [][]float64{make([]float64, 784), make([]float64, 784), make([]float64, 784)}
	imgs[1][5*28+27] = 1 // one pixel on the border column
	for i := range imgs[2] {
		imgs[2][i] = 0.5
	}
	for i := range 6 {
		imgs = append(imgs, X.RawRowView(i), Xs.RawRowView(i))
	}
	A, err := NewSpectra(context.Background(), 28, 28, Shift2D, matRows(imgs), nil)
	if err != nil {
		t.Fatal(err)
	}
	scratch := make([]complex128, pfa28Scratch)
	for i, x := range imgs {
		for j, z := range imgs {
			c := corrAll(x, z)
			want, wantMin := math.Inf(-1), math.Inf(1)
			for _, v := range c {
				want, wantMin = max(want, v), min(wantMin, v)
			}
			tol := 1e-12 * max(1, math.Sqrt(sumSq(x)*sumSq(z)))
			xs, zs := A.plain[i*420:(i+1)*420], A.plain[j*420:(j+1)*420]
			mx, mn := pfa28MaxMin(xs, zs, scratch, true)
			mx1, _ := pfa28MaxMin(xs, zs, scratch, false)
			// The transforms are unnormalised: correlations come out times 784.
			if math.Abs(mx/784-want) > tol || math.Abs(mn/784-wantMin) > tol || mx1 != mx {
				t.Errorf("images %d, %d: asm max %v min %v (max only %v), definition %v %v", i, j, mx/784, mn/784, mx1/784, want, wantMin)
			}
		}
	}
}

// TestCyclicGramAsmMatchesGo: the Gram matrices of the assembly and the Go path agree
// to 1e-12 relative, for the linear base (largest correlation) and the degree-8
// polynomial (largest and smallest), symmetric and rectangular.
func TestCyclicGramAsmMatchesGo(t *testing.T) {
	if !useAVX28 {
		t.Skip("no AVX2+FMA assembly in this build or on this CPU")
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	A, err := NewSpectra(ctx, 28, 28, Shift2D, randImages(rng, 23, 28, 28, true), nil)
	if err != nil {
		t.Fatal(err)
	}
	B, err := NewSpectra(ctx, 28, 28, Shift2D, randImages(rng, 9, 28, 28, false), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k0 := range []Base{Linear{}, Poly{Gamma: 0.01, Degree: 8}} {
		asmSym, err := CyclicSymGram(ctx, k0, BestFit, A)
		if err != nil {
			t.Fatal(err)
		}
		asmRect, err := CyclicGram(ctx, k0, BestFit, A, B)
		if err != nil {
			t.Fatal(err)
		}
		useAVX28 = false
		goSym, err1 := CyclicSymGram(ctx, k0, BestFit, A)
		goRect, err2 := CyclicGram(ctx, k0, BestFit, A, B)
		useAVX28 = true
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		requireClose(t, k0.Name()+" sym", asmSym, goSym, 1e-12)
		requireClose(t, k0.Name()+" rect", asmRect, goRect, 1e-12)
	}
}

// BenchmarkCorr28 times one pair of the 28×28 best-fit correlation (product of spectra,
// inverse 2-D transform, max and min) on one core: the Go pipeline and, where
// available, the AVX2+FMA one.
func BenchmarkCorr28(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	A, err := NewSpectra(context.Background(), 28, 28, Shift2D, randImages(rng, 64, 28, 28, false), nil)
	if err != nil {
		b.Fatal(err)
	}
	k0 := Poly{Gamma: 0.01, Degree: 8}
	paths := []bool{false}
	if useAVX28 {
		paths = append(paths, true)
	}
	defer func(v bool) { useAVX28 = v }(useAVX28)
	for _, asm := range paths {
		name := "go"
		if asm {
			name = "avx2"
		}
		b.Run(name, func(b *testing.B) {
			useAVX28 = asm
			e := newCorrEngine(A)
			i := 0
			for b.Loop() {
				xs, zs := A.plain[(i%64)*420:(i%64+1)*420], A.plain[((i/64)%64)*420:((i/64)%64+1)*420]
				e.corr28(k0, poolMaxMin, xs, zs, 1.0/784, 0, 0)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "pairs/s")
		})
	}
}

package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestResampleBlockMean: 32 -> 16 is an integer factor, where area averaging is the plain
// 2×2 block mean (computed here directly).
func TestResampleBlockMean(t *testing.T) {
	src := blobDigits(3, 32, 32, rand.New(rand.NewPCG(1, 2)))
	out := Resample(src, 16, 16)
	for k := range 3 {
		x, o := src.X.RawRowView(k), out.X.RawRowView(k)
		for i := range 16 {
			for j := range 16 {
				want := (x[2*i*32+2*j] + x[2*i*32+2*j+1] + x[(2*i+1)*32+2*j] + x[(2*i+1)*32+2*j+1]) / 4
				if math.Abs(o[i*16+j]-want) > 1e-15 {
					t.Fatalf("image %d pixel (%d,%d) = %v, want %v", k, i, j, o[i*16+j], want)
				}
			}
		}
	}
}

// TestDigits16MatchesUpsampledBoxMean checks the 28 -> 16 area average against an
// independent construction: replicate each pixel into a 4×4 block (112×112, which is
// 16·7), then take the mean of each 7×7 block. Both are the exact integral of the
// piecewise-constant image over the output cell, so they agree to rounding (1e-14).
func TestDigits16MatchesUpsampledBoxMean(t *testing.T) {
	src := blobDigits(4, 28, 28, rand.New(rand.NewPCG(3, 4)))
	out := Digits16(src)
	if !slices.Equal(out.Shape, []int{16, 16}) || out.Name != "blobs-16x16" || !slices.Equal(out.Y, src.Y) {
		t.Fatalf("shape %v name %q", out.Shape, out.Name)
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	for k := range src.Len() {
		x, o := src.X.RawRowView(k), out.X.RawRowView(k)
		ink, ink16 := 0.0, 0.0
		for _, v := range x {
			ink += v
		}
		for i := range 16 {
			for j := range 16 {
				s := 0.0
				for u := 7 * i; u < 7*i+7; u++ {
					for v := 7 * j; v < 7*j+7; v++ {
						s += x[(u/4)*28+v/4]
					}
				}
				want := s / 49
				if math.Abs(o[i*16+j]-want) > 1e-14 {
					t.Fatalf("image %d pixel (%d,%d) = %.17g, want %.17g", k, i, j, o[i*16+j], want)
				}
				ink16 += o[i*16+j]
			}
		}
		// Each output pixel averages 1.75² source pixels: ink scales by 256/784.
		if math.Abs(ink16-ink*256/784) > 1e-12*ink {
			t.Errorf("image %d: ink %v -> %v, want %v", k, ink, ink16, ink*256/784)
		}
	}
}

// TestAreaWeights28to16 checks the first weights by hand: cell 0 is [0, 1.75), so it
// takes 1/1.75 = 4/7 of pixel 0 and 0.75/1.75 = 3/7 of pixel 1; cell 1 is [1.75, 3.5):
// 1/7, 4/7, 2/7 of pixels 1, 2, 3.
func TestAreaWeights28to16(t *testing.T) {
	w := areaWeights(28, 16)
	check := func(i int, idx []int, wt []float64) {
		t.Helper()
		if !slices.Equal(w[i].idx, idx) {
			t.Fatalf("cell %d indices %v, want %v", i, w[i].idx, idx)
		}
		for k := range wt {
			if math.Abs(w[i].w[k]-wt[k]) > 1e-15 {
				t.Fatalf("cell %d weights %v, want %v", i, w[i].w, wt)
			}
		}
	}
	check(0, []int{0, 1}, []float64{4.0 / 7, 3.0 / 7})
	check(1, []int{1, 2, 3}, []float64{1.0 / 7, 4.0 / 7, 2.0 / 7})
	check(15, []int{26, 27}, []float64{3.0 / 7, 4.0 / 7})
	for i, r := range w {
		s := 0.0
		for _, v := range r.w {
			s += v
		}
		if math.Abs(s-1) > 1e-15 {
			t.Errorf("cell %d weights sum to %v", i, s)
		}
	}
}

func TestResampleConstantAndUpsample(t *testing.T) {
	x := mat.NewDense(1, 20*12, nil)
	for p := range 240 {
		x.RawRowView(0)[p] = 0.375
	}
	src := &Dataset{Name: "c", X: x, Y: []int{0}, Classes: []string{"c"}, Shape: []int{20, 12}}
	for _, sz := range [][2]int{{16, 16}, {7, 5}, {40, 30}, {1, 1}} {
		out := Resample(src, sz[0], sz[1])
		for p, v := range out.X.RawRowView(0) {
			if math.Abs(v-0.375) > 1e-15 {
				t.Fatalf("%v: constant image pixel %d became %v", sz, p, v)
			}
		}
	}
}

func TestDigits16MNIST(t *testing.T) {
	src := mnistTestOrSkip(t)
	idx := make([]int, 1000)
	for i := range idx {
		idx[i] = i
	}
	out := Digits16(src.Subset(idx))
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range out.Len() {
		for _, v := range out.X.RawRowView(i) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	// Averages of pixels in [0, 1] stay in [0, 1]; MNIST strokes are saturated, so some
	// 16×16 pixel still reaches near 1.
	if lo < 0 || hi > 1+1e-15 || hi < 0.95 {
		t.Errorf("16x16 MNIST pixels span [%v, %v]", lo, hi)
	}
}

package feature

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestCountsEqualTransform checks that the compact counts expand to Transform's features
// bit for bit (the same float64 product count·weight), with theory and range
// thresholds, with and without the trapezoid weights, in 16-bit storage (|G| = 7) and
// in 32-bit storage (70,000 cyclic shifts of 12 entries, each repeated: |G| above 65535), and that Span of
// a column range equals the same range of the full row.
func TestCountsEqualTransform(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct {
		name     string
		d, g, n  int
		m, bins  int
		trap     bool
		thr      ThresholdRule
		want16   bool
		wantSize int
	}{
		{"16-bit theory trapezoid", 12, 7, 40, 5, 4, true, TheoryThresholds, true, 2},
		{"16-bit range", 12, 7, 40, 3, 6, false, RangeThresholds, true, 2},
		{"32-bit", 12, 70000, 3, 2, 2, false, TheoryThresholds, false, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			x := mat.NewDense(c.n, c.d, nil)
			for i := range x.RawMatrix().Data {
				x.RawMatrix().Data[i] = rng.NormFloat64()
			}
			tpl := GaussianTemplates(c.m, c.d, 0.1, rng)
			f, err := NewCDF(tpl, cyclic{d: c.d, k: c.g}, CDFOptions{Bins: c.bins, Eps: 0.1, Normalize: true, Trapezoid: c.trap, Thresholds: c.thr})
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Fit(ctx, x, nil); err != nil {
				t.Fatal(err)
			}
			want, err := f.Transform(ctx, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.TransformCounts(ctx, x, nil)
			if err != nil {
				t.Fatal(err)
			}
			if (got.c16 != nil) != c.want16 {
				t.Fatalf("16-bit storage = %v, want %v", got.c16 != nil, c.want16)
			}
			r, D := got.Dims()
			if wr, wd := want.Dims(); r != wr || D != wd {
				t.Fatalf("dims %d×%d, want %d×%d", r, D, wr, wd)
			}
			if b := got.Bytes(); b != c.wantSize*r*D+8*D {
				t.Errorf("Bytes = %d, want %d", b, c.wantSize*r*D+8*D)
			}
			row := make([]float64, D)
			nonzero := 0
			for i := range r {
				got.Span(row, i, 0)
				for j, v := range row {
					if math.Float64bits(v) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("entry (%d, %d) = %v, Transform %v", i, j, v, want.At(i, j))
					}
					if v != 0 {
						nonzero++
					}
				}
				part := make([]float64, D/2)
				got.Span(part, i, D/3)
				for j, v := range part {
					if v != row[D/3+j] {
						t.Fatalf("Span(%d, %d)[%d] = %v, full row %v", i, D/3, j, v, row[D/3+j])
					}
				}
			}
			if nonzero == 0 {
				t.Fatal("every feature is zero: the comparison tests nothing")
			}
			if !mat.Equal(got.Dense(), want) {
				t.Error("Dense() differs from Transform")
			}
		})
	}
}

// TestFixSupportSubsetRows checks FixSupport: after FixSupport(x), the features of a
// subset of x's rows whose nonzero columns are fewer than x's are, row for row, bit for
// bit those of x. The inputs are wide (600 columns: three k blocks of the GEMM), so that
// the subset's own support (585 columns) would group the float32 sums differently; a
// count moves only when a projection lies within rounding of a threshold, so without
// FixSupport the rows usually still agree (the test logs how many entries differ).
func TestFixSupportSubsetRows(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d = 120, 600
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			if i < n/2 && j%40 == 0 { // the subset (the first half) is zero on 15 columns
				continue
			}
			x.Set(i, j, rng.NormFloat64())
		}
	}
	sub := x.Slice(0, n/2, 0, d).(*mat.Dense)
	tpl := GaussianTemplates(40, d, 0, rng)
	features := func(fix bool) (all, part *Counts) {
		f, err := NewCDF(tpl, cyclic{d: d, k: 9}, CDFOptions{Bins: 200, Normalize: true})
		if err != nil {
			t.Fatal(err)
		}
		if fix {
			f.FixSupport(x)
		}
		if all, err = f.TransformCounts(ctx, x, nil); err != nil {
			t.Fatal(err)
		}
		if part, err = f.TransformCounts(ctx, sub, nil); err != nil {
			t.Fatal(err)
		}
		return all, part
	}
	differ := func(all, part *Counts) int {
		_, D := all.Dims()
		a, b := make([]float64, D), make([]float64, D)
		k := 0
		for i := range n / 2 {
			all.Span(a, i, 0)
			part.Span(b, i, 0)
			for j := range D {
				if math.Float64bits(a[j]) != math.Float64bits(b[j]) {
					k++
				}
			}
		}
		return k
	}
	if k := differ(features(true)); k != 0 {
		t.Fatalf("with FixSupport, %d entries of the subset's rows differ from the whole set's", k)
	}
	t.Logf("without FixSupport: %d entries differ", differ(features(false)))
}

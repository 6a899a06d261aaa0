package kernel

import (
	"context"
	"math"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// polarMaxErr returns the largest |a - b| over two equal-length vectors.
func polarMaxErr(a, b []float64) float64 {
	m := 0.0
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

// blob returns a smooth h×w image: a Gaussian of width sigma centred at (y0, x0).
func blob(h, w int, y0, x0, sigma float64) []float64 {
	x := make([]float64, h*w)
	for r := range h {
		for c := range w {
			dy, dx := float64(r)-y0, float64(c)-x0
			x[r*w+c] = math.Exp(-(dy*dy + dx*dx) / (2 * sigma * sigma))
		}
	}
	return x
}

// shiftSectors returns p (annuli×sectors) shifted by k sectors: out[a, s] = p[a, s-k].
func shiftSectors(p []float64, annuli, sectors, k int) []float64 {
	out := make([]float64, len(p))
	for a := range annuli {
		for s := range sectors {
			out[a*sectors+s] = p[a*sectors+((s-k)%sectors+sectors)%sectors]
		}
	}
	return out
}

// TestPolarRotationIsSectorShift: rotating a 28×28 image by k·360/sectors degrees
// (group.Rotations, bilinear) shifts its polar image by k sectors. For 90 degrees both
// resamplings are exact and the polar images agree to 1e-12. For 360/32 = 11.25
// degrees on a smooth blob (sigma 4 px, peak 1) the two bilinear interpolations
// differ by at most 0.035: each bilinear interpolation errs by at most
// (1/8)(|f_xx| + |f_yy|) <= 2/(8σ²) = 0.0156, and there are two (measured 0.016-0.020;
// a wrong direction gives 0.2).
func TestPolarRotationIsSectorShift(t *testing.T) {
	const h, w, annuli, sectors = 28, 28, 12, 32
	P := NewPolarGrid(h, w, annuli, sectors)
	x := blob(h, w, 9, 16, 4)
	px := make([]float64, annuli*sectors)
	P.Resample(px, x)
	for _, c := range []struct {
		k   int
		tol float64
	}{{8, 1e-12}, {1, 0.035}, {3, 0.035}, {-2, 0.035}} {
		deg := float64(c.k) * 360 / sectors
		R := group.Rotations(h, w, []float64{deg})
		rx := make([]float64, h*w)
		R.Apply(rx, x, 0)
		prx := make([]float64, annuli*sectors)
		P.Resample(prx, rx)
		e := polarMaxErr(prx, shiftSectors(px, annuli, sectors, c.k))
		t.Logf("rotation by %g degrees: max error %.4g", deg, e)
		if e > c.tol {
			t.Errorf("rotation by %g degrees: polar image differs from a %d-sector shift by %g > %g", deg, c.k, e, c.tol)
		}
		if e := polarMaxErr(prx, shiftSectors(px, annuli, sectors, -c.k)); e < 0.05 {
			t.Errorf("rotation by %g degrees: also matches the opposite shift (error %g): test is blind", deg, e)
		}
	}
}

// TestPolarRIKernel: the RI best-fit kernel on polar images (FFT over column shifts)
// is invariant under rotations of the input by multiples of 90 degrees (exact
// resampling), and PadCentered keeps the image centre.
func TestPolarRIKernel(t *testing.T) {
	ctx := context.Background()
	const h, w = 28, 28
	P := NewPolarGrid(h, w, 10, 36)
	X := mat.NewDense(3, h*w, nil)
	X.SetRow(0, blob(h, w, 8, 17, 2.5))
	X.SetRow(1, blob(h, w, 20, 10, 3))
	R := group.Rotations(h, w, []float64{90})
	R.Apply(X.RawRowView(2), X.RawRowView(0), 0)
	PX, err := P.Transform(ctx, X)
	if err != nil {
		t.Fatal(err)
	}
	S, _ := NewSpectra(ctx, 10, 36, ShiftCols, PX, nil)
	K, err := CyclicSymGram(ctx, Poly{Gamma: 0.01, Degree: 8}, BestFit, S)
	if err != nil {
		t.Fatal(err)
	}
	if !relClose(K.At(2, 1), K.At(0, 1), 1e-12) || !relClose(K.At(2, 2), K.At(0, 0), 1e-12) || !relClose(K.At(0, 2), K.At(0, 0), 1e-12) {
		t.Errorf("RI kernel not invariant under a 90-degree rotation: %v", mat.Formatted(K))
	}
	Y := PadCentered(X, h, w, 40, 40)
	if Y.At(0, (8+6)*40+17+6) != X.At(0, 8*w+17) {
		t.Error("PadCentered: pixel moved")
	}
}

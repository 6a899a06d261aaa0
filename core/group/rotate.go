package group

import (
	"fmt"
	"math"
	"slices"
)

// RotationSet is a set of rotations of h×w images stored row-major (d = h·w) about the
// image centre (cy, cx) = ((h-1)/2, (w-1)/2), with bilinear interpolation and zero fill,
// output the same size as the input. Element g_i, the angle θ_i in degrees, reads output
// pixel (r, c) from the source point
//
//	sr = cy + cos θ·(r - cy) + sin θ·(c - cx)
//	sc = cx - sin θ·(r - cy) + cos θ·(c - cx)
//
// and interpolates bilinearly between its four neighbouring pixels when
// 0 <= sr <= h-1 and 0 <= sc <= w-1, and writes 0 otherwise. This is
// scipy.ndimage.rotate(img, θ, reshape=False, order=1, mode="constant", cval=0)
// (scipy 1.10): a positive θ turns the picture counter-clockwise as displayed with row 0
// at the top. Multiples of 90 degrees use exact sines and cosines.
//
// The inverse of g_i is the rotation by -θ_i, resampled the same way. Bilinear
// resampling is not invertible: g^{-1}·(g·x) is close to x only for smooth images whose
// support stays inside the image (exact for multiples of 90 degrees on square images).
//
// Apply is a gather: the four source indices and weights of each output pixel are
// computed once per angle by [Rotations], so a rotation costs 4·d multiply-adds.
type RotationSet struct {
	h, w    int
	degrees []float64
	fwd     []taps // per element, rotation by θ_i
	inv     []taps // per element, rotation by -θ_i
}

// taps holds, for each output pixel p, four source indices idx[4p:4p+4] and weights
// wt[4p:4p+4] (weight 0 where a neighbour is unused or the pixel lies outside).
type taps struct {
	idx []int32
	wt  []float64
}

// Rotations returns the rotations of h×w images by the given angles in degrees (see
// [RotationSet]). If an angle is 0 modulo 360 it is moved to the front; the others keep
// their order. Rotations panics if h < 1, w < 1, degrees is empty, an angle is not
// finite, or two angles are equal modulo 360.
func Rotations(h, w int, degrees []float64) *RotationSet {
	checkHW("Rotations", h, w)
	if err := CheckAngles(degrees); err != nil {
		panic("group: Rotations: " + err.Error())
	}
	deg := slices.Clone(degrees)
	id := -1
	for i, a := range deg {
		if reduceDeg(a) == 0 {
			id = i
			break
		}
	}
	if id > 0 {
		a := deg[id]
		copy(deg[1:id+1], deg[:id])
		deg[0] = a
	}
	g := &RotationSet{h: h, w: w, degrees: deg, fwd: make([]taps, len(deg)), inv: make([]taps, len(deg))}
	for i, a := range deg {
		g.fwd[i] = rotationTaps(h, w, a)
		g.inv[i] = rotationTaps(h, w, -a)
	}
	return g
}

// AngleRange returns count angles evenly spaced from lo to hi inclusive,
//
//	a_i = lo + i·(hi - lo)/(count - 1),    i = 0..count-1,
//
// with a_{count-1} = hi exactly; count == 1 gives [lo]. AngleRange(-20, 20, 9) is
// -20, -15, ..., 20. It panics if count < 1.
func AngleRange(lo, hi float64, count int) []float64 {
	if count < 1 {
		panic(fmt.Sprintf("group: AngleRange: count=%d must be at least 1", count))
	}
	out := make([]float64, count)
	for i := range out {
		if count == 1 {
			out[i] = lo
			break
		}
		out[i] = lo + float64(i)*(hi-lo)/float64(count-1)
	}
	if count > 1 {
		out[count-1] = hi
	}
	return out
}

// reduceDeg maps an angle to [0, 360).
func reduceDeg(a float64) float64 {
	r := math.Mod(a, 360)
	if r < 0 {
		r += 360
	}
	if r == 360 {
		r = 0
	}
	return r
}

// cosSinDeg returns cos and sin of a degrees, exact at multiples of 90.
func cosSinDeg(a float64) (c, s float64) {
	switch reduceDeg(a) {
	case 0:
		return 1, 0
	case 90:
		return 0, 1
	case 180:
		return -1, 0
	case 270:
		return 0, -1
	}
	s, c = math.Sincos(a * math.Pi / 180)
	return c, s
}

// rotationTaps computes the bilinear gather of the rotation by a degrees: the source map
// [[c, s], [-s, c]] about the centre (as scipy: source = M·out + centre - M·centre).
func rotationTaps(h, w int, a float64) taps {
	c, s := cosSinDeg(a)
	return linearTaps(h, w, [2][2]float64{{c, s}, {-s, c}})
}

// Name returns e.g. "rotations[-20,20]/9 on 28x28".
func (g *RotationSet) Name() string {
	return fmt.Sprintf("rotations[%g,%g]/%d on %dx%d", slices.Min(g.degrees), slices.Max(g.degrees), len(g.degrees), g.h, g.w)
}

// Len returns the number of angles.
func (g *RotationSet) Len() int { return len(g.degrees) }

// Dim returns h·w.
func (g *RotationSet) Dim() int { return g.h * g.w }

// Degrees returns a copy of the angles, in element order.
func (g *RotationSet) Degrees() []float64 { return slices.Clone(g.degrees) }

// Apply writes g_i·x, x rotated by θ_i, into dst (see [RotationSet]).
func (g *RotationSet) Apply(dst, x []float64, i int) {
	checkApply("RotationSet.Apply", g.Dim(), len(g.degrees), dst, x, i)
	g.fwd[i].gather(dst, x)
}

// ApplyInverse writes x rotated by -θ_i into dst (an approximate inverse: see [RotationSet]).
func (g *RotationSet) ApplyInverse(dst, x []float64, i int) {
	checkApply("RotationSet.ApplyInverse", g.Dim(), len(g.degrees), dst, x, i)
	g.inv[i].gather(dst, x)
}

func (t taps) gather(dst, x []float64) {
	idx, wt := t.idx, t.wt
	for p := range dst {
		k := 4 * p
		dst[p] = wt[k]*x[idx[k]] + wt[k+1]*x[idx[k+1]] + wt[k+2]*x[idx[k+2]] + wt[k+3]*x[idx[k+3]]
	}
}

package group

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// AffineSet is a set of linear maps of h×w images about the image centre
// (cy, cx) = ((h-1)/2, (w-1)/2): every combination of a rotation by θ degrees, a
// horizontal shear by k and an isotropic scale by z, each element resampled once
// (bilinear, zero fill, output the same size, as [RotationSet]). Element (θ, k, z) is
// g = rot_θ ∘ shear_k ∘ scale_z (scale first, rotation last) and reads output pixel p =
// (r, c) from the source point
//
//	s = centre + M·(p - centre),   M = Z·S·R,
//	R = [[cos θ, sin θ], [-sin θ, cos θ]]   (the source map of [RotationSet])
//	S = [[1, 0], [k, 1]]                   (source column = c + k·(r - cy))
//	Z = (1/z)·I                            (z > 1 enlarges the picture)
//
// in (row, column) coordinates. The three factors compose into one 2×2 matrix, so an
// element costs one bilinear gather (4·d multiply-adds), not three interpolations. With
// k = 0 and z = 1, M is R exactly and the element's taps equal those of [Rotations]
// bit for bit. A positive k slants the picture like "/": a vertical stroke at column c0
// shows at column c0 - k·(r - cy), right of c0 at the top (row 0) and left at the bottom.
//
// Element index j = (a·|shears| + b)·|scales| + e for angle a, shear b, scale e; the
// identity (angle 0 mod 360, shear 0, scale 1) is moved to the front of each list
// when present, so element 0 is the identity when all three contain theirs.
//
// The inverse of an element is the map with source matrix M⁻¹ = R(-θ)·S(-k)·(z·I),
// resampled the same way (approximate, as for rotations: bilinear resampling is not
// invertible).
type AffineSet struct {
	h, w                    int
	degrees, shears, scales []float64
	fwd, inv                []taps
}

// CheckAffine reports whether degrees, shears and scales are valid for [Affine]: nil, or
// a one-line error naming the first problem: the errors of [CheckAngles] for degrees;
// an empty list, a NaN or infinite value, or two equal values among shears or among
// scales; a scale <= 0. Affine panics on exactly these inputs.
func CheckAffine(degrees, shears, scales []float64) error {
	if err := CheckAngles(degrees); err != nil {
		return err
	}
	check := func(what string, v []float64, positive bool) error {
		if len(v) == 0 {
			return fmt.Errorf("no %ss given", what)
		}
		seen := make(map[float64]int, len(v))
		for i, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("%s %d is %v", what, i, x)
			}
			if positive && x <= 0 {
				return fmt.Errorf("%s %d is %g, not positive", what, i, x)
			}
			if j, ok := seen[x]; ok {
				return fmt.Errorf("%ss %d and %d are equal (%g, the same map twice)", what, j, i, x)
			}
			seen[x] = i
		}
		return nil
	}
	if err := check("shear", shears, false); err != nil {
		return err
	}
	return check("scale", scales, true)
}

// Affine returns the rotations by degrees, horizontal shears by shears and isotropic
// scales by scales of h×w images, every combination (see [AffineSet]);
// |G| = len(degrees)·len(shears)·len(scales). Affine(h, w, degrees, []float64{0},
// []float64{1}) acts exactly as Rotations(h, w, degrees). It panics if h < 1, w < 1 or
// [CheckAffine] reports an error.
func Affine(h, w int, degrees, shears, scales []float64) *AffineSet {
	checkHW("Affine", h, w)
	if err := CheckAffine(degrees, shears, scales); err != nil {
		panic("group: Affine: " + err.Error())
	}
	g := &AffineSet{h: h, w: w,
		degrees: idFirst(degrees, func(a float64) bool { return reduceDeg(a) == 0 }),
		shears:  idFirst(shears, func(k float64) bool { return k == 0 }),
		scales:  idFirst(scales, func(z float64) bool { return z == 1 }),
	}
	n := g.Len()
	g.fwd, g.inv = make([]taps, 0, n), make([]taps, 0, n)
	for _, a := range g.degrees {
		c, s := cosSinDeg(a)
		for _, k := range g.shears {
			for _, z := range g.scales {
				g.fwd = append(g.fwd, linearTaps(h, w, affineMatrix(c, s, k, z)))
				g.inv = append(g.inv, linearTaps(h, w, affineInverse(c, s, k, z)))
			}
		}
	}
	return g
}

// idFirst returns a copy of v with its first element satisfying isID moved to the
// front; the others keep their order.
func idFirst(v []float64, isID func(float64) bool) []float64 {
	out := slices.Clone(v)
	if i := slices.IndexFunc(out, isID); i > 0 {
		x := out[i]
		copy(out[1:i+1], out[:i])
		out[0] = x
	}
	return out
}

// affineMatrix returns M = Z·S·R (see [AffineSet]) for cos θ = c, sin θ = s.
func affineMatrix(c, s, k, z float64) [2][2]float64 {
	// S·R = [[c, s], [k·c - s, k·s + c]]; with k = 0 these are exactly -s and c.
	sr := [2][2]float64{{c, s}, {k*c - s, k*s + c}}
	if z == 1 {
		return sr
	}
	iz := 1 / z
	return [2][2]float64{{iz * sr[0][0], iz * sr[0][1]}, {iz * sr[1][0], iz * sr[1][1]}}
}

// affineInverse returns M⁻¹ = R(-θ)·S(-k)·(z·I).
func affineInverse(c, s, k, z float64) [2][2]float64 {
	// R(-θ) = [[c, -s], [s, c]], S(-k) = [[1, 0], [-k, 1]].
	// R(-θ)·S(-k) = [[c + s·k, -s], [s - c·k, c]].
	return [2][2]float64{{z * (c + s*k), z * -s}, {z * (s - c*k), z * c}}
}

// linearTaps computes the bilinear gather of the source map s = centre + m·(p - centre)
// on h×w images (zero fill outside).
func linearTaps(h, w int, m [2][2]float64) taps {
	cy, cx := float64(h-1)/2, float64(w-1)/2
	// As scipy: source = M·out + offset, offset = centre - M·centre.
	offR := cy - (m[0][0]*cy + m[0][1]*cx)
	offC := cx - (m[1][0]*cy + m[1][1]*cx)
	d := h * w
	t := taps{idx: make([]int32, 4*d), wt: make([]float64, 4*d)}
	maxR, maxC := float64(h-1), float64(w-1)
	for r := range h {
		for col := range w {
			p := r*w + col
			sr := m[0][0]*float64(r) + m[0][1]*float64(col) + offR
			sc := m[1][0]*float64(r) + m[1][1]*float64(col) + offC
			if !(sr >= 0 && sr <= maxR && sc >= 0 && sc <= maxC) {
				continue // zero fill: weights stay 0, indices 0
			}
			r0, c0 := int(sr), int(sc) // floor: both non-negative
			fr, fc := sr-float64(r0), sc-float64(c0)
			r1, c1 := min(r0+1, h-1), min(c0+1, w-1)
			t.idx[4*p+0], t.wt[4*p+0] = int32(r0*w+c0), (1-fr)*(1-fc)
			t.idx[4*p+1], t.wt[4*p+1] = int32(r0*w+c1), (1-fr)*fc
			t.idx[4*p+2], t.wt[4*p+2] = int32(r1*w+c0), fr*(1-fc)
			t.idx[4*p+3], t.wt[4*p+3] = int32(r1*w+c1), fr*fc
		}
	}
	return t
}

// Name returns e.g. "rotations[-20,20]/9 x shears[-0.3,0.3]/5 on 28x28"; a factor
// holding only its identity (shear 0, scale 1) is left out.
func (g *AffineSet) Name() string {
	part := func(what string, v []float64) string {
		return fmt.Sprintf("%s[%g,%g]/%d", what, slices.Min(v), slices.Max(v), len(v))
	}
	parts := []string{part("rotations", g.degrees)}
	if !(len(g.shears) == 1 && g.shears[0] == 0) {
		parts = append(parts, part("shears", g.shears))
	}
	if !(len(g.scales) == 1 && g.scales[0] == 1) {
		parts = append(parts, part("scales", g.scales))
	}
	return fmt.Sprintf("%s on %dx%d", strings.Join(parts, " x "), g.h, g.w)
}

// Len returns len(degrees)·len(shears)·len(scales).
func (g *AffineSet) Len() int { return len(g.degrees) * len(g.shears) * len(g.scales) }

// Dim returns h·w.
func (g *AffineSet) Dim() int { return g.h * g.w }

// Params returns the angle in degrees, shear and scale of element j (see [AffineSet]).
// It panics if j is outside [0, Len()).
func (g *AffineSet) Params(j int) (degrees, shear, scale float64) {
	if j < 0 || j >= g.Len() {
		panic(fmt.Sprintf("group: AffineSet.Params: element %d outside [0, %d)", j, g.Len()))
	}
	nz, nk := len(g.scales), len(g.shears)
	return g.degrees[j/(nk*nz)], g.shears[(j/nz)%nk], g.scales[j%nz]
}

// Apply writes g_j·x into dst (see [AffineSet]).
func (g *AffineSet) Apply(dst, x []float64, j int) {
	checkApply("AffineSet.Apply", g.Dim(), g.Len(), dst, x, j)
	g.fwd[j].gather(dst, x)
}

// ApplyInverse writes x resampled by the inverse matrix of g_j into dst (an
// approximate inverse: see [AffineSet]).
func (g *AffineSet) ApplyInverse(dst, x []float64, j int) {
	checkApply("AffineSet.ApplyInverse", g.Dim(), g.Len(), dst, x, j)
	g.inv[j].gather(dst, x)
}

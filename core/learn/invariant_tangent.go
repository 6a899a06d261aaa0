package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Tangent names a one-parameter family of transformations L_t (L_0 the identity) whose
// tangent vector d/dt L_t x at t = 0 the invariant SVM makes its decision function
// insensitive to (Chapelle and Schoelkopf, NIPS 2001, Sec. 2).
type Tangent int

const (
	// TangentHShift is the horizontal translation of an h×w image, content moving t
	// pixels to the right: (L_t x)(r, c) = x(r, c - t), tangent -∂x/∂c.
	TangentHShift Tangent = iota + 1
	// TangentVShift is the vertical translation, content moving t pixels down:
	// (L_t x)(r, c) = x(r - t, c), tangent -∂x/∂r.
	TangentVShift
	// TangentRotation is the rotation by t radians, counter-clockwise as displayed
	// (group.Rotations' convention): for an h×w image about its centre
	// (cy, cx) = ((h-1)/2, (w-1)/2), tangent (c - cx)·∂x/∂r - (r - cy)·∂x/∂c; for a
	// point of the plane (Shape [2]) about the origin, tangent (-x_2, x_1).
	TangentRotation
)

// String returns "hshift", "vshift", "rotation" or "tangent(N)".
func (t Tangent) String() string {
	switch t {
	case TangentHShift:
		return "hshift"
	case TangentVShift:
		return "vshift"
	case TangentRotation:
		return "rotation"
	}
	return fmt.Sprintf("tangent(%d)", int(t))
}

// checkTangents returns an input error if a kind does not apply to samples of the
// given shape: shifts need images (Shape [h, w]), rotations images or 2-D points.
func checkTangents(kinds []Tangent, shape []int, d int) error {
	p := 1
	for _, s := range shape {
		p *= s
	}
	if len(shape) == 0 || p != d {
		return fmt.Errorf("learn: sample shape %v does not match the %d input columns: pass the data set's Shape", shape, d)
	}
	image := len(shape) == 2 && shape[0] > 0 && shape[1] > 0
	point := len(shape) == 1 && shape[0] == 2
	for _, k := range kinds {
		switch k {
		case TangentHShift, TangentVShift:
			if !image {
				return fmt.Errorf("learn: %v tangents need images of shape [h, w], the data has shape %v: use rotation tangents for 2-D points or none", k, shape)
			}
		case TangentRotation:
			if !image && !point {
				return fmt.Errorf("learn: rotation tangents need images of shape [h, w] or 2-D points (shape [2]), the data has shape %v: drop them", shape)
			}
		default:
			return fmt.Errorf("learn: unknown tangent kind %d: use TangentHShift, TangentVShift or TangentRotation", int(k))
		}
	}
	return nil
}

// Tangents returns the tangent vectors of the rows of X (n×d) for the given kinds, as
// the (n·K)×d matrix whose row i·K + k is the tangent of kind kinds[k] at sample i
// (K = len(kinds)). They are symmetric finite differences,
//
//	dx_i = (L_t x̃_i - L_{-t} x̃_i) / (2t),
//
// the second-order form of Chapelle and Schoelkopf's (L_t x_i - x_i)/t, taken on the
// image x̃_i smoothed by a Gaussian of standard deviation smooth pixels (separable,
// truncated at 4·smooth, zero outside the image; smooth = 0 means no smoothing). Images
// are zero outside their frame, for the smoothing and for the transformations alike.
//
//   - Shifts use t = 1 pixel, so L_{±1} are exact integer translations and the tangent
//     is the central difference -(x̃[r, c+1] - x̃[r, c-1])/2 (horizontal) or
//     -(x̃[r+1, c] - x̃[r-1, c])/2 (vertical).
//   - Image rotations use t = 0.01/ρ radians, ρ the distance from the centre to a corner,
//     so no pixel moves more than 0.01 pixel, with bilinear interpolation between the
//     four neighbours of each source point (zero outside). As t -> 0 this tends to the
//     central-difference gradient of x̃ dotted with the rotation field; the O(t) cross
//     terms of bilinear interpolation stay below 1% of it.
//   - Points of the plane (Shape [2]) have the exact rotation tangent (-x_2, x_1); smooth
//     is ignored.
//
// Tangents panics (prefix "learn: ") if X does not have prod(shape) columns, if a kind
// does not fit the shape (see [Tangent]), or if smooth is negative or not finite.
func Tangents(X *mat.Dense, shape []int, kinds []Tangent, smooth float64) *mat.Dense {
	n, d := X.Dims()
	if err := checkTangents(kinds, shape, d); err != nil {
		panic(err.Error())
	}
	if !(smooth >= 0) || math.IsInf(smooth, 1) {
		panic(fmt.Sprintf("learn: Tangents: smoothing sigma %v must be finite and non-negative", smooth))
	}
	nk := len(kinds)
	if n == 0 || nk == 0 {
		return &mat.Dense{}
	}
	out := mat.NewDense(n*nk, d, nil)
	if len(shape) == 1 { // 2-D points: only rotations pass checkTangents
		for i := range n {
			x := X.RawRowView(i)
			for k := range nk {
				row := out.RawRowView(i*nk + k)
				row[0], row[1] = -x[1], x[0]
			}
		}
		return out
	}
	h, w := shape[0], shape[1]
	g := gaussTaps(smooth)
	xs := make([]float64, d)
	tmp := make([]float64, d)
	a, b := make([]float64, d), make([]float64, d)
	for i := range n {
		x := X.RawRowView(i)
		if g == nil {
			copy(xs, x)
		} else {
			smoothImage(xs, tmp, x, h, w, g)
		}
		for k, kind := range kinds {
			row := out.RawRowView(i*nk + k)
			switch kind {
			case TangentHShift:
				for r := range h {
					for c := range w {
						l, rt := 0.0, 0.0
						if c > 0 {
							l = xs[r*w+c-1]
						}
						if c < w-1 {
							rt = xs[r*w+c+1]
						}
						row[r*w+c] = (l - rt) / 2
					}
				}
			case TangentVShift:
				for r := range h {
					for c := range w {
						up, dn := 0.0, 0.0
						if r > 0 {
							up = xs[(r-1)*w+c]
						}
						if r < h-1 {
							dn = xs[(r+1)*w+c]
						}
						row[r*w+c] = (up - dn) / 2
					}
				}
			case TangentRotation:
				cy, cx := float64(h-1)/2, float64(w-1)/2
				t := 0.01 / math.Max(math.Hypot(cy, cx), 0.5)
				rotateZeroPad(a, xs, h, w, t)
				rotateZeroPad(b, xs, h, w, -t)
				for p := range row {
					row[p] = (a[p] - b[p]) / (2 * t)
				}
			}
		}
	}
	return out
}

// rotateZeroPad writes x (h×w) rotated by theta radians about its centre into dst:
// output pixel (r, c) reads the source point of group.Rotations' convention,
//
//	sr = cy + cos θ·(r - cy) + sin θ·(c - cx),   sc = cx - sin θ·(r - cy) + cos θ·(c - cx),
//
// interpolated bilinearly between its four neighbouring pixels, pixels outside the
// image counting as 0 (so the image fades linearly to 0 across its border).
func rotateZeroPad(dst, x []float64, h, w int, theta float64) {
	s, c := math.Sincos(theta)
	cy, cx := float64(h-1)/2, float64(w-1)/2
	at := func(r, col int) float64 {
		if r < 0 || r >= h || col < 0 || col >= w {
			return 0
		}
		return x[r*w+col]
	}
	for r := range h {
		dr := float64(r) - cy
		for col := range w {
			dc := float64(col) - cx
			sr := cy + c*dr + s*dc
			sc := cx - s*dr + c*dc
			fr0, fc0 := math.Floor(sr), math.Floor(sc)
			r0, c0 := int(fr0), int(fc0)
			fr, fc := sr-fr0, sc-fc0
			dst[r*w+col] = (1-fr)*((1-fc)*at(r0, c0)+fc*at(r0, c0+1)) + fr*((1-fc)*at(r0+1, c0)+fc*at(r0+1, c0+1))
		}
	}
}

// gaussTaps returns the normalised 1-D Gaussian weights g[0..R] (g[j] for offsets ±j)
// of standard deviation sigma, truncated at R = ceil(4 sigma); nil for sigma = 0.
func gaussTaps(sigma float64) []float64 {
	if sigma == 0 {
		return nil
	}
	R := int(math.Ceil(4 * sigma))
	g := make([]float64, R+1)
	sum := 0.0
	for j := range g {
		g[j] = math.Exp(-float64(j*j) / (2 * sigma * sigma))
		if j == 0 {
			sum += g[j]
		} else {
			sum += 2 * g[j]
		}
	}
	for j := range g {
		g[j] /= sum
	}
	return g
}

// smoothImage writes the separable Gaussian smoothing of x (h×w, zero outside) into
// dst, using tmp (length h·w) as scratch.
func smoothImage(dst, tmp, x []float64, h, w int, g []float64) {
	R := len(g) - 1
	for r := range h {
		row := x[r*w : (r+1)*w]
		for c := range w {
			s := g[0] * row[c]
			for j := 1; j <= R; j++ {
				if c-j >= 0 {
					s += g[j] * row[c-j]
				}
				if c+j < w {
					s += g[j] * row[c+j]
				}
			}
			tmp[r*w+c] = s
		}
	}
	for r := range h {
		for c := range w {
			s := g[0] * tmp[r*w+c]
			for j := 1; j <= R; j++ {
				if r-j >= 0 {
					s += g[j] * tmp[(r-j)*w+c]
				}
				if r+j < h {
					s += g[j] * tmp[(r+j)*w+c]
				}
			}
			dst[r*w+c] = s
		}
	}
}

package feature

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SmoothRadius is the box filter's half-width of SmoothTemplates in gitui's presets.
const SmoothRadius = 3

// SmoothTemplates returns m templates on an h×w grid (stored row-major, d = h·w): white
// Gaussian noise smoothed by a (2r+1)×(2r+1) box filter (values outside the grid count as
// zero),
//
//	t[y, x] = sum_{|dy|,|dx| <= r} z[y+dy, x+dx],   z ~ N(0, 1) i.i.d.,
//
// each scaled to unit norm. Smooth templates keep their statistics under interpolated
// warps and shifts (a warped white-noise template is smoother than the templates it is
// compared with; a warped smooth one is not): on the synthetic spoken digits' rate split
// (quick corpus, 500 digits, |G| = 25 pitch-tempo, CDF(25,50)) they give 93.7% where
// white noise gives 81.7%. r = 0 gives templates uniform on the sphere. SmoothTemplates
// panics if m, h or w is below 1 or r < 0.
func SmoothTemplates(m, h, w, r int, rng *rand.Rand) *mat.Dense {
	if m < 1 || h < 1 || w < 1 || r < 0 {
		panic(fmt.Sprintf("feature: SmoothTemplates(m=%d, h=%d, w=%d, r=%d)", m, h, w, r))
	}
	d := h * w
	t := mat.NewDense(m, d, nil)
	z := make([]float64, d)
	rows := make([]float64, d)
	for j := range m {
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		boxSmoothRow(t.RawRowView(j), z, rows, h, w, r)
	}
	return t
}

// BoxSmooth replaces every row of t, an h×w grid stored row-major (d = h·w), by its sum
// over a (2r+1)×(2r+1) box (values outside the grid count as zero),
//
//	out[y, x] = sum_{|dy|,|dx| <= r} t[y+dy, x+dx],
//
// scaled to unit norm (a zero row stays zero). A linear map of Gaussian templates keeps
// them Gaussian: box-smoothed N(0, C) templates are N(0, B C Bᵀ) before the scaling. It
// returns a new matrix and panics if t's width is not h·w or r < 0.
func BoxSmooth(t *mat.Dense, h, w, r int) *mat.Dense {
	m, d := t.Dims()
	if d != h*w || r < 0 {
		panic(fmt.Sprintf("feature: BoxSmooth of %d columns on a %dx%d grid with r=%d", d, h, w, r))
	}
	out := mat.NewDense(m, d, nil)
	rows := make([]float64, d)
	for j := range m {
		boxSmoothRow(out.RawRowView(j), t.RawRowView(j), rows, h, w, r)
	}
	return out
}

// boxSmoothRow writes into dst the (2r+1)×(2r+1) box sum of src, an h×w grid stored
// row-major (values outside the grid count as zero), scaled to unit norm (a zero result
// stays zero): the sum along x into rows, then along y into dst. rows is h·w scratch.
func boxSmoothRow(dst, src, rows []float64, h, w, r int) {
	for y := range h {
		for x := range w {
			var s float64
			for dx := max(0, x-r); dx <= min(w-1, x+r); dx++ {
				s += src[y*w+dx]
			}
			rows[y*w+x] = s
		}
	}
	var ss float64
	for y := range h {
		for x := range w {
			var s float64
			for dy := max(0, y-r); dy <= min(h-1, y+r); dy++ {
				s += rows[dy*w+x]
			}
			dst[y*w+x] = s
			ss += s * s
		}
	}
	if ss > 0 {
		inv := 1 / math.Sqrt(ss)
		for i := range dst {
			dst[i] *= inv
		}
	}
}

package feature

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// CovarianceRank is the rank of the sketch of the pool's covariance that
// CovarianceTemplates uses in gitui's presets.
const CovarianceRank = 256

// CovarianceSmoothRadius is the box half-width by which gitui's presets smooth covariance
// templates on a 2-D grid (BoxSmooth): 3×3 bands × frames for spectrograms.
const CovarianceSmoothRadius = 1

// CovarianceTemplates draws m templates from the Gaussian whose covariance is the square
// root of the covariance of the rows x_1..x_n of x (the training pool; no labels used):
//
//	t = Ŝ^{1/4} g / sqrt(tr Ŝ^{1/2}),   g ~ N(0, I_d),   so t ~ N(0, Ŝ^{1/2} / tr Ŝ^{1/2}), E||t||^2 = 1,
//	Ŝ = V Λ V^T + ρ (I - V V^T),
//
// where V Λ V^T is the best rank-r approximation of S = (1/n) sum_i (x_i - x̄)(x_i - x̄)^T
// found by a randomised range finder (r Gaussian probes, one power iteration) and
// ρ = (tr S - tr Λ) / (d - r) spreads the rest of S's trace evenly over the other
// directions. Ŝ = S when S has rank r or less (or r >= d). White noise N(0, I/d) weighs
// every direction alike and N(0, S) puts nearly all of a template on the few directions
// the pool varies most in; N(0, S^{1/2}) lies between them. Given x and the rng the
// templates are deterministic; they depend on x only through x̄ and S, and lie in the span
// of the centred rows when ρ = 0. r is capped at min(n, d). It returns an error if the
// rows have no spread (tr S = 0), and panics if m < 1 or r < 1.
func CovarianceTemplates(x *mat.Dense, m, r int, rng *rand.Rand) (*mat.Dense, error) {
	if m < 1 || r < 1 {
		panic(fmt.Sprintf("feature: CovarianceTemplates(m=%d, r=%d): need m, r >= 1", m, r))
	}
	n, d := x.Dims()
	r = min(r, n, d)
	mu := make([]float64, d)
	for i := range n {
		for k, v := range x.RawRowView(i) {
			mu[k] += v
		}
	}
	for k := range mu {
		mu[k] /= float64(n)
	}
	xc := mat.NewDense(n, d, nil)
	var tr float64
	for i := range n {
		row := xc.RawRowView(i)
		for k, v := range x.RawRowView(i) {
			row[k] = v - mu[k]
			tr += row[k] * row[k]
		}
	}
	tr /= float64(n)
	if !(tr > 1e-300) {
		return nil, fmt.Errorf("feature: covariance templates need training rows that differ, the %d rows have no spread: use more or other training data", n)
	}

	// Randomised range finder: Y = Xc Xcᵀ Xc Ω, Q = orth(Y), B = Qᵀ Xc = U Σ Vᵀ.
	om := mat.NewDense(d, r, nil)
	for i := range d {
		row := om.RawRowView(i)
		for j := range row {
			row[j] = rng.NormFloat64()
		}
	}
	y := mat.NewDense(n, r, nil)
	y.Mul(xc, om)
	z := mat.NewDense(d, r, nil)
	z.Mul(xc.T(), y)
	y.Mul(xc, z)
	var qr mat.QR
	qr.Factorize(y)
	var q mat.Dense
	qr.QTo(&q)
	b := mat.NewDense(r, d, nil)
	b.Mul(q.Slice(0, n, 0, r).T(), xc)
	var svd mat.SVD
	if !svd.Factorize(b, mat.SVDThin) {
		return nil, fmt.Errorf("feature: covariance templates: the SVD of the pool's sketch did not converge: use template_kind gaussian")
	}
	s := svd.Values(nil)
	var v mat.Dense
	svd.VTo(&v) // d × r
	var top float64
	lam := make([]float64, r)
	for a, sv := range s {
		lam[a] = sv * sv / float64(n)
		top += lam[a]
	}
	rho := 0.0
	if d > r {
		rho = math.Max(tr-top, 0) / float64(d-r)
	}
	if rho < 1e-12*tr/float64(d) {
		// The sketch holds all of S up to rounding; ρ^{1/4} would turn the rounding
		// (about 1e-16 tr S) into noise of 1e-4 outside the pool's span.
		rho = 0
	}
	// t = V diag(λ^{1/4} - ρ^{1/4}) Vᵀ g + ρ^{1/4} g, scaled by 1/sqrt(tr Ŝ^{1/2}).
	trHalf := float64(d-r) * math.Sqrt(rho)
	for _, l := range lam {
		trHalf += math.Sqrt(l)
	}
	g := mat.NewDense(m, d, nil)
	for j := range m {
		row := g.RawRowView(j)
		for i := range row {
			row[i] = rng.NormFloat64()
		}
	}
	p := mat.NewDense(m, r, nil)
	p.Mul(g, &v)
	rq := math.Pow(rho, 0.25)
	for j := range m {
		row := p.RawRowView(j)
		for a := range row {
			row[a] *= math.Pow(lam[a], 0.25) - rq
		}
	}
	t := mat.NewDense(m, d, nil)
	t.Mul(p, v.T())
	g.Scale(rq, g)
	t.Add(t, g)
	t.Scale(1/math.Sqrt(trHalf), t)
	return t, nil
}

package feature

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// GaussianTemplates draws m templates t in R^d, row by row, from
//
//	t ~ N(0, I/d)   conditioned on   ||t||^2 < 1 + eps
//
// by rejection (Mroueh et al., Section 4; E||t||^2 = 1, so eps = 0 rejects about half).
// It panics if m < 1, d < 1 or eps < 0.
func GaussianTemplates(m, d int, eps float64, rng *rand.Rand) *mat.Dense {
	if m < 1 || d < 1 || eps < 0 {
		panic(fmt.Sprintf("feature: GaussianTemplates(m=%d, d=%d, eps=%v): need m, d >= 1 and eps >= 0", m, d, eps))
	}
	t := mat.NewDense(m, d, nil)
	sd := 1 / math.Sqrt(float64(d))
	for j := range m {
		row := t.RawRowView(j)
		for {
			var ss float64
			for i := range row {
				row[i] = sd * rng.NormFloat64()
				ss += row[i] * row[i]
			}
			if ss < 1+eps {
				break
			}
		}
	}
	return t
}

// SphereTemplates draws m templates uniformly on the unit sphere S^{d-1} (normalised
// standard Gaussian vectors), the templates for which <Φ(x),Φ(z)> matches s - d_G(x,z)
// with the constant of Theorem 1. It panics if m < 1 or d < 1.
func SphereTemplates(m, d int, rng *rand.Rand) *mat.Dense {
	if m < 1 || d < 1 {
		panic(fmt.Sprintf("feature: SphereTemplates(m=%d, d=%d): need m, d >= 1", m, d))
	}
	t := mat.NewDense(m, d, nil)
	for j := range m {
		row := t.RawRowView(j)
		for {
			var ss float64
			for i := range row {
				row[i] = rng.NormFloat64()
				ss += row[i] * row[i]
			}
			if ss > 0 {
				s := 1 / math.Sqrt(ss)
				for i := range row {
					row[i] *= s
				}
				break
			}
		}
	}
	return t
}

// DataTemplates returns m distinct non-zero rows of x chosen uniformly at random, each
// scaled to unit norm (templates "drawn from the data"). It returns an error if x has
// fewer than m non-zero rows, and panics if m < 1.
func DataTemplates(x *mat.Dense, m int, rng *rand.Rand) (*mat.Dense, error) {
	if m < 1 {
		panic(fmt.Sprintf("feature: DataTemplates needs m >= 1, got %d", m))
	}
	n, d := x.Dims()
	t := mat.NewDense(m, d, nil)
	j := 0
	for _, i := range rng.Perm(n) {
		if j == m {
			break
		}
		row := x.RawRowView(i)
		nrm := mat.Norm(mat.NewVecDense(d, row), 2)
		if nrm == 0 {
			continue
		}
		dst := t.RawRowView(j)
		for k, v := range row {
			dst[k] = v / nrm
		}
		j++
	}
	if j < m {
		return nil, fmt.Errorf("feature: %d data templates requested but the data has only %d non-zero rows: ask for fewer templates or use more training data", m, j)
	}
	return t, nil
}

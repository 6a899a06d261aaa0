package kernel

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// PSDMode says how [MakePSD] turns an indefinite training Gram matrix into a positive
// semi-definite one (Chen, Garcia, Gupta, Rahimi and Cazzanti, "Similarity-based
// classification: concepts and algorithms", JMLR 2009, Sec. 3).
type PSDMode int

const (
	// PSDNone leaves the matrix as it is (the SVM then works on the indefinite matrix,
	// as LIBSVM does).
	PSDNone PSDMode = iota
	// PSDClip sets the negative eigenvalues to zero: K' = V max(Λ, 0) V^T, the nearest
	// PSD matrix to K in the Frobenius norm.
	PSDClip
	// PSDFlip replaces every eigenvalue by its absolute value: K' = V |Λ| V^T.
	PSDFlip
)

// ParsePSDMode returns the mode named "" or "none", "clip" or "flip".
func ParsePSDMode(s string) (PSDMode, error) {
	switch s {
	case "", "none":
		return PSDNone, nil
	case "clip":
		return PSDClip, nil
	case "flip":
		return PSDFlip, nil
	}
	return PSDNone, fmt.Errorf("psd %q: use none, clip or flip", s)
}

// String returns "none", "clip" or "flip".
func (m PSDMode) String() string {
	switch m {
	case PSDClip:
		return "clip"
	case PSDFlip:
		return "flip"
	}
	return "none"
}

// Spectrum describes the eigenvalues of the matrix [MakePSD] changed.
type Spectrum struct {
	Negative int     // number of eigenvalues below zero
	Min      float64 // smallest eigenvalue
	NegMass  float64 // sum of |λ| over the negative eigenvalues / sum of |λ| over all
}

// MakePSD eigendecomposes the symmetric K = V Λ V^T and returns the PSD matrix
//
//	K' = V f(Λ) V^T,    f(λ) = max(λ, 0) (PSDClip) or |λ| (PSDFlip),
//
// and the n×n matrix M = V g(Λ) V^T, g(λ) = 1[λ > 0] (clip) or sign(λ) (flip), that
// carries the same change to the kernel rows of new samples: a test row k(x) (its
// kernel values against the n training samples) becomes k(x) M, so a training sample's
// own row K e_i becomes K' e_i (K M = K'). The test kernel is then the inner product of
// the training samples' coordinates in the eigenbasis with the negative (clip) or sign-
// flipped (flip) part removed, the "consistent" treatment of Chen et al. (2009).
//
// PSDNone, and a K without negative eigenvalues, return K itself and a nil M (the
// identity). MakePSD returns an error if the eigendecomposition fails or K holds a
// non-finite value. Cost: O(n³) (about 1 s at n = 1000 in pure Go).
func MakePSD(K *mat.SymDense, mode PSDMode) (*mat.SymDense, *mat.Dense, Spectrum, error) {
	if mode == PSDNone {
		return K, nil, Spectrum{}, nil
	}
	n := K.SymmetricDim()
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			if v := K.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, nil, Spectrum{}, fmt.Errorf("psd %s: the Gram matrix holds %v at (%d, %d): lower gamma or the degree", mode, v, i, j)
			}
		}
	}
	var es mat.EigenSym
	if ok := es.Factorize(K, true); !ok {
		return nil, nil, Spectrum{}, fmt.Errorf("psd %s: the eigendecomposition of the %d x %d Gram matrix did not converge", mode, n, n)
	}
	lam := es.Values(nil)
	var V mat.Dense
	es.VectorsTo(&V)
	var sp Spectrum
	var abs float64
	f := make([]float64, n)
	g := make([]float64, n)
	for i, l := range lam {
		abs += math.Abs(l)
		if l < 0 {
			sp.Negative++
			sp.NegMass -= l
		}
		switch {
		case l > 0:
			f[i], g[i] = l, 1
		case mode == PSDFlip && l < 0:
			f[i], g[i] = -l, -1
		}
	}
	if n > 0 {
		sp.Min = lam[0]
	}
	if abs > 0 {
		sp.NegMass /= abs
	}
	if sp.Negative == 0 {
		return K, nil, sp, nil
	}
	// K' = (V f) V^T and M = (V g) V^T.
	Vf := mat.NewDense(n, n, nil)
	Vg := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		src, df, dg := V.RawRowView(i), Vf.RawRowView(i), Vg.RawRowView(i)
		for j, v := range src {
			df[j], dg[j] = v*f[j], v*g[j]
		}
	}
	var kp, m mat.Dense
	kp.Mul(Vf, V.T())
	m.Mul(Vg, V.T())
	out := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			out.SetSym(i, j, 0.5*(kp.At(i, j)+kp.At(j, i)))
		}
	}
	return out, &m, sp, nil
}

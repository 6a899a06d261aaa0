package group

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// OrthoTol is the tolerance of [NewLinearSet]: every matrix must satisfy
// max |M Mᵀ - I| <= OrthoTol, and products are matched within it.
const OrthoTol = 1e-6

// maxClosurePairs bounds the pairs (i, j) [NewLinearSet] checks for closure; larger sets
// are checked on that many seeded random pairs.
const maxClosurePairs = 1 << 20

// LinearSet is a set of orthogonal d×d matrices M_0 = I, M_1, ... acting on vectors of
// length d by g_i·x = M_i x (and g_i^{-1}·x = M_iᵀ x). Apply is a matrix-vector product
// (BLAS Dgemv); [OrbitTo] and [ApplyRows] use one BLAS call for all elements or all rows.
// Build one with [NewLinearSet].
type LinearSet struct {
	d      int
	mats   []float64 // |G|·d·d, element i row-major at i·d·d
	name   string
	closed bool
	pairs  int // pairs checked for closure
}

// NewLinearSet validates n matrices of size d×d (mats holds them one after another,
// each row-major, len(mats) = n·d·d) and returns them as a set with the identity first
// (moved to the front if within OrthoTol of I, added if absent). Every matrix must be
// finite and orthogonal within [OrthoTol] (max |M Mᵀ - I|): the invariance theory
// needs a unitary action, and the error says so, naming the matrix. Two matrices within
// OrthoTol of each other are refused as duplicates.
//
// Closure is then checked up to OrthoTol: for every pair (i, j) (or 2^20 seeded random
// pairs when there are more) the product M_i M_j must equal some M_k on two random unit
// vectors v, max |M_i M_j v - M_k v| <= OrthoTol; [LinearSet.Closed] reports the
// outcome. A finite set of invertible matrices closed under products is a group. Cost:
// O(pairs·d²) plus O(n·d³) for the orthogonality check; ctx is checked as it runs.
func NewLinearSet(ctx context.Context, mats []float64, n, d int, name string) (*LinearSet, error) {
	if n < 1 || d < 1 || len(mats) != n*d*d {
		return nil, fmt.Errorf("%d values for %d matrices of %dx%d: give an array of shape (|G|, d, d)", len(mats), n, d, d)
	}
	dd := d * d
	prod := make([]float64, dd)
	id := -1
	for i := range n {
		if i&63 == 63 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m := mats[i*dd : (i+1)*dd]
		for j, v := range m {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("matrix %d entry (%d, %d) is %g: give finite values", i, j/d, j%d, v)
			}
		}
		gemm(blas.NoTrans, blas.Trans, d, d, d, m, m, prod)
		worst := identityGap(prod, d)
		if worst > OrthoTol {
			return nil, fmt.Errorf("matrix %d is not orthogonal (max |M Mᵀ - I| = %.3g, above %g): the invariance theory needs a unitary action, give rotations and reflections", i, worst, OrthoTol)
		}
		if id < 0 && identityGap(m, d) <= OrthoTol {
			id = i
		}
	}
	all := make([]float64, 0, (n+1)*dd)
	switch {
	case id < 0:
		ident := make([]float64, dd)
		for r := range d {
			ident[r*d+r] = 1
		}
		all = append(append(all, ident...), mats...)
		n++
	default:
		all = append(all, mats[id*dd:(id+1)*dd]...)
		all = append(all, mats[:id*dd]...)
		all = append(all, mats[(id+1)*dd:]...)
	}
	s := &LinearSet{d: d, mats: all, name: name}
	if err := s.checkClosure(ctx, id); err != nil {
		return nil, err
	}
	return s, nil
}

// checkClosure sets s.closed (see NewLinearSet) and refuses duplicates. id is where the
// identity was in the input (-1: added), to name duplicates by their input index.
func (s *LinearSet) checkClosure(ctx context.Context, id int) error {
	d, n := s.d, s.Len()
	inputIndex := func(k int) int {
		switch {
		case id < 0:
			return k - 1
		case k == 0:
			return id
		case k <= id:
			return k - 1
		}
		return k
	}
	rng := rand.New(rand.NewPCG(0x6c696e, 0x656172))
	unit := func() []float64 {
		v := make([]float64, d)
		var ss float64
		for i := range v {
			v[i] = rng.NormFloat64()
			ss += v[i] * v[i]
		}
		for i := range v {
			v[i] /= math.Sqrt(ss)
		}
		return v
	}
	v1, v2 := unit(), unit()
	w1, w2 := make([]float64, n*d), make([]float64, n*d)
	s.orbitTo(w1, v1)
	s.orbitTo(w2, v2)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return w1[order[a]*d] < w1[order[b]*d] })
	first := make([]float64, n)
	for i, k := range order {
		first[i] = w1[k*d]
	}
	near := func(a, b []float64) bool {
		for i, v := range a {
			if math.Abs(v-b[i]) > OrthoTol {
				return false
			}
		}
		return true
	}
	// find returns the elements k with M_k v1 = u1 and M_k v2 = u2 within OrthoTol.
	find := func(u1, u2 []float64, skip int) int {
		lo := sort.SearchFloat64s(first, u1[0]-OrthoTol)
		for i := lo; i < n && first[i] <= u1[0]+OrthoTol; i++ {
			k := order[i]
			if k != skip && near(u1, w1[k*d:(k+1)*d]) && near(u2, w2[k*d:(k+1)*d]) {
				return k
			}
		}
		return -1
	}
	for k := range n {
		if j := find(w1[k*d:(k+1)*d], w2[k*d:(k+1)*d], k); j >= 0 {
			a, b := min(inputIndex(j), inputIndex(k)), max(inputIndex(j), inputIndex(k))
			if a < 0 { // the identity added in front
				return fmt.Errorf("matrix %d is within %g of the identity on test vectors: list each element once", b, OrthoTol)
			}
			return fmt.Errorf("matrices %d and %d are equal within %g: list each element once", a, b, OrthoTol)
		}
	}
	u1, u2 := make([]float64, d), make([]float64, d)
	check := func(i, j int) bool {
		m := s.mats[i*d*d : (i+1)*d*d]
		blas64.Implementation().Dgemv(blas.NoTrans, d, d, 1, m, d, w1[j*d:(j+1)*d], 1, 0, u1, 1)
		blas64.Implementation().Dgemv(blas.NoTrans, d, d, 1, m, d, w2[j*d:(j+1)*d], 1, 0, u2, 1)
		return find(u1, u2, -1) >= 0
	}
	s.closed = true
	if n*n <= maxClosurePairs {
		s.pairs = n * n
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			for j := range n {
				if !check(i, j) {
					s.closed = false
					return nil
				}
			}
		}
		return nil
	}
	s.pairs = maxClosurePairs
	for p := range maxClosurePairs {
		if p&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if !check(rng.IntN(n), rng.IntN(n)) {
			s.closed = false
			return nil
		}
	}
	return nil
}

// identityGap returns max |m - I| over the entries of the d×d row-major matrix m.
func identityGap(m []float64, d int) float64 {
	worst := 0.0
	for r := range d {
		for c := range d {
			want := 0.0
			if r == c {
				want = 1
			}
			worst = max(worst, math.Abs(m[r*d+c]-want))
		}
	}
	return worst
}

// gemm computes c = op(a)·op(b) for d×d-compatible row-major matrices (m×k times k×n).
func gemm(ta, tb blas.Transpose, m, n, k int, a, b, c []float64) {
	lda, ldb := k, n
	if ta == blas.Trans {
		lda = m
	}
	if tb == blas.Trans {
		ldb = k
	}
	blas64.Implementation().Dgemm(ta, tb, m, n, k, 1, a, lda, b, ldb, 0, c, n)
}

// Name returns the name given at construction, e.g. "M.npy".
func (s *LinearSet) Name() string { return s.name }

// Len returns the number of matrices.
func (s *LinearSet) Len() int { return len(s.mats) / (s.d * s.d) }

// Dim returns d.
func (s *LinearSet) Dim() int { return s.d }

// Closed reports whether the set passed the closure check of [NewLinearSet].
func (s *LinearSet) Closed() bool { return s.closed }

// Describe says what the set is, for people: "a group of 24 elements (closed within
// 1e-06)" or "a set of 5 orthogonal matrices, not closed under composition".
func (s *LinearSet) Describe() string {
	if s.closed {
		how := ""
		if s.pairs < s.Len()*s.Len() {
			how = fmt.Sprintf(", on %d random pairs", s.pairs)
		}
		return fmt.Sprintf("a group of %d elements (closed within %g%s)", s.Len(), OrthoTol, how)
	}
	return fmt.Sprintf("a set of %d orthogonal matrices, not closed under composition", s.Len())
}

// Matrix returns M_i (a copy, row-major).
func (s *LinearSet) Matrix(i int) []float64 {
	dd := s.d * s.d
	return slices.Clone(s.mats[i*dd : (i+1)*dd])
}

// Apply writes M_i x into dst.
func (s *LinearSet) Apply(dst, x []float64, i int) {
	checkApply("LinearSet.Apply", s.d, s.Len(), dst, x, i)
	d := s.d
	blas64.Implementation().Dgemv(blas.NoTrans, d, d, 1, s.mats[i*d*d:(i+1)*d*d], d, x, 1, 0, dst, 1)
}

// ApplyInverse writes M_iᵀ x into dst.
func (s *LinearSet) ApplyInverse(dst, x []float64, i int) {
	checkApply("LinearSet.ApplyInverse", s.d, s.Len(), dst, x, i)
	d := s.d
	blas64.Implementation().Dgemv(blas.Trans, d, d, 1, s.mats[i*d*d:(i+1)*d*d], d, x, 1, 0, dst, 1)
}

// orbitTo writes M_i x for all i into dst (|G|·d): the stacked matrices times x, one
// Dgemv.
func (s *LinearSet) orbitTo(dst, x []float64) {
	d, n := s.d, s.Len()
	blas64.Implementation().Dgemv(blas.NoTrans, n*d, d, 1, s.mats, d, x, 1, 0, dst, 1)
}

// applyRows writes the rows M_i x_r of out (n×d) for the rows x_r of X: out = X M_iᵀ,
// one Dgemm.
func (s *LinearSet) applyRows(out, x []float64, rows, i int) {
	d := s.d
	gemm(blas.NoTrans, blas.Trans, rows, d, d, x, s.mats[i*d*d:(i+1)*d*d], out)
}

package group

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// ProductSet is the set of compositions g = a_i ∘ b_j (apply b_j, then a_i) of two
// actions on the same vectors, |G| = |a|·|b|, element index i·|b| + j. Its identity
// a_0 ∘ b_0 comes first when both factors put theirs first. The inverse of a_i ∘ b_j is
// b_j^{-1} ∘ a_i^{-1}. Build one with [Product].
type ProductSet struct {
	a, b Action
	buf  sync.Pool // *[]float64 of length Dim, scratch between the two factors
}

// Product returns the composition set of a and b (see [ProductSet]). For the MNIST
// preset, Product(Rotations(28, 28, AngleRange(-20, 20, 9)), LocalShifts(28, 28, 3))
// has 441 elements, each a zero-fill shift followed by a rotation. (The numpy peer
// rotates first and shifts second, which is Product(LocalShifts(..), Rotations(..)):
// a different set, since rotations about the centre and shifts do not commute.)
//
// Product panics if a.Dim() != b.Dim().
func Product(a, b Action) *ProductSet {
	if a.Dim() != b.Dim() {
		panic(fmt.Sprintf("group: Product: %s acts on dimension %d, %s on %d", a.Name(), a.Dim(), b.Name(), b.Dim()))
	}
	p := &ProductSet{a: a, b: b}
	d := a.Dim()
	p.buf.New = func() any { s := make([]float64, d); return &s }
	return p
}

// Name returns "<a> x <b>".
func (p *ProductSet) Name() string { return p.a.Name() + " x " + p.b.Name() }

// Len returns |a|·|b|.
func (p *ProductSet) Len() int { return p.a.Len() * p.b.Len() }

// Dim returns the common dimension d.
func (p *ProductSet) Dim() int { return p.a.Dim() }

// Factors returns a and b.
func (p *ProductSet) Factors() (a, b Action) { return p.a, p.b }

// Split returns the factor indices (i, j) of element k = i·|b| + j.
func (p *ProductSet) Split(k int) (i, j int) { return k / p.b.Len(), k % p.b.Len() }

// Apply writes a_i·(b_j·x) into dst, k = i·|b| + j.
func (p *ProductSet) Apply(dst, x []float64, k int) {
	checkApply("ProductSet.Apply", p.Dim(), p.Len(), dst, x, k)
	i, j := p.Split(k)
	tmp := p.buf.Get().(*[]float64)
	p.b.Apply(*tmp, x, j)
	p.a.Apply(dst, *tmp, i)
	p.buf.Put(tmp)
}

// ApplyInverse writes b_j^{-1}·(a_i^{-1}·x) into dst, k = i·|b| + j.
func (p *ProductSet) ApplyInverse(dst, x []float64, k int) {
	checkApply("ProductSet.ApplyInverse", p.Dim(), p.Len(), dst, x, k)
	i, j := p.Split(k)
	tmp := p.buf.Get().(*[]float64)
	p.a.ApplyInverse(*tmp, x, i)
	p.b.ApplyInverse(dst, *tmp, j)
	p.buf.Put(tmp)
}

// SubsetSet is the subset {a_{idx[0]}, a_{idx[1]}, ...} of an action, in that order.
// Build one with [Select] or [Sample].
type SubsetSet struct {
	a   Action
	idx []int
}

// Select returns the elements idx of a, in the order given (element k of the result is
// a_{idx[k]}). It panics if idx is empty or an index is outside [0, a.Len()).
func Select(a Action, idx []int) *SubsetSet {
	if len(idx) == 0 {
		panic("group: Select: no elements selected")
	}
	for _, i := range idx {
		if i < 0 || i >= a.Len() {
			panic(fmt.Sprintf("group: Select: element %d outside [0,%d) of %s", i, a.Len(), a.Name()))
		}
	}
	return &SubsetSet{a: a, idx: slices.Clone(idx)}
}

// Sample returns a seeded subset of k distinct elements of a: element 0 (the identity,
// for every constructor of this package) first, then k-1 others drawn uniformly without
// replacement from 1..a.Len()-1, in increasing order. If k >= a.Len() it returns a
// itself. Sample panics if k < 1 or (when sampling) rng is nil.
func Sample(a Action, k int, rng *rand.Rand) Action {
	if k < 1 {
		panic(fmt.Sprintf("group: Sample: k=%d must be at least 1", k))
	}
	n := a.Len()
	if k >= n {
		return a
	}
	if rng == nil {
		panic("group: Sample: nil rng")
	}
	// Partial Fisher-Yates over 1..n-1.
	rest := make([]int, n-1)
	for i := range rest {
		rest[i] = i + 1
	}
	for i := 0; i < k-1; i++ {
		j := i + rng.IntN(len(rest)-i)
		rest[i], rest[j] = rest[j], rest[i]
	}
	pick := rest[:k-1]
	slices.Sort(pick)
	return &SubsetSet{a: a, idx: append([]int{0}, pick...)}
}

// Name returns "<k> of <a>".
func (s *SubsetSet) Name() string { return fmt.Sprintf("%d of %s", len(s.idx), s.a.Name()) }

// Len returns the number of selected elements.
func (s *SubsetSet) Len() int { return len(s.idx) }

// Dim returns the dimension of the parent action.
func (s *SubsetSet) Dim() int { return s.a.Dim() }

// Index returns the parent index of element k.
func (s *SubsetSet) Index(k int) int { return s.idx[k] }

// Apply writes a_{idx[k]}·x into dst.
func (s *SubsetSet) Apply(dst, x []float64, k int) {
	checkApply("SubsetSet.Apply", s.Dim(), len(s.idx), dst, x, k)
	s.a.Apply(dst, x, s.idx[k])
}

// ApplyInverse writes a_{idx[k]}^{-1}·x into dst.
func (s *SubsetSet) ApplyInverse(dst, x []float64, k int) {
	checkApply("SubsetSet.ApplyInverse", s.Dim(), len(s.idx), dst, x, k)
	s.a.ApplyInverse(dst, x, s.idx[k])
}

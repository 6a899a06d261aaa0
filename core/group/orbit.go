package group

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// Orbit returns the |G|×d matrix whose row i is g_i·x. It panics if len(x) != a.Dim().
func Orbit(a Action, x []float64) *mat.Dense {
	o := mat.NewDense(a.Len(), a.Dim(), nil)
	OrbitTo(o.RawMatrix().Data, a, x)
	return o
}

// OrbitTo writes g_i·x into dst[i·d:(i+1)·d] for i = 0..|G|-1 (d = a.Dim()). It panics
// if len(x) != d or len(dst) != |G|·d.
func OrbitTo(dst []float64, a Action, x []float64) {
	d, n := a.Dim(), a.Len()
	if len(dst) != n*d {
		panic(fmt.Sprintf("group: OrbitTo: len(dst)=%d, want |G|·d = %d·%d", len(dst), n, d))
	}
	if l, ok := a.(*LinearSet); ok && len(x) == d {
		l.orbitTo(dst, x) // the stacked matrices times x, one BLAS call
		return
	}
	for i := range n {
		a.Apply(dst[i*d:(i+1)*d], x, i)
	}
}

// ApplyRows returns the n×d matrix whose row r is g_i·X[r]. It panics if X does not
// have a.Dim() columns or i is out of range.
func ApplyRows(a Action, X *mat.Dense, i int) *mat.Dense {
	n, d := X.Dims()
	if d != a.Dim() {
		panic(fmt.Sprintf("group: ApplyRows: X has %d columns, %s acts on %d", d, a.Name(), a.Dim()))
	}
	out := mat.NewDense(n, d, nil)
	if l, ok := a.(*LinearSet); ok && n > 0 {
		if i < 0 || i >= l.Len() {
			panic(fmt.Sprintf("group: ApplyRows: element %d outside [0,%d)", i, l.Len()))
		}
		raw := X.RawMatrix()
		if raw.Stride != d {
			raw = mat.DenseCopyOf(X).RawMatrix()
		}
		l.applyRows(out.RawMatrix().Data, raw.Data[:n*d], n, i) // X M_iᵀ, one GEMM
		return out
	}
	for r := range n {
		a.Apply(out.RawRowView(r), X.RawRowView(r), i)
	}
	return out
}

// Canonical groups the rows of X by orbit. The canonical form of a row x is the
// lexicographically smallest element of its orbit,
//
//	c(x) = lexmin { g·x : g in G },
//
// so for a group G two rows get the same form exactly when they lie in the same orbit
// (for a set that is not a group the forms are still computed but do not identify
// orbits). reps holds the distinct canonical forms in order of first appearance, one
// per row, and class[r] is the row of reps that X[r] maps to; -0 and +0 count as equal.
// Canonical costs |G| applications per row (the full symmetric group of [Permutations]
// instead sorts the blocks), spread over GOMAXPROCS goroutines; it checks
// ctx once per block of rows and returns ctx.Err() if cancelled. It panics if X does not
// have a.Dim() columns.
func Canonical(ctx context.Context, a Action, X *mat.Dense) (reps *mat.Dense, class []int, err error) {
	n, d := X.Dims()
	if d != a.Dim() {
		panic(fmt.Sprintf("group: Canonical: X has %d columns, %s acts on %d", d, a.Name(), a.Dim()))
	}
	canon := mat.NewDense(n, d, nil)
	// Actions that know their orbits' minimum directly (the full S_L) skip the search.
	c, fast := a.(interface{ canonicalInto(dst, x []float64) bool })
	const block = 64
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	var ctxErr error
	workers := min(runtime.GOMAXPROCS(0), (n+block-1)/block)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tmp := make([]float64, d)
			for {
				mu.Lock()
				lo := next
				next += block
				mu.Unlock()
				if lo >= n {
					return
				}
				if e := ctx.Err(); e != nil {
					mu.Lock()
					ctxErr = e
					next = n
					mu.Unlock()
					return
				}
				for r := lo; r < min(lo+block, n); r++ {
					best := canon.RawRowView(r)
					x := X.RawRowView(r)
					if fast && c.canonicalInto(best, x) {
						continue
					}
					a.Apply(best, x, 0)
					for i := 1; i < a.Len(); i++ {
						a.Apply(tmp, x, i)
						if lexLess(tmp, best) {
							copy(best, tmp)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if ctxErr != nil {
		return nil, nil, ctxErr
	}
	class = make([]int, n)
	index := make(map[string]int)
	var order []int
	key := make([]byte, 8*d)
	for r := range n {
		row := canon.RawRowView(r)
		for j, v := range row {
			if v == 0 {
				v = 0 // -0 → +0
			}
			b := math.Float64bits(v)
			for k := range 8 {
				key[8*j+k] = byte(b >> (8 * k))
			}
		}
		c, ok := index[string(key)]
		if !ok {
			c = len(order)
			index[string(key)] = c
			order = append(order, r)
		}
		class[r] = c
	}
	if len(order) == 0 {
		return &mat.Dense{}, class, nil
	}
	reps = mat.NewDense(len(order), d, nil)
	for c, r := range order {
		reps.SetRow(c, canon.RawRowView(r))
	}
	return reps, class, nil
}

func lexLess(a, b []float64) bool {
	for i, v := range a {
		if v != b[i] {
			return v < b[i]
		}
	}
	return false
}

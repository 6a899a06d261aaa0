package feature

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// cyclic is the full cyclic group Z_d acting on R^d by (g_i x)[l] = x[(l - i) mod d],
// optionally restricted to the first k elements (then it is a subset, not a group).
type cyclic struct{ d, k int }

func (c cyclic) Name() string { return fmt.Sprintf("Z%d[:%d]", c.d, c.k) }
func (c cyclic) Len() int     { return c.k }
func (c cyclic) Dim() int     { return c.d }
func (c cyclic) Apply(dst, x []float64, i int) {
	for l := range c.d {
		dst[(l+i)%c.d] = x[l]
	}
}
func (c cyclic) ApplyInverse(dst, x []float64, i int) {
	for l := range c.d {
		dst[l] = x[(l+i)%c.d]
	}
}

// symmetric is the full symmetric group S_L permuting L blocks of A entries:
// (g_i x)[l·A + a] = x[σ_i(l)·A + a], all L! permutations, identity first.
type symmetric struct {
	l, a  int
	perms [][]int
}

func newSymmetric(l, a int) symmetric {
	var perms [][]int
	var rec func(p []int, used []bool)
	rec = func(p []int, used []bool) {
		if len(p) == l {
			perms = append(perms, append([]int(nil), p...))
			return
		}
		for v := range l {
			if !used[v] {
				used[v] = true
				rec(append(p, v), used)
				used[v] = false
			}
		}
	}
	rec(nil, make([]bool, l))
	return symmetric{l: l, a: a, perms: perms}
}

func (s symmetric) Name() string { return fmt.Sprintf("S%d on %dx%d", s.l, s.l, s.a) }
func (s symmetric) Len() int     { return len(s.perms) }
func (s symmetric) Dim() int     { return s.l * s.a }
func (s symmetric) Apply(dst, x []float64, i int) {
	for l, src := range s.perms[i] {
		copy(dst[l*s.a:(l+1)*s.a], x[src*s.a:(src+1)*s.a])
	}
}
func (s symmetric) ApplyInverse(dst, x []float64, i int) {
	for l, src := range s.perms[i] {
		copy(dst[src*s.a:(src+1)*s.a], x[l*s.a:(l+1)*s.a])
	}
}

// oneHot returns n random sequences of L symbols from an alphabet of A, one-hot encoded
// (X_perm-shaped: Shape [L, A]).
func oneHot(n, l, a int, rng *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, l*a, nil)
	for r := range n {
		for b := range l {
			x.Set(r, b*a+rng.IntN(a), 1)
		}
	}
	return x
}

func randn(n, d int, rng *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

func unit(v []float64) []float64 {
	out := append([]float64(nil), v...)
	var ss float64
	for _, x := range v {
		ss += x * x
	}
	if ss > 0 {
		for i := range out {
			out[i] /= math.Sqrt(ss)
		}
	}
	return out
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

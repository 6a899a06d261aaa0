package group

// Action is a finite set G = {g_0, ..., g_{Len-1}} of linear transformations acting on
// vectors of length Dim (flat samples with a shape, e.g. 28×28 images row-major).
//
// Contract: Apply(dst, x, i) writes g_i·x into dst; ApplyInverse writes g_i^{-1}·x.
// len(dst) == len(x) == Dim(), dst and x must not alias; both panic on a wrong length
// or i outside [0, Len()). g_0 is the identity whenever the set contains it (every
// constructor of this package puts the identity first). Implementations are safe for
// concurrent use by several goroutines (they hold no mutable state).
type Action interface {
	Name() string // e.g. "S5 on 5x8 blocks", "shifts<=3 x rotations[-20,20]/9"
	Len() int     // |G|
	Dim() int     // d
	Apply(dst, x []float64, i int)
	ApplyInverse(dst, x []float64, i int)
}

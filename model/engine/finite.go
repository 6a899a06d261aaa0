package engine

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

// maxKernel is the largest kernel value accepted, the limit core/data puts on the data
// (|v| <= 1e300): past it the SVM's rescaling and the eigenvalue checks lose all digits.
const maxKernel = 1e300

// selfKernel is a kernel's value k(x, x) on one sample, with the fix to name when the
// kernel overflows.
type selfKernel struct {
	desc string                  // e.g. "poly(gamma=1e+300,degree=8)"
	eval func([]float64) float64 // k(x, x); nil for a kernel bounded by 1 (RBF)
	fix  string                  // e.g. "lower gamma or the degree, or rescale the data"
}

// selfOf returns k(x, x) of a base kernel (eval nil for the RBF kernel, which is at most 1).
func selfOf(b kernel.Base) *selfKernel {
	k := &selfKernel{desc: b.Name(), fix: "rescale the data (data.normalize: true)"}
	switch b.(type) {
	case kernel.Poly:
		k.eval = func(x []float64) float64 { return b.Eval(x, x) }
		k.fix = "lower gamma or the degree, or rescale the data"
	case kernel.Linear:
		k.eval = func(x []float64) float64 { return b.Eval(x, x) }
	}
	return k
}

// selfOfLocality returns K(x, x) of the locality kernel l.
func selfOfLocality(l *kernel.Locality) *selfKernel {
	return &selfKernel{desc: l.Name(), eval: func(x []float64) float64 { return l.Eval(x, x) },
		fix: "lower the locality scale or the degrees d1, d2 (d3)"}
}

// checkKernelScale returns an *InputError if k(x, x) is not finite or above 1e300 for a
// row x of one of the matrices: it runs before any Gram matrix is computed, so that an
// overflowing kernel (a polynomial with gamma = 1e300, say) stops the run at once. For a
// positive semi-definite kernel |k(x, z)| <= sqrt(k(x, x) k(z, z)), so the largest k(x, x)
// bounds every Gram entry; the best and average fits over shifts keep that bound
// (shifts keep or lower norms), interpolated rotations can exceed it by a small factor,
// which checkGramFinite catches after the Gram. The RBF kernel (k.eval nil) passes.
// Work: one kernel evaluation per row; it returns ctx.Err() if cancelled.
func checkKernelScale(ctx context.Context, k *selfKernel, xs ...*mat.Dense) error {
	if k.eval == nil {
		return nil
	}
	for _, x := range xs {
		n, _ := x.Dims()
		for i := 0; i < n; i++ {
			if i%256 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if v := k.eval(x.RawRowView(i)); !(math.Abs(v) <= maxKernel) {
				return inputErr(fmt.Errorf("kernel values overflow: k(x, x) = %g on the data with %s: %s", v, k.desc, k.fix))
			}
		}
	}
	return nil
}

// checkGramFinite returns an *InputError if an entry of K (a *mat.SymDense, whose upper
// triangle is read, or a *mat.Dense) is NaN or infinite, naming k's fix. Work: one pass
// over the stored entries.
func checkGramFinite(K mat.Matrix, k *selfKernel) error {
	bad := func(v float64, i, j int) error {
		return inputErr(fmt.Errorf("kernel values overflow: the Gram matrix of %s has entry (%d, %d) = %g: %s", k.desc, i, j, v, k.fix))
	}
	switch k := K.(type) {
	case *mat.SymDense:
		r := k.RawSymmetric()
		for i := 0; i < r.N; i++ {
			for j, v := range r.Data[i*r.Stride+i : i*r.Stride+r.N] {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return bad(v, i, i+j)
				}
			}
		}
	case *mat.Dense:
		n, _ := k.Dims()
		for i := 0; i < n; i++ {
			for j, v := range k.RawRowView(i) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return bad(v, i, j)
				}
			}
		}
	default:
		panic(fmt.Sprintf("model: checkGramFinite: unsupported matrix type %T", K))
	}
	return nil
}

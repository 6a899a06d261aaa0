package kernel

import (
	"fmt"
	"math"
)

// Base is a base kernel k0(x, z) that depends on x and z only through their inner
// product and squared norms:
//
//	k0(x, z) = f(<x, z>, ||x||², ||z||²).
//
// Gram builders compute the inner products of whole row blocks with one matrix product
// and apply FromDot elementwise. Implementations are small value types, safe for
// concurrent use: [Linear], [RBF], [Poly].
type Base interface {
	// Name returns a short description with the parameters, e.g. "rbf(gamma=0.01)".
	Name() string
	// Eval returns k0(x, z) computed directly from the vectors; it panics if
	// len(x) != len(z).
	Eval(x, z []float64) float64
	// FromDot returns f(dot, xx, zz) for dot = <x, z>, xx = ||x||², zz = ||z||².
	FromDot(dot, xx, zz float64) float64
	// Validate returns a one-line error naming a bad parameter and its fix, or nil.
	Validate() error
}

// Linear is the linear kernel
//
//	k(x, z) = <x, z>.
type Linear struct{}

// Name returns "linear".
func (Linear) Name() string { return "linear" }

// Eval returns <x, z>. It panics if len(x) != len(z).
func (Linear) Eval(x, z []float64) float64 { return dot(x, z) }

// FromDot returns dot.
func (Linear) FromDot(dot, _, _ float64) float64 { return dot }

// Validate returns nil: the linear kernel has no parameters.
func (Linear) Validate() error { return nil }

// RBF is the Gaussian kernel
//
//	k(x, z) = exp(-Gamma·||x - z||²),    Gamma > 0.
//
// In FromDot the squared distance ||x||² + ||z||² - 2<x, z> is clamped at 0 against
// rounding.
type RBF struct{ Gamma float64 }

// Name returns e.g. "rbf(gamma=0.01)".
func (k RBF) Name() string { return fmt.Sprintf("rbf(gamma=%g)", k.Gamma) }

// Eval returns exp(-Gamma·||x - z||²), summing squared differences directly. It panics
// if len(x) != len(z).
func (k RBF) Eval(x, z []float64) float64 {
	checkLen(x, z)
	s := 0.0
	for i, v := range x {
		d := v - z[i]
		s += d * d
	}
	return math.Exp(-k.Gamma * s)
}

// FromDot returns exp(-Gamma·max(0, xx + zz - 2·dot)).
func (k RBF) FromDot(dot, xx, zz float64) float64 {
	return math.Exp(-k.Gamma * max(0, xx+zz-2*dot))
}

// Validate checks that Gamma is positive and finite.
func (k RBF) Validate() error {
	if !(k.Gamma > 0) || math.IsInf(k.Gamma, 0) {
		return fmt.Errorf("rbf kernel: gamma = %g must be positive and finite: set gamma > 0 (1/d, or 1/median squared distance, is a usual start)", k.Gamma)
	}
	return nil
}

// Poly is the inhomogeneous polynomial kernel
//
//	k(x, z) = (1 + Gamma·<x, z>)^Degree,    Gamma > 0, Degree >= 1.
type Poly struct {
	Gamma  float64
	Degree int
}

// Name returns e.g. "poly(gamma=0.00128,degree=8)".
func (k Poly) Name() string { return fmt.Sprintf("poly(gamma=%g,degree=%d)", k.Gamma, k.Degree) }

// Eval returns (1 + Gamma·<x, z>)^Degree. It panics if len(x) != len(z).
func (k Poly) Eval(x, z []float64) float64 { return powInt(1+k.Gamma*dot(x, z), k.Degree) }

// FromDot returns (1 + Gamma·dot)^Degree.
func (k Poly) FromDot(dot, _, _ float64) float64 { return powInt(1+k.Gamma*dot, k.Degree) }

// Validate checks Gamma > 0 (finite) and Degree >= 1.
func (k Poly) Validate() error {
	if !(k.Gamma > 0) || math.IsInf(k.Gamma, 0) {
		return fmt.Errorf("poly kernel: gamma = %g must be positive and finite: set gamma > 0 (1/d is a usual start)", k.Gamma)
	}
	if k.Degree < 1 {
		return fmt.Errorf("poly kernel: degree = %d must be at least 1: set degree >= 1", k.Degree)
	}
	return nil
}

// powInt returns b^n for n >= 0 by repeated squaring.
func powInt(b float64, n int) float64 {
	r := 1.0
	for n > 0 {
		if n&1 == 1 {
			r *= b
		}
		b *= b
		n >>= 1
	}
	return r
}

func checkLen(x, z []float64) {
	if len(x) != len(z) {
		panic(fmt.Sprintf("kernel: len(x)=%d != len(z)=%d", len(x), len(z)))
	}
}

func dot(x, z []float64) float64 {
	checkLen(x, z)
	s := 0.0
	for i, v := range x {
		s += v * z[i]
	}
	return s
}

// Scaled is a base kernel multiplied by a positive constant,
//
//	k(x, z) = Factor · Base(x, z),
//
// e.g. a kernel divided by the mean of its training diagonal (Factor = 1/mean), so that
// an SVM's C keeps its meaning whatever the kernel's scale: (1 + 10 <x, z>)^9 on unit
// vectors is about 10^9, where float32 kernel rows and the solver's absolute tolerance
// (1e-3) no longer fit together.
type Scaled struct {
	Base   Base
	Factor float64
}

// Name returns e.g. "4.2e-10·poly(gamma=10,degree=9)".
func (k Scaled) Name() string { return fmt.Sprintf("%g·%s", k.Factor, k.Base.Name()) }

// Eval returns Factor · Base.Eval(x, z).
func (k Scaled) Eval(x, z []float64) float64 { return k.Factor * k.Base.Eval(x, z) }

// FromDot returns Factor · Base.FromDot(dot, xx, zz).
func (k Scaled) FromDot(dot, xx, zz float64) float64 { return k.Factor * k.Base.FromDot(dot, xx, zz) }

// Validate checks the base kernel and that Factor is positive and finite.
func (k Scaled) Validate() error {
	if k.Base == nil {
		return fmt.Errorf("scaled kernel: no base kernel: pass one")
	}
	if !(k.Factor > 0) || math.IsInf(k.Factor, 0) {
		return fmt.Errorf("scaled kernel: factor %g must be positive and finite: rescale the kernel (gamma)", k.Factor)
	}
	return k.Base.Validate()
}

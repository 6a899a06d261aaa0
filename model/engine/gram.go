package engine

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"gitui/core/eval"
	"gitui/core/kernel"
	"gitui/model"
)

// SampleGram returns two n×n Gram matrices of n pool samples (a seeded stratified draw,
// rows sorted by class) for the heatmap: the base kernel (linear, or the Gaussian base of
// a Haar method) and the invariant kernel of the spec's first invariant method
// (<Phi(x), Phi(z)> for CDF or moment features, the Haar-integration kernel otherwise),
// each with its smallest eigenvalue. If no method is invariant, both are the base kernel.
func SampleGram(ctx context.Context, spec *model.Spec, dataDir string, n int) (base, invariant eval.Matrix, err error) {
	s := spec.Clone()
	s.Defaults()
	if err := s.Validate(); err != nil {
		return base, invariant, inputErr(err)
	}
	pool, _, err := LoadDataContext(ctx, s.Data, dataDir, s.Seed, nil)
	if err != nil {
		return base, invariant, err
	}
	sub, err := GramSample(pool, s.Seed, n)
	if err != nil {
		return base, invariant, err
	}
	if err := checkGroupMemory(s.Group, pool.Shape); err != nil {
		return base, invariant, err
	}
	g, err := BuildGroupContext(ctx, s.Group, pool.Shape, s.Seed)
	if err != nil {
		return base, invariant, err
	}
	var k0 kernel.Base = kernel.Linear{}
	var inv *mat.SymDense
	for _, m := range s.Methods {
		switch {
		case m.IsHaar() && g != nil:
			if m.UsesRBF() && m.Gamma == 0 {
				if m.Gamma, err = (&builder{spec: s, pool: pool}).autoGamma(); err != nil {
					return base, invariant, inputErr(fmt.Errorf("%s: gamma 0 (auto): %w", m.DisplayName(), err))
				}
			}
			if k0, err = baseKernel(m); err != nil {
				return base, invariant, err
			}
			// The Haar kernel's Gram as the run's heatmap computes it (kernelGram).
			if inv, err = kernelGram(ctx, m, pool.Shape, g, pool, sub, s.Seed); err != nil {
				return base, invariant, err
			}
		case m.Pooled() && g != nil:
			// The pooled features' Gram as the run's heatmap computes it (featureGram).
			if inv, err = pooledGram(ctx, m, g, pool, sub, s.Seed); err != nil {
				return base, invariant, err
			}
		default:
			continue
		}
		invariant = matrixOf(m.DisplayName(), inv, sub.Y)
		break
	}
	kb, err := kernel.SymGram(ctx, k0, sub.X)
	if err != nil {
		return base, invariant, err
	}
	base = matrixOf(k0.Name(), kb, sub.Y)
	if inv == nil {
		invariant = base
	}
	return base, invariant, nil
}

func matrixOf(name string, k *mat.SymDense, y []int) eval.Matrix {
	n := k.SymmetricDim()
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d[i*n+j] = k.At(i, j)
		}
	}
	return eval.Matrix{Name: name, N: n, Data: d, Labels: append([]int(nil), y...), MinEig: kernel.MinEigen(k)}
}

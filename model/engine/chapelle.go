package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/model"
)

// chapelleMethod trains Chapelle and Schoelkopf's learners on each draw's raw inputs: the
// invariant SVM (tangent vectors of Tangents, weight InvGamma; InvGamma 0 is the plain SVM)
// or VSV (virtual support vectors: the transformations of Tangents, one pixel each way for
// shifts, ±10 degrees for rotations).
type chapelleMethod struct {
	spec     model.Method
	base     kernel.Base
	tangents []learn.Tangent
	vsv      group.Action
}

// newChapelleMethod checks m against the sample shape.
func newChapelleMethod(m model.Method, shape []int) (*chapelleMethod, error) {
	c := &chapelleMethod{spec: m}
	if !m.LiuBase() {
		return nil, inputErr(fmt.Errorf("%s: learner %s needs kernel linear, rbf or poly", m.Name, m.Learner))
	}
	base, err := baseKernel(m)
	if err != nil {
		return nil, err
	}
	c.base = base
	image := len(shape) == 2 && shape[0] >= 3 && shape[1] >= 3
	plane := len(shape) == 1 && shape[0] == 2
	var sets []group.Action
	for _, t := range m.Tangents {
		switch {
		case t == "rotation" && plane:
			c.tangents = append(c.tangents, learn.TangentRotation)
			sets = append(sets, learn.PlaneRotations([]float64{-10, 10}))
		case !image:
			return nil, inputErr(fmt.Errorf("%s: tangent %s needs images (or rotation of 2-D points), the data have shape %v: drop the tangent or use image data", m.Name, t, shape))
		case t == "hshift":
			c.tangents = append(c.tangents, learn.TangentHShift)
			sets = append(sets, group.Select(group.LocalShifts(shape[0], shape[1], 1), []int{4, 5}))
		case t == "vshift":
			c.tangents = append(c.tangents, learn.TangentVShift)
			sets = append(sets, group.Select(group.LocalShifts(shape[0], shape[1], 1), []int{2, 7}))
		case t == "rotation":
			if err := squareForRotation(m.Name+": tangent rotation", shape[0], shape[1]); err != nil {
				return nil, err
			}
			c.tangents = append(c.tangents, learn.TangentRotation)
			sets = append(sets, group.Rotations(shape[0], shape[1], []float64{-10, 10}))
		}
	}
	if m.Learner == "vsv" && len(sets) > 0 {
		c.vsv = unionSets(sets)
	}
	return c, nil
}

func (c *chapelleMethod) Name() string { return c.spec.Name }

func (c *chapelleMethod) Prepare(ctx context.Context, pool, test *data.Dataset, clk *eval.Clock) (eval.Fitter, error) {
	if err := checkKernelScale(ctx, selfOf(c.base), pool.X, test.X); err != nil {
		return nil, err
	}
	return &chapelleFitter{c: c, pool: pool, test: test}, nil
}

type chapelleFitter struct {
	c          *chapelleMethod
	pool, test *data.Dataset
}

func (f *chapelleFitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, error) {
	pred, _, err := fitPredict(ctx, f.fit, idx, rng, clk, false)
	return pred, err
}

func (f *chapelleFitter) FitScore(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) ([]int, []float64, error) {
	return fitPredict(ctx, f.fit, idx, rng, clk, true)
}

// fit trains VSV or the invariant SVM on the pool rows idx; it returns it with the test images.
func (f *chapelleFitter) fit(ctx context.Context, idx []int, rng *rand.Rand, clk *eval.Clock) (predictor, *mat.Dense, error) {
	tr := f.pool.Subset(idx)
	m := f.c.spec
	opts := &learn.SVCOptions{Workers: 1}
	t0 := time.Now()
	defer clk.Since("fit", t0)
	if m.Learner == "vsv" {
		v, err := learn.TrainVSV(ctx, tr.X, tr.Y, f.c.base, m.C, f.c.vsv, &learn.VSVOptions{SVC: opts})
		return v, f.test.X, err
	}
	inv, err := learn.TrainInvariantSVM(ctx, tr.X, tr.Y, tr.Shape, learn.InvariantOptions{
		Kernel: f.c.base, C: m.C, Gamma: m.InvGamma, Tangents: f.c.tangents, Smooth: m.Smooth, SVC: opts})
	return inv, f.test.X, err
}

// unionSets is the set of every element of every set in sets (all acting on the same d),
// in order.
type unionSet struct{ sets []group.Action }

func unionSets(sets []group.Action) group.Action {
	if len(sets) == 1 {
		return sets[0]
	}
	return &unionSet{sets: sets}
}

func (u *unionSet) Name() string {
	s := "union("
	for i, a := range u.sets {
		if i > 0 {
			s += ", "
		}
		s += a.Name()
	}
	return s + ")"
}

func (u *unionSet) Len() int {
	n := 0
	for _, a := range u.sets {
		n += a.Len()
	}
	return n
}

func (u *unionSet) Dim() int { return u.sets[0].Dim() }

func (u *unionSet) locate(i int) (group.Action, int) {
	for _, a := range u.sets {
		if i < a.Len() {
			return a, i
		}
		i -= a.Len()
	}
	panic(fmt.Sprintf("model: union element %d out of range [0, %d)", i, u.Len()))
}

func (u *unionSet) Apply(dst, x []float64, i int) {
	a, j := u.locate(i)
	a.Apply(dst, x, j)
}

func (u *unionSet) ApplyInverse(dst, x []float64, i int) {
	a, j := u.locate(i)
	a.ApplyInverse(dst, x, j)
}

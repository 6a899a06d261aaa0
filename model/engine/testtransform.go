package engine

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/model"
)

// testTransformSalt separates the per-sample streams that pick the group elements from
// every other stream seeded by the spec seed.
const testTransformSalt = 0x7e57_7a45_f0e4_d1c3

// testTransformAction returns the group whose random elements transform the test set, or
// nil when s has no test_transform (or kind none). Errors name test_transform and the fix
// and are *InputError.
func testTransformAction(s *model.Spec, shape []int, what string) (group.Action, error) {
	tt := s.TestTransform
	if tt == nil || tt.Kind == model.GroupNone {
		return nil, nil
	}
	if err := model.TestTransformShape(tt, shape, what); err != nil {
		return nil, inputErr(err)
	}
	a, err := BuildGroup(*tt, shape, s.Seed^testTransformSalt)
	if err != nil {
		return nil, inputErr(fmt.Errorf("test_transform: %w", err))
	}
	return a, nil
}

// transformTest returns the test set of a TransformedTest protocol (eval.Protocol): the N
// rows of test, then N transformed copies in the same order with the same labels,
//
//	row N+i = g_(k_i) · x_i,   k_i uniform in 0..|G|-1,
//
// where k_i is drawn from a stream seeded by (seed, i) alone, so a sample's element does
// not depend on the other samples. With renorm, each copy is rescaled to the norm of its
// original (for transformations that lose norm, zero-fill shifts and interpolated
// rotations, on data scaled to the unit sphere); a zero copy stays zero. It also returns
// k. test is not modified. It panics if a acts on another dimension than test's.
func transformTest(test *data.Dataset, a group.Action, seed uint64, renorm bool) (*data.Dataset, []int) {
	n, d := test.X.Dims()
	if a.Dim() != d {
		panic(fmt.Sprintf("model: test_transform group acts on dimension %d, the test set has %d", a.Dim(), d))
	}
	x := mat.NewDense(2*n, d, nil)
	y := make([]int, 2*n)
	ks := make([]int, n)
	for i := range n {
		src := test.X.RawRowView(i)
		copy(x.RawRowView(i), src)
		rng := rand.New(rand.NewPCG(seed^testTransformSalt, uint64(i)))
		ks[i] = rng.IntN(a.Len())
		dst := x.RawRowView(n + i)
		a.Apply(dst, src, ks[i])
		if renorm {
			if nd := floats.Norm(dst, 2); nd > 0 {
				floats.Scale(floats.Norm(src, 2)/nd, dst)
			}
		}
		y[i], y[n+i] = test.Y[i], test.Y[i]
	}
	return &data.Dataset{Name: test.Name + "+transformed", X: x, Y: y, Classes: test.Classes, Shape: append([]int(nil), test.Shape...)}, ks
}

// transformedTestSet returns the test set of a run with s.TestTransform (the plain rows,
// then their transformed copies: transformTest) and the group, or nils when s has none.
// Cyclic shifts and permutations keep norms; zero-fill shifts and interpolated rotations
// do not, so on data scaled to the unit sphere (data.normalize) their copies are put back
// on it. Errors are *InputError naming test_transform.
func transformedTestSet(s *model.Spec, test *data.Dataset) (*data.Dataset, group.Action, error) {
	what := "data " + s.Data.Name
	if s.Data.Name == "file" {
		what = "data file " + s.Data.Path
	}
	tg, err := testTransformAction(s, test.Shape, what)
	if err != nil || tg == nil {
		return nil, nil, err
	}
	renorm := (s.Data.Normalize == nil || *s.Data.Normalize) && !model.NormPreservingKind(s.TestTransform.Kind)
	tt, _ := transformTest(test, tg, s.Seed, renorm)
	return tt, tg, nil
}

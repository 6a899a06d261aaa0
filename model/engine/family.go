package engine

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/model"
)

// familyEngine is what the engine does for one family of methods (model.Family): build
// its methods into engine methods, and estimate the memory one of them takes. The
// registry (model.Families) says which family a method belongs to; this table says how
// each is run, so that neither building nor the estimate switches over the families.
type familyEngine struct {
	// build returns the engine method of m (defaults filled in, name derived, automatic
	// gamma resolved) acting with the group g (nil: none).
	build func(b *builder, m model.Method, g group.Action) (eval.Method, error)
	// estimate returns the bytes m holds for its stage (appended to held, which holds
	// its own group's already), its preparation transient, and one of its cells. name is
	// the series name the estimate prints.
	estimate func(e *estimator, m model.Method, st stage, name string, held []EstimateItem) (held2, trans []EstimateItem, cell EstimateItem)
	// gram returns the heatmap's training Gram matrix of m's kernel on the rows of sub
	// (sampled from pool, whose samples have the given shape; g the group, nil for
	// none; seed the spec's), or nil when it is the linear kernel on the inputs, which
	// the heatmap sends already. nil: the family has no heatmap Gram.
	gram func(ctx context.Context, m model.Method, shape []int, g group.Action, pool, sub *data.Dataset, seed uint64) (*mat.SymDense, error)
}

// familyEngines maps every family of model.Families to its engine.
var familyEngines = map[*model.Family]familyEngine{
	model.FamilyFeatures: {build: buildFeatures, estimate: estimateFeatures, gram: featureGram},
	model.FamilyChapelle: {build: buildChapelle, estimate: estimateKernel, gram: baseGram},
	model.FamilyLiu:      {build: buildLiu, estimate: estimateLiu, gram: liuGram},
	model.FamilyKernel:   {build: buildKernel, estimate: estimateKernel, gram: kernelGram},
}

// familyEngineOf returns the engine of family f; a method of no family (refused by
// Validate, but the TUI estimates specs being edited) is estimated as a kernel method,
// and building it is refused before this is asked.
func familyEngineOf(f *model.Family) familyEngine {
	if fe, ok := familyEngines[f]; ok {
		return fe
	}
	return familyEngine{estimate: estimateKernel}
}

// buildChapelle is the builder of Chapelle and Schoelkopf's learners (the invariant SVM
// and virtual support vectors).
func buildChapelle(b *builder, m model.Method, g group.Action) (eval.Method, error) {
	c, err := newChapelleMethod(m, b.pool.Shape)
	if err != nil {
		return nil, err
	}
	c.smoProgress, c.logf = b.smoProgress, b.logf
	return c, nil
}

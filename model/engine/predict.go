package engine

import (
	"context"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/eval"
	"gitui/core/learn"
)

// predictor is a trained learner of core/learn: Predict gives the class of each test
// input row, Decision the n×k class scores whose row-wise maximum it follows.
type predictor interface {
	Predict(ctx context.Context, x *mat.Dense) ([]int, error)
	Decision(ctx context.Context, x *mat.Dense) (*mat.Dense, error)
}

// argmaxPredictor is a predictor whose Predict is exactly learn.Argmax of its Decision
// (row-wise argmax, ties to the lower class), so one Decision gives both.
type argmaxPredictor interface {
	predictor
	predictsArgmax() bool
}

// fitPredict trains with fit and predicts its test input. With scores it also returns
// the decision value of each prediction, S[i, pred_i] of the learner's Decision: RLS
// its output for the predicted class, the SVMs its one-vs-one votes plus a tie-break
// below 1 (core/learn SVC.Decision), 1-NN minus the squared distance to the nearest
// training sample of the predicted class. Scores are nil where Decision is not
// available (an SVM whose labels are not 0..k-1); the predictions never depend on scores.
// An argmaxPredictor is scored once (its predictions are the argmax of that Decision)
// rather than once for Predict and again for Decision.
func fitPredict(ctx context.Context, fit func(context.Context, []int, *rand.Rand, *eval.Clock) (predictor, *mat.Dense, error),
	idx []int, rng *rand.Rand, clk *eval.Clock, scores bool) ([]int, []float64, error) {
	p, x, err := fit(ctx, idx, rng, clk)
	if err != nil {
		return nil, nil, err
	}
	t0 := time.Now()
	defer clk.Since("predict", t0)
	if am, ok := p.(argmaxPredictor); ok && scores && am.predictsArgmax() {
		// One scoring pass instead of two: Predict would recompute Decision.
		d, err := p.Decision(ctx, x)
		if err != nil {
			return nil, nil, err
		}
		pred := learn.Argmax(d)
		s := make([]float64, len(pred))
		for i, c := range pred {
			s[i] = d.At(i, c)
		}
		return pred, s, nil
	}
	pred, err := p.Predict(ctx, x)
	if err != nil || !scores {
		return pred, nil, err
	}
	d, err := p.Decision(ctx, x)
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return pred, nil, nil
	}
	s := make([]float64, len(pred))
	for i, c := range pred {
		s[i] = d.At(i, c)
	}
	return pred, s, nil
}

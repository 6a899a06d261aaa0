package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/eval"
	"gitui/core/learn"
)

// countingRows is a rowsModel with fixed scores that counts its scoring passes.
type countingRows struct {
	s      *mat.Dense
	passes int
}

func (c *countingRows) DecisionRows(context.Context, learn.Rows) (*mat.Dense, error) {
	c.passes++
	return mat.DenseCopyOf(c.s), nil
}

func (c *countingRows) PredictRows(ctx context.Context, x learn.Rows) ([]int, error) {
	s, err := c.DecisionRows(ctx, x)
	if err != nil {
		return nil, err
	}
	return learn.Argmax(s), nil
}

// TestFitPredictScoresRowsOnce checks that fitPredict with scores scores an RLS rows
// model once (the test kernel of RBF RLS is its dominant cost) and returns the same
// predictions as without scores, with S[i, pred_i] as the scores (a tie goes to the
// lower class).
func TestFitPredictScoresRowsOnce(t *testing.T) {
	s := mat.NewDense(4, 3, []float64{
		0.1, 0.9, -1,
		2, -2, 0.5,
		-1, -1, -0.5,
		0.3, 0.3, 0.2, // tie: class 0
	})
	for _, scores := range []bool{false, true} {
		m := &countingRows{s: s}
		fit := func(context.Context, []int, *rand.Rand, *eval.Clock) (predictor, *mat.Dense, error) {
			return rowsPredictor{m: m}, nil, nil
		}
		pred, sc, err := fitPredict(context.Background(), fit, nil, nil, eval.NewClock(), scores)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{1, 0, 2, 0}; !slices.Equal(pred, want) {
			t.Fatalf("scores=%v: predictions %v, want %v", scores, pred, want)
		}
		if m.passes != 1 {
			t.Errorf("scores=%v: %d scoring passes, want 1", scores, m.passes)
		}
		if scores && !slices.Equal(sc, []float64{0.9, 2, -0.5, 0.3}) {
			t.Errorf("scores %v, want [0.9 2 -0.5 0.3]", sc)
		}
	}
}

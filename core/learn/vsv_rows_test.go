package learn

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
	"gitui/core/kernel"
)

// TestVSVRowsAgainstGram: TrainVSVRows on the rows of a larger X picked by rows equals
// TrainVSV on those rows' Gram matrices: the same support vectors of the first SVM, the
// same retraining set (rows, labels, sources, elements), the same support vectors
// after retraining and the same predictions on held-out digits; decision values agree
// within 1e-4 (float64 products: the kernel values equal to rounding, so the solver's
// steps agree; 1e-4 is far inside its eps of 1e-3). The phases report in order, and
// Retraining sees the retraining set's size.
func TestVSVRowsAgainstGram(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	Xall, yall := smallDigits(90, rng)
	T, _ := smallDigits(40, rng)
	rows := make([]int, 0, 60)
	for i := 89; i >= 0; i-- { // two rows in three, descending: not the identity
		if i%3 != 0 {
			rows = append(rows, i)
		}
	}
	X := mat.NewDense(len(rows), 64, nil)
	y := make([]int, len(rows))
	for a, i := range rows {
		X.SetRow(a, Xall.RawRowView(i))
		y[a] = yall[i]
	}
	shifts := group.Select(group.LocalShifts(8, 8, 1), []int{2, 4, 5, 7})
	for _, k := range []kernel.Base{kernel.RBF{Gamma: 0.1}, kernel.Poly{Gamma: 0.05, Degree: 3}} {
		want, err := TrainVSV(ctx, X, y, k, 10, shifts, nil)
		if err != nil {
			t.Fatal(err)
		}
		var phases []VSVPhase
		retrain := -1
		got, err := TrainVSVRows(ctx, k, Xall, rows, y, 10, shifts, &VSVRowsOptions{
			Progress: func(p VSVPhase, _ SVCProgress) {
				if len(phases) == 0 || phases[len(phases)-1] != p {
					phases = append(phases, p)
				}
			},
			Retraining: func(_ *SVC, _ *FeatureKernel, n, _ int) error { retrain = n; return nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		name := k.Name()
		if !slices.Equal(got.First.SV, want.First.SV) {
			t.Fatalf("%s: first SVM: %d SVs, the Gram path %d", name, len(got.First.SV), len(want.First.SV))
		}
		if got.Virtual != want.Virtual || !mat.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) ||
			!slices.Equal(got.Source, want.Source) || !slices.Equal(got.Element, want.Element) {
			t.Fatalf("%s: retraining sets differ (%d vs %d virtual)", name, got.Virtual, want.Virtual)
		}
		if !slices.Equal(got.SVC.SV, want.SVC.SV) {
			t.Fatalf("%s: retrained SVM: %d SVs, the Gram path %d", name, len(got.SVC.SV), len(want.SVC.SV))
		}
		if !slices.Equal(phases, []VSVPhase{VSVFirst, VSVRetrain}) || retrain != len(got.Y) {
			t.Errorf("%s: phases %v, retraining size %d (want %d)", name, phases, retrain, len(got.Y))
		}
		pg, err := got.Predict(ctx, T)
		if err != nil {
			t.Fatal(err)
		}
		pw, err := want.Predict(ctx, T)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pg, pw) {
			t.Errorf("%s: predictions differ", name)
		}
		dg, err := got.DecisionValues(ctx, T)
		if err != nil {
			t.Fatal(err)
		}
		dw, err := want.DecisionValues(ctx, T)
		if err != nil {
			t.Fatal(err)
		}
		r, c := dw.Dims()
		worst := 0.0
		for i := range r {
			for j := range c {
				worst = math.Max(worst, math.Abs(dg.At(i, j)-dw.At(i, j)))
			}
		}
		if worst > 1e-4 {
			t.Errorf("%s: decision values differ by %.3g", name, worst)
		}
	}
}

// TestVSVRowsNoCopiesAndCancel: without transformations the model is the first SVM (no
// retraining set); a cancelled context returns its error.
func TestVSVRowsNoCopiesAndCancel(t *testing.T) {
	X, y := smallDigits(30, rand.New(rand.NewPCG(1, 2)))
	m, err := TrainVSVRows(context.Background(), kernel.RBF{Gamma: 0.1}, X, seq(0, 30), y, 10, nil, &VSVRowsOptions{Float32: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.SVC != m.First || m.X != nil || m.Virtual != 0 || len(m.Source) != 30 {
		t.Errorf("no transforms: retrained (%d virtual, %d sources)", m.Virtual, len(m.Source))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainVSVRows(ctx, kernel.RBF{Gamma: 0.1}, X, seq(0, 30), y, 10, nil, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := TrainVSVRows(context.Background(), kernel.RBF{Gamma: 0.1}, X, []int{0, 31}, y[:2], 10, nil, nil); err == nil {
		t.Error("a row outside X was accepted")
	}
}

package engine

import (
	"context"
	"math"
	"reflect"
	"sort"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// matrixSpec is a small X_perm curve with one method per kernel kind the heatmap
// shows: raw (the linear kernel again), bag-of-words, CDF pooling, the Haar kernel, and
// a second CDF RLS with another lambda (the same kernel: one matrix).
func matrixSpec() *model.Spec {
	return &model.Spec{
		Name: "t", Protocol: model.ProtocolCurve, Seed: 3, Repeats: 2,
		Data:  model.DataSpec{Name: "xperm", TestSize: 200},
		Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "raw"}, {Features: "bow"}, {Features: "cdf", Bins: 3, Templates: 3},
			{Name: "CDF other λ", Features: "cdf", Bins: 3, Templates: 3, Lambda: 0.1},
			{Kernel: "haar", Base: "rbf", Gamma: 2.5}},
		Sizes: []int{20, 40},
	}
}

// collectRun runs s and returns its Matrix events, its outcome, and the index of the
// Done event among all events.
func collectRun(t *testing.T, s *model.Spec, opts RunOptions) (mats []eval.Matrix, out *eval.Outcome, doneAt, total int) {
	t.Helper()
	for e := range Start(context.Background(), s, opts) {
		total++
		switch e := e.(type) {
		case eval.Matrix:
			mats = append(mats, e)
		case eval.Done:
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			out, doneAt = e.Outcome, total
		}
	}
	return mats, out, doneAt, total
}

// TestRunSendsMatrices checks the heatmap's matrices of a run: the linear kernel on the
// inputs, then one matrix per distinct method kernel (raw and the second CDF method add
// none), all before Done; each GramSamples×GramSamples, labels sorted by class,
// symmetric, its MinEig the smallest eigenvalue, the feature and Haar Grams PSD (within
// rounding); the linear one equal to the inner products of the sample's rows computed
// here with plain loops; and the run's points the same with and without them.
func TestRunSendsMatrices(t *testing.T) {
	s := matrixSpec()
	mats, out, doneAt, total := collectRun(t, s, RunOptions{})
	if doneAt != total {
		t.Errorf("Done is event %d of %d, want the last", doneAt, total)
	}
	var names []string
	for _, m := range mats {
		names = append(names, m.Name)
	}
	want := []string{"linear (input)", "bag-of-words RLS", "CDF(3,3) RLS", "Haar RLS"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("matrices %q, want %q", names, want)
	}
	pool, _, err := LoadData(s.Data, "", s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := GramSample(pool, s.Seed, GramSamples)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mats {
		n := m.N
		if n != GramSamples || len(m.Data) != n*n || len(m.Labels) != n {
			t.Fatalf("%s: n=%d with %d entries and %d labels, want %d", m.Name, n, len(m.Data), len(m.Labels), GramSamples)
		}
		if !sort.IntsAreSorted(m.Labels) || !reflect.DeepEqual(m.Labels, sub.Y) {
			t.Errorf("%s: labels are not the class-sorted sample's", m.Name)
		}
		maxDiag := 0.0
		for i := 0; i < n; i++ {
			maxDiag = math.Max(maxDiag, math.Abs(m.Data[i*n+i]))
			for j := 0; j < i; j++ {
				if m.Data[i*n+j] != m.Data[j*n+i] {
					t.Fatalf("%s: not symmetric at (%d,%d)", m.Name, i, j)
				}
			}
		}
		// Gram matrices of feature maps and of the Haar kernel with a PD base are PSD:
		// allow rounding of 1e-9 of the largest diagonal entry.
		if !(m.MinEig >= -1e-9*maxDiag) {
			t.Errorf("%s: λmin = %g, want >= -1e-9 · %g", m.Name, m.MinEig, maxDiag)
		}
	}
	lin := mats[0]
	_, d := sub.X.Dims()
	for i := 0; i < lin.N; i += 17 {
		for j := 0; j < lin.N; j += 13 {
			dot := 0.0
			for k := 0; k < d; k++ {
				dot += sub.X.At(i, k) * sub.X.At(j, k)
			}
			if math.Abs(lin.Data[i*lin.N+j]-dot) > 1e-12 { // sums of 40 products of unit-norm rows
				t.Fatalf("linear (%d,%d) = %g, plain loop %g", i, j, lin.Data[i*lin.N+j], dot)
			}
		}
	}
	none, out2, _, _ := collectRun(t, s, RunOptions{NoMatrices: true})
	if len(none) != 0 {
		t.Errorf("NoMatrices: %d matrices sent", len(none))
	}
	if !reflect.DeepEqual(out.Series, out2.Series) {
		t.Error("the run's points differ with and without the heatmap's matrices")
	}
}

// TestMatricesCancel checks that a run cancelled at once still closes its channel
// after Done (the matrices' goroutine stops with it).
func TestMatricesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	for e := range Start(ctx, matrixSpec(), RunOptions{}) {
		if _, ok := e.(eval.Done); ok {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d Done events, want 1", n)
	}
}

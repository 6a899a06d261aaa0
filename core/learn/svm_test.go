package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kktProblems are small random problems of the three kinds the engine meets: RBF
// (positive definite), polynomial with several classes and weights, sigmoid (indefinite).
func kktProblems() []struct {
	pr   svmProblem
	opts SVCOptions
} {
	rng := rand.New(rand.NewPCG(7, 7))
	var out []struct {
		pr   svmProblem
		opts SVCOptions
	}
	add := func(pr svmProblem, o SVCOptions) {
		out = append(out, struct {
			pr   svmProblem
			opts SVCOptions
		}{pr, o})
	}
	for _, c := range []float64{0.1, 1, 100} {
		pr := circleProblem(200, 50, 3, c, uint64(c*10))
		pr.name = fmt.Sprintf("circle C=%g", c)
		add(pr, SVCOptions{})
		pr.name += " no-shrinking"
		add(pr, SVCOptions{NoShrinking: true})
	}
	x, y := blobs(180, 6, 4, 1.5, 10, rng)
	k := poly8(10)
	add(svmProblem{name: "blobs poly8 weighted", k: gramOf(x, k), y: y, c: 0.5}, SVCOptions{Weights: map[int]float64{10: 3, 12: 0.5}})
	x, y = blobs(150, 5, 3, 1, 0, rng)
	sig := func(a, b []float64) float64 { return math.Tanh(0.5*dot(a, b) - 2) }
	add(svmProblem{name: "sigmoid (indefinite)", k: gramOf(x, sig), y: y, c: 1}, SVCOptions{})
	return out
}

// TestSVMKKT checks the optimality conditions of every binary subproblem at the solution,
// with the gradient recomputed in float64 from the Gram matrix:
//
//	0 <= a_i <= C_i,  sum_i y_i a_i = 0,  m(a) - M(a) <= eps,  |y_i G_i - rho| <= eps for free i,
//
// where m(a) = max_{I_up} -y_i G_i and M(a) = min_{I_low} -y_i G_i (Fan, Chen & Lin 2005,
// eq. 9). The solver's gradient uses float32 kernel rows (as LIBSVM's); the tolerance adds
// their rounding, 2^-24 * max|K| * sum_j a_j per entry, twice.
func TestSVMKKT(t *testing.T) {
	for _, tc := range kktProblems() {
		t.Run(tc.pr.name, func(t *testing.T) {
			m, err := TrainSVC(context.Background(), tc.pr.k, tc.pr.y, tc.pr.c, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var kmax float64
			n := len(tc.pr.y)
			for i := range n {
				for j := range n {
					kmax = max(kmax, math.Abs(tc.pr.k.At(i, j)))
				}
			}
			for p, pi := range m.Pairs {
				cPos, cNeg := tc.pr.c, tc.pr.c
				if w, ok := tc.opts.Weights[m.Labels[pi.I]]; ok {
					cPos *= w
				}
				if w, ok := tc.opts.Weights[m.Labels[pi.J]]; ok {
					cNeg *= w
				}
				var sumA float64
				for _, c := range pi.Coef {
					sumA += math.Abs(c)
				}
				tol := 1e-3 + 2*0x1p-24*kmax*sumA
				gap, rhoDev, eq, boxErr := kktViolation(m, p, tc.pr.k, tc.pr.y, cPos, cNeg)
				if boxErr {
					t.Errorf("pair %d: a coefficient is outside its box [0, C]", p)
				}
				if math.Abs(eq) > 1e-12*float64(n)*max(cPos, cNeg) {
					t.Errorf("pair %d: sum y_i a_i = %g, want 0", p, eq)
				}
				if gap > tol {
					t.Errorf("pair %d: KKT violation m - M = %g > %g", p, gap, tol)
				}
				if rhoDev > tol {
					t.Errorf("pair %d: a free variable has |y G - rho| = %g > %g", p, rhoDev, tol)
				}
				if pi.MaxIterReached {
					t.Errorf("pair %d: iteration cap reached", p)
				}
			}
		})
	}
}

// TestSVMShrinkingAgrees checks that shrinking changes the path, not the answer: both runs
// stop eps-optimal, so their dual objectives agree to well within eps relative (1e-3) and
// their test predictions agree but for points on the margin (at most 1%).
func TestSVMShrinkingAgrees(t *testing.T) {
	pr := circleProblem(400, 400, 5, 100, 11)
	on, err := TrainSVC(context.Background(), pr.k, pr.y, pr.c, nil)
	if err != nil {
		t.Fatal(err)
	}
	off, err := TrainSVC(context.Background(), pr.k, pr.y, pr.c, &SVCOptions{NoShrinking: true})
	if err != nil {
		t.Fatal(err)
	}
	o1, o2 := on.Pairs[0].Obj, off.Pairs[0].Obj
	if math.Abs(o1-o2) > 1e-3*math.Abs(o2) {
		t.Errorf("objective %g with shrinking, %g without", o1, o2)
	}
	p1, _ := on.Predict(context.Background(), pr.kt)
	p2, _ := off.Predict(context.Background(), pr.kt)
	diff := 0
	for i := range p1 {
		if p1[i] != p2[i] {
			diff++
		}
	}
	if diff > len(p1)/100 {
		t.Errorf("%d of %d predictions differ with and without shrinking", diff, len(p1))
	}
	t.Logf("obj %.9g vs %.9g, iterations %d vs %d, %d predictions differ", o1, o2, on.Pairs[0].Iter, off.Pairs[0].Iter, diff)
}

// TestSVMResultIndependentOfCacheAndSource checks that neither the cache budget (a tiny
// one forces evictions and row swaps) nor the Gram source (a function instead of a
// *mat.SymDense) nor the number of workers changes a single bit of the model.
func TestSVMResultIndependentOfCacheAndSource(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	x, y := blobs(300, 4, 3, 1.2, 0, rng)
	kf := rbf(0.3)
	k := gramOf(x, kf)
	ref, err := TrainSVC(context.Background(), k, y, 50, &SVCOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	fn := GramFunc{N: len(x), K: func(i, j int) float64 { calls.Add(1); return kf(x[i], x[j]) }}
	for _, tc := range []struct {
		name string
		k    mat.Symmetric
		opts SVCOptions
	}{
		{"tiny cache", k, SVCOptions{CacheMB: 1e-6}},
		{"GramFunc", fn, SVCOptions{}},
		{"GramFunc tiny cache, 3 workers", fn, SVCOptions{CacheMB: 1e-6, Workers: 3}},
	} {
		m, err := TrainSVC(context.Background(), tc.k, y, 50, &tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(m.Coef, ref.Coef) || fmt.Sprint(m.Rho) != fmt.Sprint(ref.Rho) || fmt.Sprint(m.SV) != fmt.Sprint(ref.SV) {
			t.Errorf("%s: model differs from the reference", tc.name)
		}
		for p := range m.Pairs {
			if m.Pairs[p].Iter != ref.Pairs[p].Iter {
				t.Errorf("%s: pair %d took %d iterations, reference %d", tc.name, p, m.Pairs[p].Iter, ref.Pairs[p].Iter)
			}
		}
	}
	if calls.Load() == 0 {
		t.Error("GramFunc was never called")
	}
}

func TestSVMGroupClasses(t *testing.T) {
	for _, tc := range []struct {
		y                   []int
		labels, start, perm []int
	}{
		// First appearance, not sorted order (svm_group_classes).
		{[]int{3, 1, 3, 2, 1}, []int{3, 1, 2}, []int{0, 2, 4}, []int{0, 2, 1, 4, 3}},
		// -1 before +1 in a two-class problem: swapped so that +1 is positive.
		{[]int{-1, 1, -1}, []int{1, -1}, []int{0, 1}, []int{1, 0, 2}},
		// +1 first: kept.
		{[]int{1, -1, -1}, []int{1, -1}, []int{0, 1}, []int{0, 1, 2}},
		// -1 then 2: no swap (only for the labels -1, +1).
		{[]int{-1, 2}, []int{-1, 2}, []int{0, 1}, []int{0, 1}},
	} {
		labels, start, _, perm := groupClasses(tc.y)
		if fmt.Sprint(labels, start, perm) != fmt.Sprint(tc.labels, tc.start, tc.perm) {
			t.Errorf("groupClasses(%v) = %v %v %v, want %v %v %v", tc.y, labels, start, perm, tc.labels, tc.start, tc.perm)
		}
	}
}

func TestSVMErrors(t *testing.T) {
	pr := circleProblem(20, 1, 1, 1, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		k    mat.Symmetric
		y    []int
		c    float64
		opts *SVCOptions
		want string
	}{
		{"C zero", pr.k, pr.y, 0, nil, "C = 0"},
		{"C negative", pr.k, pr.y, -1, nil, "C = -1"},
		{"C NaN", pr.k, pr.y, math.NaN(), nil, "C = NaN"},
		{"C Inf", pr.k, pr.y, math.Inf(1), nil, "C = +Inf"},
		{"one class", pr.k, make([]int, 20), 1, nil, "1 class"},
		{"negative eps", pr.k, pr.y, 1, &SVCOptions{Eps: -1}, "Eps"},
		{"negative cache", pr.k, pr.y, 1, &SVCOptions{CacheMB: -1}, "CacheMB"},
		{"negative maxiter", pr.k, pr.y, 1, &SVCOptions{MaxIter: -1}, "MaxIter"},
		{"negative workers", pr.k, pr.y, 1, &SVCOptions{Workers: -1}, "Workers"},
		{"unknown weight", pr.k, pr.y, 1, &SVCOptions{Weights: map[int]float64{7: 2}}, "class 7"},
		{"zero weight", pr.k, pr.y, 1, &SVCOptions{Weights: map[int]float64{1: 0}}, "weight 0"},
		{"NaN diagonal", GramFunc{N: 20, K: func(i, j int) float64 { return math.NaN() }}, pr.y, 1, nil, "not finite"},
	} {
		_, err := TrainSVC(ctx, tc.k, tc.y, tc.c, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), ":") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v, want a one-line error mentioning %q", tc.name, err, tc.want)
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "learn: ") {
				t.Errorf("shape mismatch: recovered %v, want a learn: panic", r)
			}
		}()
		TrainSVC(ctx, pr.k, pr.y[:19], 1, nil)
	}()
}

func TestSVMCancel(t *testing.T) {
	// Two overlapping 2-D blobs, RBF exp(-10||x-z||^2), C = 1000: hard, about 39,000
	// SMO iterations.
	rng := rand.New(rand.NewPCG(3, 3))
	x, y := blobs(400, 2, 2, 0.3, 0, rng)
	pr := svmProblem{k: gramOf(x, rbf(10)), y: y, c: 1000}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := TrainSVC(ctx, pr.k, pr.y, pr.c, nil); err != context.Canceled {
		t.Errorf("cancelled before: err = %v, want context.Canceled undecorated", err)
	}
	// Cancel from inside the solver, after the first few kernel rows: the solver must
	// notice at its next check (every 1000 iterations) and stop early.
	ref, err := TrainSVC(context.Background(), pr.k, pr.y, pr.c, &SVCOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ref.Pairs[0].Iter < 10000 {
		t.Fatalf("problem too easy for the test: %d iterations", ref.Pairs[0].Iter)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	var calls atomic.Int64
	n := len(pr.y)
	fn := GramFunc{N: n, K: func(i, j int) float64 {
		if calls.Add(1) == int64(20*n) {
			cancel()
		}
		return pr.k.At(i, j)
	}}
	_, err = TrainSVC(ctx, fn, pr.y, pr.c, nil)
	if !errors.Is(err, context.Canceled) || err != ctx.Err() {
		t.Errorf("cancelled during: err = %v, want ctx.Err()", err)
	}
}

func TestSVMIterationCap(t *testing.T) {
	pr := circleProblem(200, 1, 20, 1e4, 3)
	m, err := TrainSVC(context.Background(), pr.k, pr.y, pr.c, &SVCOptions{MaxIter: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Pairs[0].MaxIterReached || m.Pairs[0].Iter != 10 || len(m.Warnings) == 0 || !strings.Contains(m.Warnings[0], "iteration cap") {
		t.Errorf("MaxIter 10: pair %+v, warnings %q", m.Pairs[0].Iter, m.Warnings)
	}
}

// TestSVMPredictionPaths checks that every way of predicting agrees: Predict, Vote on
// DecisionValues, the argmax of Decision, the SV-only kernel and a non-raw matrix, and
// that the decision values equal the plain sum over support vectors.
func TestSVMPredictionPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	centres := make([][]float64, 4)
	for c := range centres {
		centres[c] = []float64{3 * rng.NormFloat64(), 3 * rng.NormFloat64(), 3 * rng.NormFloat64()}
	}
	x, y := blobsAt(200, centres, 0, rng)
	xt, yt := blobsAt(300, centres, 0, rng)
	// Relabel so that the classes do not appear in sorted order.
	perm := []int{2, 0, 3, 1}
	for i := range y {
		y[i] = perm[y[i]]
	}
	kf := rbf(0.5)
	k, kt := gramOf(x, kf), crossOf(xt, x, kf)
	m, err := TrainSVC(context.Background(), k, y, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dec, err := m.DecisionValues(ctx, kt)
	if err != nil {
		t.Fatal(err)
	}
	r, np := dec.Dims()
	if np != 6 || r != len(xt) {
		t.Fatalf("decision values %d×%d, want %d×6", r, np, len(xt))
	}
	for i := range r {
		for p, pi := range m.Pairs {
			want := -pi.Rho
			for s, sv := range pi.SV {
				want += pi.Coef[s] * kt.At(i, sv)
			}
			if d := math.Abs(dec.At(i, p) - want); d > 1e-12*max(1, math.Abs(want)) {
				t.Fatalf("dec[%d,%d] = %g, plain sum %g", i, p, dec.At(i, p), want)
			}
		}
	}
	pred, _ := m.Predict(ctx, kt)
	ksv := mat.NewDense(r, len(m.SV), nil)
	for i := range r {
		for s, sv := range m.SV {
			ksv.Set(i, s, kt.At(i, sv))
		}
	}
	var decSV, decT mat.Dense
	if err := m.DecisionValuesSVTo(ctx, &decSV, ksv); err != nil {
		t.Fatal(err)
	}
	if err := m.DecisionValuesTo(ctx, &decT, kt.T().T()); err != nil { // not a RawMatrixer
		t.Fatal(err)
	}
	scores, err := m.Decision(ctx, kt)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]int{
		"Vote(SV-only)": m.Vote(&decSV), "Vote(non-raw)": m.Vote(&decT), "Argmax(Decision)": Argmax(scores),
	} {
		if fmt.Sprint(got) != fmt.Sprint(pred) {
			t.Errorf("%s disagrees with Predict", name)
		}
	}
	for i := range yt {
		yt[i] = perm[yt[i]]
	}
	// Blob centres ~3 standard deviations apart in 3-D: nearly separable (Bayes error
	// a few percent), so anything below 90% means a broken classifier.
	if acc := Accuracy(pred, yt); acc < 0.9 {
		t.Errorf("test accuracy %.3f on well-separated blobs", acc)
	}
	if m.Classes() != 4 {
		t.Errorf("Classes() = %d", m.Classes())
	}
	// Labels not 0..k-1 cannot index class scores.
	y2 := append([]int(nil), y...)
	for i := range y2 {
		y2[i] += 5
	}
	m2, _ := TrainSVC(ctx, k, y2, 5, nil)
	if _, err := m2.Decision(ctx, kt); err == nil {
		t.Error("Decision with labels 5..8: no error")
	}
}

// TestSVMVoteTies checks svm-predict's tie rule: with one vote each, the class that
// appeared first in training wins (not the smallest label, as scikit-learn would pick).
func TestSVMVoteTies(t *testing.T) {
	m := &SVC{Labels: []int{2, 0, 1}, Pairs: []SVCPair{{I: 0, J: 1}, {I: 0, J: 2}, {I: 1, J: 2}}}
	// Pair (2,0) votes 2, pair (2,1) votes 1, pair (0,1) votes 0: a three-way tie.
	dec := mat.NewDense(2, 3, []float64{
		1, -1, 1,
		-1, -1, 1, // 0: 2 votes (pairs 0 and 2), 1: 1 vote
	})
	if got := m.Vote(dec); got[0] != 2 || got[1] != 0 {
		t.Errorf("Vote = %v, want [2 0]", got)
	}
	// A decision value of exactly 0 votes for the second class of the pair.
	if got := m.Vote(mat.NewDense(1, 3, []float64{0, 0, 0})); got[0] != 1 {
		t.Errorf("all-zero decision values voted %v, want class 1 (two votes)", got)
	}
}

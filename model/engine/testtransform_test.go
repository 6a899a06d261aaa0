package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/model"
)

// TestValidateTestTransform: every misuse of test_transform is refused by Validate with a
// message naming the field and the fix; the uses that can run pass.
func TestValidateTestTransform(t *testing.T) {
	base := func(data string, tt *model.GroupSpec) *model.Spec {
		s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Seed: 1, Data: model.DataSpec{Name: data}, Sizes: []int{20},
			Methods: []model.Method{{Features: "raw"}}, TestTransform: tt}
		if data == "file" {
			s.Data.Path = "x.csv"
		}
		return s
	}
	angles := &model.AngleSpec{From: -20, To: 20, Count: 5}
	good := []*model.Spec{
		base("embedded", nil),
		base("embedded", &model.GroupSpec{Kind: "cyclic-shift"}),
		base("mnist", &model.GroupSpec{Kind: "local-shift", Radius: 3}),
		base("digits16", &model.GroupSpec{Kind: "rotation", Angles: angles}),
		base("mnist-translated", &model.GroupSpec{Kind: "rotation+shift", Radius: 2, Angles: angles, Size: 10}),
		base("xperm", &model.GroupSpec{Kind: "permutation"}),
		base("xperm", &model.GroupSpec{Kind: "none"}),
		base("file", &model.GroupSpec{Kind: "rotation", Angles: angles}), // the shape is checked at load time
	}
	for i, s := range good {
		if err := resolve(s); err != nil {
			t.Errorf("good spec %d (%s, %+v): %v", i, s.Data.Name, s.TestTransform, err)
		}
	}
	pd := base("embedded", &model.GroupSpec{Kind: "cyclic-shift"})
	pd.Protocol, pd.PD = model.ProtocolPD, &model.PDSpec{Sizes: []int{10}, Draws: 1}
	bad := []struct {
		spec *model.Spec
		want []string
	}{
		{pd, []string{"test_transform applies to protocols that score a test set", "not pd", "drop test_transform"}},
		{base("embedded", &model.GroupSpec{}), []string{"test_transform.kind is empty", "cyclic-shift"}},
		{base("embedded", &model.GroupSpec{Kind: "shear"}), []string{`test_transform.kind "shear" is unknown`}},
		{base("embedded", &model.GroupSpec{Kind: "cyclic-shift", Radius: 2}), []string{"test_transform.radius applies to kinds local-shift and rotation+shift, not cyclic-shift"}},
		{base("embedded", &model.GroupSpec{Kind: "local-shift"}), []string{"test_transform.radius is 0", ">= 1"}},
		{base("embedded", &model.GroupSpec{Kind: "local-shift", Radius: 99}), []string{"test_transform.radius 99 is out of range"}},
		{base("embedded", &model.GroupSpec{Kind: "rotation"}), []string{"test_transform.angles", "count"}},
		{base("embedded", &model.GroupSpec{Kind: "cyclic-shift", Angles: angles}), []string{"test_transform.angles applies to kinds rotation and rotation+shift"}},
		{base("embedded", &model.GroupSpec{Kind: "cyclic-shift", Size: -1}), []string{"test_transform.size -1 is negative"}},
		{base("embedded", &model.GroupSpec{Kind: "none", Size: 3}), []string{"test_transform.size applies to a group, not kind none"}},
		{base("xperm", &model.GroupSpec{Kind: "cyclic-shift"}), []string{"test_transform cyclic-shift acts on images", "data xperm holds sequences", "kind permutation"}},
		{base("circle", &model.GroupSpec{Kind: "permutation"}), []string{"test_transform permutation permutes the blocks of sequences", "data circle has shape [2]"}},
		{base("digits16", &model.GroupSpec{Kind: "local-shift", Radius: 16}), []string{"test_transform.radius 16 is not smaller than the 16x16 images"}},
		{base("mnist", &model.GroupSpec{Kind: "permutation"}), []string{"test_transform permutation of 28 blocks", "test_transform.size"}},
	}
	for _, c := range bad {
		err := resolve(c.spec)
		if err == nil {
			t.Errorf("%s with %+v: accepted, want %q", c.spec.Data.Name, c.spec.TestTransform, c.want[0])
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s with %+v: error %q lacks %q", c.spec.Data.Name, c.spec.TestTransform, err, w)
			}
		}
	}
}

// TestTransformTestRows checks transformTest against its definition: the first N rows are
// the test set, row N+i is g_(k_i) x_i with k_i in 0..|G|-1 depending on (seed, i) only,
// labels repeated; renorm restores each copy's norm; the input is not modified.
func TestTransformTestRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	n, h, w := 40, 6, 7
	x := mat.NewDense(n, h*w, nil)
	y := make([]int, n)
	for i := range n {
		for j := range h * w {
			x.Set(i, j, rng.Float64())
		}
		y[i] = i % 3
	}
	test := &data.Dataset{Name: "t", X: x, Y: y, Classes: []string{"a", "b", "c"}, Shape: []int{h, w}}
	orig := mat.DenseCopyOf(x)
	for _, a := range []group.Action{group.AllCyclicShifts(h, w), group.LocalShifts(h, w, 2)} {
		for _, renorm := range []bool{false, true} {
			got, ks := transformTest(test, a, 9, renorm)
			if err := got.Validate(); err != nil {
				t.Fatal(err)
			}
			if got.Len() != 2*n || !mat.Equal(test.X, orig) {
				t.Fatalf("%d rows (want %d), input modified: %v", got.Len(), 2*n, !mat.Equal(test.X, orig))
			}
			seen := map[int]bool{}
			for i := range n {
				if got.Y[i] != y[i] || got.Y[n+i] != y[i] || !floats.Equal(got.X.RawRowView(i), x.RawRowView(i)) {
					t.Fatalf("row %d: plain half or labels differ", i)
				}
				want := make([]float64, h*w)
				a.Apply(want, x.RawRowView(i), ks[i])
				if renorm && floats.Norm(want, 2) > 0 {
					floats.Scale(floats.Norm(x.RawRowView(i), 2)/floats.Norm(want, 2), want)
				}
				if !floats.EqualApprox(got.X.RawRowView(n+i), want, 1e-15) { // one rounding of the scale
					t.Fatalf("row %d: copy is not g_%d x_%d", n+i, ks[i], i)
				}
				seen[ks[i]] = true
			}
			if len(seen) < n/2 {
				t.Errorf("%s: only %d distinct elements over %d samples", a.Name(), len(seen), n)
			}
			// Element of sample i depends on (seed, i) only: a prefix subset gets the same.
			_, ks5 := transformTest(test.Subset([]int{0, 1, 2, 3, 4}), a, 9, renorm)
			_, ksOther := transformTest(test, a, 10, renorm)
			if !slices.Equal(ks5, ks[:5]) || slices.Equal(ksOther, ks) {
				t.Errorf("%s: elements %v for a prefix (want %v); another seed equal: %v", a.Name(), ks5, ks[:5], slices.Equal(ksOther, ks))
			}
		}
	}
}

// predictBoth builds method mi of spec through the model as a run does (data, group,
// transformed test set), prepares it on the pool and the 2N-row test set, fits it on the
// first draw of size spec.Sizes[0] and returns its predictions for the plain and the
// transformed test samples.
func predictBoth(t *testing.T, spec *model.Spec, mi int, dataDir string) (plain, transformed, truth []int) {
	t.Helper()
	spec = spec.Clone()
	if err := resolve(spec); err != nil {
		t.Fatal(err)
	}
	pool, test, err := LoadData(spec.Data, dataDir, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	g, err := BuildGroup(spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	tt, _, err := transformedTestSet(spec, test)
	if err != nil || tt == nil {
		t.Fatalf("transformed test set: %v (nil: %v)", err, tt == nil)
	}
	p := &eval.Protocol{Pool: pool, Test: tt, Repeats: 1, Sampling: drawMode(spec.Sampling), Seed: spec.Seed, TransformedTest: true}
	b := &builder{spec: spec, pool: pool, group: g, proto: p, sizes: spec.Sizes[:1]}
	em, err := b.method(spec.Methods[mi], g)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	clk := eval.NewClock()
	f, err := em.Prepare(ctx, pool, tt, clk)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := p.Draw(0, spec.Sizes[0])
	if err != nil {
		t.Fatal(err)
	}
	pred, err := f.FitPredict(ctx, idx, rand.New(rand.NewPCG(spec.Seed, 1)), clk)
	if err != nil {
		t.Fatal(err)
	}
	n := test.Len()
	if len(pred) != 2*n {
		t.Fatalf("%d predictions for %d test rows", len(pred), 2*n)
	}
	return pred[:n], pred[n:], test.Y
}

// agreement returns the fraction of equal entries and the accuracies of a and b.
func agreement(a, b, y []int) (same, accA, accB float64) {
	for i := range a {
		if a[i] == b[i] {
			same++
		}
		if a[i] == y[i] {
			accA++
		}
		if b[i] == y[i] {
			accB++
		}
	}
	n := float64(len(a))
	return same / n, accA / n, accB / n
}

// checkInvariance asserts that the methods in inv predict identically on the plain and the
// transformed test samples, and that the method plain changes at least minChange of its
// predictions (a method that is not invariant must be caught by the check).
func checkInvariance(t *testing.T, spec *model.Spec, inv []int, plain int, minChange float64, dataDir string) {
	t.Helper()
	spec.Defaults()
	label := func(mi int) string { return fmt.Sprintf("methods.%d %s", mi, spec.Methods[mi].Name) }
	for _, mi := range inv {
		a, b, y := predictBoth(t, spec, mi, dataDir)
		same, accA, accB := agreement(a, b, y)
		t.Logf("%s: accuracy %.3f plain, %.3f transformed, %.3f of predictions equal", label(mi), accA, accB, same)
		if !slices.Equal(a, b) {
			t.Errorf("%s: predictions differ on %d of %d transformed test samples, want identical (an invariant method)", label(mi), int(math.Round((1-same)*float64(len(a)))), len(a))
		}
		if accA < 0.5 {
			t.Errorf("%s: accuracy %.3f: the invariant method should also learn something", label(mi), accA)
		}
	}
	a, b, y := predictBoth(t, spec, plain, dataDir)
	same, accA, accB := agreement(a, b, y)
	t.Logf("%s: accuracy %.3f plain, %.3f transformed, %.3f of predictions equal", label(plain), accA, accB, same)
	if 1-same < minChange {
		t.Errorf("%s: only %.3f of predictions change on the transformed test set, want >= %.2f (a plain method is not invariant)", label(plain), 1-same, minChange)
	}
}

// TestInvariantPredictionsTI: Liu et al.'s TI best-fit kernel (all cyclic translations)
// predicts exactly the same class for every cyclically shifted test digit as for the
// digit itself; a plain SVM with the same base kernel does not (the embedded digits).
func TestInvariantPredictionsTI(t *testing.T) {
	spec := &model.Spec{Name: "ti", Protocol: model.ProtocolCurve, Seed: 3, Sizes: []int{60},
		Data:          model.DataSpec{Name: "embedded", Pool: 300, TestSize: 100},
		TestTransform: &model.GroupSpec{Kind: "cyclic-shift"},
		Methods: []model.Method{
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Invariance: "TI"},
			{Name: "TI-SVM cosine clip", Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Invariance: "TI", KernelNorm: "cosine", PSD: "clip"},
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm"},
		}}
	checkInvariance(t, spec, []int{0, 1}, 2, 0.5, "")
}

// TestInvariantPredictionsCDFAndHaar: on X_perm, CDF features under the full group S_5
// (Mroueh et al.) and the Haar-integration kernel over S_5 predict the same class for
// every block-permuted test sequence; raw features do not.
func TestInvariantPredictionsCDFAndHaar(t *testing.T) {
	spec := &model.Spec{Name: "cdf", Protocol: model.ProtocolCurve, Seed: 2, Sizes: []int{200},
		Data:          model.DataSpec{Name: "xperm", TestSize: 300, Pool: 1000},
		Group:         model.GroupSpec{Kind: "permutation"},
		TestTransform: &model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{
			{Features: "cdf", Bins: 5, Templates: 10},
			{Features: "cdf", Bins: 5, Templates: 10, Learner: "1nn"},
			{Kernel: "haar", Base: "linear"},
			{Kernel: "haar", Base: "rbf", Gamma: 2.5},
			{Features: "raw"},
		}}
	checkInvariance(t, spec, []int{0, 1, 2, 3}, 4, 0.05, "")
}

// TestInvariantPredictionsMNIST checks invariance on real MNIST: the TI
// best-fit SVM's predictions on cyclically shifted test digits equal those on the digits,
// and the plain SVM's differ.
func TestInvariantPredictionsMNIST(t *testing.T) {
	dir := os.Getenv("GITUI_DATA")
	if dir == "" {
		t.Skip("GITUI_DATA is not set: set it to a directory holding mnist/ to run this test on real MNIST")
	}
	if _, err := os.Stat(filepath.Join(dir, "mnist")); err != nil {
		t.Skipf("no MNIST under GITUI_DATA=%s (%v): run `gitui data fetch mnist --data %s`", dir, err, dir)
	}
	spec := &model.Spec{Name: "ti-mnist", Protocol: model.ProtocolCurve, Seed: 5, Sizes: []int{100},
		Data:          model.DataSpec{Name: "mnist", Pool: 1000, TestSize: 200},
		TestTransform: &model.GroupSpec{Kind: "cyclic-shift"},
		Methods: []model.Method{
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Invariance: "TI"},
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm"},
		}}
	checkInvariance(t, spec, []int{0}, 1, 0.5, dir)
}

// TestRunTestTransform runs a spec with test_transform through the engine: every method
// gets a series on the plain and one on the transformed test set, side by side; the TI
// SVM's two curves are equal at every point and the plain SVM's transformed curve is
// lower. On a data file the transform's shape is checked at load time.
func TestRunTestTransform(t *testing.T) {
	s := &model.Spec{Name: "tt", Protocol: model.ProtocolCurve, Seed: 4, Sizes: []int{30, 60}, Repeats: 2,
		Data:          model.DataSpec{Name: "embedded", Pool: 300, TestSize: 60},
		TestTransform: &model.GroupSpec{Kind: "cyclic-shift"},
		Methods: []model.Method{
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm", Invariance: "TI"},
			{Kernel: "poly", Gamma: 1.0 / 784, Degree: 8, C: 1000, Learner: "svm"},
		}}
	out := runToEnd(t, s)
	var names []string
	for _, sr := range out.Series {
		names = append(names, sr.Name)
	}
	want := []string{"TI-SVM", "TI-SVM" + eval.TransformedSuffix, "SVM", "SVM" + eval.TransformedSuffix}
	if !slices.Equal(names, want) {
		t.Fatalf("series %q, want %q", names, want)
	}
	for k := range out.Series[0].Points {
		ti, tiT := out.Series[0].Points[k], out.Series[1].Points[k]
		sv, svT := out.Series[2].Points[k], out.Series[3].Points[k]
		t.Logf("n=%v: TI-SVM %.3f / %.3f transformed, SVM %.3f / %.3f transformed", ti.X, ti.Mean, tiT.Mean, sv.Mean, svT.Mean)
		if ti.Mean != tiT.Mean || ti.Std != tiT.Std || tiT.Runs != 2 {
			t.Errorf("n=%v: TI-SVM %v±%v plain, %v±%v transformed (%d runs): want equal", ti.X, ti.Mean, ti.Std, tiT.Mean, tiT.Std, tiT.Runs)
		}
		if svT.Mean > sv.Mean-0.2 {
			t.Errorf("n=%v: SVM %.3f plain, %.3f on shifted digits: want a drop of at least 0.2", sv.X, sv.Mean, svT.Mean)
		}
	}

	// A data file of flat samples cannot be shifted: refused before the run, naming the field.
	dir := t.TempDir()
	f := filepath.Join(dir, "flat.csv")
	writeClusterCSV(t, f, []string{"a", "b"}, 10, rand.New(rand.NewPCG(1, 2)))
	s = &model.Spec{Name: "tt", Protocol: model.ProtocolCurve, Seed: 4, Sizes: []int{6}, Data: model.DataSpec{Name: "file", Path: f},
		TestTransform: &model.GroupSpec{Kind: "cyclic-shift"}, Methods: []model.Method{{Features: "raw"}}}
	var err error
	for e := range Start(context.Background(), s, RunOptions{}) {
		if d, ok := e.(eval.Done); ok {
			err = d.Err
		}
	}
	wantInputError(t, "cyclic shifts of a flat file", err, "test_transform cyclic-shift acts on images", "data file "+f, "shape [3]")
}

// runToEnd runs s to the end and returns its outcome, failing on an error.
func runToEnd(t *testing.T, s *model.Spec) *eval.Outcome {
	t.Helper()
	var out *eval.Outcome
	for e := range Start(context.Background(), s, RunOptions{}) {
		if d, ok := e.(eval.Done); ok {
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			out = d.Outcome
		}
	}
	return out
}

package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/core/kernel"
)

// TestVSVWithoutTransformsIsPlainSVM: with no transformation, or only the identity (whose
// copies equal their sources and are skipped), no virtual point exists and the model is
// the first SVM: decision values equal the plain SVM's to 1e-9.
func TestVSVWithoutTransformsIsPlainSVM(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(40, rand.New(rand.NewPCG(1, 2)))
	te := data.Circle(300, rand.New(rand.NewPCG(3, 4)))
	k := kernel.RBF{Gamma: 1}
	want := plainSVMDecision(t, k, tr.X, tr.Y, 10, te.X)
	for name, g := range map[string]group.Action{"nil": nil, "identity": PlaneRotations([]float64{0})} {
		m, err := TrainVSV(ctx, tr.X, tr.Y, k, 10, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Virtual != 0 || m.SVC != m.First {
			t.Errorf("%s: %d virtual points, retrained %v", name, m.Virtual, m.SVC != m.First)
		}
		got, err := m.DecisionValues(ctx, te.X)
		if err != nil {
			t.Fatal(err)
		}
		if e := maxDiff(got, want); e > 1e-9 {
			t.Errorf("%s: differs from the plain SVM by %.3g", name, e)
		}
	}
}

// TestVSVRetrainingSet: the retraining set is the support vectors (in training order)
// followed by g·x_s for every SV and every non-identity element, with the SV's label;
// with KeepAll the whole training set comes first.
func TestVSVRetrainingSet(t *testing.T) {
	ctx := context.Background()
	X, y := smallDigits(30, rand.New(rand.NewPCG(5, 6)))
	shifts := group.Select(group.LocalShifts(8, 8, 1), []int{0, 2, 4, 5, 7}) // identity + 4 one-pixel shifts
	k := kernel.RBF{Gamma: 0.1}
	for _, keepAll := range []bool{false, true} {
		m, err := TrainVSV(ctx, X, y, k, 10, shifts, &VSVOptions{KeepAll: keepAll})
		if err != nil {
			t.Fatal(err)
		}
		sv := slices.Clone(m.First.SV)
		slices.Sort(sv)
		base := sv
		if keepAll {
			base = make([]int, 30)
			for i := range base {
				base[i] = i
			}
		}
		if m.Virtual != 4*len(sv) { // blobs never vanish under a one-pixel shift
			t.Fatalf("keepAll=%v: %d virtual points for %d SVs, want %d", keepAll, m.Virtual, len(sv), 4*len(sv))
		}
		if r, _ := m.X.Dims(); r != len(base)+m.Virtual || len(m.Y) != r {
			t.Fatalf("keepAll=%v: %d rows, want %d", keepAll, r, len(base)+m.Virtual)
		}
		dst := make([]float64, 64)
		for r := range m.Y {
			s, g := m.Source[r], m.Element[r]
			if m.Y[r] != y[s] {
				t.Fatalf("row %d: label %d, source %d has %d", r, m.Y[r], s, y[s])
			}
			if r < len(base) {
				if s != base[r] || g != -1 || !slices.Equal(m.X.RawRowView(r), X.RawRowView(s)) {
					t.Fatalf("row %d: not original point %d", r, base[r])
				}
				continue
			}
			if g < 1 || !slices.Contains(sv, s) {
				t.Fatalf("row %d: element %d of source %d (SV: %v)", r, g, s, slices.Contains(sv, s))
			}
			shifts.Apply(dst, X.RawRowView(s), g)
			if !slices.Equal(m.X.RawRowView(r), dst) {
				t.Fatalf("row %d is not g_%d·x_%d", r, g, s)
			}
		}
		if m.SVC == m.First {
			t.Errorf("keepAll=%v: not retrained", keepAll)
		}
	}
}

// TestVSVToyMoreInvariant: on the circle problem, the VSV decision function varies less
// under a small rotation than the plain SVM's (averaged over 200 test points), the
// property virtual examples are meant to add.
func TestVSVToyMoreInvariant(t *testing.T) {
	ctx := context.Background()
	tr := data.Circle(30, rand.New(rand.NewPCG(21, 22)))
	te := data.Circle(200, rand.New(rand.NewPCG(23, 24)))
	rot := PlaneRotations([]float64{1})
	moved := mat.NewDense(200, 2, nil)
	for i := range 200 {
		rot.Apply(moved.RawRowView(i), te.X.RawRowView(i), 0)
	}
	k := kernel.RBF{Gamma: 0.5}
	m, err := TrainVSV(ctx, tr.X, tr.Y, k, 10, PlaneRotations([]float64{-10, 10}), nil)
	if err != nil {
		t.Fatal(err)
	}
	variation := func(a, b *mat.Dense) float64 {
		var dv, fv float64
		for i := range 200 {
			dv += math.Abs(b.At(i, 0) - a.At(i, 0))
			fv += math.Abs(a.At(i, 0))
		}
		return dv / fv
	}
	p0 := plainSVMDecision(t, k, tr.X, tr.Y, 10, te.X)
	p1 := plainSVMDecision(t, k, tr.X, tr.Y, 10, moved)
	v0, _ := m.DecisionValues(ctx, te.X)
	v1, _ := m.DecisionValues(ctx, moved)
	plain, vsv := variation(p0, p1), variation(v0, v1)
	t.Logf("relative change under a 1° rotation: SVM %.4g, VSV %.4g (%d virtual points)", plain, vsv, m.Virtual)
	if vsv >= plain {
		t.Errorf("VSV varies %.4g under rotation, plain SVM %.4g", vsv, plain)
	}
}

func TestPlaneRotations(t *testing.T) {
	g := PlaneRotations([]float64{90, -30})
	if g.Len() != 2 || g.Dim() != 2 {
		t.Fatal("sizes")
	}
	a, b := make([]float64, 2), make([]float64, 2)
	g.Apply(a, []float64{1, 0}, 0) // (1, 0) turned by 90° counter-clockwise is (0, 1)
	if math.Abs(a[0]) > 1e-15 || math.Abs(a[1]-1) > 1e-15 {
		t.Errorf("90°: %v", a)
	}
	x := []float64{0.3, -0.7}
	g.Apply(a, x, 1)
	g.ApplyInverse(b, a, 1)
	if math.Abs(b[0]-x[0]) > 1e-15 || math.Abs(b[1]-x[1]) > 1e-15 || math.Abs(math.Hypot(a[0], a[1])-math.Hypot(x[0], x[1])) > 1e-15 {
		t.Errorf("inverse or norm: %v -> %v -> %v", x, a, b)
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("no panic on a 3-vector")
		}
	}()
	g.Apply(make([]float64, 3), []float64{1, 2, 3}, 0)
}

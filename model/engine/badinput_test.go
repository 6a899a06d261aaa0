package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
	"gitui/model"
)

// wantInputError fails unless err is an *InputError whose message contains every want.
func wantInputError(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	var ie *model.InputError
	if !errors.As(err, &ie) {
		t.Errorf("%s: error %v, want an *InputError", what, err)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q lacks %q", what, err, w)
		}
	}
}

// TestCheckKernelScale checks the overflow test run before a Gram matrix: k(x, x) of
// the degree-8 polynomial on x = (1, 1) is (1 + 2 gamma)^8, 1.3e2 at gamma 0.01
// (accepted) and +Inf at gamma 1e300 (refused, naming gamma and the degree); the RBF
// kernel is at most 1 and passes on any finite data; the linear kernel on values of
// 1e200 overflows (|x|² = 2e400) and names the data.
func TestCheckKernelScale(t *testing.T) {
	ctx := context.Background()
	ones := mat.NewDense(2, 2, []float64{1, 1, 0.5, 0})
	if err := checkKernelScale(ctx, selfOf(kernel.Poly{Gamma: 0.01, Degree: 8}), ones); err != nil {
		t.Errorf("poly(0.01, 8): %v", err)
	}
	err := checkKernelScale(ctx, selfOf(kernel.Poly{Gamma: 1e300, Degree: 8}), ones)
	wantInputError(t, "poly(1e300, 8)", err, "kernel values overflow", "+Inf", "lower gamma or the degree")
	huge := mat.NewDense(1, 2, []float64{1e200, -1e200})
	if err := checkKernelScale(ctx, selfOf(kernel.RBF{Gamma: 1}), huge); err != nil {
		t.Errorf("rbf: %v", err)
	}
	wantInputError(t, "linear", checkKernelScale(ctx, selfOf(kernel.Linear{}), huge), "rescale the data")
	loc := &kernel.Locality{H: 1, W: 2, K1: 1, D1: 8, D2: 8, S1: 1e40}
	wantInputError(t, "locality", checkKernelScale(ctx, selfOfLocality(loc), ones), "lower the locality scale")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := checkKernelScale(cancelled, selfOf(kernel.Linear{}), ones); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestCheckGramFinite checks that a NaN or infinite entry is found where it is (the upper
// triangle of a symmetric matrix, any entry of a dense one) and that a finite matrix
// passes.
func TestCheckGramFinite(t *testing.T) {
	k := selfOf(kernel.Poly{Gamma: 1, Degree: 3})
	s := mat.NewSymDense(3, []float64{1, 2, 3, 2, 4, 5, 3, 5, 6})
	if err := checkGramFinite(s, k); err != nil {
		t.Errorf("finite symmetric: %v", err)
	}
	s.SetSym(1, 2, math.Inf(1))
	wantInputError(t, "symmetric", checkGramFinite(s, k), "entry (1, 2) = +Inf", "lower gamma or the degree")
	d := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	if err := checkGramFinite(d, k); err != nil {
		t.Errorf("finite dense: %v", err)
	}
	d.Set(1, 0, math.NaN())
	wantInputError(t, "dense", checkGramFinite(d, k), "entry (1, 0) = NaN")
}

// TestShapesForTheGroup checks newLiuKernel, newChapelleMethod and BuildGroup against
// the image shape: rotations need square images (except the polar grid), local shifts
// must stay distinct (radius below the size with zero fill, below half of it when
// cyclic), and a plain L-SVM takes no shifts, so small images are fine for it.
func TestShapesForTheGroup(t *testing.T) {
	poly := model.Method{Name: "m", Kernel: "poly", Gamma: 0.01, Degree: 2, Learner: "svm", C: 1}
	with := func(f func(*model.Method)) model.Method { m := poly; f(&m); return m }
	loc := &model.LocalitySpec{K1: 3, D1: 2, D2: 2}
	angles := &model.AngleSpec{From: -20, To: 20, Count: 5}
	ok := []struct {
		name  string
		m     model.Method
		shape []int
	}{
		{"L-SVM on 2x2", with(func(m *model.Method) { m.Locality = loc }), []int{2, 2}},
		{"L-TI cyclic radius 2 on 6x6", with(func(m *model.Method) { m.Locality, m.Invariance, m.Translation, m.Shifts = loc, "TI", "cyclic", 2 }), []int{6, 6}},
		{"L-TI zero-fill radius 5 on 6x6", with(func(m *model.Method) { m.Locality, m.Invariance, m.Translation, m.Shifts = loc, "TI", "zero-fill", 5 }), []int{6, 6}},
		{"RI on 6x6", with(func(m *model.Method) { m.Invariance, m.Fit, m.Rotations = "RI", "best", angles }), []int{6, 6}},
		{"polar RI on 4x6", with(func(m *model.Method) {
			m.Invariance, m.Fit, m.Polar = "RI", "best", &model.PolarSpec{Annuli: 2, Sectors: 8}
		}), []int{4, 6}},
		{"TI on 4x6", with(func(m *model.Method) { m.Invariance, m.Fit, m.Translation = "TI", "best", "cyclic" }), []int{4, 6}},
	}
	for _, c := range ok {
		if _, err := newLiuKernel(c.m, c.shape, nil); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	bad := []struct {
		name  string
		m     model.Method
		shape []int
		want  string
	}{
		{"RI on 4x6", with(func(m *model.Method) { m.Invariance, m.Fit, m.Rotations = "RI", "best", angles }), []int{4, 6}, "needs square ones, the data are 4x6"},
		{"TI-RI zero-fill on 6x4", with(func(m *model.Method) {
			m.Invariance, m.Fit, m.Translation, m.Rotations = "TI-RI", "best", "zero-fill", angles
		}), []int{6, 4}, "pad or crop the images to 6x6"},
		{"L-RI on 4x6", with(func(m *model.Method) { m.Locality, m.Invariance, m.Rotations = loc, "RI", angles }), []int{4, 6}, "needs square ones"},
		{"L-TI cyclic radius 3 on 6x6", with(func(m *model.Method) { m.Locality, m.Invariance, m.Translation, m.Shifts = loc, "TI", "cyclic", 3 }), []int{6, 6}, "at most 2 with cyclic"},
		{"L-TI zero-fill radius 6 on 6x6", with(func(m *model.Method) { m.Locality, m.Invariance, m.Translation, m.Shifts = loc, "TI", "zero-fill", 6 }), []int{6, 6}, "at most 5 with zero-fill"},
	}
	for _, c := range bad {
		_, err := newLiuKernel(c.m, c.shape, nil)
		wantInputError(t, c.name, err, c.want)
	}
	vsv := model.Method{Name: "VSV", Kernel: "rbf", Gamma: 1, C: 1, Learner: "vsv", Tangents: []string{"rotation"}}
	if _, err := newChapelleMethod(vsv, []int{5, 5}); err != nil {
		t.Errorf("VSV rotation on 5x5: %v", err)
	}
	_, err := newChapelleMethod(vsv, []int{5, 7})
	wantInputError(t, "VSV rotation on 5x7", err, "tangent rotation rotates images and needs square ones")
	g := model.GroupSpec{Kind: "rotation", Angles: angles}
	if _, err := BuildGroup(g, []int{6, 6}, 1); err != nil {
		t.Errorf("group rotation on 6x6: %v", err)
	}
	_, err = BuildGroup(g, []int{4, 6}, 1)
	wantInputError(t, "group rotation on 4x6", err, "group rotation rotates images")
	// S_9 (362,880 elements) is the largest full group enumerated; S_10 needs a sample.
	_, err = BuildGroup(model.GroupSpec{Kind: "permutation"}, []int{10, 2}, 1)
	wantInputError(t, "S_10", err, "10! = 3.629e+06 elements", "set group.size")
	if a, err := BuildGroup(model.GroupSpec{Kind: "permutation", Size: 50}, []int{10, 2}, 1); err != nil || a.Len() != 50 {
		t.Errorf("50 of S_10: %v", err)
	}
}

// TestSetValueError checks the message of a --set value its field cannot hold.
func TestSetValueError(t *testing.T) {
	cases := []struct{ set, want string }{
		{"methods.0.c=NaN", "c must be a finite number"},
		{"methods.0.gamma=-Inf", "gamma must be a finite number"},
		{"methods.0.c=1e999", "c must be a finite number"},
		{"methods.0.degree=2.5", "degree takes a whole number, not 2.5"},
		{"methods.0.c=big", `c takes a number, not the text "big"`},
		{"sizes=100", "sizes takes a list, not the number 100"},
		{"methods.0.kernel=[1]", "kernel takes text, not a JSON array"},
	}
	for _, c := range cases {
		s := &model.Spec{Name: "x", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "circle"}, Methods: []model.Method{{Kernel: "poly", Learner: "svm"}}}
		err := s.Set(c.set)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "--set ") {
			t.Errorf("--set %s: %v, want %q", c.set, err, c.want)
		}
	}
}

// TestValidateAngles checks that angle specs group.Rotations would panic on are refused
// by Validate, and that the message names the problem.
func TestValidateAngles(t *testing.T) {
	base := func() *model.Spec {
		return &model.Spec{Name: "x", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist"}, Sizes: []int{10},
			Group:   model.GroupSpec{Kind: "rotation", Angles: &model.AngleSpec{From: -20, To: 20, Count: 9}},
			Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}}}
	}
	if err := resolve(base()); err != nil {
		t.Fatalf("valid spec: %v", err)
	}
	for _, c := range []struct {
		a    model.AngleSpec
		want string
	}{
		{model.AngleSpec{From: 0, To: 360, Count: 2}, "equal modulo 360"},
		{model.AngleSpec{From: 5, To: 5, Count: 3}, "equal modulo 360"},
		{model.AngleSpec{From: math.Inf(-1), To: 20, Count: 3}, "is NaN"},
		{model.AngleSpec{From: -1e308, To: 1e308, Count: 3}, "is NaN"},
		{model.AngleSpec{From: 0, To: 10, Count: 0}, "count 0 is out of range"},
	} {
		s := base()
		s.Group.Angles = &c.a
		if err := resolve(s); err == nil || !strings.Contains(err.Error(), "group.angles: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("angles %+v: %v, want %q", c.a, err, c.want)
		}
	}
}

package presets

import "gitui/model"

// ChapelleToy is the toy problem of Chapelle and Schoelkopf (NIPS 2001, Sec. 5.1): 30
// training points uniform in [-1,1]², label inside/outside the circle x1² + x2² = 0.7,
// 10 training sets, 10,000 test points; test error (1 - accuracy) against the RBF kernel's
// gamma = 1/(2σ²) for the plain SVM, VSV (support vectors rotated by ±10 degrees) and the
// invariant SVM with the rotation tangent (-x2, x1) at invariance weights 0.9 and 0.999;
// C = 1000 (on the RBF Gram, whose diagonal is 1).
func ChapelleToy(quick bool) *model.Spec {
	rbf := func(l string, g float64, name string) model.Method {
		return model.Method{Name: name, Kernel: "rbf", Gamma: 1, C: 1000, Learner: l, InvGamma: g, Tangents: []string{"rotation"}}
	}
	s := &model.Spec{
		Name:     "chapelle-toy",
		Protocol: model.ProtocolSweep,
		Data:     model.DataSpec{Name: "circle", Pool: 1000, TestSize: 10000, Normalize: &noNormalize},
		Methods: []model.Method{
			{Name: "SVM", Kernel: "rbf", Gamma: 1, C: 1000, Learner: "svm"},
			rbf("vsv", 0, "VSV"),
			rbf("invariant-svm", 0.9, "invariant SVM (inv_gamma=0.9)"),
			rbf("invariant-svm", 0.999, "invariant SVM (inv_gamma=0.999)"),
		},
		// gamma = 1/(2σ²) for σ = 3, 2, 1.5, 1, 0.7, 0.5, 0.3.
		Sweep:    &model.SweepSpec{Field: "gamma", Values: []float64{0.0556, 0.125, 0.222, 0.5, 1.02, 2, 5.56}, Size: 30},
		Repeats:  10,
		Sampling: "uniform",
		Seed:     1,
	}
	if quick {
		s.Data.TestSize = 3000
		s.Sweep.Values = []float64{0.125, 0.5, 2}
	}
	return finish(s)
}

// ChapelleDigits is the digit experiment of Chapelle and Schoelkopf on MNIST reduced to
// 16×16 (USPS's size, pixels in [0,1]): the plain SVM, VSV (support vectors shifted one
// pixel in each of the four directions) and the translation-invariant SVM (horizontal and
// vertical shift tangents, inv_gamma 0.3), RBF kernel with gamma = 1/32, C = 1000;
// binary (digit 4 against 9) and 10-class, against training size. Chosen on a validation
// split (--quick --set data.holdout=1000, sizes 50 and 200): kernel gamma 1/128, 1/32, 1/16
// gave SVM 83.4, 85.4, 86.0% at 200 (VSV 83.7, 86.9, 88.0); the invariant SVM's weight
// 0.3/0.6/0.99 gave 84.5/84.3/82.7% against SVM 84.1% at gamma 1/64: on these digits the
// invariant SVM has not shown a gain over the plain SVM (VSV has).
func ChapelleDigits(quick bool) *model.Spec {
	meths := func() []model.Method {
		return []model.Method{
			{Name: "SVM", Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "svm"},
			{Name: "VSV", Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "vsv", Tangents: []string{"hshift", "vshift"}},
			{Name: "invariant SVM", Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "invariant-svm", InvGamma: 0.3,
				Tangents: []string{"hshift", "vshift"}},
		}
	}
	s := &model.Spec{
		Name:     "chapelle-digits",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "digits16", Normalize: &noNormalize, TestSize: 2000},
		Methods:  meths(),
		Sizes:    []int{50, 100, 200, 500},
		Repeats:  5,
		Seed:     1,
	}
	if quick {
		s.Data.Pool = 2000
		s.Data.TestSize = 500
		s.Sizes = []int{50, 200}
		s.Repeats = 2
	}
	return finish(s)
}

// ChapelleDigitsBinary is the binary half of ChapelleDigits: digit 4 against 9.
func ChapelleDigitsBinary(quick bool) *model.Spec {
	s := ChapelleDigits(quick)
	s.Name = "chapelle-digits-binary"
	s.Data.Classes = []int{4, 9}
	s.Sizes = []int{20, 50, 100, 200}
	if quick {
		s.Sizes = []int{20, 100}
	}
	return finish(s)
}

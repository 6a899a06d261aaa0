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
			{Kernel: "rbf", Gamma: 1, C: 1000, Learner: "svm"},
			rbf("vsv", 0, ""),
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

// ChapelleDigits is the digit experiment of Chapelle and Schoelkopf on USPS (data set
// usps, pixels scaled to [0,1]; its 2,007 test digits drawn down to 2,000), or, when USPS
// is not in the data directory, on its named fallback digits16, MNIST reduced to 16×16
// (the run log and the result's "data" say which was used): the plain SVM, VSV and the invariant SVM, all
// with the RBF kernel gamma = 1/32, C = 1000, and the same transformations: horizontal
// and vertical one-pixel shifts and rotation (VSV: support vectors shifted one pixel in
// each of the four directions and rotated by ±10 degrees; invariant SVM: the three
// tangent vectors, invariance weight inv_gamma = 0.99, each one-vs-one pair with the
// C_γ of its own two classes); 10-class and binary (digit 4 against 9), against
// training size.
//
// The settings were chosen on the MNIST stand-in, before USPS was available, and are kept
// on USPS (docs/results.md compares the two). Chosen on a validation split of the training pool (data.holdout = 1000, stratified
// draws from the rest, accuracy in %):
//
//	10-class, 50 digits, 20 draws:  SVM 69.9   VSV (shifts) 72.2   VSV (shifts+rotation) 74.3
//	  invariant SVM, shifts+rotation, inv_gamma 0.9 / 0.99 / 0.999:   71.6 / 71.9 / 71.7
//	  (tangents smoothed by σ = 0.5 px: 71.7 / 71.8 / 71.5)
//	binary, 20 digits, 30 draws:    SVM 83.3   VSV (shifts) 85.7   VSV (shifts+rotation) 87.6
//	  invariant SVM, shifts+rotation, inv_gamma 0.9 / 0.99 / 0.999:   85.1 / 85.8 / 85.8
//	  (smoothed σ = 0.5: 84.9 / 85.4 / 85.3)
//
// and, 10 draws, kernel gamma 1/64, 1/32, 1/16 (SVM at 50 digits 68.9, 69.5, 69.3, at
// 100 78.3, 78.8, 79.1; binary at 20 83.6, 83.4, 82.4): with inv_gamma 0.99, the shift
// tangents alone gave 69.7 at 50 (10-class, gamma 1/32; 93.3 binary at 50, against SVM
// 91.9), the rotation tangent alone 71.1, both 71.4 (81.0 at 100, SVM 78.8). The
// invariant SVM gains 2 points over the SVM at the smallest size; VSV, which adds the
// transformed support vectors as training points (larger, non-local transformations),
// gains more, unlike in the paper's USPS experiment. Before the tangents were mapped
// into feature space exactly (they were projected onto the span of the training
// points), and with one C_γ shared by all pairs, the invariant SVM only tied the SVM.
func ChapelleDigits(quick bool) *model.Spec {
	tangents := []string{"hshift", "vshift", "rotation"}
	meths := func() []model.Method {
		return []model.Method{
			{Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "svm"},
			{Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "vsv", Tangents: tangents},
			{Kernel: "rbf", Gamma: 1.0 / 32, C: 1000, Learner: "invariant-svm", InvGamma: 0.99,
				Tangents: tangents},
		}
	}
	s := &model.Spec{
		Name:     "chapelle-digits",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "usps", Fallback: "digits16", Normalize: &noNormalize, TestSize: 2000},
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

// ChapelleDigitsBinary is the binary half of ChapelleDigits: digit 4 against 9 (USPS,
// or the digits16 fallback).
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

// ChapelleUSPS is Chapelle and Schoelkopf's USPS experiment (NIPS 2001, Sec. 5.2) as its
// text describes it, on the ESL copy of USPS (data set usps-binary: pixels scaled to
// [0,1], digits 0-4 against 5-9):
//
//   - the 7,291 training digits permuted (seeded) and cut into 23 disjoint subsets of
//     317 (23 × 317 = 7,291; sampling disjoint), one training set per repeat;
//   - the polynomial kernel of degree 3, k(x, z) = (1 + <x, z>/25)^3, C = 100 (on the
//     kernel as it is; the plain SVM is at its plateau from C = 10);
//   - tangent vectors by central finite differences of one-pixel translations,
//     horizontal and vertical separately (one invariant SVM and one VSV each; VSV adds
//     the support vectors shifted one pixel both ways along its axis);
//   - test error on the 2,007 test digits against the invariance weight γ
//     (inv_gamma: 0 is the standard SVM), mean and standard deviation over the 23 splits.
//
// VSV does not depend on γ: its cells are the same at every γ (a flat line). The paper
// gives no table; it plots error against log γ and claims (1) the invariant SVM's best
// error is at or below VSV's and (2) horizontal invariance helps more than vertical,
// USPS digits being centred vertically. The seed's copy of the paper has its numbers
// stripped: 23 × 317, 0-4 vs 5-9 and degree 3 are our reading (docs/results.md).
// Quick: 3 splits, γ ∈ {0, 0.9, 0.99}, 500 test digits.
func ChapelleUSPS(quick bool) *model.Spec {
	m := func(learner, tangent string) model.Method {
		return model.Method{Kernel: "poly", Degree: 3, Gamma: 0.04, C: 100, Learner: learner, Tangents: []string{tangent}}
	}
	s := &model.Spec{
		Name:     "chapelle-usps",
		Protocol: model.ProtocolSweep,
		Data:     model.DataSpec{Name: "usps-binary", Normalize: &noNormalize},
		Methods: []model.Method{
			m("invariant-svm", "hshift"), m("invariant-svm", "vshift"),
			m("vsv", "hshift"), m("vsv", "vshift"),
		},
		Sweep:    &model.SweepSpec{Field: "inv_gamma", Values: []float64{0, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999}, Size: 317},
		Repeats:  23,
		Sampling: "disjoint",
		Seed:     1,
	}
	for i := range s.Methods {
		t := map[string]string{"hshift": "horizontal", "vshift": "vertical"}[s.Methods[i].Tangents[0]]
		if s.Methods[i].IsVSV() {
			s.Methods[i].Name = "VSV (" + t + ")"
		} else {
			s.Methods[i].Name = "invariant SVM (" + t + ")"
		}
	}
	if quick {
		s.Data.TestSize = 500
		s.Sweep.Values = []float64{0, 0.9, 0.99}
		s.Repeats = 3
	}
	return finish(s)
}

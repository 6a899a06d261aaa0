package presets

import "gitui/model"

// Settings of Liu et al.'s presets: pixels in [0,1] (data.normalize=false), the degree-8
// polynomial base kernel (1 + gamma <x,z>)^8, C = 1000 on the Gram matrix divided by the
// mean of its training diagonal (model's svm learner).
//
// gamma and C were chosen on a validation split of the training pool (never the test
// set): liu-table2 --set data.holdout=1000 --set sizes=[100,500] --set repeats=2, SVM and
// TI-SVM accuracy on the 1000 held-out pool digits at 100 / 500 training digits:
//
//	gamma    C     SVM            TI-SVM
//	1/784    1     61.4 / 84.1    56.4 / 86.8
//	1/784    1000  74.9 / 86.7    79.7 / 89.4   <- chosen (best at 500, near-best at 100)
//	1/300    1000  72.5 / 86.6    77.4 / 89.6
//	1/100    1000  63.0 / 84.2    67.6 / 87.2   (the paper's small-n numbers, FINDINGS.md)
//	1/100    1     32.6 / 70.3    35.0 / 71.6
//	4e-4     1000  75.9 / 85.7    81.0 / 87.9
//	1e-4     1000  76.8 / 85.2    80.9 / 87.8
//
// Table I (liu-table1) keeps the paper's gamma = 1/100, at which its threshold is stated.
const (
	liuGamma  = 1.0 / 784
	liuDegree = 8
	liuC      = 1000
)

var noNormalize = false

// liuMethod is the degree-8 polynomial SVM with the given invariance and fit.
func liuMethod(inv, fit string, loc *model.LocalitySpec) model.Method {
	return model.Method{Kernel: "poly", Gamma: liuGamma, Degree: liuDegree, C: liuC, Learner: "svm",
		Invariance: inv, Fit: fit, Locality: loc}
}

// liuLocality is layer 1 of the locality kernel, 5×5 patches, d1 = 2, d2 = 4, with the
// patch sums scaled by 1/400. On the validation split (as above, 100 / 200 digits) the
// paper's formula as written (scale 1) got 47.1 / 57.3% against the plain SVM's 74.9 at
// 100; scales 0.04, 0.01, 0.0025 got 74.6, 76.1, 76.7 / 82.0, 83.0, 82.5; k1 = 3 or 7,
// (d1, d2) = (1, 8) or (3, 3), and a second layer (k2 = 3, d3 = 2) all 76.6-76.8 / 82.4-82.8.
// That gain is not locality: the plain SVM with gamma = 1e-4 gets the same 76.8 / 82.5,
// and a small scale makes the kernel about (const + scale·k1²·<x,z>)^(d1·d2), a polynomial
// kernel with a small gamma. No normalisation tried made locality help beyond that.
var liuLocality = &model.LocalitySpec{K1: 5, D1: 2, D2: 4, Scale: 0.0025}

// liuRI is RI by rotated copies, 5 angles in -20..20 degrees (-20, -10, 0, 10, 20). On the
// validation split (holdout 1000, 100 / 500 digits; SVM 74.9 / 86.7) best fit gave 81.1 /
// 86.8% with these 5 angles, 80.7 / 86.0% with 9 angles in -20..20, 79.3 / 88.1% with 5
// in -10..10 and 79.1 / 87.8% with 3 in -10..10; average fit 77.4 / 85.6, 77.0 / 86.0,
// 76.2 / 86.2, 76.1 / 86.5%.
func liuRI(fit string) model.Method {
	m := liuMethod("RI", fit, nil)
	m.Rotations = &model.AngleSpec{From: -20, To: 20, Count: 5}
	return m
}

// liuTIRI is TI-RI with 5 rotations in -20..20 degrees.
func liuTIRI() model.Method {
	m := liuMethod("TI-RI", "best", nil)
	m.Rotations = &model.AngleSpec{From: -20, To: 20, Count: 5}
	return m
}

// LiuTable1 is Table I of Liu et al.: the largest number n of random MNIST digits (pixels
// in [0,1]) whose TI best-fit Gram matrix (all 784 cyclic shifts) stays positive definite,
// over 10 seeded draws, for the linear kernel and the degree-8 polynomial kernel with
// gamma = 1/100. The paper reports about 45 and 375.
func LiuTable1(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "liu-table1",
		Protocol: model.ProtocolPD,
		Data:     model.DataSpec{Name: "mnist", Normalize: &noNormalize},
		Methods: []model.Method{
			{Name: "TI best-fit linear", Kernel: "linear", Learner: "svm", C: 1, Invariance: "TI"},
			{Name: "TI best-fit poly(8, 1/100)", Kernel: "poly", Gamma: 0.01, Degree: liuDegree, Learner: "svm", C: 1, Invariance: "TI"},
		},
		PD:   &model.PDSpec{Sizes: []int{10, 20, 30, 45, 60, 90, 125, 190, 250, 375, 500, 750, 1000}, Draws: 10},
		Seed: 1,
	}
	if quick {
		s.Data.Pool = 2000
		s.PD = &model.PDSpec{Sizes: []int{10, 25, 50, 100, 200, 400, 600}, Draws: 10}
	}
	return finish(s)
}

// LiuTable2 is Table II of Liu et al.: MNIST at 100, 200 and 500 training digits (5
// stratified seeded draws from the 10,000-digit pool), tested on the 10,000 official test
// digits, for the degree-8 polynomial SVM and its invariant versions: TI (all 784 cyclic
// translations, as the paper defines them), RI (rotated copies, -20..20 degrees, 5
// angles), TI-RI (5 angles in -20..20 times the 784 shifts: each angle costs a full TI
// Gram), best fit against average fit, and L-SVM.
//
// Cyclic rather than zero-fill translations: on the validation split (holdout 1000, 100 /
// 200 digits) best fit gave 79.7 / 86.1% cyclic and 79.8 / 86.1% zero-fill, the same, and
// the cyclic FFT on 28×28 is about 4 times cheaper than on the 56×56 zero canvas; average
// fit gave 64.4 / 75.2% cyclic and 56.7 / 67.6% zero-fill (its mean includes every shift
// that moves the digit off the canvas). Set methods.N.translation=zero-fill for the other.
//
// The locality compositions evaluate the locality kernel once per transformation and pair
// (no GEMM or FFT), so the full variant keeps L-SVM only; the quick variant runs L-TI (9
// local shifts) and L-RI (5 angles) on a small test set.
func LiuTable2(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "liu-table2",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "mnist", Normalize: &noNormalize},
		Methods: []model.Method{
			liuMethod("", "", nil),
			liuMethod("TI", "best", nil),
			liuRI("best"),
			liuTIRI(),
			liuMethod("TI", "average", nil),
			liuRI("average"),
			liuMethod("", "", liuLocality),
		},
		Sizes:    []int{100, 200, 500},
		Repeats:  5,
		Sampling: "stratified",
		Seed:     1,
	}
	if quick {
		s.Data.Pool = 2000
		s.Data.TestSize = 300
		lti, lri := liuMethod("TI", "best", liuLocality), liuMethod("RI", "best", liuLocality)
		lti.Shifts = 1
		lri.Rotations = &model.AngleSpec{From: -20, To: 20, Count: 5}
		s.Methods = append(s.Methods, lti, lri)
		s.Data.TestSize = 200
		s.Sizes = []int{100, 200}
		s.Repeats = 2
	}
	return finish(s)
}

// LiuFig3 is Fig. 3 of Liu et al.: accuracy against 100..1000 training digits (10 draws,
// mean ± std) on Translated MNIST (digits at random positions of a 64×64 canvas, noise
// 0.1) for SVM and TI-SVM (all 4096 cyclic shifts, FFT). Degree-8 polynomial with gamma =
// 1e-4, C = 1000 on the normalised Gram. gamma from a validation split of the pool
// (--quick --set data.holdout=300 --set sizes=[100]): TI-SVM 78.2, 77.0, 71.2, 35.3% at
// gamma 5e-5, 2e-4, 2e-3, 1e-2 (the plain SVM stays at 12-14% whatever gamma). The full
// variant draws from the first 3000 pool digits (the kernel of the union of the draws is
// computed once: 3000 images instead of 10,000 keep it to minutes) and tests on 2000.
func LiuFig3(quick bool) *model.Spec {
	tr := &model.Spec{
		Name:     "liu-fig3",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "mnist-translated", Normalize: &noNormalize, Pool: 3000, TestSize: 2000},
		Methods: []model.Method{
			{Name: "SVM (translated)", Kernel: "poly", Gamma: 1e-4, Degree: liuDegree, C: liuC, Learner: "svm"},
			{Name: "TI-SVM (translated)", Kernel: "poly", Gamma: 1e-4, Degree: liuDegree, C: liuC, Learner: "svm", Invariance: "TI"},
		},
		Sizes:   []int{100, 300, 500, 700, 1000},
		Repeats: 10,
		Seed:    1,
	}
	if quick {
		tr.Data.Pool = 1000
		tr.Data.TestSize = 300
		tr.Sizes = []int{100, 300}
		tr.Repeats = 2
	}
	return finish(tr)
}

// LiuFig3Rotated is the rotated half of Fig. 3 of Liu et al.: SVM against RI-SVM on
// Rotated MNIST, RI on a polar grid of 14 annuli × 36 sectors (rotations by multiples of
// 10 degrees are sector shifts, pooled by the FFT along the angle). gamma = 1e-3 from the
// validation split (--quick --set data.holdout=300 --set sizes=[100]): RI-SVM 78.2, 71.0,
// 63.2% at gamma 1e-3, 1e-2, 5e-2 (SVM 40.8, 37.3, 22.7). Pool 3000, 2000 test digits.
func LiuFig3Rotated(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "liu-fig3-rotated",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "mnist-rotated", Normalize: &noNormalize, Pool: 3000, TestSize: 2000},
		Methods: []model.Method{
			{Name: "SVM (rotated)", Kernel: "poly", Gamma: 1e-3, Degree: liuDegree, C: liuC, Learner: "svm"},
			{Name: "RI-SVM (rotated)", Kernel: "poly", Gamma: 1e-3, Degree: liuDegree, C: liuC, Learner: "svm", Invariance: "RI",
				Polar: &model.PolarSpec{Annuli: 14, Sectors: 36}},
		},
		Sizes:   []int{100, 300, 500, 700, 1000},
		Repeats: 10,
		Seed:    1,
	}
	if quick {
		s.Data.Pool = 1000
		s.Data.TestSize = 300
		s.Sizes = []int{100, 300}
		s.Repeats = 2
	}
	return finish(s)
}

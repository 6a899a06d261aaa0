// Package presets holds the named experiments that reproduce the papers' figures and tables:
// one function per figure, each with a quick variant (under a minute on 2 cores) and a full
// variant (what the README's presets table and docs/results.md report).
package presets

import (
	"fmt"
	"sort"

	"gitui/model"
)

// All returns every preset, sorted by name.
func All() []model.Preset {
	ps := []model.Preset{
		{Name: "xperm-curve", Summary: "Mroueh et al. Fig. 1/5: X_perm accuracy vs training size; raw, bag-of-words, CDF(n,m), Haar-kernel RLS", Build: XPermCurve},
		{Name: "xperm-group-size", Summary: "Mroueh et al. Fig. 4 left: X_perm accuracy vs |G| (sampled permutations), CDF RLS", Build: XPermGroupSize},
		{Name: "xperm-bins-templates", Summary: "Mroueh et al. Fig. 4 right: X_perm accuracy vs bins n and templates m", Build: XPermBinsTemplates},
		{Name: "mnist-cdf", Summary: "Mroueh et al. Fig. 2: MNIST CDF features (templates rotated +-20 deg, shifted 3 px) vs training size, bins, templates", Build: MNISTCDF},
		{Name: "liu-table1", Summary: "Liu et al. Table I: largest n with a PD TI best-fit Gram (linear, poly degree 8, gamma 1/100), 10 draws", Build: LiuTable1},
		{Name: "liu-table2", Summary: "Liu et al. Table II: MNIST 100/200/500 digits, SVM vs TI, RI, L, TI-RI, L-TI, L-RI, L-TI-RI, best vs average fit (poly 8)", Build: LiuTable2},
		{Name: "liu-table3", Summary: "Liu et al. Table III: EMNIST Letters 100/200/500 images, all 20,800 test images, SVM vs TI, RI, L, TI-RI, L-TI, L-RI, L-TI-RI (poly 8, the authors' code's settings)", Build: LiuTable3},
		{Name: "liu-fig3", Summary: "Liu et al. Fig. 3 (translated): SVM vs TI-SVM on Translated MNIST (64x64), 100..1000 digits", Build: LiuFig3},
		{Name: "liu-fig3-rotated", Summary: "Liu et al. Fig. 3 (rotated): SVM vs RI-SVM (polar grid) on Rotated MNIST, 100..1000 digits", Build: LiuFig3Rotated},
		{Name: "chapelle-toy", Summary: "Chapelle & Schoelkopf toy: test error vs RBF gamma for SVM, VSV, invariant SVM (circle, 30 points)", Build: ChapelleToy},
		{Name: "chapelle-digits", Summary: "Chapelle & Schoelkopf digits: SVM vs VSV vs invariant SVM (shifts, rotation) on USPS (fallback: 16x16 MNIST), 10-class", Build: ChapelleDigits},
		{Name: "chapelle-digits-binary", Summary: "Chapelle & Schoelkopf digits: SVM vs VSV vs invariant SVM (shifts, rotation) on USPS (fallback: 16x16 MNIST), 4 vs 9", Build: ChapelleDigitsBinary},
		{Name: "chapelle-usps", Summary: "Chapelle & Schoelkopf Sec. 5.2: USPS 0-4 vs 5-9, 23 disjoint splits of 317, poly 3; test error vs inv_gamma, invariant SVM and VSV, horizontal and vertical shifts", Build: ChapelleUSPS},
		{Name: "graphs-perm", Summary: "Bring your own group: 12-node graphs of 4 families, raw vs CDF under |G| = 1..1000 uniform node relabellings (S_12 from 2 generators)", Build: GraphsPerm},
		{Name: "graphs-perm-relabelled", Summary: "graphs-perm on graphs whose node order is random (arbitrary numbering): only invariant information is left", Build: GraphsPermRelabelled},
		{Name: "svc-halving", Summary: "gitui tune against scikit-learn's HalvingRandomSearchCV: RBF SVC on 5,000 MNIST digits, C x gamma log-uniform, 81 candidates, factor 3", Build: SVCHalving},
		{Name: "liu-tiri-tune", Summary: "gitui tune over liu-table2's TI-RI-SVM: shifts and rotation range (from, to, count) on a validation split, refit at 500 digits", Build: LiuTIRITune},
		{Name: "mnist-full-cdf", Summary: "Full MNIST (--data DIR with the 60,000 training digits): Fig. 2's curve to 60,000 digits, RBF RLS on tuned CDF features, exact to 10,000 then Nyström-FALKON (10,000 centres)", Build: MNISTFullCDF},
		{Name: "mnist-full-vsv", Summary: "Full MNIST (--data DIR with the 60,000 training digits): DeCoste & Schoelkopf's virtual SVM, deskewed, poly 9, support vectors translated by one pixel, retrained on kernel rows", Build: MNISTFullVSV},
		{Name: "mnist-cdf-tune", Summary: "gitui tune over mnist-cdf's space (bins, templates, thresholds, linear or RBF RLS, deskew), its group with 5 scales, on a validation split of the pool", Build: MNISTCDFTune},
		{Name: "mnist-full-tune", Summary: "gitui tune on full MNIST (--data DIR with the 60,000 training digits): mnist-full-cdf's RBF width on 12,000 validation digits, halving at 3,000, 12,000, 48,000, refit at 60,000", Build: MNISTFullTune},
		{Name: "kernel-approx", Summary: "Mroueh et al. Theorem 1/2: <Phi(x),Phi(z)> vs s - d_G(x,z), error vs templates m", Build: KernelApprox},
	}
	ps = append(ps, speechPresets...)
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

// Lookup returns the preset called name, or an error listing the known names.
func Lookup(name string) (model.Preset, error) {
	var names []string
	for _, p := range All() {
		if p.Name == name {
			return p, nil
		}
		names = append(names, p.Name)
	}
	return model.Preset{}, fmt.Errorf("unknown preset %q: use one of %v (or a spec file ending in .json/.yaml)", name, names)
}

func finish(s *model.Spec) *model.Spec {
	s.Defaults()
	if err := s.Validate(); err != nil {
		panic("presets: " + s.Name + ": " + err.Error())
	}
	return s
}

// xpermGroup is the full symmetric group S_5 acting on the 5 blocks of an X_perm sequence.
var xpermGroup = model.GroupSpec{Kind: model.GroupPermutation}

// XPermCurve is Fig. 1 (and 5) of Mroueh et al.: accuracy vs training size on X_perm for raw,
// bag-of-words and CDF(n,m) features and for the Haar-integration kernel (Gaussian base),
// all with RLS (lambda by leave-one-out), balanced training draws, tested on held-out sequences.
func XPermCurve(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "xperm-curve",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "xperm", TestSize: 8000},
		Group:    xpermGroup,
		Methods: []model.Method{
			{Features: "raw"},
			{Features: "bow"},
			{Features: "cdf", Bins: 5, Templates: 5},
			{Features: "cdf", Bins: 25, Templates: 25},
			{Features: "cdf", Bins: 25, Templates: 100},
			{Kernel: "haar", Base: "rbf", Gamma: 2.5},
		},
		Sizes:   []int{10, 20, 50, 100, 200, 500, 1000, 2000, 4000},
		Repeats: 100,
		Seed:    1,
	}
	if quick {
		s.Data.TestSize = 2000
		s.Methods = []model.Method{s.Methods[0], s.Methods[1], s.Methods[3], s.Methods[5]}
		s.Sizes = []int{20, 100, 500}
		s.Repeats = 3
	}
	return finish(s)
}

// XPermGroupSize is Fig. 4 (left) of Mroueh et al.: CDF(25,25) RLS on X_perm with the
// templates transformed by a seeded sample of |G| permutations of S_5, at 500 training sequences.
func XPermGroupSize(quick bool) *model.Spec {
	s := &model.Spec{
		Name:       "xperm-group-size",
		Protocol:   model.ProtocolGroupSize,
		Data:       model.DataSpec{Name: "xperm", TestSize: 8000},
		Group:      xpermGroup,
		Methods:    []model.Method{{Features: "cdf", Bins: 25, Templates: 25}},
		Sizes:      []int{500},
		GroupSizes: []int{1, 2, 5, 10, 20, 40, 60, 120},
		Repeats:    20,
		Seed:       1,
	}
	if quick {
		s.Data.TestSize = 2000
		s.GroupSizes = []int{1, 10, 120}
		s.Repeats = 3
	}
	return finish(s)
}

// XPermBinsTemplates is Fig. 4 (right) of Mroueh et al.: CDF(n,m) RLS on X_perm over a grid
// of bins n and templates m, full S_5, at 500 training sequences.
func XPermBinsTemplates(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "xperm-bins-templates",
		Protocol: model.ProtocolGrid,
		Data:     model.DataSpec{Name: "xperm", TestSize: 8000},
		Group:    xpermGroup,
		Methods:  []model.Method{{Features: "cdf", Bins: 25, Templates: 25}},
		Grid:     &model.GridSpec{Bins: []int{1, 2, 5, 10, 25, 50}, Templates: []int{1, 5, 10, 25, 50, 100}, Size: 500},
		Repeats:  20,
		Seed:     1,
	}
	if quick {
		s.Data.TestSize = 2000
		s.Grid = &model.GridSpec{Bins: []int{2, 10, 25}, Templates: []int{5, 25}, Size: 500}
		s.Repeats = 3
	}
	return finish(s)
}

// mnistGroup is 9 rotations in [-20, 20] degrees times the 49 shifts of at most 3 pixels
// (zero fill): |G| = 441, acting on the templates (Mroueh et al. Sec. 5, MNIST).
var mnistGroup = model.GroupSpec{Kind: model.GroupRotationShift, Radius: 3, Angles: &model.AngleSpec{From: -20, To: 20, Count: 9}}

// mnistScaleGroup is mnistGroup times 5 isotropic scales about the centre in [0.8, 1.2]
// (0.8, 0.9, 1, 1.1, 1.2): |G| = 2205.
var mnistScaleGroup = func() model.GroupSpec {
	g := mnistGroup
	g.Scales = &model.AngleSpec{From: 0.8, To: 1.2, Count: 5}
	return g
}()

// MNISTCDF is Fig. 2 of Mroueh et al.: MNIST accuracy vs training size (up to 1000 digits
// per class) for raw pixels and CDF features, tested on the 10,000 official test digits;
// plus a bins x templates grid at 1000 training digits. The group (9 rotations x 49 shifts)
// acts on the templates. The paper's m = 100 stays near 97% at 1000 digits per class; more
// templates close the gap (CDF(10,1000) with Gaussian templates and linear RLS: 98.3%, left
// out to keep the run within 10 minutes), digit templates beat white noise at this size
// (CDF(10,300): 97.8% with digits, 97.4% with noise). The last method is the best setting
// found (README, "the frontier"): a Gaussian kernel on CDF(5,1500) features
// (feature_kernel rbf, gamma by the median heuristic) with thresholds fitted to the
// projections' range, on deskewed digits (preprocess deskew). With range thresholds 11
// thresholds per template carry what 21 did, so 1500 templates at 5 bins (16,500 columns)
// cost less in the kernel than 1000 at 10 (21,000) and score higher in leave-one-out on
// the pool (99.04% against 99.00%).
// Repeats are 3 (5 before): the curve's std at 2000-5000 digits is 0.1-0.3 points, and
// the fits at 5000 dominate the time.
func MNISTCDF(quick bool) *model.Spec {
	s := &model.Spec{
		Name: "mnist-cdf",
		Description: "Mroueh et al. Fig. 2 (paper: 98.97% at 1000 digits per class). 3 draws per size (5 before): " +
			"the std at 2000-5000 digits is 0.1-0.3 points and those fits dominate the time; 10,000 is the whole pool (one draw). " +
			"CDF(10,1000) with linear RLS (98.3% at 10,000) was left out to keep the run within 10 minutes. " +
			"The last method is the best setting found: the Gaussian kernel (gamma: median heuristic) on CDF(5,1500) features " +
			"with range thresholds, on deskewed digits.",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "mnist"},
		Group:    mnistGroup,
		Methods: []model.Method{
			{Features: "raw"},
			{Features: "cdf", Bins: 25, Templates: 100, TemplateOf: "gaussian"},
			{Features: "cdf", Bins: 10, Templates: 300, TemplateOf: "data"},
			{Features: "cdf", Bins: 5, Templates: 1500, TemplateOf: "gaussian", FeatureKernel: "rbf", Thresholds: "range", Preprocess: "deskew"},
		},
		Sizes:   []int{100, 200, 500, 1000, 2000, 5000, 10000},
		Repeats: 3,
		Grid:    &model.GridSpec{Bins: []int{5, 10, 25}, Templates: []int{50, 100, 300}, Size: 1000},
		Seed:    1,
	}
	if quick {
		s.Data.Pool = 2000
		s.Data.TestSize = 2000
		s.Methods = []model.Method{{Features: "raw"}, {Features: "cdf", Bins: 10, Templates: 30, TemplateOf: "gaussian"},
			{Features: "cdf", Bins: 10, Templates: 30, TemplateOf: "gaussian", FeatureKernel: "rbf", Thresholds: "range", Preprocess: "deskew"}}
		s.Sizes = []int{100, 500, 2000}
		s.Repeats = 2
		s.Grid = nil
	}
	return finish(s)
}

// KernelApprox checks Theorem 1 of Mroueh et al.: over random pairs of unit-norm X_perm
// sequences, <Phi(x),Phi(z)> (CDF features, n = 25 bins, templates uniform on the sphere,
// full S_5) against s - d_G(x,z), for a growing number of templates m. The templates are
// drawn in antithetic pairs (t, -t): the expectation is unchanged and most of the Monte Carlo
// noise cancels (correlation 0.98 instead of 0.89 at m = 1000; --set approx.antithetic=false
// gives the plain draw).
func KernelApprox(quick bool) *model.Spec {
	s := &model.Spec{
		Name:     "kernel-approx",
		Protocol: model.ProtocolApprox,
		Data:     model.DataSpec{Name: "xperm"},
		Group:    xpermGroup,
		Approx:   &model.ApproxSpec{Pairs: 200, Templates: []int{10, 30, 100, 300, 1000, 3000, 10000}, Bins: 25, Antithetic: true},
		Seed:     1,
	}
	if quick {
		s.Approx.Templates = []int{10, 100, 1000}
	}
	return finish(s)
}

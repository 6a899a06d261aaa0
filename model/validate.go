package model

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gitui/core/group"
)

// Known names for the enumerated fields of a Spec.
var (
	DataNames      = []string{"xperm", "circle", "mnist", "fashion-mnist", "embedded", "file", "mnist-translated", "mnist-rotated", "digits16", "spoken-digits", "fsdd", "audiomnist", "tidigits"}
	GroupKinds     = []string{"none", "permutation", "cyclic-shift", "local-shift", "rotation", "rotation+shift", "pitch-tempo", "pitch-tempo-paper"}
	FeatureNames   = []string{"raw", "bow", "cdf", "moments"}
	KernelNames    = []string{"linear", "rbf", "poly", "haar"}
	LearnerNames   = []string{"rls", "1nn", "svm", "invariant-svm", "vsv"}
	Invariances    = []string{"TI", "RI", "TI-RI"}
	FitNames       = []string{"best", "average"}
	Translations   = []string{"cyclic", "zero-fill"}
	TangentNames   = []string{"hshift", "vshift", "rotation"}
	SweepFields    = []string{"gamma", "inv_gamma", "c"}
	TemplateKinds  = []string{"gaussian", "sphere", "data"}
	ThresholdKinds = []string{"theory", "range"}
	SamplingKinds  = []string{"balanced", "stratified", "uniform"}
	Protocols      = []string{ProtocolCurve, ProtocolGrid, ProtocolGroupSize, ProtocolApprox, ProtocolPD, ProtocolSweep}
)

// Limits that guard against absurd parameters (memory and time), with the reason in the error.
const (
	MaxTemplates = 100000
	MaxBins      = 1000
	MaxRepeats   = 10000
	MaxSize      = 10000000
)

// Defaults fills zero values with their documented defaults: repeats 1, sampling
// "stratified" ("balanced" for xperm), learner "rls", base "rbf" for the Haar kernel,
// template kind "gaussian", thresholds "theory", group kind "none", and a method name
// derived as the papers name their rows (MethodName).
func (s *Spec) Defaults() {
	if s.Repeats == 0 {
		s.Repeats = 1
	}
	if s.Sampling == "" {
		s.Sampling = "stratified"
		if s.Data.Name == "xperm" {
			s.Sampling = "balanced"
		}
	}
	if s.Group.Kind == "" {
		s.Group.Kind = "none"
	}
	for i := range s.Methods {
		m := &s.Methods[i]
		if m.Learner == "" {
			m.Learner = "rls"
		}
		if m.Kernel == "haar" && m.Base == "" {
			m.Base = "rbf"
		}
		if m.Invariance != "" {
			if m.Fit == "" {
				m.Fit = "best"
			}
			if strings.Contains(m.Invariance, "TI") && m.Translation == "" {
				m.Translation = "cyclic"
			}
			if strings.Contains(m.Invariance, "RI") && m.Rotations == nil && m.Polar == nil {
				m.Rotations = &AngleSpec{From: -20, To: 20, Count: 9}
			}
		}
		if m.Features == "cdf" || m.Features == "moments" {
			if m.TemplateOf == "" {
				m.TemplateOf = "gaussian"
			}
			if m.Thresholds == "" && m.Features == "cdf" {
				m.Thresholds = "theory"
			}
		}
		if m.Name == "" {
			m.Name = MethodName(*m)
		}
	}
}

// MethodName names a method as the papers name their rows: "raw RLS", "bag-of-words RLS",
// "CDF(n,m) RLS", "moments(m) RLS", "Haar RLS", "RBF RLS", "raw 1-NN", and for Liu et
// al.'s kernels with the svm learner "SVM", "TI-SVM", "L-TI-RI-SVM", "RI-SVM
// (average-fit)", "TI-SVM (zero-fill)"; "VSV" and "invariant SVM" for Chapelle and
// Schoelkopf's learners.
func MethodName(m Method) string {
	switch m.Learner {
	case "vsv":
		return "VSV"
	case "invariant-svm":
		return "invariant SVM"
	}
	if m.Learner == "svm" || m.Invariance != "" || m.Locality != nil {
		var head string
		if m.Locality != nil {
			head = "L-"
		}
		if m.Invariance != "" {
			head += m.Invariance + "-"
		}
		l := map[string]string{"svm": "SVM", "rls": "RLS", "1nn": "1-NN"}[m.Learner]
		name := head + l
		if m.Fit == "average" {
			name += " (average-fit)"
		}
		if strings.Contains(m.Invariance, "TI") && m.Translation == "zero-fill" {
			name += " (zero-fill)"
		}
		if m.Polar != nil && strings.Contains(m.Invariance, "RI") {
			name += " (polar)"
		}
		return name
	}
	var head string
	switch {
	case m.Kernel == "haar":
		head = "Haar"
		if m.Base == "linear" {
			head = "Haar-linear"
		}
	case m.Kernel == "rbf":
		head = "RBF"
	case m.Kernel == "linear":
		head = "linear"
	case m.Kernel == "poly":
		head = "poly"
	case m.Features == "bow":
		head = "bag-of-words"
	case m.Features == "cdf":
		head = fmt.Sprintf("CDF(%d,%d)", m.Bins, m.Templates)
	case m.Features == "moments":
		head = fmt.Sprintf("moments(%d)", m.Templates)
	default:
		head = m.Features
	}
	l := "RLS"
	if m.Learner == "1nn" {
		l = "1-NN"
	}
	return head + " " + l
}

// Validate checks the spec after Defaults and returns every problem found, one per line,
// each naming the field, the bad value and what to use instead.
func (s *Spec) Validate() error {
	s.Defaults()
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	oneOf := func(field, v string, allowed []string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		bad("%s %q is unknown: use one of %s", field, v, strings.Join(allowed, ", "))
	}
	oneOf("protocol", s.Protocol, Protocols)
	oneOf("data.name", s.Data.Name, DataNames)
	if s.Data.Name == "file" && s.Data.Path == "" {
		bad("data.path is empty: name the CSV, NPY or LIBSVM file to load")
	}
	if s.Data.Pool < 0 || s.Data.TestSize < 0 {
		bad("data.pool and data.test_size must be >= 0 (0 means all)")
	}
	if s.Data.Holdout < 0 {
		bad("data.holdout %d is negative: use 0 (test on the test set) or a validation size >= 1", s.Data.Holdout)
	}
	oneOf("group.kind", s.Group.Kind, GroupKinds)
	if s.Group.Radius < 0 || s.Group.Radius > 64 {
		bad("group.radius %d is out of range: use 0..64 pixels", s.Group.Radius)
	}
	if (s.Group.Kind == "local-shift" || s.Group.Kind == "rotation+shift") && s.Group.Radius == 0 && s.Group.Kind == "local-shift" {
		bad("group.radius is 0: a local-shift group needs a radius >= 1")
	}
	if s.Group.Kind == "rotation" || s.Group.Kind == "rotation+shift" {
		if p := angleProblem(s.Group.Angles, 3600); p != "" {
			bad("group.angles: %s: give finite from and to and a count in 1..3600 of angles distinct modulo 360, e.g. {from: -20, to: 20, count: 9}", p)
		}
	}
	if s.Group.Size < 0 {
		bad("group.size %d is negative: use 0 for the whole group or a sample size >= 1", s.Group.Size)
	}
	oneOf("sampling", s.Sampling, SamplingKinds)
	if s.Repeats < 1 || s.Repeats > MaxRepeats {
		bad("repeats %d is out of range: use 1..%d", s.Repeats, MaxRepeats)
	}
	if len(s.Methods) == 0 && s.Protocol != ProtocolApprox {
		bad("methods is empty: add at least one method, e.g. {features: cdf, bins: 25, templates: 25}")
	}
	for i, m := range s.Methods {
		s.validateMethod(i, m, bad)
	}
	s.validateAudio(bad)
	switch s.Protocol {
	case ProtocolCurve:
		if len(s.Sizes) == 0 {
			bad("sizes is empty: list the training sizes, e.g. [100, 200, 500]")
		}
		for _, n := range s.Sizes {
			if n < 2 || n > MaxSize {
				bad("training size %d is out of range: use 2..%d", n, MaxSize)
			}
		}
	case ProtocolGrid:
		if s.Grid == nil || len(s.Grid.Bins) == 0 || len(s.Grid.Templates) == 0 || s.Grid.Size < 2 {
			bad("grid needs bins, templates and a training size >= 2, e.g. {bins: [5, 25], templates: [5, 25], size: 1000}")
		} else {
			for _, b := range s.Grid.Bins {
				checkBins(b, "grid.bins", bad)
			}
			for _, t := range s.Grid.Templates {
				checkTemplates(t, "grid.templates", bad)
			}
		}
	case ProtocolGroupSize:
		if len(s.GroupSizes) == 0 || len(s.Sizes) != 1 {
			bad("group-size needs group_sizes (e.g. [1, 10, 120]) and exactly one training size in sizes")
		}
		for _, g := range s.GroupSizes {
			if g < 1 {
				bad("group size %d must be >= 1", g)
			}
		}
	case ProtocolPD:
		if s.PD == nil || len(s.PD.Sizes) == 0 || s.PD.Draws < 1 {
			bad("pd needs sizes and draws >= 1, e.g. {sizes: [25, 50, 100, 200, 400, 800], draws: 10}")
		} else {
			for _, n := range s.PD.Sizes {
				if n < 1 || n > MaxSize {
					bad("pd size %d is out of range: use 1..%d", n, MaxSize)
				}
			}
		}
	case ProtocolSweep:
		if s.Sweep == nil || len(s.Sweep.Values) == 0 || s.Sweep.Size < 2 || !in(s.Sweep.Field, SweepFields) {
			bad("sweep needs field (one of %s), values and a training size >= 2, e.g. {field: gamma, values: [0.1, 1, 10], size: 30}", strings.Join(SweepFields, ", "))
		} else {
			for _, v := range s.Sweep.Values {
				if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
					bad("sweep value %g is not a finite number >= 0", v)
				}
			}
		}
	case ProtocolApprox:
		if s.Approx == nil || s.Approx.Pairs < 2 || len(s.Approx.Templates) == 0 {
			bad("approx needs pairs >= 2, templates (e.g. [10, 100, 1000]) and bins")
		} else {
			checkBins(s.Approx.Bins, "approx.bins", bad)
			for _, t := range s.Approx.Templates {
				checkTemplates(t, "approx.templates", bad)
			}
		}
	}
	s.validateTestTransform(bad)
	return errors.Join(errs...)
}

func (s *Spec) validateMethod(i int, m Method, bad func(string, ...any)) {
	at := fmt.Sprintf("methods.%d (%s)", i, m.Name)
	if (m.Features == "") == (m.Kernel == "") {
		bad("%s: set exactly one of features (raw, bow, cdf, moments) or kernel (linear, rbf, haar)", at)
	}
	if m.Features != "" && !in(m.Features, FeatureNames) {
		bad("%s: features %q is unknown: use one of %s", at, m.Features, strings.Join(FeatureNames, ", "))
	}
	if m.Kernel != "" && !in(m.Kernel, KernelNames) {
		bad("%s: kernel %q is unknown: use one of %s", at, m.Kernel, strings.Join(KernelNames, ", "))
	}
	if m.Kernel == "haar" && !in(m.Base, []string{"linear", "rbf"}) {
		bad("%s: base %q is unknown: use linear or rbf", at, m.Base)
	}
	if !in(m.Learner, LearnerNames) {
		bad("%s: learner %q is unknown: use one of %s", at, m.Learner, strings.Join(LearnerNames, ", "))
	}
	if m.Lambda < 0 || math.IsNaN(m.Lambda) || math.IsInf(m.Lambda, 0) {
		bad("%s: lambda %g must be >= 0 and finite (0 picks it by leave-one-out)", at, m.Lambda)
	}
	if m.Gamma < 0 || math.IsNaN(m.Gamma) || math.IsInf(m.Gamma, 0) {
		bad("%s: gamma %g must be >= 0 and finite (0 picks 1/(2 median squared distance))", at, m.Gamma)
	}
	if m.Eps < 0 || m.Eps > 100 || math.IsNaN(m.Eps) {
		bad("%s: eps %g is out of range: use 0..100 (s = 1 + eps)", at, m.Eps)
	}
	if m.Features == "cdf" {
		checkBins(m.Bins, at+": bins", bad)
	}
	if m.Features == "cdf" || m.Features == "moments" {
		checkTemplates(m.Templates, at+": templates", bad)
		if !in(m.TemplateOf, TemplateKinds) {
			bad("%s: template_kind %q is unknown: use gaussian, sphere or data", at, m.TemplateOf)
		}
	}
	if m.Features == "cdf" && !in(m.Thresholds, ThresholdKinds) {
		bad("%s: thresholds %q is unknown: use theory or range", at, m.Thresholds)
	}
	s.validateKernelMethod(at, m, bad)
}

// validateKernelMethod checks the fields of Liu et al.'s kernels and of the SVM learners.
func (s *Spec) validateKernelMethod(at string, m Method, bad func(string, ...any)) {
	svm := m.Learner == "svm" || m.Learner == "invariant-svm" || m.Learner == "vsv"
	if svm && m.Kernel == "" {
		bad("%s: learner %s needs a kernel: set kernel to linear, rbf or poly", at, m.Learner)
	}
	if svm && m.Kernel == "haar" {
		bad("%s: learner %s does not take the haar kernel: use linear, rbf or poly (with invariance for Liu's kernels)", at, m.Learner)
	}
	if svm && (!(m.C > 0) || math.IsInf(m.C, 0)) {
		bad("%s: c %g must be > 0 and finite: set c, e.g. 1000 (on the Gram divided by its diagonal mean)", at, m.C)
	}
	if !svm && (m.C < 0 || math.IsNaN(m.C) || math.IsInf(m.C, 0)) {
		bad("%s: c %g must be finite and > 0 (it is used by the svm learners only: drop it)", at, m.C)
	}
	if m.Kernel == "poly" {
		if m.Degree < 1 || m.Degree > 64 {
			bad("%s: degree %d is out of range: use 1..64 (the paper uses 8)", at, m.Degree)
		}
		if m.Gamma == 0 {
			bad("%s: gamma is 0: set gamma > 0 for (1 + gamma <x,z>)^degree, e.g. 0.01 on [0,1] pixels", at)
		}
	} else if m.Degree != 0 {
		bad("%s: degree %d is set but kernel is %q: use kernel poly or drop degree", at, m.Degree, m.Kernel)
	}
	if m.Invariance != "" || m.Locality != nil {
		if !in(m.Invariance, append([]string{""}, Invariances...)) {
			bad("%s: invariance %q is unknown: use one of %s", at, m.Invariance, strings.Join(Invariances, ", "))
		}
		if m.Features != "" || m.Kernel == "haar" || m.Kernel == "" {
			bad("%s: invariance and locality need kernel linear, rbf or poly (not features)", at)
		}
		if !in(m.Learner, []string{"svm", "rls"}) {
			bad("%s: invariance and locality work with learner svm or rls, not %s", at, m.Learner)
		}
		if s.Group.Kind != "none" {
			bad("%s: invariance sets the transformations itself: set group.kind to none", at)
		}
	}
	if m.Invariance != "" {
		if !in(m.Fit, FitNames) {
			bad("%s: fit %q is unknown: use best or average", at, m.Fit)
		}
		if strings.Contains(m.Invariance, "TI") && !in(m.Translation, Translations) {
			bad("%s: translation %q is unknown: use cyclic or zero-fill", at, m.Translation)
		}
		if a := m.Rotations; a != nil {
			if p := angleProblem(a, 360); p != "" {
				bad("%s: rotations: %s: give finite from and to and a count in 1..360 of angles distinct modulo 360, e.g. {from: -20, to: 20, count: 9}", at, p)
			}
		}
		if p := m.Polar; p != nil && (p.Annuli < 1 || p.Sectors < 2 || p.Annuli > 1000 || p.Sectors > 3600) {
			bad("%s: polar needs annuli >= 1 and sectors >= 2, e.g. {annuli: 14, sectors: 36}", at)
		}
		if m.Polar != nil && m.Invariance == "TI-RI" {
			bad("%s: polar RI cannot be combined with TI: use rotations for TI-RI", at)
		}
	}
	if m.Shifts < 0 || m.Shifts > 64 {
		bad("%s: shifts %d is out of range: use 0..64 pixels (0 means 3)", at, m.Shifts)
	}
	if l := m.Locality; l != nil {
		if l.K1 < 1 || l.K1%2 == 0 || l.D1 < 1 || l.D2 < 1 {
			bad("%s: locality needs an odd k1 >= 1 and degrees d1, d2 >= 1, e.g. {k1: 5, d1: 2, d2: 4}", at)
		}
		if l.K2 < 0 || (l.K2 > 0 && (l.K2%2 == 0 || l.D3 < 1)) {
			bad("%s: locality layer 2 needs an odd k2 and d3 >= 1 (or k2 = 0 for one layer)", at)
		}
		if l.Scale < 0 || l.Scale2 < 0 || math.IsNaN(l.Scale) || math.IsNaN(l.Scale2) || math.IsInf(l.Scale, 0) || math.IsInf(l.Scale2, 0) {
			bad("%s: locality scale and scale2 must be finite and >= 0 (0 means 1)", at)
		}
	}
	if m.Learner == "invariant-svm" || m.Learner == "vsv" {
		if len(m.Tangents) == 0 && m.Learner == "vsv" {
			bad("%s: vsv needs tangents naming its transformations, e.g. [hshift, vshift]", at)
		}
		for _, t := range m.Tangents {
			if !in(t, TangentNames) {
				bad("%s: tangent %q is unknown: use one of %s", at, t, strings.Join(TangentNames, ", "))
			}
		}
		if m.InvGamma < 0 || m.InvGamma >= 1 || math.IsNaN(m.InvGamma) {
			bad("%s: inv_gamma %g is out of range: use 0 <= inv_gamma < 1", at, m.InvGamma)
		}
		if m.Smooth < 0 || math.IsNaN(m.Smooth) || math.IsInf(m.Smooth, 0) {
			bad("%s: smooth %g must be finite and >= 0 (pixels)", at, m.Smooth)
		}
	}
}

// angleProblem returns what is wrong with the angles of a (nil, a count outside
// 1..maxCount, a non-finite angle, two angles equal modulo 360, which group.Rotations
// would panic on), or "" when they are usable.
func angleProblem(a *AngleSpec, maxCount int) string {
	if a == nil {
		return "missing"
	}
	if a.Count < 1 || a.Count > maxCount {
		return fmt.Sprintf("count %d is out of range", a.Count)
	}
	if err := group.CheckAngles(group.AngleRange(a.From, a.To, a.Count)); err != nil {
		return err.Error()
	}
	return ""
}

func checkBins(b int, field string, bad func(string, ...any)) {
	if b <= 0 || b > MaxBins {
		bad("%s %d is out of range: use 1..%d bins (2n+1 thresholds)", field, b, MaxBins)
	}
}

func checkTemplates(t int, field string, bad func(string, ...any)) {
	if t <= 0 || t > MaxTemplates {
		bad("%s %d is out of range: use 1..%d templates", field, t, MaxTemplates)
	}
}

func in(v string, set []string) bool {
	for _, s := range set {
		if v == s {
			return true
		}
	}
	return false
}

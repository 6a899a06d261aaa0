package model

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// This file is the one schema of a method: which families of methods there are, which
// fields each has, when a field applies, its range, default and help, and how a family
// names and builds its methods. Validate, Defaults, DisplayName, the builders, the TUI's
// method pane, `--set` messages and `gitui presets -v` all read it, and the engine's
// caches key their shared features and kernels on what each field decides. Adding a
// field is one entry of MethodFields (plus its use in a builder).

// FieldKind is the type of a method field's value; it decides parsing, checking and how
// the TUI edits it.
type FieldKind int

// Field kinds.
const (
	KindInt      FieldKind = iota // whole number in Min..Max
	KindFloat                     // real number in Min..Max, linear steps
	KindLogFloat                  // positive real in Min..Max, stepped by factors
	KindEnum                      // one of Choices
	KindText                      // free text
	KindList                      // a list of Choices
	KindObject                    // a nested object (its own keys)
)

// String returns the kind's name as `gitui presets -v` prints it.
func (k FieldKind) String() string {
	return [...]string{"int", "float", "float", "choice", "text", "list", "object", "bool", "int list", "float list", "list of int lists"}[k]
}

// Decides is what a method field's value decides, a set of the flags below. The engine
// shares work between the methods of a run by these: the pooled features of methods that
// agree on every DecidesFeatures field, the kernel matrices of those that also agree on
// every DecidesKernel field, whatever their learners.
type Decides uint8

// What a field decides.
const (
	// DecidesName: only the series name.
	DecidesName Decides = 1 << iota
	// DecidesFeatures: the feature map or the features' input (and so the kernel on them).
	DecidesFeatures
	// DecidesKernel: the kernel (its matrices before any normalisation), not the features.
	DecidesKernel
	// DecidesKernelNorm: how the kernel matrices are normalised (computed from the
	// shared unnormalised ones).
	DecidesKernelNorm
	// DecidesLearner: how a learner fits on the features or the kernel matrix (the
	// learner, its regularisation, a PSD repair of the training Gram, tangents).
	DecidesLearner
)

// KeyOf returns a canonical encoding of the fields of m that decide any of what, by the
// registry fields: the JSON of a Method holding only those fields (by value, so equal
// groups and angle ranges behind different pointers encode alike). Two methods have the
// same key exactly when they agree on every such field. Caches derive their keys from it
// with MethodFields; a test passes its own registry.
func KeyOf(fields []*MethodField, m Method, what Decides) string {
	var k Method
	for _, f := range fields {
		if f.Decides&what != 0 {
			k.value(f.Key).Set(m.value(f.Key))
		}
	}
	b, err := json.Marshal(k) // Method holds only plain values: Marshal cannot fail
	if err != nil {
		panic(fmt.Sprintf("model: KeyOf: %v", err))
	}
	return string(b)
}

// MethodField describes one field of Method: its JSON key, kind, range or choices, what
// its zero value means, its default, a one-line help, and when it applies.
//
// A field applies to a method when Applies(m) holds (after m.Defaults()). Where it does not
// apply, Validate refuses any value other than zero or Default ("methods.0.bins applies to
// features cdf, not raw"). Where it applies, Validate checks the value: within Min..Max
// (zero is allowed when Zero is not empty) for numbers, one of Choices for enumerations
// and lists, and the field's own check.
type MethodField struct {
	Key string // JSON and YAML key, e.g. "bins"
	// Decides says what the field's value decides: the features, the kernel, its
	// normalisation, the learner, or only the name. The engine's caches derive their
	// keys from it (KeyOf): methods that agree on every field deciding the features share
	// them. Every entry must say it.
	Decides Decides
	Label   string // short label in the TUI, e.g. "bins n"
	Kind    FieldKind
	Choices []string // KindEnum, KindList
	// Min and Max bound a number where the field applies; UIMin and UIMax, when set, are
	// the narrower range the TUI offers. Step is the TUI's increment (KindInt, KindFloat)
	// or factor (KindLogFloat).
	Min, Max, UIMin, UIMax, Step float64
	// Zero says what the zero or empty value means ("auto: leave-one-out"); empty when
	// zero is not a valid value where the field applies.
	Zero string
	// Default is the value Defaults fills in where the field applies and is empty (enums).
	Default string
	Help    string
	// AppliesTo says in words where the field applies, e.g. "features cdf".
	AppliesTo string

	applies func(m Method) bool
	// not says what m is instead, for the refusal: "raw" in "applies to features cdf, not raw".
	not func(m Method) string
	// unset reports whether m leaves the field at its zero or default value (default: the
	// zero value or Default).
	unset func(m Method) bool
	// zero overrides Zero for m (gamma: auto for RBF, required for poly).
	zero func(m Method) string
	// check returns what is wrong with the value where the field applies ("" if nothing),
	// after the generic range and choice checks pass.
	check func(m Method) string
	// message overrides the generic out-of-range message (with the value formatted by %v).
	message string
}

// Applies reports whether the field applies to m (with m's defaults filled in).
func (f *MethodField) Applies(m Method) bool {
	m.Defaults()
	return f.applies == nil || f.applies(m)
}

// ZeroText returns what the zero value of the field means for m ("" if it is not allowed).
func (f *MethodField) ZeroText(m Method) string {
	if f.zero != nil {
		return f.zero(m)
	}
	return f.Zero
}

// methodFieldIndex maps a JSON key of Method to its struct field index.
var methodFieldIndex = func() map[string]int {
	t := reflect.TypeOf(Method{})
	idx := map[string]int{}
	for i := range t.NumField() {
		k, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		idx[k] = i
	}
	return idx
}()

// value returns the field key of m.
func (m *Method) value(key string) reflect.Value {
	i, ok := methodFieldIndex[key]
	if !ok {
		panic("model: Method has no field " + key)
	}
	return reflect.ValueOf(m).Elem().Field(i)
}

// SetNumber sets the numeric field f of m to v (a whole-number field to v truncated);
// it errors for a field that is not a number. The sweep protocol varies a field this way.
func (f *MethodField) SetNumber(m *Method, v float64) error {
	switch fv := m.value(f.Key); fv.Kind() {
	case reflect.Float64:
		fv.SetFloat(v)
	case reflect.Int:
		fv.SetInt(int64(v))
	default:
		return fmt.Errorf("%s is not a number", f.Key)
	}
	return nil
}

// isUnset reports whether m leaves f at its zero or default value.
func (f *MethodField) isUnset(m Method) bool {
	if f.unset != nil {
		return f.unset(m)
	}
	v := m.value(f.Key)
	switch v.Kind() {
	case reflect.Slice:
		return v.Len() == 0
	case reflect.String:
		return v.String() == "" || v.String() == f.Default
	}
	return v.IsZero()
}

// DropInapplicable sets to zero every field of m that is set (not zero or its default)
// where it does not apply (after m.Defaults()), except those keep reports, until none
// is left (dropping one can make another inapplicable). A study's trial
// (Spec.TrialSpec) uses it: a configuration that turns thresholds to theory drops the
// spec's range_sample instead of being refused.
func (m *Method) DropInapplicable(keep func(key string) bool) {
	for again, round := true, 0; again && round <= len(MethodFields); round++ {
		again = false
		for _, f := range MethodFields {
			if f.isUnset(*m) || f.Applies(*m) || keep(f.Key) {
				continue
			}
			m.value(f.Key).SetZero()
			again = true
		}
	}
}

// zeroLiteral returns the JSON value that unsets the field with --set.
func (f *MethodField) zeroLiteral() string { return f.Kind.zeroLiteral() }

// problem returns what is wrong with f's value in m where f applies, or "".
func (f *MethodField) problem(m Method) string {
	v := m.value(f.Key)
	switch f.Kind {
	case KindInt, KindFloat, KindLogFloat:
		x := 0.0
		if v.Kind() == reflect.Int {
			x = float64(v.Int())
		} else {
			x = v.Float()
		}
		out := math.IsNaN(x) || math.IsInf(x, 0) || x < f.Min || x > f.Max
		if x == 0 {
			// Zero is allowed when it means something; a check explains a zero itself.
			out = f.ZeroText(m) == "" && f.check == nil
		}
		if out {
			if f.message != "" {
				return fmt.Sprintf(f.message, x)
			}
			return fmt.Sprintf("%s %v is out of range: use %v..%v", f.Key, x, f.Min, f.Max)
		}
	case KindEnum:
		s := v.String()
		if (s == "" && f.ZeroText(m) == "") || (s != "" && !in(s, f.Choices)) {
			return fmt.Sprintf("%s %q is unknown: use one of %s", f.Key, s, strings.Join(f.Choices, ", "))
		}
	case KindList:
		for i := range v.Len() {
			if s := v.Index(i).String(); !in(s, f.Choices) {
				return fmt.Sprintf("%s %q is unknown: use one of %s", strings.TrimSuffix(f.Key, "s"), s, strings.Join(f.Choices, ", "))
			}
		}
	}
	if f.check != nil {
		return f.check(m)
	}
	return ""
}

// The kinds of the enumerated method fields: the values of features, kernel, learner,
// solver and feature_kernel. Outside this file, code asks a method what it is through
// the predicates below (or its family), never by comparing these strings
// (TestNoKindComparisonOutsideRegistry).
const (
	FeaturesRaw     = "raw"     // the inputs themselves
	FeaturesBoW     = "bow"     // bag-of-words counts of a sequence's symbols
	FeaturesCDF     = "cdf"     // I-theory CDF pooling of template projections
	FeaturesMoments = "moments" // moment pooling of template projections

	KernelLinear = "linear" // <x, z>
	KernelRBF    = "rbf"    // exp(-gamma ||x-z||²)
	KernelPoly   = "poly"   // (1 + gamma <x,z>)^degree
	KernelHaar   = "haar"   // the mean over the group of a base kernel

	LearnerRLS          = "rls"           // regularised least squares, one vs all
	Learner1NN          = "1nn"           // nearest neighbour
	LearnerSVM          = "svm"           // the SVM
	LearnerInvariantSVM = "invariant-svm" // Chapelle and Schoelkopf's invariant SVM
	LearnerVSV          = "vsv"           // virtual support vectors

	SolverNystrom    = "nystrom" // Nyström-FALKON kernel RLS on centres
	FeatureKernelRBF = "rbf"     // kernel RLS with the Gaussian kernel on the features
)

// IsRaw reports whether m has raw features (the inputs themselves).
func (m Method) IsRaw() bool { return m.Features == FeaturesRaw }

// IsBoW reports whether m has bag-of-words features.
func (m Method) IsBoW() bool { return m.Features == FeaturesBoW }

// IsMoments reports whether m has moment pooling features.
func (m Method) IsMoments() bool { return m.Features == FeaturesMoments }

// IsHaar reports whether m's kernel is the Haar integration kernel.
func (m Method) IsHaar() bool { return m.Kernel == KernelHaar }

// IsPoly reports whether m's kernel is the polynomial (1 + gamma <x,z>)^degree.
func (m Method) IsPoly() bool { return m.Kernel == KernelPoly }

// LinearBase reports whether m's base kernel k0 is linear: kernel linear, or haar with
// base linear.
func (m Method) LinearBase() bool {
	return m.Kernel == KernelLinear || m.Kernel == KernelHaar && m.Base == KernelLinear
}

// HasGamma reports whether gamma enters m's kernel: the Gaussian (kernel rbf, haar with
// base rbf, feature_kernel rbf) or the polynomial.
func (m Method) HasGamma() bool { return m.UsesRBF() || m.IsPoly() || m.FeatureRBF() }

// FeatureRBF reports whether m fits kernel RLS with the Gaussian kernel on its features
// (feature_kernel rbf).
func (m Method) FeatureRBF() bool { return m.FeatureKernel == FeatureKernelRBF }

// Nystrom reports whether m asks for the Nyström solver (solver nystrom).
func (m Method) Nystrom() bool { return m.Solver == SolverNystrom }

// NystromAt reports whether m fits by Nyström-FALKON on n training rows: feature_kernel
// rbf, solver nystrom and more rows than centres (at n <= centres the exact solver runs).
func (m Method) NystromAt(n float64) bool {
	return m.FeatureRBF() && m.Nystrom() && n > float64(m.Centres)
}

// ExactFeatureRBF reports whether m fits exact kernel RLS with the Gaussian kernel on its
// features (feature_kernel rbf, no solver, learner rls).
func (m Method) ExactFeatureRBF() bool {
	return m.FeatureRBF() && m.Solver == "" && m.Learner == LearnerRLS
}

// LearnsRLS reports whether m's learner is set to rls (IsRLS also counts an unset one).
func (m Method) LearnsRLS() bool { return m.Learner == LearnerRLS }

// Is1NN reports whether m's learner is the nearest neighbour.
func (m Method) Is1NN() bool { return m.Learner == Learner1NN }

// IsSVM reports whether m's learner is the plain SVM (not the invariant SVM or VSV).
func (m Method) IsSVM() bool { return m.Learner == LearnerSVM }

// IsVSV reports whether m's learner is virtual support vectors.
func (m Method) IsVSV() bool { return m.Learner == LearnerVSV }

// IsInvariantSVM reports whether m's learner is Chapelle and Schoelkopf's invariant SVM.
func (m Method) IsInvariantSVM() bool { return m.Learner == LearnerInvariantSVM }

// Predicates on a method (with defaults filled in), shared by the fields and families.
// Pooled reports whether m pools transformed-template projections (features cdf or moments).
func (m Method) Pooled() bool { return m.Features == "cdf" || m.Features == "moments" }

// IsCDF reports whether m has CDF pooling features.
func (m Method) IsCDF() bool { return m.Features == "cdf" }

// Invariant reports whether m sets an invariance of Liu et al.'s kernels (TI, RI, TI-RI
// or group).
func (m Method) Invariant() bool { return m.Invariance != "" }

// TIRI reports whether m's invariance is the translations composed with the rotations.
func (m Method) TIRI() bool { return m.Invariance == "TI-RI" }

// AverageFit reports whether m's invariant kernel is the mean over the transformations
// (fit average) rather than the best fit (the maximum).
func (m Method) AverageFit() bool { return m.Fit == "average" }

// LearnerUnset reports whether m names no learner (Defaults makes it rls).
func (m Method) LearnerUnset() bool { return m.Learner == "" }

// DataCovarianceTemplates reports whether m draws its templates from the pool's
// covariance (template_kind gaussian-data: feature.CovarianceTemplates).
func (m Method) DataCovarianceTemplates() bool { return m.TemplateOf == "gaussian-data" }

// Cosine reports whether m divides its kernel by sqrt(K(x,x)·K(z,z)) (kernel_norm cosine)
// instead of by the mean of the training diagonal.
func (m Method) Cosine() bool { return m.KernelNorm == "cosine" }

// IsRLS reports whether m is fitted by regularised least squares (learner rls, the
// default), whose fit gives its leave-one-out accuracy.
func (m Method) IsRLS() bool { return m.Learner == "" || m.Learner == "rls" }

func (m Method) svmLearner() bool {
	return m.Learner == "svm" || m.Learner == "invariant-svm" || m.Learner == "vsv"
}
func (m Method) chapelle() bool { return m.Learner == "invariant-svm" || m.Learner == "vsv" }
func (m Method) ti() bool       { return strings.Contains(m.Invariance, "TI") }
func (m Method) ri() bool       { return strings.Contains(m.Invariance, "RI") }

// InvarianceGroup is the invariance whose transformations are the spec's group: Liu et
// al.'s best (or average) fit max_g k0(g·x, z) over any group the spec gives.
const InvarianceGroup = "group"

// LiuBase reports whether m's kernel is one of Liu et al.'s bases (linear, rbf, poly).
func (m Method) LiuBase() bool {
	return m.Kernel == "linear" || m.Kernel == "rbf" || m.Kernel == "poly"
}

// UsesRBF reports whether m's kernel is the Gaussian exp(-gamma ||x-z||²), whose gamma 0
// means the median heuristic.
func (m Method) UsesRBF() bool { return m.Kernel == "rbf" || m.Kernel == "haar" && m.Base == "rbf" }

// What a method is, for "applies to X, not Y" messages.
func notFeatures(m Method) string {
	if m.Features == "" {
		return "kernel " + m.Kernel
	}
	return m.Features
}

// rangeThresholds reports whether m is a CDF method with range thresholds (where
// standardize and range_sample apply).
func rangeThresholds(m Method) bool { return m.IsCDF() && m.Thresholds == "range" }

// notRangeThresholds says what m is instead of a CDF method with range thresholds.
func notRangeThresholds(m Method) string {
	if m.IsCDF() {
		return "thresholds " + m.Thresholds
	}
	return notFeatures(m)
}

func notKernel(m Method) string {
	if m.Kernel == "" {
		return "features " + m.Features
	}
	return "kernel " + m.Kernel
}
func notLearner(m Method) string { return "learner " + m.Learner }

// vsvShifts reports whether m is VSV with translated copies (tangent hshift or vshift).
func vsvShifts(m Method) bool {
	return m.Learner == "vsv" && (slices.Contains(m.Tangents, "hshift") || slices.Contains(m.Tangents, "vshift"))
}

func notVSVShifts(m Method) string {
	if m.Learner != "vsv" {
		return "learner " + m.Learner
	}
	return "tangents without hshift or vshift"
}
func notFeatureKernel(m Method) string {
	if m.Features == "" {
		return "kernel " + m.Kernel
	}
	return "learner " + m.Learner
}
func notFeatureKernelRBF(m Method) string {
	switch {
	case m.Features == "":
		return "kernel " + m.Kernel + " (use features raw with feature_kernel rbf)"
	case m.FeatureKernel == "":
		return "linear features (feature_kernel unset)"
	}
	return "feature_kernel " + m.FeatureKernel
}
func notInvariance(m Method) string {
	if m.Invariance == "" {
		return "a method without invariance"
	}
	return "invariance " + m.Invariance
}
func notFamily(m Method) string {
	if f := familyOf(m); f != nil {
		return f.Title
	}
	return notKernel(m)
}

// MethodFields is the schema of a method, in the order the TUI lists them (filled by init:
// its checks refer back to it through Defaults).
var MethodFields []*MethodField

func init() { MethodFields = methodFields() }

func methodFields() []*MethodField {
	return []*MethodField{
		{Key: "features", Decides: DecidesFeatures, Label: "features", Kind: KindEnum, Choices: FeatureNames, Zero: "none (kernel)", AppliesTo: "every method",
			Help: "raw, bag-of-words, cdf (I-theory CDF pooling) or moments pooling; or leave empty and pick a kernel"},
		{Key: "kernel", Decides: DecidesKernel, Label: "kernel", Kind: KindEnum, Choices: KernelNames, Zero: "none (features)", AppliesTo: "every method",
			Help: "linear, rbf, poly ((1 + gamma <x,z>)^degree) or haar (integration over the group of the base kernel)"},
		{Key: "base", Decides: DecidesKernel, Label: "base kernel", Kind: KindEnum, Choices: []string{"linear", "rbf"}, Default: "rbf", AppliesTo: "kernel haar",
			Help: "base kernel of the Haar integration", applies: func(m Method) bool { return m.Kernel == "haar" }, not: notKernel},
		{Key: "gamma", Decides: DecidesKernel, Label: "gamma", Kind: KindLogFloat, Min: 0, Max: math.MaxFloat64, UIMin: 1e-8, UIMax: 1e8, Step: 10, AppliesTo: "kernels rbf and poly, haar with base rbf, and feature_kernel rbf",
			Help:    "RBF width exp(-gamma ||x-z||²) (on the features with feature_kernel rbf), or the scale of (1 + gamma <x,z>)^degree; ←/→ step by 10×",
			applies: func(m Method) bool { return m.UsesRBF() || m.Kernel == "poly" || m.FeatureKernel == "rbf" }, not: notKernel,
			zero: func(m Method) string {
				if m.Kernel == "poly" {
					return ""
				}
				return "auto: 1/(2 median d²)"
			},
			message: "gamma %g must be >= 0 and finite (0 picks 1/(2 median squared distance) for rbf): give e.g. 0.01",
			check: func(m Method) string {
				if m.Kernel == "poly" && m.Gamma == 0 {
					return "gamma is 0: set gamma > 0 for (1 + gamma <x,z>)^degree, e.g. 0.01 on [0,1] pixels"
				}
				return ""
			}},
		{Key: "degree", Decides: DecidesKernel, Label: "degree", Kind: KindInt, Min: 1, Max: 64, AppliesTo: "kernel poly",
			Help: "polynomial degree (Liu et al. use 8)", applies: func(m Method) bool { return m.Kernel == "poly" }, not: notKernel,
			message: "degree %v is out of range: use 1..64 (the paper uses 8)"},
		{Key: "invariance", Decides: DecidesKernel, Label: "invariance", Kind: KindEnum, Choices: Invariances, Zero: "none",
			AppliesTo: "kernels linear, rbf and poly with learner svm or rls",
			Help:      "Liu et al.: TI all cyclic translations (FFT), RI rotated copies or polar grid, TI-RI both; group: the spec's group (e.g. dihedral, a file's permutations)",
			applies:   func(m Method) bool { return m.LiuBase() && (m.Learner == "svm" || m.Learner == "rls") }, not: notFamily},
		{Key: "fit", Decides: DecidesKernel, Label: "fit", Kind: KindEnum, Choices: FitNames, Default: "best", AppliesTo: "an invariance (TI, RI, TI-RI)",
			Help:    "best: max over the transformations of k(Tx, z); average: their mean (PSD, like data augmentation)",
			applies: func(m Method) bool { return m.Invariance != "" }, not: notInvariance},
		{Key: "psd", Decides: DecidesLearner, Label: "psd", Kind: KindEnum, Choices: []string{"clip", "flip"}, Zero: "as is", AppliesTo: "Liu et al.'s kernels (learner svm, or an invariance or locality)",
			Help:    "make the training Gram PSD: clip negative eigenvalues (test rows carried along); best-fit Grams are indefinite",
			applies: func(m Method) bool { return familyOf(m) == FamilyLiu }, not: notFamily},
		{Key: "kernel_norm", Decides: DecidesKernelNorm, Label: "kernel norm", Kind: KindEnum, Choices: []string{"cosine", "mean"}, Zero: "diagonal mean (Liu), none (vsv)", AppliesTo: "Liu et al.'s kernels (learner svm, or an invariance or locality), learner vsv",
			Help:    "cosine: K(x,z)/sqrt(K(x,x)K(z,z)); mean: K divided by the mean of its training diagonal, the default of Liu et al.'s kernels (VSV's default is K as it is)",
			applies: func(m Method) bool { return familyOf(m) == FamilyLiu || m.Learner == "vsv" && m.Kernel != "" }, not: notFamily,
			check: func(m Method) string {
				if m.Learner == "vsv" && m.KernelNorm == "cosine" {
					return "kernel_norm cosine is not implemented for vsv: use mean (K divided by its training diagonal's mean), or none"
				}
				return ""
			}},
		{Key: "translation", Decides: DecidesKernel, Label: "translation", Kind: KindEnum, Choices: Translations, Default: "cyclic", AppliesTo: "invariance TI or TI-RI",
			Help:    "cyclic: wrap around (the paper's); zero-fill: no wrap-around",
			applies: func(m Method) bool { return m.ti() }, not: notInvariance},
		{Key: "shifts", Decides: DecidesKernel, Label: "shifts", Kind: KindInt, Min: 0, Max: 64, Zero: "full range (3 with locality)", AppliesTo: "invariance TI or TI-RI, or locality",
			Help:    "largest shift |dy|, |dx| in pixels of the translations",
			applies: func(m Method) bool { return m.ti() || m.Locality != nil }, not: notInvariance,
			message: "shifts %v is out of range: use 0..64 pixels (0 means the default)"},
		{Key: "rotations", Decides: DecidesKernel, Label: "rotations", Kind: KindObject, Zero: "-20..20 degrees, 9 angles", AppliesTo: "invariance RI or TI-RI without polar",
			Help:    "rotation angles {from, to, count} in degrees (default -20..20, 9)",
			applies: func(m Method) bool { return m.ri() && m.Polar == nil }, not: notInvariance,
			unset: func(m Method) bool {
				return m.Rotations == nil || *m.Rotations == AngleSpec{From: -20, To: 20, Count: 9}
			},
			check: func(m Method) string {
				if p := angleProblem(m.Rotations, 360); p != "" {
					return "rotations: " + p + ": give finite from and to and a count in 1..360 of angles distinct modulo 360, e.g. {from: -20, to: 20, count: 9}"
				}
				return ""
			}},
		{Key: "polar", Decides: DecidesKernel, Label: "polar", Kind: KindObject, Zero: "none: rotated copies", AppliesTo: "invariance RI",
			Help:    "RI on a polar grid {annuli, sectors}: rotations become cyclic shifts of the sectors",
			applies: func(m Method) bool { return m.ri() }, not: notInvariance,
			check: func(m Method) string {
				if p := m.Polar; p != nil && (p.Annuli < 1 || p.Sectors < 2 || p.Annuli > 1000 || p.Sectors > 3600) {
					return "polar needs annuli >= 1 and sectors >= 2, e.g. {annuli: 14, sectors: 36}"
				}
				if m.Polar != nil && m.Invariance == "TI-RI" {
					return "polar RI cannot be combined with TI: use rotations for TI-RI"
				}
				if m.Polar != nil && m.Locality != nil {
					return "the locality kernel composes with rotated copies, not the polar grid: drop polar"
				}
				return ""
			}},
		{Key: "locality", Decides: DecidesKernel, Label: "locality", Kind: KindObject, Zero: "none: the plain base kernel", AppliesTo: "kernels linear, rbf and poly with learner svm or rls",
			Help:    "Liu et al.'s locality kernel {k1, d1, d2, k2, d3, scale, scale2} as the base kernel",
			applies: func(m Method) bool { return m.LiuBase() && (m.Learner == "svm" || m.Learner == "rls") }, not: notFamily,
			check: func(m Method) string {
				l := m.Locality
				switch {
				case l == nil:
				case l.K1 < 1 || l.K1%2 == 0 || l.D1 < 1 || l.D2 < 1:
					return "locality needs an odd k1 >= 1 and degrees d1, d2 >= 1, e.g. {k1: 5, d1: 2, d2: 4}"
				case l.K2 < 0 || (l.K2 > 0 && (l.K2%2 == 0 || l.D3 < 1)):
					return "locality layer 2 needs an odd k2 and d3 >= 1 (or k2 = 0 for one layer)"
				case l.K2 == 0 && l.D3 != 0:
					return "locality.d3 applies to the second layer: set k2 or drop d3"
				case l.K2 == 0 && l.Scale2 != 0:
					return "locality.scale2 applies to the second layer: set k2 or drop scale2"
				case !(l.Scale >= 0) || !(l.Scale2 >= 0) || math.IsInf(l.Scale, 0) || math.IsInf(l.Scale2, 0):
					return "locality scale and scale2 must be finite and >= 0 (0 means 1)"
				}
				return ""
			}},
		{Key: "bins", Decides: DecidesFeatures, Label: "bins n", Kind: KindInt, Min: 1, Max: MaxBins, AppliesTo: "features cdf",
			Help: "CDF thresholds tau_k = s k/n, k = -n..n (2n+1 bins)", applies: Method.IsCDF, not: notFeatures,
			message: fmt.Sprintf("bins %%v is out of range: use 1..%d bins (2n+1 thresholds)", MaxBins)},
		{Key: "group", Decides: DecidesFeatures, Label: "own group", Kind: KindObject, Zero: "the spec's group", AppliesTo: "features cdf and moments",
			Help:    "this method's own group, e.g. {kind: pitch-tempo, size: 1} (the identity only) beside the spec's group",
			applies: Method.Pooled, not: notFeatures},
		{Key: "templates", Decides: DecidesFeatures, Label: "templates m", Kind: KindInt, Min: 1, Max: MaxTemplates, Step: 5, AppliesTo: "features cdf and moments",
			Help: "number of random templates t_j", applies: Method.Pooled, not: notFeatures,
			message: fmt.Sprintf("templates %%v is out of range: use 1..%d templates", MaxTemplates)},
		{Key: "template_kind", Decides: DecidesFeatures, Label: "template kind", Kind: KindEnum, Choices: TemplateKinds, Default: "gaussian", AppliesTo: "features cdf and moments",
			Help: "gaussian N(0,I/d) with rejection, uniform on the sphere, drawn from the data, smooth (noise box-filtered over a 7x7 neighbourhood of an image or spectrogram), or gaussian-data (N(0, S^1/2) with S the training pool's covariance, box-filtered over 3x3; no labels used)", applies: Method.Pooled, not: notFeatures},
		{Key: "eps", Decides: DecidesFeatures, Label: "eps (s=1+eps)", Kind: KindFloat, Min: 0, Max: 100, Step: 0.1, Zero: "0", AppliesTo: "features cdf, and moments with gaussian templates",
			Help:    "threshold range s = 1 + eps (and the rejection radius of gaussian templates)",
			applies: func(m Method) bool { return m.IsCDF() || m.Features == "moments" && m.TemplateOf == "gaussian" }, not: notFeatures,
			message: "eps %g is out of range: use 0..100 (s = 1 + eps)"},
		{Key: "thresholds", Decides: DecidesFeatures, Label: "thresholds", Kind: KindEnum, Choices: ThresholdKinds, Default: "theory", AppliesTo: "features cdf",
			Help: "theory grid s k/n, or fitted to the projections' range (no labels used)", applies: Method.IsCDF, not: notFeatures},
		{Key: "standardize", Decides: DecidesFeatures, Label: "standardize", Kind: KindEnum, Choices: StandardizeKinds, Zero: "none", AppliesTo: "features cdf with thresholds range",
			Help:    "per transformed template g_i t_j, fitted on the pool with the range thresholds (no labels used): mean subtracts the projections' mean (centres the inputs); spread also scales them to the template's mean spread. A diagnostic: on the speech rate split both lose 4-9 points (docs/speech.md)",
			applies: rangeThresholds, not: notRangeThresholds},
		{Key: "range_sample", Decides: DecidesFeatures, Label: "range sample", Kind: KindInt, Min: 0, Max: MaxSize, Step: 500, Zero: "the whole pool", AppliesTo: "features cdf with thresholds range",
			Help:    "fit the range thresholds (and standardize) on a seeded sample of this many training-pool rows, not all of them: one projection pass over the sample instead of the pool (the pass a study's first rung pays in full); the sample is drawn from the spec's seed, without labels",
			applies: rangeThresholds, not: notRangeThresholds,
			message: fmt.Sprintf("range_sample %%v is out of range: use 0 (the whole pool) to %d rows", MaxSize)},
		{Key: "preprocess", Decides: DecidesFeatures, Label: "preprocess", Kind: KindEnum, Choices: PreprocessKinds, Zero: "none: the images as they are", AppliesTo: "features raw, cdf and moments, learners invariant-svm and vsv",
			Help:    "deskew: shear every image (pool and test) upright by its second moments and centre its mass first, the classic MNIST deskewing (the canonical form under slant); each image keeps its norm",
			applies: func(m Method) bool { return m.Features == "raw" || m.Pooled() || m.Kernel != "" && m.chapelle() }, not: notFeatures},
		{Key: "learner", Decides: DecidesLearner, Label: "learner", Kind: KindEnum, Choices: LearnerNames, Default: "rls", AppliesTo: "every method",
			Help: "rls: one-vs-all regularized least squares; 1nn: nearest neighbour; svm; invariant-svm and vsv (Chapelle and Schoelkopf)"},
		{Key: "c", Decides: DecidesLearner, Label: "C", Kind: KindLogFloat, Min: 0, Max: math.MaxFloat64, UIMin: 1e-6, UIMax: 1e12, Step: 10, AppliesTo: "learners svm, invariant-svm and vsv",
			Help:    "SVM cost on the Gram divided by its diagonal mean (Liu et al.: 1000); ←/→ step by 10×",
			applies: Method.svmLearner, not: notLearner,
			message: "c %g must be > 0 and finite: set c, e.g. 1000 (on the Gram divided by its diagonal mean)"},
		{Key: "lambda", Decides: DecidesLearner, Label: "lambda", Kind: KindLogFloat, Min: 1e-12, Max: 1e6, Step: 10, Zero: "auto: leave-one-out", AppliesTo: "learner rls",
			Help:    "Tikhonov regularization; ←/→ step by 10×, 0 picks it by leave-one-out",
			applies: func(m Method) bool { return m.Learner == "rls" }, not: notLearner,
			zero: func(m Method) string {
				if m.Solver == "nystrom" {
					return "auto: leave-one-out (nystrom: a 1/6 validation split)"
				}
				return "auto: leave-one-out"
			},
			message: "lambda %g is out of range: use 1e-12..1e6, or 0 to pick it by leave-one-out"},
		{Key: "feature_kernel", Decides: DecidesKernel, Label: "feature kernel", Kind: KindEnum, Choices: []string{"rbf"}, Zero: "linear: the features themselves", AppliesTo: "features with learner rls",
			Help:    "rbf: kernel RLS with exp(-gamma ||f(x)-f(z)||²) on the features (gamma 0: 1/(2 median d²) over the draw's feature rows)",
			applies: func(m Method) bool { return m.Features != "" && m.Learner == "rls" }, not: notFeatureKernel},
		{Key: "solver", Decides: DecidesLearner, Label: "solver", Kind: KindEnum, Choices: []string{"nystrom"}, Zero: "exact: the n×n kernel", AppliesTo: "feature_kernel rbf",
			Help:    "nystrom: kernel RLS on M centres (FALKON's preconditioned iterations, O(nM) memory, lambda on a 1/6 validation split) at training sizes above centres; exact (leave-one-out lambda) at the others",
			applies: func(m Method) bool { return m.FeatureKernel == "rbf" }, not: notFeatureKernelRBF,
			check: func(m Method) string {
				if m.Solver == "nystrom" && m.Centres == 0 {
					return "solver nystrom needs centres, the number M of Nyström centres, e.g. centres: 5000"
				}
				return ""
			}},
		{Key: "centres", Decides: DecidesLearner, Label: "centres M", Kind: KindInt, Min: 1, Max: MaxSize, Step: 1000, Zero: "none", AppliesTo: "solver nystrom",
			Help:    "number M of Nyström centres, drawn uniformly from the training rows (seeded): memory n·M·4 bytes plus 3 M² doubles, time O(nMD + M³) once and O(nMk) an iteration",
			applies: func(m Method) bool { return m.Solver == "nystrom" }, not: func(m Method) string { return "solver " + cmp.Or(m.Solver, "exact") },
			message: fmt.Sprintf("centres %%v is out of range: use 1..%d", MaxSize)},
		{Key: "tangents", Decides: DecidesLearner, Label: "tangents", Kind: KindList, Zero: "none (vsv needs one)", Choices: TangentNames, AppliesTo: "learners invariant-svm and vsv",
			Help: "tangent vectors (invariant-svm) or transformations (vsv): hshift, vshift, rotation", applies: Method.chapelle, not: notLearner,
			check: func(m Method) string {
				if m.Learner == "vsv" && len(m.Tangents) == 0 {
					return "vsv needs tangents naming its transformations, e.g. [hshift, vshift]"
				}
				return ""
			}},
		{Key: "jitter", Decides: DecidesLearner, Label: "jitter px", Kind: KindInt, Min: 1, Max: 3, Step: 1, Zero: "1 pixel", AppliesTo: "learner vsv with tangent hshift or vshift",
			Help:    "largest translation (pixels) of the virtual support vectors: copies at 1..jitter pixels in each direction (DeCoste and Schoelkopf: 1 or 2)",
			applies: vsvShifts, not: notVSVShifts,
			message: "jitter %v is out of range: use 1..3 pixels"},
		{Key: "directions", Decides: DecidesLearner, Label: "directions", Kind: KindInt, Min: 4, Max: 8, Step: 4, Zero: "4: the axes", AppliesTo: "learner vsv with tangent hshift or vshift",
			Help:    "4: translate the support vectors along the axes the tangents name; 8: also diagonally (needs hshift and vshift)",
			applies: vsvShifts, not: notVSVShifts,
			message: "directions %v is out of range: use 4 or 8",
			check: func(m Method) string {
				switch {
				case m.Directions != 0 && m.Directions != 4 && m.Directions != 8:
					return fmt.Sprintf("directions %d: use 4 (the axes) or 8 (with the diagonals)", m.Directions)
				case m.Directions == 8 && !(slices.Contains(m.Tangents, "hshift") && slices.Contains(m.Tangents, "vshift")):
					return "directions 8 translates diagonally and needs tangents hshift and vshift: add both, or use directions 4"
				}
				return ""
			}},
		{Key: "inv_gamma", Decides: DecidesLearner, Label: "inv gamma", Kind: KindFloat, Min: 0, Max: 0.999999, Step: 0.1, Zero: "0: the plain SVM", AppliesTo: "learner invariant-svm",
			Help:    "Chapelle and Schoelkopf's gamma in [0,1): weight of the tangent covariance",
			applies: func(m Method) bool { return m.Learner == "invariant-svm" }, not: notLearner,
			message: "inv_gamma %g is out of range: use 0 <= inv_gamma < 1"},
		{Key: "smooth", Decides: DecidesLearner, Label: "smooth", Kind: KindFloat, Min: 0, Max: 100, Step: 0.5, Zero: "none", AppliesTo: "learner invariant-svm",
			Help:    "Gaussian smoothing (pixels) of the images before their tangents are taken",
			applies: func(m Method) bool { return m.Learner == "invariant-svm" }, not: notLearner,
			message: "smooth %g must be finite and in 0..100 (pixels)"},
		{Key: "name", Decides: DecidesName, Label: "series name", Kind: KindText, AppliesTo: "every method",
			Help: "name of the curve; empty: derived from the settings, and it follows them",
			zero: func(m Method) string { m.Name = ""; return m.DisplayName() }},
	}
}

// MethodFieldOf returns the field with JSON key key, or nil.
func MethodFieldOf(key string) *MethodField {
	for _, f := range MethodFields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// Family is a kind of method: which methods it covers, which learners it takes, how it
// names its methods and how it builds them.
type Family struct {
	Key   string // "features", "kernel", "liu", "chapelle"
	Title string // in messages: "kernel RLS/1-NN"
	Help  string
	// Learners the family takes.
	Learners []string
	match    func(m Method) bool
	name     func(m Method) string
}

// NewFamily returns a family keyed key (titled title in messages, help in the
// reference) taking learners, covering the methods (defaults filled in) for which match
// holds and naming them by name. A new family is registered by putting it in Families
// ahead of any family that would also match its methods, plus its engine's entry
// (model/engine, family.go); Validate, MethodName and the TUI then know it.
func NewFamily(key, title, help string, learners []string, match func(Method) bool, name func(Method) string) *Family {
	return &Family{Key: key, Title: title, Help: help, Learners: learners, match: match, name: name}
}

// The families of methods, in the order FamilyOf tries them. The engine (model/engine)
// builds and estimates each one.
var (
	// FamilyFeatures: a feature map and RLS or 1-NN (Mroueh et al.).
	FamilyFeatures = &Family{Key: "features", Title: "feature methods", Learners: []string{"rls", "1nn"},
		Help:  "a feature map (raw, bag-of-words, CDF or moment pooling; Mroueh et al.) and RLS or 1-NN",
		match: func(m Method) bool { return m.Features != "" }, name: featureName}
	// FamilyChapelle: the invariant SVM and virtual support vectors.
	FamilyChapelle = &Family{Key: "chapelle", Title: "Chapelle and Schoelkopf's learners", Learners: []string{"invariant-svm", "vsv"},
		Help:  "the invariant SVM (tangent vectors) and virtual support vectors, on kernel linear, rbf or poly",
		match: func(m Method) bool { return m.Kernel != "" && m.chapelle() }, name: chapelleName}
	// FamilyLiu: Liu et al.'s invariant and local kernels.
	FamilyLiu = &Family{Key: "liu", Title: "Liu et al.'s kernels", Learners: []string{"svm", "rls"},
		Help: "kernels linear, rbf, poly with SVM (or RLS), made invariant (TI, RI, TI-RI; best or average fit) and local",
		match: func(m Method) bool {
			return m.LiuBase() && (m.Learner == "svm" || m.Invariance != "" || m.Locality != nil || m.Kernel == "poly")
		}, name: liuName}
	// FamilyKernel: kernel RLS and 1-NN (linear, rbf, Haar).
	FamilyKernel = &Family{Key: "kernel", Title: "kernel RLS/1-NN", Learners: []string{"rls", "1nn"},
		Help:  "kernel RLS or 1-NN with kernel linear, rbf or haar (Haar integration over the group)",
		match: func(m Method) bool { return m.Kernel == "linear" || m.Kernel == "rbf" || m.Kernel == "haar" }, name: kernelName}
	// Families lists every family.
	Families = []*Family{FamilyFeatures, FamilyChapelle, FamilyLiu, FamilyKernel}
)

// FamilyOf returns the family of m (with defaults filled in), or nil when m sets neither
// features nor a known kernel.
func FamilyOf(m Method) *Family {
	m.Defaults()
	return familyOf(m)
}

// familyOf is FamilyOf on a method whose defaults are filled in already.
func familyOf(m Method) *Family {
	for _, f := range Families {
		if f.match(m) {
			return f
		}
	}
	return nil
}

// MethodName names a method as the papers name their rows: "raw RLS", "bag-of-words RLS",
// "CDF(n,m) RLS", "CDF(n,m) RBF RLS" (feature_kernel rbf), "CDF(n,m) RLS (range
// thresholds, standardize mean, deskewed)" (the options that change CDF features or their
// input, template_kind aside), "moments(m) RLS", "Haar RLS", "RBF RLS", "raw 1-NN", and for Liu et
// al.'s kernels with the svm learner "SVM", "TI-SVM", "L-TI-RI-SVM", "RI-SVM
// (average-fit)", "TI-SVM (zero-fill)", "TI-SVM (±2 cyclic)" (shifts 2 instead of the
// full range), "L-TI-SVM (±2)"; "VSV" and "invariant SVM" for Chapelle and
// Schoelkopf's learners. It ignores m.Name (see DisplayName).
func MethodName(m Method) string {
	if f := FamilyOf(m); f != nil {
		return f.name(m)
	}
	return strings.TrimSpace(m.Features + m.Kernel + " " + LearnerName(m.Learner))
}

func featureName(m Method) string {
	head := m.Features
	switch m.Features {
	case "bow":
		head = "bag-of-words"
	case "cdf":
		head = fmt.Sprintf("CDF(%d,%d)", m.Bins, m.Templates)
	case "moments":
		head = fmt.Sprintf("moments(%d)", m.Templates)
	}
	if m.FeatureKernel == "rbf" {
		head += " RBF"
	}
	name := head + " " + LearnerName(m.Learner)
	var quals []string
	if m.Thresholds == "range" {
		q := "range thresholds"
		if m.RangeSample > 0 {
			q += fmt.Sprintf(" from %d rows", m.RangeSample)
		}
		quals = append(quals, q)
	}
	if m.Standardize != "" {
		quals = append(quals, "standardize "+m.Standardize)
	}
	if m.Preprocess == "deskew" {
		quals = append(quals, "deskewed")
	}
	if len(quals) > 0 {
		name += " (" + strings.Join(quals, ", ") + ")"
	}
	return name
}

func kernelName(m Method) string {
	head := map[string]string{"rbf": "RBF", "linear": "linear", "poly": "poly", "haar": "Haar"}[m.Kernel]
	if m.Kernel == "haar" && m.Base == "linear" {
		head = "Haar-linear"
	}
	return head + " " + LearnerName(m.Learner)
}

func chapelleName(m Method) string {
	if m.Learner == "vsv" {
		var q []string
		if vsvShifts(m) && (m.Jitter > 1 || m.Directions == 8) {
			q = append(q, fmt.Sprintf("±%d px, %d directions", max(m.Jitter, 1), cmp.Or(m.Directions, 4)))
		}
		if m.Preprocess == "deskew" {
			q = append(q, "deskewed")
		}
		if len(q) > 0 {
			return "VSV (" + strings.Join(q, ", ") + ")"
		}
		return "VSV"
	}
	return "invariant SVM"
}

func liuName(m Method) string {
	if m.Learner != "svm" && m.Invariance == "" && m.Locality == nil {
		return kernelName(m) // poly RLS
	}
	var head string
	if m.Locality != nil {
		head = "L-"
	}
	switch m.Invariance {
	case "":
	case InvarianceGroup:
		head += "G-" // the best fit over the spec's group G
	default:
		head += m.Invariance + "-"
	}
	name := head + map[string]string{"svm": "SVM", "rls": "RLS", "1nn": "1-NN"}[m.Learner]
	if m.Fit == "average" {
		name += " (average-fit)"
	}
	switch {
	case m.ti() && m.Locality == nil && m.Shifts > 0:
		name += fmt.Sprintf(" (±%d %s)", m.Shifts, m.Translation) // local shifts, not the full range
	case m.ti() && m.Locality != nil && m.Shifts > 0 && m.Shifts != 3:
		name += fmt.Sprintf(" (±%d)", m.Shifts)
		if m.Translation == "zero-fill" {
			name += " (zero-fill)"
		}
	case m.ti() && m.Translation == "zero-fill":
		name += " (zero-fill)"
	}
	if m.Polar != nil && m.ri() {
		name += " (polar)"
	}
	return name
}

// LearnerName returns the learner l as a series name shows it: RLS, 1-NN or SVM.
func LearnerName(l string) string {
	switch l {
	case "1nn":
		return "1-NN"
	case "svm":
		return "SVM"
	}
	return "RLS"
}

// validateMethodFields checks method i of s against the schema: its family and learner,
// every field that applies (range, choices, own check), and refuses every field set
// where it does not apply. at prefixes the messages about values.
func validateMethodFields(i int, m Method, at string, bad func(field, format string, a ...any)) {
	key := fmt.Sprintf("methods.%d", i)
	if (m.Features == "") == (m.Kernel == "") {
		bad(key, "%s: set exactly one of features (raw, bow, cdf, moments) or kernel (linear, rbf, poly, haar)", at)
		return
	}
	for _, f := range MethodFields[:2] { // features, kernel: the family depends on them
		if p := f.problem(m); p != "" {
			bad(key+"."+f.Key, "%s: %s", at, p)
			return
		}
	}
	if p := MethodFieldOf("learner").problem(m); p != "" {
		bad(key+".learner", "%s: %s", at, p)
		return
	}
	fam := familyOf(m)
	if !in(m.Learner, fam.Learners) {
		switch {
		case fam == FamilyLiu && (m.Invariance != "" || m.Locality != nil):
			// The invariance made it one of Liu's kernels: it is the field that does not apply.
			lk := "invariance"
			if m.Invariance == "" {
				lk = "locality"
			}
			bad(key+"."+lk, "methods.%d.%s applies to %s, not learner %s: use learner svm or rls, or drop it (on a preset: --set methods.%d.%s=%s)",
				i, lk, MethodFieldOf(lk).AppliesTo, m.Learner, i, lk, MethodFieldOf(lk).zeroLiteral())
		case fam == FamilyFeatures && m.svmLearner():
			bad(key+".learner", "%s: learner %s needs a kernel: set kernel to linear, rbf or poly instead of features", at, m.Learner)
		case m.Kernel == "haar":
			bad(key+".learner", "%s: learner %s does not take the haar kernel: use rls or 1nn, or kernel linear, rbf or poly (with invariance for Liu's kernels)", at, m.Learner)
		default:
			bad(key+".learner", "%s: learner %s does not work with %s: use %s", at, m.Learner, fam.Title, strings.Join(fam.Learners, " or "))
		}
		return
	}
	for _, f := range MethodFields {
		if f.Applies(m) {
			if p := f.problem(m); p != "" {
				bad(key+"."+f.Key, "%s: %s", at, p)
			}
			continue
		}
		if !f.isUnset(m) {
			bad(key+"."+f.Key, "methods.%d.%s applies to %s, not %s: drop it (on a preset: --set methods.%d.%s=%s)", i, f.Key, f.AppliesTo, f.not(m), i, f.Key, f.zeroLiteral())
		}
	}
}

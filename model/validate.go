package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Known names for the enumerated fields of a Spec.
var (
	DataNames      = []string{"xperm", "circle", "mnist", "fashion-mnist", "embedded", "file"}
	GroupKinds     = []string{"none", "permutation", "cyclic-shift", "local-shift", "rotation", "rotation+shift"}
	FeatureNames   = []string{"raw", "bow", "cdf", "moments"}
	KernelNames    = []string{"linear", "rbf", "haar"}
	LearnerNames   = []string{"rls", "1nn"}
	TemplateKinds  = []string{"gaussian", "sphere", "data"}
	ThresholdKinds = []string{"theory", "range"}
	SamplingKinds  = []string{"balanced", "stratified", "uniform"}
	Protocols      = []string{ProtocolCurve, ProtocolGrid, ProtocolGroupSize, ProtocolApprox}
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
// "CDF(n,m) RLS", "moments(m) RLS", "Haar RLS", "RBF RLS", "raw 1-NN", ...
func MethodName(m Method) string {
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
	oneOf("group.kind", s.Group.Kind, GroupKinds)
	if s.Group.Radius < 0 || s.Group.Radius > 64 {
		bad("group.radius %d is out of range: use 0..64 pixels", s.Group.Radius)
	}
	if (s.Group.Kind == "local-shift" || s.Group.Kind == "rotation+shift") && s.Group.Radius == 0 && s.Group.Kind == "local-shift" {
		bad("group.radius is 0: a local-shift group needs a radius >= 1")
	}
	if s.Group.Kind == "rotation" || s.Group.Kind == "rotation+shift" {
		if a := s.Group.Angles; a == nil || a.Count < 1 || a.Count > 3600 || math.IsNaN(a.From) || math.IsNaN(a.To) {
			bad("group.angles needs from, to and count in 1..3600, e.g. {from: -20, to: 20, count: 9}")
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
		bad("%s: learner %q is unknown: use rls or 1nn", at, m.Learner)
	}
	if m.Lambda < 0 || math.IsNaN(m.Lambda) || math.IsInf(m.Lambda, 0) {
		bad("%s: lambda %g must be >= 0 (0 picks it by leave-one-out)", at, m.Lambda)
	}
	if m.Gamma < 0 || math.IsNaN(m.Gamma) || math.IsInf(m.Gamma, 0) {
		bad("%s: gamma %g must be >= 0 (0 picks 1/(2 median squared distance))", at, m.Gamma)
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

package model

import (
	"fmt"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"gitui/core/data"
	"gitui/core/group"
)

// Known names for the enumerated fields of a Spec.
var (
	DataNames      = []string{"xperm", "circle", "mnist", "fashion-mnist", "embedded", "file", "mnist-translated", "mnist-rotated", "digits16", "spoken-digits", "fsdd", "audiomnist", "tidigits", "graphs", "graphs-relabelled", "usps", "usps-binary", "emnist-letters"}
	FeatureNames   = []string{"raw", "bow", "cdf", "moments"}
	KernelNames    = []string{"linear", "rbf", "poly", "haar"}
	LearnerNames   = []string{"rls", "1nn", "svm", "invariant-svm", "vsv"}
	Invariances    = []string{"TI", "RI", "TI-RI", InvarianceGroup}
	FitNames       = []string{"best", "average"}
	Translations   = []string{"cyclic", "zero-fill"}
	TangentNames   = []string{"hshift", "vshift", "rotation"}
	SweepFields    = []string{"gamma", "inv_gamma", "c"}
	TemplateKinds  = []string{"gaussian", "sphere", "data", "smooth", "gaussian-data"}
	ThresholdKinds = []string{"theory", "range"}
	// PreprocessKinds are the values of a feature method's preprocess field.
	PreprocessKinds = []string{"deskew"}
	SamplingKinds   = []string{"balanced", "stratified", "uniform", "disjoint"}
)

// StandardizeKinds are the values of a CDF method's standardize (feature.Standardization).
var StandardizeKinds = []string{"mean", "spread"}

// Limits that guard against absurd parameters (memory and time), with the reason in the error.
const (
	MaxTemplates = 100000
	MaxBins      = 1000
	MaxRepeats   = 10000
	MaxSize      = 10000000
)

// Defaults fills zero values with their documented defaults: repeats 1, sampling
// "stratified" ("balanced" for xperm), group kind "none", and for each method the
// defaults of its fields (Method.Defaults). It leaves method names empty: an empty name
// is derived from the settings when a series is named (Method.DisplayName), so that a
// later `--set methods.2.bins=7` renames the series too.
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
		s.Group.Kind = GroupNone
	}
	for i := range s.Methods {
		s.Methods[i].Defaults()
	}
}

// Defaults fills the zero fields of m that have a documented default where they apply
// (MethodFields: learner "rls", base "rbf" for the Haar kernel, fit "best" and translation
// "cyclic" with an invariance, template kind "gaussian", thresholds "theory"), and
// rotations -20..20 degrees (9) for RI without a polar grid. Name is left as it is.
func (m *Method) Defaults() {
	if m.LearnerUnset() {
		m.Learner = LearnerRLS
	}
	for _, f := range MethodFields {
		if f.Default == "" || f.Kind != KindEnum {
			continue
		}
		if v := m.value(f.Key); v.String() == "" && (f.applies == nil || f.applies(*m)) {
			v.SetString(f.Default)
		}
	}
	if m.ri() && m.Rotations == nil && m.Polar == nil {
		m.Rotations = &AngleSpec{From: -20, To: 20, Count: 9}
	}
}

// DisplayName returns the series name of m: Name when the user wrote one, else the name
// derived from its settings (with their defaults) as the papers name their rows
// (MethodName).
func (m Method) DisplayName() string {
	if m.Name != "" {
		return m.Name
	}
	m.Defaults()
	return MethodName(m)
}

// UniqueName returns the name to give method i of s so that no other method of s has
// the same DisplayName: "" (keep the derived name) when it is already unique, else the
// derived name followed by " (k)" with the smallest free k >= 2, e.g. "raw RLS (2)".
func (s *Spec) UniqueName(i int) string {
	taken := map[string]bool{}
	for j, m := range s.Methods {
		if j != i {
			taken[m.DisplayName()] = true
		}
	}
	mi := s.Methods[i]
	mi.Name = ""
	base := mi.DisplayName()
	if !taken[base] {
		return ""
	}
	for k := 2; ; k++ {
		if n := fmt.Sprintf("%s (%d)", base, k); !taken[n] {
			return n
		}
	}
}

// controlChars returns the problems of the names and descriptions holding control
// characters (ESC, CR, ...): they are printed in tables, logs and the TUI, where an
// escape sequence would move the cursor, recolour or clear the user's terminal. The
// message quotes them escaped.
func (s *Spec) controlChars() Problems {
	var ps Problems
	check := func(field, v string) {
		if strings.ContainsFunc(v, unicode.IsControl) {
			ps = append(ps, Problem{Field: field, Msg: fmt.Sprintf("%s %q holds control characters: remove them (names are printed on the terminal)", field, v)})
		}
	}
	check("name", s.Name)
	check("description", s.Description)
	for i, m := range s.Methods {
		check(fmt.Sprintf("methods.%d.name", i), m.Name)
	}
	return ps
}

// Validate checks s and returns every problem found as Problems (nil when there is
// none): one Problem per mistake, keyed by the field at fault (Problem.Field) and saying
// the bad value and what to use instead; past MaxProblems, a last Problem counts the rest.
// Its Error is one problem a line.
//
// Validate only reads s. It checks s as it is: a field left zero where Defaults would
// fill it (repeats, sampling, group.kind, a method's learner, ...) is checked as zero,
// so a spec that may leave them unset is passed through Defaults first, where it is
// loaded or edited (LoadSpec, ParseSpec, the presets, the command line after --set).
func (s *Spec) Validate() error {
	if ps := s.controlChars(); len(ps) > 0 {
		return ps // alone: the other messages would quote the name raw
	}
	var ps Problems
	said := map[string]bool{}
	var more []uint64 // the problems past MaxProblems, by hash: counted, each once, not kept
	seed := maphash.MakeSeed()
	bad := func(field, format string, a ...any) { // each problem once (sizes [1,1,1] is one mistake)
		switch msg := fmt.Sprintf(format, a...); {
		case said[msg]:
		case len(ps) < MaxProblems:
			said[msg] = true
			ps = append(ps, Problem{Field: field, Msg: msg})
		default:
			more = append(more, maphash.String(seed, msg))
		}
	}
	oneOf := func(field, v string, allowed []string) {
		for _, a := range allowed {
			if v == a {
				return
			}
		}
		bad(field, "%s %q is unknown: use one of %s", field, v, strings.Join(allowed, ", "))
	}
	oneOf("protocol", s.Protocol, Protocols)
	oneOf("data.name", s.Data.Name, DataNames)
	if f := s.Data.Fallback; f != "" {
		switch {
		case f == s.Data.Name || f == "file":
			bad("data.fallback", "data.fallback %q: name another data set of the data directory (e.g. digits16 for usps), or drop it", f)
		default:
			oneOf("data.fallback", f, DataNames)
		}
	}
	if s.Data.Name == "file" && s.Data.Path == "" {
		bad("data.path", "data.path is empty: name the %s file to load", data.JoinOr(data.FormatFamilies()))
	}
	if pool := specField("data.pool").InRange(float64(s.Data.Pool)); !pool || !specField("data.test_size").InRange(float64(s.Data.TestSize)) {
		key := "data.test_size"
		if !pool {
			key = "data.pool"
		}
		bad(key, "data.pool and data.test_size must be >= 0 (0 means all)")
	}
	if !specField("data.holdout").InRange(float64(s.Data.Holdout)) {
		bad("data.holdout", "data.holdout %d is negative: use 0 (test on the test set) or a validation size >= 1", s.Data.Holdout)
	}
	oneOf("group.kind", s.Group.Kind, GroupKinds)
	validateFileGroup(s.Group, "group", bad)
	if f := specField("group.radius"); !f.InRange(float64(s.Group.Radius)) {
		bad("group.radius", "group.radius %d is out of range: use %d..%d pixels", s.Group.Radius, int(f.Min), int(f.Max))
	}
	if s.Group.Kind == GroupLocalShift && s.Group.Radius == 0 {
		bad("group.radius", "group.radius is 0: a local-shift group needs a radius >= 1")
	}
	if TakesAngles(s.Group.Kind) {
		n := int(specField("group.angles.count").Max)
		if p := angleProblem(s.Group.Angles, n); p != "" {
			bad("group.angles", "group.angles: %s: give finite from and to and a count in 1..%d of angles distinct modulo 360, e.g. {from: -20, to: 20, count: 9}", p, n)
		}
	}
	if TakesAffine(s.Group.Kind) {
		for _, p := range affineProblems(s.Group, "group") {
			bad(p.Field, "%s", p.Msg)
		}
	}
	if !specField("group.size").InRange(float64(s.Group.Size)) {
		bad("group.size", "group.size %d is negative: use 0 for the whole group or a sample size >= 1", s.Group.Size)
	}
	oneOf("sampling", s.Sampling, SamplingKinds)
	if s.Seed > math.MaxInt64 { // compared as an integer: float64(MaxInt64) rounds up to 2^63
		bad("seed", "seed %d is out of range: use 0..%d", s.Seed, int64(math.MaxInt64))
	}
	if s.Sampling == "disjoint" {
		if s.Nested {
			bad("sampling", "sampling disjoint draws disjoint training sets, nested makes them subsets of one another: drop one of the two")
		}
		if s.Data.Pool > 0 && s.Protocol == ProtocolSweep && s.Sweep != nil && s.Repeats*s.Sweep.Size > s.Data.Pool {
			bad("sampling", "sampling disjoint: %d repeats of %d samples need %d pool samples, data.pool is %d: lower repeats or raise data.pool", s.Repeats, s.Sweep.Size, s.Repeats*s.Sweep.Size, s.Data.Pool)
		}
	}
	if f := specField("repeats"); !f.InRange(float64(s.Repeats)) {
		bad("repeats", "repeats %d is out of range: use %d..%d", s.Repeats, int(f.Min), int(f.Max))
	}
	if len(s.Methods) == 0 && s.Protocol != ProtocolApprox {
		bad("methods", "methods is empty: add at least one method, e.g. {features: cdf, bins: 25, templates: 25}")
	}
	seen := map[string]int{}
	for i, m := range s.Methods {
		n := m.DisplayName()
		j, dup := seen[n]
		if !dup {
			seen[n] = i
		}
		// A copy of the method of its name has that method's problems, said once under
		// methods.j: it is only a duplicate (a spec of a million copies validates in
		// linear time with a small constant).
		if !dup || !reflect.DeepEqual(m, s.Methods[j]) {
			s.validateMethod(i, m, bad)
			if m.Preprocess != "" && !ImageData(s.Data) {
				bad(fmt.Sprintf("methods.%d.preprocess", i), "methods.%d.preprocess %s needs images, data %s does not hold them: drop preprocess", i, m.Preprocess, s.Data.Name)
			}
		}
		if dup {
			bad(fmt.Sprintf("methods.%d.name", i), "methods.%d and methods.%d are both named %q, and their results would be pooled into one series: give methods.%d a different name (name: ...)", j, i, n, i)
		}
	}
	s.validateAudio(bad)
	s.validateApplies(bad)
	switch s.Protocol {
	case ProtocolCurve:
		if len(s.Sizes) == 0 {
			bad("sizes", "sizes is empty: list the training sizes, e.g. [100, 200, 500]")
		}
		f := specField("sizes")
		for _, n := range s.Sizes {
			if !f.InRange(float64(n)) {
				bad("sizes", "training size %d is out of range: use %d..%d", n, int(f.Min), int(f.Max))
			}
		}
	case ProtocolGrid:
		if s.Grid == nil || len(s.Grid.Bins) == 0 || len(s.Grid.Templates) == 0 || !specField("grid.size").InRange(float64(s.Grid.Size)) {
			bad("grid", "grid needs bins, templates and a training size >= 2, e.g. {bins: [5, 25], templates: [5, 25], size: 1000}")
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
			bad("group_sizes", "group-size needs group_sizes (e.g. [1, 10, 120]) and exactly one training size in sizes")
		}
		for _, g := range s.GroupSizes {
			if !specField("group_sizes").InRange(float64(g)) {
				bad("group_sizes", "group size %d must be >= 1", g)
			}
		}
	case ProtocolPD:
		if s.PD == nil || len(s.PD.Sizes) == 0 || !specField("pd.draws").InRange(float64(s.PD.Draws)) {
			bad("pd", "pd needs sizes and draws >= 1, e.g. {sizes: [25, 50, 100, 200, 400, 800], draws: 10}")
		} else {
			f := specField("pd.sizes")
			for _, n := range s.PD.Sizes {
				if !f.InRange(float64(n)) {
					bad("pd.sizes", "pd size %d is out of range: use %d..%d", n, int(f.Min), int(f.Max))
				}
			}
		}
	case ProtocolSweep:
		if s.Sweep == nil || len(s.Sweep.Values) == 0 || !specField("sweep.size").InRange(float64(s.Sweep.Size)) || !in(s.Sweep.Field, SweepFields) {
			bad("sweep", "sweep needs field (one of %s), values and a training size >= 2, e.g. {field: gamma, values: [0.1, 1, 10], size: 30}", strings.Join(SweepFields, ", "))
		} else {
			for _, v := range s.Sweep.Values {
				if !specField("sweep.values").InRange(v) {
					bad("sweep.values", "sweep value %g is not a finite number >= 0", v)
				}
			}
		}
	case ProtocolApprox:
		if s.Approx == nil || !specField("approx.pairs").InRange(float64(s.Approx.Pairs)) || len(s.Approx.Templates) == 0 {
			bad("approx", "approx needs pairs >= 2, templates (e.g. [10, 100, 1000]) and bins")
		} else {
			checkBins(s.Approx.Bins, "approx.bins", bad)
			for _, t := range s.Approx.Templates {
				checkTemplates(t, "approx.templates", bad)
			}
		}
	}
	s.validateTestTransform(bad)
	if s.Tune != nil && len(ps) == 0 { // the search space is checked on a spec that validates (model/tune.go)
		s.validateTune(bad)
	}
	if len(more) > 0 {
		slices.Sort(more)
		ps = append(ps, Problem{Msg: fmt.Sprintf("and %s more", groupThousands(len(slices.Compact(more))))})
	}
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// MaxProblems is how many of a spec's problems Validate spells out, one a line; the
// rest are counted in a last line, "and 1,999,998 more", so that a spec of millions of
// bad sizes or duplicate methods gives a short message, not one of millions of clauses.
const MaxProblems = 3

// groupThousands writes n with commas between groups of three digits: 1,999,998.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func (s *Spec) validateMethod(i int, m Method, bad func(field, format string, a ...any)) {
	key, at := fmt.Sprintf("methods.%d", i), fmt.Sprintf("methods.%d (%s)", i, m.DisplayName())
	validateMethodFields(i, m, at, bad)
	if m.Invariance == InvarianceGroup && familyOf(m) == FamilyLiu {
		switch {
		case !IsGroup(s.Group.Kind):
			bad(key+".invariance", "%s: invariance group takes the best fit over the spec's group, and group.kind is none: set group.kind (e.g. dihedral)", at)
		case m.Locality != nil:
			bad(key+".locality", "%s: invariance group does not compose with the locality kernel: drop locality, or use invariance TI, RI or TI-RI", at)
		case s.Protocol == ProtocolGroupSize:
			bad(key+".invariance", "%s: invariance group takes the spec's group as it is, and the group-size protocol samples it: use protocol sample-complexity", at)
		}
	} else if (m.Invariant() || m.Locality != nil) && familyOf(m) == FamilyLiu && s.Group.Kind != GroupNone {
		liuKey := "invariance"
		if !m.Invariant() {
			liuKey = "locality"
		}
		bad(key+"."+liuKey, "%s: invariance and locality set the transformations themselves: set group.kind to none (or use invariance group for the best fit over the spec's group)", at)
	}
	if m.Pooled() && s.Group.Kind == GroupNone && s.Protocol != ProtocolApprox {
		bad(key+".features", "%s: %s pooling averages over a group, and group.kind is none: set group.kind (e.g. permutation, rotation+shift)", at, m.Features)
	}
	if m.UsesRBF() && m.Gamma == 0 && s.Protocol == ProtocolPD {
		bad(key+".gamma", "%s: gamma 0 (auto) is chosen on the training pool, which protocol pd does not draw: set gamma > 0", at)
	}
	if m.Nystrom() && m.Centres > 0 {
		if n := s.largestTrainingSize(); n > 0 && m.Centres >= n {
			bad(key+".centres", "%s: centres %d is not below the largest training size %d, where the Nyström fit would be the exact one: use centres < %d, or drop solver", at, m.Centres, n, n)
		}
		if m.Lambda == 0 {
			for _, n := range s.trainingSizes() {
				// lambda is chosen on a sixth of the rows (learn.NystromOptions.Validation):
				// the centres are drawn from the other five sixths.
				if fit := n - int(math.Round(float64(n)/6)); n > m.Centres && m.Centres > fit {
					bad(key+".centres", "%s: centres %d exceed the %d rows lambda is fitted on at training size %d (a sixth is held out to choose lambda): use centres <= %d, a fixed lambda, or sizes <= %d", at, m.Centres, fit, n, fit, m.Centres)
				}
			}
		}
	}
	if m.IsHaar() {
		switch {
		case s.Group.Kind == GroupNone:
			bad(key+".kernel", "%s: the Haar kernel averages over a group, and group.kind is none: set group.kind to permutation or cyclic-shift", at)
		case !haarGroupKind(s.Group.Kind):
			bad(key+".kernel", "%s: the Haar kernel averages over a whole group, and group.kind %s is not one (not closed under composition): use permutation or cyclic-shift, or CDF features for local invariance", at, s.Group.Kind)
		case s.Group.Size > 0:
			bad(key+".kernel", "%s: the Haar kernel averages over the whole group, and group.size %d keeps a sample of it: set group.size to 0, or use CDF features with a sampled group", at, s.Group.Size)
		case s.Protocol == ProtocolGroupSize:
			bad(key+".kernel", "%s: the group-size protocol samples the group, and the Haar kernel needs the whole group: use CDF features, or protocol sample-complexity", at)
		}
	}
}

// largestTrainingSize returns the largest number of training samples a cell of s
// draws (0 where the protocol draws none).
func (s *Spec) largestTrainingSize() int { return slices.Max(append([]int{0}, s.trainingSizes()...)) }

// trainingSizes returns the numbers of training samples the cells of s draw.
func (s *Spec) trainingSizes() []int {
	switch s.Protocol {
	case ProtocolCurve, ProtocolGroupSize:
		return s.Sizes
	case ProtocolSweep:
		if s.Sweep != nil {
			return []int{s.Sweep.Size}
		}
	case ProtocolGrid:
		if s.Grid != nil {
			return []int{s.Grid.Size}
		}
	}
	return nil
}

// Tidy clears every field that does not apply where it is (spec-level fields and method
// fields, see MethodFields): what the TUI does after an edit that changes the protocol,
// the group kind, the data set or a method's family, so that the values left behind by the
// old choice do not block the run. The command line never tidies: there a field that does
// not apply is refused by Validate.
func (s *Spec) Tidy() {
	s.Defaults()
	for _, f := range SpecFields {
		if f.IsSet(s) && !f.Applies(s) {
			f.clear(s)
		}
	}
	for i := range s.Methods {
		s.Methods[i].Tidy()
	}
}

// Tidy sets every field of m that does not apply to it to its zero value (Name excepted).
func (m *Method) Tidy() {
	for range 3 { // a cleared field can make another one inapplicable (invariance, then fit)
		m.Defaults()
		for _, f := range MethodFields {
			if f.applies != nil && !f.applies(*m) && !f.isUnset(*m) {
				m.value(f.Key).SetZero()
			}
		}
	}
}

// validateApplies refuses every spec-level field set where it does not apply, and a
// sweep over a field that applies to none of the methods.
func (s *Spec) validateApplies(bad func(field, format string, a ...any)) {
	for _, f := range SpecFields {
		if f.IsSet(s) && !f.Applies(s) {
			bad(f.Key, "%s applies to %s, not %s: drop it (on a preset: --set %s=%s)", f.Key, f.AppliesTo, f.not(s), f.Key, f.ZeroLiteral())
		}
	}
	if s.Protocol == ProtocolSweep && s.Sweep != nil {
		// A method the field does not apply to is a reference: it runs once and is drawn
		// flat across the values (SweepReference). At least one method must be swept.
		if f := MethodFieldOf(s.Sweep.Field); f != nil && len(s.Methods) > 0 && !slices.ContainsFunc(s.Methods, f.Applies) {
			bad("sweep.field", "sweep.field %s applies to %s, and no method is one: sweep another field or add such a method", f.Key, f.AppliesTo)
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

// Bounds of group.shears and group.scales: a shear of 1 slants a vertical stroke by 45°,
// a scale of 2 doubles the picture; MaxAffineCount bounds each list.
const (
	MaxShear       = 1.0
	MinScale       = 0.5
	MaxScale       = 2.0
	MaxAffineCount = 64
)

// AffineProblems returns one line per problem of the shears and scales of g (at names the
// group, e.g. "group" or "methods.0.group"): a count outside 1..MaxAffineCount, a value
// not finite or outside [-MaxShear, MaxShear] or [MinScale, MaxScale] (to only when
// count > 1), two equal values.
func AffineProblems(g GroupSpec, at string) []string { return affineProblems(g, at).Messages() }

// affineProblems is AffineProblems keyed by field (at.shears, at.scales).
func affineProblems(g GroupSpec, at string) Problems {
	var out Problems
	check := func(field string, a *AngleSpec, lo, hi float64, eg string) {
		if a == nil {
			return
		}
		fix := fmt.Sprintf("give finite from and to in [%g, %g] and a count in 1..%d (from != to when count > 1), e.g. %s", lo, hi, MaxAffineCount, eg)
		key := at + "." + field
		switch {
		case a.Count < 1 || a.Count > MaxAffineCount:
			out = append(out, Problem{key, fmt.Sprintf("%s.%s: count %d is out of range: %s", at, field, a.Count, fix)})
		case math.IsNaN(a.From) || a.From < lo || a.From > hi || a.Count > 1 && (math.IsNaN(a.To) || a.To < lo || a.To > hi):
			// With count 1 the list is [from] (AngleRange): to is not used.
			out = append(out, Problem{key, fmt.Sprintf("%s.%s: from %g, to %g: %s", at, field, a.From, a.To, fix)})
		case a.Count > 1 && a.From == a.To:
			out = append(out, Problem{key, fmt.Sprintf("%s.%s: %d values all equal to %g (the same map repeated): %s", at, field, a.Count, a.From, fix)})
		}
	}
	check("shears", g.Shears, -MaxShear, MaxShear, "{from: -0.3, to: 0.3, count: 5}")
	check("scales", g.Scales, MinScale, MaxScale, "{from: 0.9, to: 1.1, count: 3}")
	return out
}

// affineKey returns the field of g that a "shears and scales do not apply" problem
// names: shears when they are set, else scales.
func affineKey(g GroupSpec) string {
	if g.Shears != nil {
		return "shears"
	}
	return "scales"
}

func checkBins(b int, field string, bad func(field, format string, a ...any)) {
	if b <= 0 || b > MaxBins {
		bad(field, "%s %d is out of range: use 1..%d bins (2n+1 thresholds)", field, b, MaxBins)
	}
}

func checkTemplates(t int, field string, bad func(field, format string, a ...any)) {
	if t <= 0 || t > MaxTemplates {
		bad(field, "%s %d is out of range: use 1..%d templates", field, t, MaxTemplates)
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

// ImageData reports whether the data d names can hold images (2-D samples a
// preprocess such as deskew reads as pictures): not the X_perm sequences, the circle's
// points or spectrograms of spoken digits. Files may hold anything and are let through
// (a sample that is not 2-D is refused when the run starts).
func ImageData(d DataSpec) bool {
	switch d.Name {
	case "xperm", "circle", "graphs", "graphs-relabelled":
		return false
	}
	return !slices.Contains(AudioDataNames, d.Name)
}

// SweepReference reports whether m is a reference line of s's sweep: s sweeps a field
// that does not apply to m (inv_gamma and a VSV), so m runs once, at the first value,
// and its points are repeated at every other value (a flat line).
func (s *Spec) SweepReference(m Method) bool {
	if s.Protocol != ProtocolSweep || s.Sweep == nil {
		return false
	}
	f := MethodFieldOf(s.Sweep.Field)
	return f != nil && !f.Applies(m)
}

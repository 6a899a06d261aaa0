package model

import (
	"fmt"
	"math"
	"strings"

	"gitui/core/data"
)

// This file is the schema of the spec-level fields (everything outside methods: the
// protocol and its sizes, data, group, sampling, seed, test_transform), in the same shape
// as the method fields of family.go (MethodField): key, label, kind, range or choices,
// default, what zero means, help and where the field applies. Validate (the refusal of a
// field set where it does not apply, and the ranges), Tidy, the TUI's data, group and
// method panes and the reference (docs/spec.md) read it.

// Group kinds: the values of group.kind (and test_transform.kind, methods.N.group.kind).
const (
	GroupNone            = "none"              // no group: the identity only
	GroupPermutation     = "permutation"       // permutations of the blocks of a sequence
	GroupCyclicShift     = "cyclic-shift"      // all 2-D cyclic shifts of an image
	GroupLocalShift      = "local-shift"       // shifts |dy|, |dx| <= radius, zero fill
	GroupRotation        = "rotation"          // rotations by the angles
	GroupRotationShift   = "rotation+shift"    // rotations (shears, scales) times local shifts
	GroupPitchTempo      = "pitch-tempo"       // spectrogram pitch shifts x tempo warps (25)
	GroupPitchTempoPaper = "pitch-tempo-paper" // {-400, 0, 400} cents x {0.5, 1, 2} (9)
)

// selfContainedData are the data sets that never miss their files (generated or built
// in): a fallback does not apply to them.
var selfContainedData = []string{"xperm", "circle", "embedded", "graphs", "graphs-relabelled"}

// GroupKinds lists every group kind, in the order the TUI offers them.
var GroupKinds = append([]string{GroupNone, GroupPermutation, GroupCyclicShift, GroupLocalShift, GroupRotation, GroupRotationShift, GroupPitchTempo, GroupPitchTempoPaper}, FileGroupKinds...)

// ImageGroupKinds are the group kinds that act on images (h x w samples).
var ImageGroupKinds = []string{GroupCyclicShift, GroupLocalShift, GroupRotation, GroupRotationShift}

// TakesRadius reports whether the group kind kind uses a shift radius (local-shift,
// rotation+shift).
func TakesRadius(kind string) bool { return kind == GroupLocalShift || kind == GroupRotationShift }

// TakesAngles reports whether the group kind kind uses rotation angles (rotation,
// rotation+shift).
func TakesAngles(kind string) bool { return kind == GroupRotation || kind == GroupRotationShift }

// TakesAffine reports whether the group kind kind uses shears and scales (rotation+shift).
func TakesAffine(kind string) bool { return kind == GroupRotationShift }

// IsPitchTempo reports whether the group kind kind acts on spectrograms by pitch shifts
// and tempo warps (pitch-tempo, pitch-tempo-paper).
func IsPitchTempo(kind string) bool {
	return kind == GroupPitchTempo || kind == GroupPitchTempoPaper
}

// IsGroup reports whether kind names a group other than the identity ("" and none do not).
func IsGroup(kind string) bool { return kind != "" && kind != GroupNone }

// More field kinds, for spec-level fields (MethodField uses the first seven).
const (
	KindBool      FieldKind = KindObject + 1 + iota // true or false
	KindIntList                                     // a list of whole numbers, each in Min..Max
	KindFloatList                                   // a list of real numbers, each in Min..Max
	KindIntLists                                    // a list of lists of whole numbers (group.generators)
)

// SpecField describes one spec-level field, addressed by its dotted JSON path
// ("data.pool", "group.angles.count"), with the attributes of MethodField: kind, range or
// choices, what zero means, the default, a one-line help and where it applies.
//
// Where a field with a value (set, see Set) does not apply, Validate refuses it
// ("group.radius applies to group kinds local-shift and rotation+shift, not group.kind
// rotation") and Tidy clears it. A number, or every element of a list, must lie in
// Min..Max (bounds inclusive; math.MaxFloat64 means no upper bound): Validate checks it
// where the spec has the field, and the TUI refuses a value outside it before it reaches
// the spec; the TUI steps within UIMin..UIMax when they are set.
type SpecField struct {
	Key     string // dotted JSON path, e.g. "data.pool"
	Label   string // short label in the TUI, e.g. "pool cap"
	Kind    FieldKind
	Choices []string // KindEnum
	// Min and Max bound a number; UIMin and UIMax, when set, are the range the TUI's ←/→
	// steps within. Step is the TUI's increment (KindInt, KindFloat).
	Min, Max, UIMin, UIMax, Step float64
	// Zero says what the zero or empty value means ("all"); empty when zero is not a value
	// to give where the field applies.
	Zero string
	// Default is the value Defaults fills in when the field is empty.
	Default string
	Help    string
	// AppliesTo says in words where the field applies, e.g. "protocol pd"; empty when it
	// applies to every spec.
	AppliesTo string

	// set reports whether s gives the field a value (nil: the field is not checked for
	// where it applies), applies whether it applies, not what s has instead ("protocol
	// grid"), clear unsets it.
	set, applies func(s *Spec) bool
	not          func(s *Spec) string
	clear        func(s *Spec)
}

// Applies reports whether the field applies to s (with an empty group kind read as none).
func (f *SpecField) Applies(s *Spec) bool { return f.applies == nil || f.applies(s) }

// IsSet reports whether s gives the field a value that Validate checks against where it
// applies (false for fields that apply everywhere).
func (f *SpecField) IsSet(s *Spec) bool { return f.set != nil && f.set(s) }

// ZeroLiteral returns the JSON value that unsets the field with --set: 0, "", [], false
// or null by kind.
func (f *SpecField) ZeroLiteral() string { return f.Kind.zeroLiteral() }

// zeroLiteral returns the JSON value that unsets a field of kind k with --set (method
// and spec-level fields alike): 0, "", [], false or null.
func (k FieldKind) zeroLiteral() string {
	switch k {
	case KindInt, KindFloat, KindLogFloat:
		return "0"
	case KindEnum, KindText:
		return `""`
	case KindList, KindIntList, KindFloatList:
		return "[]"
	case KindIntLists:
		return "null" // [] would be an empty list of generators, which Validate refuses
	case KindBool:
		return "false"
	}
	return "null"
}

// InRange reports whether x is a finite number in Min..Max.
func (f *SpecField) InRange(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0) && x >= f.Min && x <= f.Max
}

// SpecFieldOf returns the spec-level field with dotted key key, or nil.
func SpecFieldOf(key string) *SpecField {
	for _, f := range SpecFields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// specField is SpecFieldOf for keys the package knows exist.
func specField(key string) *SpecField {
	f := SpecFieldOf(key)
	if f == nil {
		panic("model: no spec field " + key)
	}
	return f
}

func protocolIs(ps ...string) func(s *Spec) bool {
	return func(s *Spec) bool { return in(s.Protocol, ps) }
}
func groupIs(ks ...string) func(s *Spec) bool {
	return func(s *Spec) bool { return in(s.Group.Kind, ks) }
}
func nowProtocol(s *Spec) string { return "protocol " + s.Protocol }
func nowGroup(s *Spec) string    { return "group.kind " + s.Group.Kind }
func nowData(s *Spec) string     { return "data.name " + s.Data.Name }

// unbounded is the Max of a number without an upper bound.
const unbounded = math.MaxFloat64

// SpecFields is the schema of the spec-level fields, in the order of a spec file.
var SpecFields []*SpecField

func init() { SpecFields = specFields() }

func specFields() []*SpecField {
	labelNames, labelExts := data.LabelColumnFormats()
	return []*SpecField{
		{Key: "name", Label: "name", Kind: KindText, Help: "name of the experiment (a preset's name, or your own)"},
		{Key: "description", Label: "description", Kind: KindText, Zero: "none", Help: "one line saying what the experiment shows"},
		{Key: "protocol", Label: "protocol", Kind: KindEnum, Choices: Protocols,
			Help: "sample-complexity: accuracy vs training size; grid: bins × templates; group-size: vs |G|; kernel-approx: Theorem 1"},

		{Key: "data.name", Label: "data set", Kind: KindEnum, Choices: DataNames,
			Help: "xperm and circle are generated; embedded is built in; mnist/fashion-mnist need the data directory; file loads " + strings.Join(data.FormatFamilies(), "/")},
		{Key: "data.path", Label: "training file", Kind: KindText, Zero: "none", AppliesTo: "data.name file",
			Help: "path of a " + data.JoinOr(data.FormatFamilies()) + " file (a CSV holds one sample per row, its label in the last column)",
			set:  func(s *Spec) bool { return s.Data.Path != "" }, applies: func(s *Spec) bool { return s.Data.Name == "file" || in(s.Data.Name, AudioDataNames) },
			not: nowData, clear: func(s *Spec) { s.Data.Path = "" }},
		{Key: "data.test_path", Label: "test file", Kind: KindText, Zero: "hold out test_size samples", AppliesTo: "data.name file",
			Help: "optional: a test file of the same shape",
			set:  func(s *Spec) bool { return s.Data.TestPath != "" }, applies: func(s *Spec) bool {
				return s.Data.Name == "file" || in(s.Data.Name, AudioDataNames) && s.Data.Audio != nil && s.Data.Audio.Split == "corpus"
			}, not: nowData, clear: func(s *Spec) { s.Data.TestPath = "" }},
		{Key: "data.label_column", Label: "label column", Kind: KindText, Zero: "the last column", AppliesTo: "data.name file with a " + data.JoinOr(labelExts) + " path",
			Help: "the label column of a " + data.JoinOr(labelNames) + " file: a header name, or a 0-based index",
			set:  func(s *Spec) bool { return s.Data.LabelColumn != "" }, applies: func(s *Spec) bool {
				return s.Data.Name == "file" && data.HasLabelColumn(s.Data.Path) && (s.Data.TestPath == "" || data.HasLabelColumn(s.Data.TestPath))
			}, not: func(s *Spec) string {
				if s.Data.Name != "file" {
					return nowData(s)
				}
				return "data.path " + s.Data.Path + pathIf(s.Data.TestPath)
			}, clear: func(s *Spec) { s.Data.LabelColumn = "" }},
		{Key: "data.pool", Label: "pool cap", Kind: KindInt, Min: 0, Max: unbounded, Step: 1000, Zero: "all",
			Help: "training pool: the first N samples (0 = all)"},
		{Key: "data.test_size", Label: "test size", Kind: KindInt, Min: 0, Max: unbounded, Step: 1000, Zero: "all / default",
			Help:      "test samples drawn stratified (0 = all; xperm default 8000)",
			AppliesTo: "the test set, which data.holdout replaces",
			set:       func(s *Spec) bool { return s.Data.TestSize > 0 }, applies: func(s *Spec) bool {
				// With a holdout, test_size still sizes the split of xperm and circle; a single
				// file is not split before its holdout is drawn, so it has none.
				d := s.Data
				return d.Holdout == 0 || d.Name == "xperm" || d.Name == "circle"
			}, not: func(s *Spec) string {
				return fmt.Sprintf("data.holdout %d with data.name %s", s.Data.Holdout, s.Data.Name)
			}, clear: func(s *Spec) { s.Data.TestSize = 0 }},
		{Key: "data.normalize", Label: "unit-norm rows", Kind: KindBool, Zero: "true", Help: "scale every sample to unit norm (the I-theory features assume it)"},
		{Key: "data.classes", Label: "classes", Kind: KindIntList, Min: -unbounded, Max: unbounded, Zero: "every label",
			Help: "keep only these labels, relabelled 0..k-1 in that order"},
		{Key: "data.holdout", Label: "holdout", Kind: KindInt, Min: 0, Max: unbounded, Zero: "test on the test set",
			Help: "hold this many samples out of the training pool and test on them instead (a validation split)"},
		{Key: "data.fallback", Label: "fallback", Kind: KindEnum, Choices: DataNames, Zero: "none (a missing data set is an error)",
			AppliesTo: "data sets read from files (not xperm, circle, embedded or graphs)",
			Help:      "data set loaded instead when data.name's files are not in the data directory (the run log and the result say which was used)",
			set:       func(s *Spec) bool { return s.Data.Fallback != "" }, applies: func(s *Spec) bool { return !in(s.Data.Name, selfContainedData) },
			not: nowData, clear: func(s *Spec) { s.Data.Fallback = "" }},
		{Key: "data.audio", Label: "audio", Kind: KindObject, Zero: "the corpus's defaults", AppliesTo: "spoken-digit data (" + strings.Join(AudioDataNames, ", ") + ")",
			Help:    "spoken-digit split and spectrogram settings (see AudioSpec)",
			applies: func(s *Spec) bool { return in(s.Data.Name, AudioDataNames) }},

		{Key: "group.kind", Label: "group", Kind: KindEnum, Choices: GroupKinds, Default: GroupNone,
			Help: "permutation: blocks of a sequence; cyclic-shift: all 2-D shifts; local-shift: |dx|,|dy| <= radius; rotation: angles; rotation+shift: their product; pitch-tempo: spectrogram pitch shifts ±400 cents x tempo 0.5..2 (25), pitch-tempo-paper: {-400,0,400} cents x {0.5,1,2} (9); permutations/linear: a .npy file; generated: generators; dihedral, mirror, reversal"},
		{Key: "group.radius", Label: "shift radius", Kind: KindInt, Min: 0, Max: 64, AppliesTo: "group kinds local-shift and rotation+shift",
			Help: "largest shift in pixels along each axis (zero fill)",
			set:  func(s *Spec) bool { return s.Group.Radius != 0 }, applies: func(s *Spec) bool { return TakesRadius(s.Group.Kind) },
			not: nowGroup, clear: func(s *Spec) { s.Group.Radius = 0 }},
		{Key: "group.angles", Label: "angles", Kind: KindObject, AppliesTo: "group kinds rotation and rotation+shift",
			Help: "rotation angles {from, to, count} in degrees, evenly spaced",
			set:  func(s *Spec) bool { return s.Group.Angles != nil }, applies: func(s *Spec) bool { return TakesAngles(s.Group.Kind) },
			not: nowGroup, clear: func(s *Spec) { s.Group.Angles = nil }},
		{Key: "group.angles.from", Label: "angle from °", Kind: KindFloat, Min: -unbounded, Max: unbounded, UIMin: -180, UIMax: 180, Step: 5,
			AppliesTo: "group kinds rotation and rotation+shift", Help: "first rotation angle in degrees",
			applies: func(s *Spec) bool { return TakesAngles(s.Group.Kind) }},
		{Key: "group.angles.to", Label: "angle to °", Kind: KindFloat, Min: -unbounded, Max: unbounded, UIMin: -180, UIMax: 180, Step: 5,
			AppliesTo: "group kinds rotation and rotation+shift", Help: "last rotation angle in degrees (inclusive)",
			applies: func(s *Spec) bool { return TakesAngles(s.Group.Kind) }},
		{Key: "group.angles.count", Label: "angles", Kind: KindInt, Min: 1, Max: 3600,
			AppliesTo: "group kinds rotation and rotation+shift", Help: "number of evenly spaced angles",
			applies: func(s *Spec) bool { return TakesAngles(s.Group.Kind) }},
		{Key: "group.shears", Label: "shears", Kind: KindObject, Zero: "no shear", AppliesTo: "group kind rotation+shift",
			Help: "horizontal shear factors {from, to, count}: each angle x each shear x each scale",
			set:  func(s *Spec) bool { return s.Group.Shears != nil }, applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) },
			not: nowGroup, clear: func(s *Spec) { s.Group.Shears = nil }},
		{Key: "group.shears.from", Label: "shear from", Kind: KindFloat, Min: -MaxShear, Max: MaxShear, Step: 0.1, AppliesTo: "group kind rotation+shift",
			Help:    "first horizontal shear factor k: source column = c + k·(r - cy)",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.shears.to", Label: "shear to", Kind: KindFloat, Min: -MaxShear, Max: MaxShear, Step: 0.1, AppliesTo: "group kind rotation+shift",
			Help:    "last shear factor (inclusive)",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.shears.count", Label: "shears", Kind: KindInt, Min: 1, Max: MaxAffineCount, AppliesTo: "group kind rotation+shift",
			Help:    "number of evenly spaced shears (each angle x each shear x each scale)",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.scales", Label: "scales", Kind: KindObject, Zero: "scale 1", AppliesTo: "group kind rotation+shift",
			Help: "isotropic scales about the centre {from, to, count} (> 1 enlarges)",
			set:  func(s *Spec) bool { return s.Group.Scales != nil }, applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) },
			not: nowGroup, clear: func(s *Spec) { s.Group.Scales = nil }},
		{Key: "group.scales.from", Label: "scale from", Kind: KindFloat, Min: MinScale, Max: MaxScale, Step: 0.05, AppliesTo: "group kind rotation+shift",
			Help:    "first isotropic scale about the centre (> 1 enlarges)",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.scales.to", Label: "scale to", Kind: KindFloat, Min: MinScale, Max: MaxScale, Step: 0.05, AppliesTo: "group kind rotation+shift",
			Help:    "last scale (inclusive)",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.scales.count", Label: "scales", Kind: KindInt, Min: 1, Max: MaxAffineCount, AppliesTo: "group kind rotation+shift",
			Help:    "number of evenly spaced scales",
			applies: func(s *Spec) bool { return TakesAffine(s.Group.Kind) }},
		{Key: "group.path", Label: "group file", Kind: KindText, AppliesTo: "group kinds permutations and linear",
			Help: "permutations: an integer .npy of shape (|G|, d), row g says where each coordinate goes; linear: a .npy of shape (|G|, d, d) of orthogonal matrices (within 1e-6)",
			set:  func(s *Spec) bool { return s.Group.Path != "" }, applies: groupIs("permutations", "linear"),
			not: nowGroup, clear: func(s *Spec) { s.Group.Path = "" }},
		{Key: "group.generators", Label: "generators", Kind: KindIntLists, AppliesTo: "group kind generated",
			Help: "permutations of 0..d-1, e.g. [[1, 0, 2], [1, 2, 0]]: the group they generate (Schreier–Sims), listed when it fits, else sampled with group.size",
			set:  func(s *Spec) bool { return s.Group.Generators != nil }, applies: groupIs("generated"),
			not: nowGroup, clear: func(s *Spec) { s.Group.Generators = nil }},
		{Key: "group.generators_path", Label: "generators file", Kind: KindText, AppliesTo: "group kind generated",
			Help: "an integer .npy of shape (k, d), one generator per row (instead of group.generators); set |G| sample for a large group",
			set:  func(s *Spec) bool { return s.Group.GeneratorsPath != "" }, applies: groupIs("generated"),
			not: nowGroup, clear: func(s *Spec) { s.Group.GeneratorsPath = "" }},
		{Key: "group.axis", Label: "axis", Kind: KindEnum, Choices: []string{"horizontal", "vertical"}, Zero: "horizontal", AppliesTo: "group kind mirror",
			Help: "horizontal: the left-right mirror; vertical: the up-down one",
			set:  func(s *Spec) bool { return s.Group.Axis != "" }, applies: groupIs("mirror"),
			not: nowGroup, clear: func(s *Spec) { s.Group.Axis = "" }},
		{Key: "group.size", Label: "|G| sample", Kind: KindInt, Min: 0, Max: unbounded, Step: 10, Zero: "whole group",
			AppliesTo: "a group (group.kind other than none)",
			Help:      "keep a seeded sample of this many elements (identity included); 0 keeps them all",
			set:       func(s *Spec) bool { return s.Group.Size > 0 }, applies: func(s *Spec) bool { return IsGroup(s.Group.Kind) },
			not: nowGroup, clear: func(s *Spec) { s.Group.Size = 0 }},

		{Key: "sizes", Label: "training sizes", Kind: KindIntList, Min: 2, Max: MaxSize,
			AppliesTo: "protocols sample-complexity and group-size (grid, sweep and pd have their own size)",
			Help:      "total training examples per cell, comma separated",
			set:       func(s *Spec) bool { return len(s.Sizes) > 0 }, applies: protocolIs(ProtocolCurve, ProtocolGroupSize),
			not: nowProtocol, clear: func(s *Spec) { s.Sizes = nil }},
		{Key: "repeats", Label: "repeats", Kind: KindInt, Min: 1, Max: MaxRepeats, Default: "1", Help: "seeded draws per cell (mean ± std)"},
		{Key: "sampling", Label: "sampling", Kind: KindEnum, Choices: SamplingKinds, Default: "stratified",
			Help: "how training sets are drawn from the pool (default stratified; balanced for xperm); disjoint: repeat r takes the r-th block of a seeded permutation of the pool, so the repeats' training sets do not overlap"},
		{Key: "nested", Label: "nested", Kind: KindBool, Zero: "false", AppliesTo: "protocol sample-complexity",
			Help: "smaller training sets are subsets of the largest one of the same draw",
			set:  func(s *Spec) bool { return s.Nested }, applies: protocolIs(ProtocolCurve),
			not: nowProtocol, clear: func(s *Spec) { s.Nested = false }},
		{Key: "grid", Label: "grid", Kind: KindObject, AppliesTo: "protocols grid and sample-complexity",
			Help: "bins x templates of the CDF features at one training size {bins, templates, size}",
			set:  func(s *Spec) bool { return s.Grid != nil }, applies: protocolIs(ProtocolCurve, ProtocolGrid),
			not: nowProtocol, clear: func(s *Spec) { s.Grid = nil }},
		{Key: "grid.bins", Label: "grid bins", Kind: KindIntList, Min: 1, Max: MaxBins, AppliesTo: "protocol grid",
			Help: "CDF bins n of the grid's rows", applies: protocolIs(ProtocolGrid)},
		{Key: "grid.templates", Label: "grid templates", Kind: KindIntList, Min: 1, Max: MaxTemplates, AppliesTo: "protocol grid",
			Help: "templates m of the grid's columns", applies: protocolIs(ProtocolGrid)},
		{Key: "grid.size", Label: "grid train size", Kind: KindInt, Min: 2, Max: unbounded, Step: 100, AppliesTo: "protocol grid",
			Help: "training size of every cell of the grid", applies: protocolIs(ProtocolGrid)},
		{Key: "group_sizes", Label: "group sizes", Kind: KindIntList, Min: 1, Max: unbounded, AppliesTo: "protocol group-size",
			Help: "|G| values, e.g. 1,10,120",
			set:  func(s *Spec) bool { return len(s.GroupSizes) > 0 }, applies: protocolIs(ProtocolGroupSize),
			not: nowProtocol, clear: func(s *Spec) { s.GroupSizes = nil }},
		{Key: "approx", Label: "approx", Kind: KindObject, AppliesTo: "protocol kernel-approx",
			Help: "Theorem 1's check {pairs, templates, bins, antithetic}",
			set:  func(s *Spec) bool { return s.Approx != nil }, applies: protocolIs(ProtocolApprox),
			not: nowProtocol, clear: func(s *Spec) { s.Approx = nil }},
		{Key: "approx.pairs", Label: "pairs", Kind: KindInt, Min: 2, Max: unbounded, Step: 100, AppliesTo: "protocol kernel-approx",
			Help: "pairs (x, z) whose kernel value is compared with s - d_G(x,z)", applies: protocolIs(ProtocolApprox)},
		{Key: "approx.templates", Label: "templates m", Kind: KindIntList, Min: 1, Max: MaxTemplates, AppliesTo: "protocol kernel-approx",
			Help: "numbers of templates m, one point of the error curve each", applies: protocolIs(ProtocolApprox)},
		{Key: "approx.bins", Label: "bins n", Kind: KindInt, Min: 1, Max: MaxBins, AppliesTo: "protocol kernel-approx",
			Help: "CDF bins n (2n+1 thresholds)", applies: protocolIs(ProtocolApprox)},
		{Key: "approx.antithetic", Label: "antithetic", Kind: KindBool, Zero: "false", AppliesTo: "protocol kernel-approx",
			Help: "draw the sphere templates in pairs (t, -t)", applies: protocolIs(ProtocolApprox)},
		{Key: "pd", Label: "pd", Kind: KindObject, AppliesTo: "protocol pd",
			Help: "Liu et al.'s Table I {sizes, draws}: the largest n whose Gram matrix stays positive definite",
			set:  func(s *Spec) bool { return s.PD != nil }, applies: protocolIs(ProtocolPD),
			not: nowProtocol, clear: func(s *Spec) { s.PD = nil }},
		{Key: "pd.sizes", Label: "pd sizes", Kind: KindIntList, Min: 1, Max: MaxSize, AppliesTo: "protocol pd",
			Help: "sizes n checked (every n up to the largest is found exactly per draw)", applies: protocolIs(ProtocolPD)},
		{Key: "pd.draws", Label: "pd draws", Kind: KindInt, Min: 1, Max: unbounded, AppliesTo: "protocol pd",
			Help: "seeded draws of n pool samples", applies: protocolIs(ProtocolPD)},
		{Key: "sweep", Label: "sweep", Kind: KindObject, AppliesTo: "protocol sweep",
			Help: "one method parameter over values at one training size {field, values, size}",
			set:  func(s *Spec) bool { return s.Sweep != nil }, applies: protocolIs(ProtocolSweep),
			not: nowProtocol, clear: func(s *Spec) { s.Sweep = nil }},
		{Key: "sweep.field", Label: "sweep field", Kind: KindEnum, Choices: SweepFields, AppliesTo: "protocol sweep",
			Help: "the method field swept (every method takes every value)", applies: protocolIs(ProtocolSweep)},
		{Key: "sweep.values", Label: "sweep values", Kind: KindFloatList, Min: 0, Max: unbounded, AppliesTo: "protocol sweep",
			Help: "the values of the field, the x of the points", applies: protocolIs(ProtocolSweep)},
		{Key: "sweep.size", Label: "sweep train size", Kind: KindInt, Min: 2, Max: unbounded, AppliesTo: "protocol sweep",
			Help: "training size of every point", applies: protocolIs(ProtocolSweep)},
		{Key: "seed", Label: "seed", Kind: KindInt, Min: 0, Max: math.MaxInt64, Help: "seed of every random choice (PCG); at most 2^63-1, the range of --seed"},
		{Key: "test_transform", Label: "test transform", Kind: KindObject, Zero: "none",
			AppliesTo: "protocols that score a test set (sample-complexity, grid, group-size, sweep)",
			Help:      "also score every method on a copy of the test set, each sample acted on by a random element of this group {kind, radius, angles, ...}",
			applies:   protocolIs(ProtocolCurve, ProtocolGrid, ProtocolGroupSize, ProtocolSweep)},
		{Key: "tune.baseline", Label: "baseline", Kind: KindBool, Zero: "true",
			Help: "also score the spec's own setting of the searched params as a trial at the highest rung a trial reached; it competes, is refit, and study.json's baseline reports the best against it; false: the sampler's trials alone"},
	}
}

// pathIf returns " and data.test_path P" for a non-empty test path p, else "".
func pathIf(p string) string {
	if p == "" {
		return ""
	}
	return " and data.test_path " + p
}

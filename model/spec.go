package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Protocols a Spec can run (docs/design.md, core/eval).
const (
	ProtocolCurve     = "sample-complexity" // accuracy vs training size, R seeded draws
	ProtocolGrid      = "grid"              // accuracy vs bins x templates at one training size
	ProtocolGroupSize = "group-size"        // accuracy vs |G| at one training size
	ProtocolApprox    = "kernel-approx"     // <Phi(x),Phi(z)> vs s - d_G(x,z), error vs m
	ProtocolPD        = "pd"                // Liu et al. Table I: largest n with a PD Gram matrix
	ProtocolSweep     = "sweep"             // accuracy vs one method parameter at one training size
)

// Protocols lists every protocol, in the order the TUI offers them.
var Protocols = []string{ProtocolCurve, ProtocolGrid, ProtocolGroupSize, ProtocolApprox, ProtocolPD, ProtocolSweep}

// Spec is a declarative experiment: data set, group, methods, protocol and its sizes. It is
// what presets hold, what `gitui run SPEC.json|yaml` reads, and what the TUI panes edit.
// Zero values mean documented defaults (see Defaults); Validate explains what is wrong.
type Spec struct {
	Name        string      `json:"name" yaml:"name"`
	Description string      `json:"description,omitempty" yaml:"description,omitempty"`
	Protocol    string      `json:"protocol" yaml:"protocol"`
	Data        DataSpec    `json:"data" yaml:"data"`
	Group       GroupSpec   `json:"group" yaml:"group"`
	Methods     []Method    `json:"methods" yaml:"methods"`
	Sizes       []int       `json:"sizes,omitempty" yaml:"sizes,omitempty"`             // training sizes (curve); total examples
	Repeats     int         `json:"repeats,omitempty" yaml:"repeats,omitempty"`         // seeded draws per cell
	Sampling    string      `json:"sampling,omitempty" yaml:"sampling,omitempty"`       // "balanced" | "stratified" | "uniform" | "disjoint"
	Nested      bool        `json:"nested,omitempty" yaml:"nested,omitempty"`           // curve: smaller draws are subsets of the largest
	Grid        *GridSpec   `json:"grid,omitempty" yaml:"grid,omitempty"`               // for ProtocolGrid
	GroupSizes  []int       `json:"group_sizes,omitempty" yaml:"group_sizes,omitempty"` // for ProtocolGroupSize
	Approx      *ApproxSpec `json:"approx,omitempty" yaml:"approx,omitempty"`           // for ProtocolApprox
	PD          *PDSpec     `json:"pd,omitempty" yaml:"pd,omitempty"`                   // for ProtocolPD
	Sweep       *SweepSpec  `json:"sweep,omitempty" yaml:"sweep,omitempty"`             // for ProtocolSweep
	Seed        uint64      `json:"seed" yaml:"seed"`
	// TestTransform, when set, also scores every method on a transformed copy of the test
	// set: each test sample acted on by one seeded random element of this group (same
	// kinds and fields as Group; see testtransform.go). Series "NAME (transformed test)".
	TestTransform *GroupSpec `json:"test_transform,omitempty" yaml:"test_transform,omitempty"`
	// Tune, when set, is the search space and settings of `gitui tune` (model/tune.go);
	// `gitui run` ignores it.
	Tune *TuneSpec `json:"tune,omitempty" yaml:"tune,omitempty"`
}

// DataSpec names the data set. Name is one of "xperm", "circle", "mnist", "fashion-mnist",
// "file" (Path, and TestPath or a held-out fraction), "embedded" (the built-in digits),
// "mnist-translated" and "mnist-rotated" (Liu et al. Sec. IV-A, generated from MNIST with
// the spec's seed), "digits16" (MNIST reduced to 16×16), "usps" (the USPS digits, 16×16,
// pixels scaled to [0, 1]), "usps-binary" (USPS, digits 0-4 against 5-9),
// "emnist-letters" (EMNIST Letters, 28×28 upright, classes a..z), and the spoken digits
// "spoken-digits", "fsdd", "audiomnist", "tidigits" (see AudioSpec). Classes keeps only the listed
// labels (relabelled 0..k-1 in that order; matched by value when the labels are numbers,
// else by position in label order); Holdout > 0 replaces the test set by that many
// samples held out of the training pool (a validation split: choose gamma and C on it);
// a single file (Path without TestPath) is then not split into pool and test set first:
// the holdout is drawn from the whole file, the pool is the rest, and TestSize is refused.
// A test file's labels are matched by value to the training file's; TestSize with
// TestPath keeps a seeded stratified subset of the test file.
type DataSpec struct {
	Name     string `json:"name" yaml:"name"`
	Path     string `json:"path,omitempty" yaml:"path,omitempty"`
	TestPath string `json:"test_path,omitempty" yaml:"test_path,omitempty"`
	// LabelColumn chooses the label column of a CSV or TSV file (path and test_path): a
	// header name or a 0-based index; empty is the last column.
	LabelColumn string `json:"label_column,omitempty" yaml:"label_column,omitempty"`
	Pool        int    `json:"pool,omitempty" yaml:"pool,omitempty"`           // cap on the training pool (0: all)
	TestSize    int    `json:"test_size,omitempty" yaml:"test_size,omitempty"` // test samples (0: all of the test set)
	Normalize   *bool  `json:"normalize,omitempty" yaml:"normalize,omitempty"` // unit-norm rows (default true)
	Classes     []int  `json:"classes,omitempty" yaml:"classes,omitempty"`     // keep only these labels
	Holdout     int    `json:"holdout,omitempty" yaml:"holdout,omitempty"`     // validation split of the pool
	// Fallback names the data set loaded instead of Name when Name's files are not in the
	// data directory (a stand-in: digits16 for usps); the run log and the result's "data"
	// say which one was used. "": no fallback, a missing data set is an error.
	Fallback string `json:"fallback,omitempty" yaml:"fallback,omitempty"`
	// Audio configures spoken-digit data (spoken-digits, fsdd, audiomnist, tidigits): see AudioSpec.
	Audio *AudioSpec `json:"audio,omitempty" yaml:"audio,omitempty"`
}

// GroupSpec describes the transformation group. Kind is "none", "permutation" (blocks of a
// sequence; Size 0 = full S_L), "cyclic-shift" (all 2-D cyclic shifts), "local-shift" (|dy|,|dx|
// <= Radius, zero fill), "rotation" (Angles), "rotation+shift" (the product of Angles and
// local shifts of Radius), or one of FileGroupKinds (permutations and matrices from files,
// generated groups, dihedral, mirror, reversal). Size > 0 keeps a seeded sample of Size
// elements (identity included).
//
// Shears and Scales (rotation+shift only, optional) widen the linear part: every
// combination of an angle θ, a horizontal shear factor k (source column = c + k·(r - cy))
// and an isotropic scale z (z > 1 enlarges) about the image centre, resampled once per
// element (group.Affine), then shifted; |G| = (2·Radius+1)²·|Angles|·|Shears|·|Scales|.
// Left out, they are {0} and {1}: the plain rotations, bit for bit.
type GroupSpec struct {
	Kind   string     `json:"kind" yaml:"kind"`
	Radius int        `json:"radius,omitempty" yaml:"radius,omitempty"`
	Angles *AngleSpec `json:"angles,omitempty" yaml:"angles,omitempty"`
	Shears *AngleSpec `json:"shears,omitempty" yaml:"shears,omitempty"`
	Scales *AngleSpec `json:"scales,omitempty" yaml:"scales,omitempty"`
	Size   int        `json:"size,omitempty" yaml:"size,omitempty"`
	// Path, Generators, GeneratorsPath and Axis belong to the kinds a user brings
	// (FileGroupKinds, group_file.go): the .npy of permutations or matrices, the
	// generators of a group (inline or an integer .npy), the mirror's axis.
	Path           string  `json:"path,omitempty" yaml:"path,omitempty"`
	Generators     [][]int `json:"generators,omitempty" yaml:"generators,omitempty"`
	GeneratorsPath string  `json:"generators_path,omitempty" yaml:"generators_path,omitempty"`
	Axis           string  `json:"axis,omitempty" yaml:"axis,omitempty"`
}

// LinearCount returns |Angles|·|Shears|·|Scales| (a missing list counts 1; 0 when
// Angles is missing): the number of linear maps before the shifts.
func (g GroupSpec) LinearCount() int {
	if g.Angles == nil {
		return 0
	}
	n := g.Angles.Count
	if g.Shears != nil {
		n *= g.Shears.Count
	}
	if g.Scales != nil {
		n *= g.Scales.Count
	}
	return n
}

// AngleSpec is Count values evenly spaced from From to To (inclusive): angles in degrees
// for group.angles, shear factors for group.shears, scale factors for group.scales.
type AngleSpec struct {
	From  float64 `json:"from" yaml:"from"`
	To    float64 `json:"to" yaml:"to"`
	Count int     `json:"count" yaml:"count"`
}

// Method is one row of the paper: a feature map or kernel, and a learner.
//
// Features: "raw", "bow" (bag of words), "cdf" (I-theory CDF pooling), "moments" (mean,
// second moment, max pooling). Kernel (instead of features): "linear", "rbf", "poly"
// ((1 + gamma <x,z>)^degree), "haar" (Haar integration over the group of Base, "linear" or
// "rbf"). Learner: "rls" (one-vs-all RLS, lambda by leave-one-out when Lambda is 0), "1nn",
// "svm" (LIBSVM's C-SVC on the Gram matrix divided by the mean of its training diagonal),
// "invariant-svm" (Chapelle and Schoelkopf: tangents Tangents, weight InvGamma) or "vsv"
// (virtual support vectors: the transformations whose tangents Tangents names).
//
// Liu et al.'s invariant kernels (learners svm and rls, kernels linear, rbf, poly):
// Invariance "TI" (all 2-D translations: Translation "cyclic", the paper's, or
// "zero-fill", no wrap-around, computed on a canvas twice the size), "RI" (rotations:
// Rotations, rotated copies, or Polar, a polar grid whose sector shifts are rotations),
// "TI-RI" (both), "group" (the spec's group: permutations, dihedral, orthogonal matrices,
// ...); Fit "best" (max over the transformations) or "average" (mean);
// Locality the locality kernel at multiple scales as the base kernel (L-SVM, L-TI, ...).

type Method struct {
	Name       string  `json:"name,omitempty" yaml:"name,omitempty"`
	Features   string  `json:"features,omitempty" yaml:"features,omitempty"`
	Kernel     string  `json:"kernel,omitempty" yaml:"kernel,omitempty"`
	Base       string  `json:"base,omitempty" yaml:"base,omitempty"`
	Gamma      float64 `json:"gamma,omitempty" yaml:"gamma,omitempty"`
	Learner    string  `json:"learner,omitempty" yaml:"learner,omitempty"`
	Lambda     float64 `json:"lambda,omitempty" yaml:"lambda,omitempty"`               // 0: leave-one-out over a grid
	Bins       int     `json:"bins,omitempty" yaml:"bins,omitempty"`                   // n: 2n+1 thresholds
	Templates  int     `json:"templates,omitempty" yaml:"templates,omitempty"`         // m
	TemplateOf string  `json:"template_kind,omitempty" yaml:"template_kind,omitempty"` // "gaussian" | "sphere" | "data" | "smooth" | "gaussian-data"
	Eps        float64 `json:"eps,omitempty" yaml:"eps,omitempty"`                     // s = 1 + eps
	Thresholds string  `json:"thresholds,omitempty" yaml:"thresholds,omitempty"`       // "theory" | "range"
	// FeatureKernel "rbf" fits kernel RLS with exp(-gamma ||f(x)-f(z)||²) on the features
	// ("": the features themselves, linear RLS).
	FeatureKernel string `json:"feature_kernel,omitempty" yaml:"feature_kernel,omitempty"`
	// Solver "nystrom" fits that kernel RLS on Centres Nyström centres with FALKON's
	// preconditioned iterations (learn.FitNystromRBF) at training sizes above Centres,
	// and exactly (leave-one-out lambda) at the others; "": always exactly.
	Solver  string `json:"solver,omitempty" yaml:"solver,omitempty"`
	Centres int    `json:"centres,omitempty" yaml:"centres,omitempty"` // Nyström centres M

	Standardize string `json:"standardize,omitempty" yaml:"standardize,omitempty"` // "" | "mean" | "spread" (CDF projections)
	// RangeSample > 0 fits range thresholds (and standardize) on a seeded sample of that
	// many training-pool rows instead of every row (0: the whole pool).
	RangeSample int `json:"range_sample,omitempty" yaml:"range_sample,omitempty"`
	// Preprocess "deskew" shears every image of the pool and the test set upright and
	// centres its mass before the features (data.Deskew); "": the images as they are.
	Preprocess string `json:"preprocess,omitempty" yaml:"preprocess,omitempty"`

	C           float64       `json:"c,omitempty" yaml:"c,omitempty"`                     // SVM cost (on the Gram / its diagonal mean)
	Degree      int           `json:"degree,omitempty" yaml:"degree,omitempty"`           // poly degree
	Invariance  string        `json:"invariance,omitempty" yaml:"invariance,omitempty"`   // "" | "TI" | "RI" | "TI-RI" | "group"
	Fit         string        `json:"fit,omitempty" yaml:"fit,omitempty"`                 // "best" | "average"
	Translation string        `json:"translation,omitempty" yaml:"translation,omitempty"` // "cyclic" | "zero-fill"
	Rotations   *AngleSpec    `json:"rotations,omitempty" yaml:"rotations,omitempty"`     // RI angles (default -20..20, 9)
	Polar       *PolarSpec    `json:"polar,omitempty" yaml:"polar,omitempty"`             // RI on a polar grid instead
	Shifts      int           `json:"shifts,omitempty" yaml:"shifts,omitempty"`           // L-TI: local shifts radius (0: 3)
	Locality    *LocalitySpec `json:"locality,omitempty" yaml:"locality,omitempty"`       // locality base kernel
	Tangents    []string      `json:"tangents,omitempty" yaml:"tangents,omitempty"`       // "hshift", "vshift", "rotation"
	// Jitter is the largest translation, in pixels, of VSV's virtual copies from the
	// hshift and vshift tangents: copies at 1..Jitter pixels in each direction (0: 1).
	// Directions 8 adds the diagonal directions (both tangents needed; 0: 4).
	Jitter     int     `json:"jitter,omitempty" yaml:"jitter,omitempty"`
	Directions int     `json:"directions,omitempty" yaml:"directions,omitempty"`
	InvGamma   float64 `json:"inv_gamma,omitempty" yaml:"inv_gamma,omitempty"`     // Chapelle's gamma in [0,1)
	Smooth     float64 `json:"smooth,omitempty" yaml:"smooth,omitempty"`           // tangent smoothing (pixels)
	PSD        string  `json:"psd,omitempty" yaml:"psd,omitempty"`                 // "" | "clip" | "flip": training Gram made PSD (kernel.MakePSD)
	KernelNorm string  `json:"kernel_norm,omitempty" yaml:"kernel_norm,omitempty"` // "" (divide by the training diagonal's mean) | "cosine"
	// Group, when set, replaces the spec's group for this method's cdf or moments features
	// (e.g. {kind: pitch-tempo, size: 1}, the identity only, beside the whole set).
	Group *GroupSpec `json:"group,omitempty" yaml:"group,omitempty"`
}

// PolarSpec is a polar grid of Annuli × Sectors points (kernel.PolarGrid): rotations by
// multiples of 360/Sectors degrees become cyclic shifts of the sectors.
type PolarSpec struct {
	Annuli  int `json:"annuli" yaml:"annuli"`
	Sectors int `json:"sectors" yaml:"sectors"`
}

// LocalitySpec is Liu et al.'s locality kernel (kernel.Locality): K1×K1 patches, degree D1
// inside, D2 outside; K2 > 0 adds the second layer (windows of K2×K2 patch centres, outer
// degree D3). Scale and Scale2 multiply the patch and window sums (0 means 1, the
// paper's formula as written).
type LocalitySpec struct {
	K1     int     `json:"k1" yaml:"k1"`
	D1     int     `json:"d1" yaml:"d1"`
	D2     int     `json:"d2" yaml:"d2"`
	K2     int     `json:"k2,omitempty" yaml:"k2,omitempty"`
	D3     int     `json:"d3,omitempty" yaml:"d3,omitempty"`
	Scale  float64 `json:"scale,omitempty" yaml:"scale,omitempty"`
	Scale2 float64 `json:"scale2,omitempty" yaml:"scale2,omitempty"`
}

// PDSpec configures the Table I protocol of Liu et al.: for each method's kernel, the
// largest n whose Gram matrix of n random pool samples stays positive definite, over Draws
// seeded draws, checked at Sizes (every n up to max(Sizes) is found exactly per draw).
type PDSpec struct {
	Sizes []int `json:"sizes" yaml:"sizes"`
	Draws int   `json:"draws" yaml:"draws"`
}

// SweepSpec varies one method parameter (Field "gamma", "inv_gamma" or "c") over Values at
// the training size Size; every method is run at every value (x of the points).
type SweepSpec struct {
	Field  string    `json:"field" yaml:"field"`
	Values []float64 `json:"values" yaml:"values"`
	Size   int       `json:"size" yaml:"size"`
}

// GridSpec lists the bins and templates of a grid protocol, at one training size.
type GridSpec struct {
	Bins      []int `json:"bins" yaml:"bins"`
	Templates []int `json:"templates" yaml:"templates"`
	Size      int   `json:"size" yaml:"size"`
}

// ApproxSpec configures the kernel-approximation check of Theorem 1.
type ApproxSpec struct {
	Pairs     int   `json:"pairs" yaml:"pairs"`
	Templates []int `json:"templates" yaml:"templates"`
	Bins      int   `json:"bins" yaml:"bins"`
	// Antithetic draws the sphere templates in pairs (t, -t) (see eval.Approx).
	Antithetic bool `json:"antithetic,omitempty" yaml:"antithetic,omitempty"`
}

// Clone returns a deep copy of s.
func (s *Spec) Clone() *Spec {
	b, err := json.Marshal(s)
	if err != nil {
		panic("model: " + err.Error())
	}
	var c Spec
	if err := json.Unmarshal(b, &c); err != nil {
		panic("model: " + err.Error())
	}
	return &c
}

// LoadSpec reads a spec from a .json, .yaml or .yml file, fills its defaults and
// validates it (ParseSpec).
func LoadSpec(path string) (*Spec, error) {
	s, err := ReadSpec(path)
	if err != nil {
		return nil, err
	}
	s.Defaults()
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("spec %s: %w", path, err)
	}
	return s, nil
}

// ReadSpec reads a spec from a .json, .yaml or .yml file and decodes it as DecodeSpec
// does, without validating it: for a caller that edits it first (the CLI's --set and
// --param) and then calls Defaults and Validate.
func ReadSpec(path string) (*Spec, error) {
	b, err := ReadFileCapped(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	yml := false
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		yml = true
	}
	s, err := DecodeSpec(b, yml)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", path, err)
	}
	return s, nil
}

// ParseSpec decodes a spec as DecodeSpec does, fills its defaults (Defaults) and
// validates it.
func ParseSpec(b []byte, yml bool) (*Spec, error) {
	s, err := DecodeSpec(b, yml)
	if err != nil {
		return nil, err
	}
	s.Defaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// DecodeSpec decodes a spec from JSON (yaml false) or YAML without validating it. It
// refuses unknown fields, duplicate keys, anything after the spec (JSON trailing data, a
// second YAML document), and a fraction or non-finite number in a whole-number field,
// aliases resolved. Errors are one line naming the problem.
func DecodeSpec(b []byte, yml bool) (*Spec, error) {
	var s Spec
	var err error
	if yml {
		err = decodeYAML(b, &s)
	} else {
		err = decodeJSON(b, &s)
	}
	if err != nil {
		return nil, fmt.Errorf("does not parse (%v): see `gitui presets -v` and README for the format", err)
	}
	return &s, nil
}

func decodeYAML(b []byte, s *Spec) error {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("the file is empty")
		}
		return err
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		if err != nil {
			return err
		}
		return errors.New("a second YAML document (---) follows the spec: keep one spec per file")
	}
	if err := checkWholeNumbers(&root); err != nil { // bounded: aliases expand at most 1<<20 nodes
		return err
	}
	strict := yaml.NewDecoder(bytes.NewReader(b))
	strict.KnownFields(true)
	return strict.Decode(s)
}

func decodeJSON(b []byte, s *Spec) error {
	if err := checkJSONKeys(b); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(s); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("data after the spec at byte %d: keep one JSON object per file", dec.InputOffset())
	}
	return nil
}

// checkJSONKeys returns an error naming the first key that appears twice in one JSON
// object (encoding/json would silently keep the last), or a syntax error.
func checkJSONKeys(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		obj  bool
		keys map[string]bool
		key  bool // the next token of an object is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.obj && top.key {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return fmt.Errorf("key %q appears twice in one object: keep one", k)
				}
				top.keys[k] = true
				top.key = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].obj {
			stack[len(stack)-1].key = true // a value ended: a key comes next
		}
	}
}

// Set assigns value to the field at a dotted JSON path, e.g. "repeats=10",
// "methods.0.bins=25", "methods.*.lambda=1e-6" (every method), "data.test_size=2000".
// The value is parsed as JSON when it is valid JSON (numbers, lists, true/false), else taken
// as a string. The spec is not validated; call Validate after the last Set.
func (s *Spec) Set(assign string) error {
	key, val, ok := strings.Cut(assign, "=")
	if !ok || key == "" {
		return fmt.Errorf("--set %q: want key=value, e.g. --set repeats=10", assign)
	}
	if p := strings.Split(key, "."); len(p) >= 3 && p[0] == "methods" && MethodFieldOf(p[2]) == nil {
		keys := make([]string, len(MethodFields))
		for i, f := range MethodFields {
			keys[i] = f.Key
		}
		return fmt.Errorf("--set %s: a method has no field %q: use one of %s (`gitui presets -v` says where each applies)", key, p[2], strings.Join(keys, ", "))
	}
	b, _ := json.Marshal(s)
	var tree any
	_ = decodeNumbers([]byte(b), &tree) // json.Number keeps a seed above 2^53 exact
	var v any
	if err := decodeNumbers([]byte(val), &v); err != nil {
		v = val
	}
	if err := checkSetRange(key, val, v); err != nil {
		return err
	}
	v = wholeNumbers(v)
	if err := setPath(tree, strings.Split(key, "."), v, key); err != nil {
		return err
	}
	b, _ = json.Marshal(tree)
	var out Spec
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return setValueError(key, val, err)
	}
	*s = out
	return nil
}

// decodeNumbers decodes the JSON text b into v with every number kept as a json.Number
// (its literal text), so an integer beyond 2^53 survives the round trip through a tree
// exactly; trailing data is an error.
func decodeNumbers(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the value")
	}
	return nil
}

// checkSetRange refuses `--set key=val` when key names a numeric field of the registry
// (model.SpecFields, or methods.N.KEY of model.MethodFields) and the number v lies outside
// the field's Min..Max, quoting the text val the user gave: the same range the TUI
// refuses before a value reaches the spec and Validate checks. Zero passes where the
// field says what zero means (Zero; a method field's zero is left to Validate, which
// knows the method), and is refused where it does not (repeats=0). Whole-number fields
// are compared as integers, so 18446744073709551615 is neither rounded nor accepted as
// 2^64. A value that is not a number is left to the decoder's type error.
func checkSetRange(key, val string, v any) error {
	var (
		kind     FieldKind
		min, max float64
		zero     string
		method   bool
		message  string // a method field's own out-of-range message (%g or %v: the value)
		name     = key
	)
	if f := SpecFieldOf(key); f != nil {
		kind, min, max, zero = f.Kind, f.Min, f.Max, f.Zero
	} else if p := strings.Split(key, "."); len(p) == 3 && p[0] == "methods" {
		f := MethodFieldOf(p[2])
		if f == nil {
			return nil
		}
		kind, min, max, method, name, message = f.Kind, f.Min, f.Max, true, p[2], f.message
	} else {
		return nil
	}
	var nums []json.Number
	switch x := v.(type) {
	case json.Number:
		nums = []json.Number{x}
	case []any:
		if kind != KindIntList && kind != KindFloatList {
			return nil
		}
		for _, e := range x {
			if n, ok := e.(json.Number); ok {
				nums = append(nums, n)
			}
		}
	default:
		return nil
	}
	for _, n := range nums {
		text := string(n)
		var isZero, out bool
		switch kind {
		case KindInt, KindIntList:
			z, ok := new(big.Int).SetString(text, 10)
			if !ok {
				continue // 2.5 or 1e3: the decoder says "takes a whole number"
			}
			isZero = z.Sign() == 0
			lo, hi := bigOf(min), bigOf(max)
			out = z.Cmp(lo) < 0 || (max != unbounded && z.Cmp(hi) > 0)
		case KindFloat, KindLogFloat, KindFloatList:
			x, err := strconv.ParseFloat(text, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				continue
			}
			isZero = x == 0 && err == nil
			if math.IsInf(x, 0) {
				continue // 1e999: setValueError says "must be a finite number"
			}
			if x == 0 && err != nil { // 1e-400 underflows: not the zero the user meant
				out = true
				break
			}
			out = x < min || x > max
		default:
			return nil
		}
		if isZero && (method || zero != "") {
			continue
		}
		if out && message != "" { // the value as typed in place of the verb
			msg := strings.Replace(strings.Replace(message, "%g", "%s", 1), "%v", "%s", 1)
			return fmt.Errorf("--set %s=%s: "+msg, key, val, text)
		}
		if out {
			return fmt.Errorf("--set %s=%s: %s %s is out of range: use %s..%s", key, val, name, text, rangeEnd(min, kind), rangeEnd(max, kind))
		}
	}
	return nil
}

// wholeNumbers rewrites a number written in float notation that holds a whole value
// below 2^53 (1e3, 2.0) as its integer digits, in v and in the lists it holds, so a
// whole-number field takes it as it did when --set values went through float64.
func wholeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if strings.ContainsAny(string(x), ".eE") {
			if f, err := strconv.ParseFloat(string(x), 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
		}
	case []any:
		for i := range x {
			x[i] = wholeNumbers(x[i])
		}
	}
	return v
}

// bigOf returns the integer x (a registry bound) as a big.Int, exactly for bounds below
// 2^63 and for math.MaxInt64 (whose float64 rounds up to 2^63).
func bigOf(x float64) *big.Int {
	if x >= math.MaxInt64 {
		return big.NewInt(math.MaxInt64)
	}
	return big.NewInt(int64(x))
}

// rangeEnd formats a registry bound for a message: integers in full, "any" for no bound.
func rangeEnd(x float64, kind FieldKind) string {
	switch {
	case x == unbounded:
		return "any"
	case (kind == KindInt || kind == KindIntList) && x >= math.MaxInt64:
		return strconv.FormatInt(math.MaxInt64, 10)
	case kind == KindInt || kind == KindIntList:
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// setValueError explains why the value of `--set key=val` does not fit its field: a
// non-finite number (NaN, Inf, 1e400: JSON has none, and no field accepts one), a
// fraction for a whole number, text for a number, a scalar for a list.
func setValueError(key, val string, err error) error {
	field := key[strings.LastIndex(key, ".")+1:]
	if parts := strings.Split(key, "."); field == "*" && len(parts) > 1 {
		field = "every element of " + parts[len(parts)-2] // methods.*=1
	}
	if f, perr := strconv.ParseFloat(strings.TrimSpace(val), 64); (perr == nil || errors.Is(perr, strconv.ErrRange)) && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return fmt.Errorf("--set %s=%s: %s must be a finite number: give a finite value", key, val, field)
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("--set %s=%s: %v: check the value's type", key, val, err)
	}
	got := strings.TrimPrefix(te.Value, "number ") // "number 2.5" -> "2.5"
	switch te.Value {
	case "string":
		got = fmt.Sprintf("the text %q", val)
	case "number":
		got = "the number " + val
	case "array", "object", "bool":
		got = "a JSON " + te.Value
	}
	switch te.Type.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64:
		return fmt.Errorf("--set %s=%s: %s takes a whole number, not %s: give an integer", key, val, field, got)
	case reflect.Float64:
		return fmt.Errorf("--set %s=%s: %s takes a number, not %s: give a finite number, e.g. 0.01", key, val, field, got)
	case reflect.Slice:
		return fmt.Errorf("--set %s=%s: %s takes a list, not %s: give e.g. %s=[100,200]", key, val, field, got, key)
	case reflect.String:
		return fmt.Errorf("--set %s=%s: %s takes text, not %s: give a name, or quote a number as text (--set '%s=\"%s\"')", key, val, field, got, key, val)
	case reflect.Struct, reflect.Pointer:
		return fmt.Errorf("--set %s=%s: %s takes an object, not %s: set one of its fields, e.g. %s.FIELD=VALUE (`gitui presets -v` lists them)", key, val, field, got, key)
	}
	return fmt.Errorf("--set %s=%s: %s does not take %s: see the spec printed by `gitui presets -v`", key, val, field, got)
}

func setPath(node any, path []string, v any, full string) error {
	if len(path) == 0 || path[0] == "" {
		return fmt.Errorf("--set %s: the key has an empty part: give a dotted path such as methods.0.bins", full)
	}
	switch n := node.(type) {
	case map[string]any:
		if len(path) == 1 {
			if !knownKey(n, path[0]) {
				return fmt.Errorf("--set %s: unknown field %q: see the spec printed by `gitui presets -v`", full, path[0])
			}
			n[path[0]] = v
			return nil
		}
		child, ok := n[path[0]]
		if !ok || child == nil {
			child = map[string]any{}
			n[path[0]] = child
		}
		return setPath(child, path[1:], v, full)
	case []any:
		if path[0] == "*" {
			if len(path) == 1 { // sizes.*=1: every element
				for i := range n {
					n[i] = v
				}
				return nil
			}
			for _, c := range n {
				if err := setPath(c, path[1:], v, full); err != nil {
					return err
				}
			}
			return nil
		}
		i, err := strconv.Atoi(path[0])
		if err != nil || i < 0 || i >= len(n) {
			return fmt.Errorf("--set %s: index %q is not in 0..%d", full, path[0], len(n)-1)
		}
		if len(path) == 1 {
			n[i] = v
			return nil
		}
		return setPath(n[i], path[1:], v, full)
	}
	return fmt.Errorf("--set %s: %q is not a field that holds fields", full, path[0])
}

// knownKey reports whether key is a field of the JSON object (present, or a field name
// of any struct a spec holds, which encoding may omit).
func knownKey(n map[string]any, key string) bool {
	if _, ok := n[key]; ok {
		return true
	}
	return specFieldNames()[key]
}

// specFieldNames returns the JSON names of every field of Spec and of the structs it
// holds (through pointers, slices and maps), read from their json tags: the names --set
// may create in an encoded spec that omitted them (omitempty). Derived from the types,
// so a new field is known to --set without a hand list.
var specFieldNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" && f.Anonymous {
				walk(f.Type)
				continue
			}
			if name == "" {
				name = f.Name
			}
			names[name] = true
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Spec{}))
	return names
})

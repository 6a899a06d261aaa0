package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Protocols a Spec can run (DESIGN.md, core/eval).
const (
	ProtocolCurve     = "sample-complexity" // accuracy vs training size, R seeded draws
	ProtocolGrid      = "grid"              // accuracy vs bins x templates at one training size
	ProtocolGroupSize = "group-size"        // accuracy vs |G| at one training size
	ProtocolApprox    = "kernel-approx"     // <Phi(x),Phi(z)> vs s - d_G(x,z), error vs m
)

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
	Sampling    string      `json:"sampling,omitempty" yaml:"sampling,omitempty"`       // "balanced" | "stratified" | "uniform"
	Grid        *GridSpec   `json:"grid,omitempty" yaml:"grid,omitempty"`               // for ProtocolGrid
	GroupSizes  []int       `json:"group_sizes,omitempty" yaml:"group_sizes,omitempty"` // for ProtocolGroupSize
	Approx      *ApproxSpec `json:"approx,omitempty" yaml:"approx,omitempty"`           // for ProtocolApprox
	Seed        uint64      `json:"seed" yaml:"seed"`
}

// DataSpec names the data set. Name is one of "xperm", "circle", "mnist", "fashion-mnist",
// "file" (Path, and TestPath or a held-out fraction), "embedded" (the built-in digits).
type DataSpec struct {
	Name      string `json:"name" yaml:"name"`
	Path      string `json:"path,omitempty" yaml:"path,omitempty"`
	TestPath  string `json:"test_path,omitempty" yaml:"test_path,omitempty"`
	Pool      int    `json:"pool,omitempty" yaml:"pool,omitempty"`           // cap on the training pool (0: all)
	TestSize  int    `json:"test_size,omitempty" yaml:"test_size,omitempty"` // test samples (0: all of the test set)
	Normalize *bool  `json:"normalize,omitempty" yaml:"normalize,omitempty"` // unit-norm rows (default true)
}

// GroupSpec describes the transformation group. Kind is "none", "permutation" (blocks of a
// sequence; Size 0 = full S_L), "cyclic-shift" (all 2-D cyclic shifts), "local-shift" (|dy|,|dx|
// <= Radius, zero fill), "rotation" (Angles), or "rotation+shift" (the product of Angles and
// local shifts of Radius). Size > 0 keeps a seeded sample of Size elements (identity included).
type GroupSpec struct {
	Kind   string     `json:"kind" yaml:"kind"`
	Radius int        `json:"radius,omitempty" yaml:"radius,omitempty"`
	Angles *AngleSpec `json:"angles,omitempty" yaml:"angles,omitempty"`
	Size   int        `json:"size,omitempty" yaml:"size,omitempty"`
}

// AngleSpec is Count angles evenly spaced from From to To degrees (inclusive).
type AngleSpec struct {
	From  float64 `json:"from" yaml:"from"`
	To    float64 `json:"to" yaml:"to"`
	Count int     `json:"count" yaml:"count"`
}

// Method is one row of the paper: a feature map or kernel, and a learner.
//
// Features: "raw", "bow" (bag of words), "cdf" (I-theory CDF pooling), "moments" (mean,
// second moment, max pooling). Kernel (instead of features): "linear", "rbf", "haar" (Haar
// integration over the group of Base, "linear" or "rbf"). Learner: "rls" (one-vs-all RLS,
// lambda by leave-one-out when Lambda is 0) or "1nn".
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
	TemplateOf string  `json:"template_kind,omitempty" yaml:"template_kind,omitempty"` // "gaussian" | "sphere" | "data"
	Eps        float64 `json:"eps,omitempty" yaml:"eps,omitempty"`                     // s = 1 + eps
	Thresholds string  `json:"thresholds,omitempty" yaml:"thresholds,omitempty"`       // "theory" | "range"
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

// LoadSpec reads a spec from a .json, .yaml or .yml file and validates it.
func LoadSpec(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read spec: %w", err)
	}
	var s Spec
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		dec := yaml.NewDecoder(strings.NewReader(string(b)))
		dec.KnownFields(true)
		err = dec.Decode(&s)
	default:
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		err = dec.Decode(&s)
	}
	if err != nil {
		return nil, fmt.Errorf("spec %s does not parse (%v): see `gitui presets` and README for the format", path, err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("spec %s: %w", path, err)
	}
	return &s, nil
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
	b, _ := json.Marshal(s)
	var tree any
	_ = json.Unmarshal(b, &tree)
	var v any
	if err := json.Unmarshal([]byte(val), &v); err != nil {
		v = val
	}
	if err := setPath(tree, strings.Split(key, "."), v, key); err != nil {
		return err
	}
	b, _ = json.Marshal(tree)
	var out Spec
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		return fmt.Errorf("--set %s: %v: check the value's type", key, err)
	}
	*s = out
	return nil
}

func setPath(node any, path []string, v any, full string) error {
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

// knownKey reports whether key is a field of the JSON object (present, or a known optional name).
func knownKey(n map[string]any, key string) bool {
	if _, ok := n[key]; ok {
		return true
	}
	for _, k := range optionalKeys {
		if k == key {
			return true
		}
	}
	return false
}

// optionalKeys are the omitempty JSON names that may be absent from an encoded spec.
var optionalKeys = []string{
	"description", "sizes", "repeats", "sampling", "grid", "group_sizes", "approx",
	"path", "test_path", "pool", "test_size", "normalize", "radius", "angles", "size",
	"name", "features", "kernel", "base", "gamma", "learner", "lambda", "bins", "templates",
	"template_kind", "eps", "thresholds", "from", "to", "count", "pairs", "antithetic",
}

package model

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// resolve fills the defaults of s and validates it, as a spec is resolved where it is
// loaded or edited (Validate only reads the spec).
func resolve(s *Spec) error {
	s.Defaults()
	return s.Validate()
}

// badSpecs returns specs with problems in every part Validate checks (data, group,
// sampling and repeats, methods, each protocol, test_transform, tune), each with its
// defaults filled, by name. Each holds at least one problem.
func badSpecs(t *testing.T) map[string]*Spec {
	t.Helper()
	sets := map[string][]string{
		"data":           {"data.name=nope"},
		"data-fallback":  {"data.fallback=xperm"},
		"data-file":      {"data.name=file"},
		"data-audio":     {"data.name=fsdd", `data.audio={"split": "nope", "test_fraction": 2}`},
		"audio-xperm":    {`data.audio={"split": "gender"}`},
		"group":          {"group.kind=local-shift", "group.radius=0"},
		"group-angles":   {"group.kind=rotation", `group.angles={"from": 0, "to": 0, "count": 0}`},
		"group-affine":   {"group.kind=rotation+shift", "group.radius=1", `group.angles={"from": -10, "to": 10, "count": 3}`, `group.shears={"from": 5, "to": 6, "count": 2}`},
		"group-file":     {"group.kind=generated", "group.generators=[[0, 0, 1]]"},
		"group-mirror":   {"group.kind=mirror", "group.axis=diagonal"},
		"group-applies":  {"group.radius=3"},
		"sampling":       {"sampling=disjoint", "nested=true"},
		"methods":        nil,
		"method-family":  {"methods.0.kernel=rbf"},
		"learner":        {"methods.0.learner=svm"},
		"applies":        {"methods.0.bins=5"},
		"haar":           {"methods.0.features=", "methods.0.kernel=haar", "group.size=3"},
		"pooled":         {"group.kind=none"},
		"invariance":     {"methods.0.features=", "methods.0.kernel=linear", "methods.0.learner=svm", "methods.0.invariance=group", "group.kind=none"},
		"duplicate":      {"methods.1.features=raw", "methods.1.bins=0", "methods.1.templates=0"},
		"preprocess":     {"methods.0.preprocess=deskew"},
		"curve":          {"sizes=[]"},
		"grid":           {"protocol=grid", "sizes=[]"},
		"grid-bins":      {"protocol=grid", "sizes=[]", `grid={"bins": [0], "templates": [200000], "size": 10}`},
		"group-size":     {"protocol=group-size"},
		"pd":             {"protocol=pd", "sizes=[]"},
		"pd-sizes":       {"protocol=pd", "sizes=[]", `pd={"sizes": [0], "draws": 1}`},
		"sweep":          {"protocol=sweep", "sizes=[]"},
		"sweep-values":   {"protocol=sweep", "sizes=[]", `sweep={"field": "inv_gamma", "values": [-1], "size": 10}`},
		"approx":         {"protocol=kernel-approx", "sizes=[]"},
		"approx-bins":    {"protocol=kernel-approx", "sizes=[]", `approx={"pairs": 10, "templates": [0], "bins": 0}`},
		"test-transform": {`test_transform={"kind": "rotation", "radius": 2, "size": -1}`},
		"tt-kind":        {`test_transform={"kind": "nope"}`},
		"tt-xperm":       {`test_transform={"kind": "cyclic-shift"}`},
		"tune":           {`tune={"params": {"methods.0.lambda": "log:1e-9..1e-3"}, "sampler": "nope", "eta": 1, "trials": -1}`},
		"tune-params":    {`tune={"params": {"methods.0.nope": "1..2"}}`},
		"tune-methods":   {`tune={"params": {"methods.1.bins": "1..9"}}`},
		"control":        {"name=\"a\\u001bb\"", "methods.0.name=\"x\\ry\""},
		"method-group":   {`methods.0.group={"kind": "mirror", "axis": "x", "size": -1, "shears": {"from": 0, "to": 0, "count": 1}}`},
		"tune-rungs":     {"methods.1.name=b", `tune={"params": {"method": "0,1"}, "min_n": 100, "max_n": 10}`},
		"many":           nil,
		"curve-size":     nil,
		"data-ranges":    nil,
	}
	// Values Set refuses (out of their field's range), written directly.
	edits := map[string]func(s *Spec){
		"methods":     func(s *Spec) { s.Methods[1].Bins, s.Methods[1].Templates, s.Methods[0].Lambda = 0, -3, -1 },
		"sampling":    func(s *Spec) { s.Repeats = -1 },
		"group-size":  func(s *Spec) { s.GroupSizes = []int{0} },
		"many":        func(s *Spec) { s.Sizes = []int{-1, -2, -3, -4, -5, -6} },
		"curve-size":  func(s *Spec) { s.Sizes = []int{0, 20} },
		"data-ranges": func(s *Spec) { s.Group.Size, s.Data.Pool, s.Data.Holdout = -1, -1, -2 },
	}
	out := map[string]*Spec{}
	for name, as := range sets {
		s := validSpec()
		for _, a := range as {
			if err := s.Set(a); err != nil {
				t.Errorf("%s: --set %s: %v", name, a, err)
			}
		}
		if e := edits[name]; e != nil {
			e(s)
		}
		s.Defaults()
		if s.Validate() == nil {
			t.Fatalf("%s: the spec validates, want problems", name)
		}
		out[name] = s
	}
	out["no-methods"] = &Spec{Protocol: ProtocolCurve, Data: DataSpec{Name: "xperm"}, Sizes: []int{10}}
	out["no-methods"].Defaults()
	return out
}

// TestValidateReadOnly checks that Validate leaves a spec byte-identical (its JSON
// encoding) whether it validates, has problems, or leaves fields to their defaults
// unset, and that it says the same twice.
func TestValidateReadOnly(t *testing.T) {
	specs := badSpecs(t)
	specs["valid"] = validSpec()
	specs["valid"].Defaults()
	specs["unset"] = validSpec() // sampling, learners and a CDF method's defaults left unset
	specs["unset"].Repeats = 0
	specs["unset"].Group.Kind = ""
	for name, s := range specs {
		before, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		e1 := s.Validate()
		after, _ := json.Marshal(s)
		if string(before) != string(after) {
			t.Errorf("%s: Validate changed the spec:\nbefore %s\nafter  %s", name, before, after)
		}
		if e2 := s.Validate(); errString(e1) != errString(e2) {
			t.Errorf("%s: Validate said %q, then %q", name, errString(e1), errString(e2))
		}
	}
	u := specs["unset"]
	if u.Sampling != "" || u.Repeats != 0 || u.Group.Kind != "" || u.Methods[0].Learner != "" {
		t.Errorf("Validate filled defaults: sampling %q, repeats %d, group.kind %q, learner %q", u.Sampling, u.Repeats, u.Group.Kind, u.Methods[0].Learner)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestValidateProblems checks the error Validate returns: Problems found by errors.As
// (through a %w wrap), whose Error is the messages one a line, each Problem found by
// errors.As too, at most MaxProblems of them and a last "and N more" without a field.
func TestValidateProblems(t *testing.T) {
	s := badSpecs(t)["many"]
	err := s.Validate()
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("Validate returned %T, want Problems", err)
	}
	var w Problems
	if !errors.As(errors.Join(errors.New("x"), wrap(err)), &w) || w.Error() != err.Error() {
		t.Errorf("errors.As does not find the Problems through a wrap")
	}
	if got, want := err.Error(), strings.Join(ps.Messages(), "\n"); got != want {
		t.Errorf("Error() = %q, want the messages one a line %q", got, want)
	}
	var p Problem
	if !errors.As(err, &p) || p != ps[0] {
		t.Errorf("errors.As(Problem) = %+v, want the first problem %+v", p, ps[0])
	}
	if len(ps) != MaxProblems+1 {
		t.Fatalf("%d problems, want %d and a count: %q", len(ps), MaxProblems, err)
	}
	for _, p := range ps[:MaxProblems] {
		if p.Field != "sizes" {
			t.Errorf("%q is keyed %q, want sizes", p.Msg, p.Field)
		}
	}
	if last := ps[MaxProblems]; last.Field != "" || last.Msg != "and 3 more" {
		t.Errorf("last problem %+v, want {\"\" \"and 3 more\"}", last)
	}
	if resolve(validSpec()) != nil {
		t.Fatal("the valid spec has problems")
	}
}

func wrap(err error) error { return errors.Join(errors.New("spec x.json"), err) }

// TestProblemFieldsResolve checks that every Problem.Field Validate produces over the bad
// specs names a real field (Problem.Field's documented forms): a key of SpecFields, a
// method ("methods.N") or one of its MethodFields ("methods.N.KEY"), or a path inside one
// of those or the tune block that exists in the JSON form of a Spec; "" only for the
// count of the problems left out. A problem's message starts with the name of its field
// or of an object holding it (as the command line shows them), bar the few written as
// sentences.
func TestProblemFieldsResolve(t *testing.T) {
	seen := map[string]bool{}
	for name, s := range badSpecs(t) {
		var ps Problems
		if !errors.As(s.Validate(), &ps) {
			t.Fatalf("%s: no Problems", name)
		}
		for _, p := range ps {
			seen[p.Field] = true
			if p.Field == "" {
				if !strings.HasPrefix(p.Msg, "and ") || !strings.HasSuffix(p.Msg, " more") {
					t.Errorf("%s: %q has no field", name, p.Msg)
				}
				continue
			}
			if !fieldResolves(p.Field) {
				t.Errorf("%s: field %q of %q names no field of the spec", name, p.Field, p.Msg)
			}
		}
	}
	// The bad specs reach every part of the spec (a pane each, and the rest).
	for _, top := range []string{"data", "group", "methods", "sizes", "grid", "group_sizes", "pd", "sweep", "approx", "sampling", "repeats", "test_transform", "tune", "name"} {
		found := false
		for f := range seen {
			found = found || (Problem{Field: f}).Under(top)
		}
		if !found {
			t.Errorf("no bad spec has a problem under %s (fields seen: %v)", top, seen)
		}
	}
}

// fieldResolves reports whether key is one of the forms Problem.Field documents.
func fieldResolves(key string) bool {
	if SpecFieldOf(key) != nil {
		return true
	}
	parts := strings.Split(key, ".")
	if parts[0] == "methods" {
		if len(parts) < 2 || !isIndex(parts[1]) {
			return len(parts) == 1 // "methods is empty"
		}
		if len(parts) == 2 {
			return true
		}
		return MethodFieldOf(parts[2]) != nil && jsonPath(reflect.TypeFor[Method](), parts[2:])
	}
	for i := len(parts) - 1; i >= 1; i-- {
		if p := strings.Join(parts[:i], "."); SpecFieldOf(p) != nil || p == "tune" {
			return jsonPath(reflect.TypeFor[Spec](), parts)
		}
	}
	return false
}

func isIndex(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0
}

// jsonPath reports whether the dotted path exists in the JSON form of values of type t
// (struct fields by their json names, list elements by index, map entries by any key).
func jsonPath(t reflect.Type, path []string) bool {
	for _, p := range path {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct:
			f, ok := jsonField(t, p)
			if !ok {
				return false
			}
			t = f
		case reflect.Slice, reflect.Array:
			if !isIndex(p) {
				return false
			}
			t = t.Elem()
		case reflect.Map:
			t = t.Elem()
		default:
			return false
		}
	}
	return true
}

func jsonField(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && tag == "" {
			if ft, ok := jsonField(f.Type, name); ok {
				return ft, true
			}
			continue
		}
		if tag == name {
			return f.Type, true
		}
	}
	return nil, false
}

// TestProblemUnder checks the prefix rule the panes select their problems by.
func TestProblemUnder(t *testing.T) {
	for _, c := range []struct {
		field, prefix string
		want          bool
	}{
		{"group", "group", true}, {"group.radius", "group", true}, {"group_sizes", "group", false},
		{"methods.0.group.kind", "group", false}, {"methods.0.group.kind", "methods", true},
		{"data.pool", "data", true}, {"database", "data", false}, {"", "data", false}, {"sizes", "sizes", true},
	} {
		if got := (Problem{Field: c.field}).Under(c.prefix); got != c.want {
			t.Errorf("Problem{%q}.Under(%q) = %v, want %v", c.field, c.prefix, got, c.want)
		}
	}
	ps := Problems{{"data.pool", "a"}, {"group.kind", "b"}, {"methods.1.bins", "c"}, {"", "and 1 more"}, {"repeats", "d"}}
	if got := ps.Under("methods", "repeats").Messages(); strings.Join(got, ",") != "c,d" {
		t.Errorf("Under(methods, repeats) = %q, want [c d]", got)
	}
	if ps.Under("tune") != nil {
		t.Errorf("Under(tune) = %v, want nil", ps.Under("tune"))
	}
}

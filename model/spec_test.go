package model

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func validSpec() *Spec {
	return &Spec{
		Name:     "t",
		Protocol: ProtocolCurve,
		Data:     DataSpec{Name: "xperm"},
		Group:    GroupSpec{Kind: "permutation"},
		Methods:  []Method{{Features: "raw"}, {Features: "cdf", Bins: 5, Templates: 5}},
		Sizes:    []int{10, 20},
		Repeats:  2,
		Seed:     1,
	}
}

func TestValidateDefaults(t *testing.T) {
	s := validSpec()
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	if s.Sampling != "balanced" {
		t.Errorf("xperm sampling defaulted to %q, want balanced", s.Sampling)
	}
	if got := s.Methods[1].DisplayName(); got != "CDF(5,5) RLS" {
		t.Errorf("method name %q, want CDF(5,5) RLS", got)
	}
}

// TestValidateBadInput checks that each absurd parameter gives a message naming the field
// and the fix.
func TestValidateBadInput(t *testing.T) {
	cases := []struct {
		name string
		edit func(*Spec)
		want string
	}{
		{"bins zero", func(s *Spec) { s.Methods[1].Bins = 0 }, "bins 0 is out of range"},
		{"templates negative", func(s *Spec) { s.Methods[1].Templates = -3 }, "templates -3 is out of range"},
		{"lambda negative", func(s *Spec) { s.Methods[0].Lambda = -1 }, "lambda -1 is out of range: use 1e-12..1e6, or 0"},
		{"unknown feature", func(s *Spec) { s.Methods[0].Features = "fancy" }, `features "fancy" is unknown`},
		{"no sizes", func(s *Spec) { s.Sizes = nil }, "sizes is empty"},
		{"unknown protocol", func(s *Spec) { s.Protocol = "magic" }, `protocol "magic" is unknown`},
		{"repeats", func(s *Spec) { s.Repeats = -1 }, "repeats -1 is out of range"},
		{"both feature and kernel", func(s *Spec) { s.Methods[0].Kernel = "rbf" }, "set exactly one of features"},
	}
	for _, c := range cases {
		s := validSpec()
		c.edit(s)
		err := resolve(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.name, err, c.want)
		}
	}
}

func TestSet(t *testing.T) {
	s := validSpec()
	for _, a := range []string{"repeats=7", "methods.1.bins=25", "methods.*.lambda=1e-6", "data.test_size=100", "sizes=[5,50]"} {
		if err := s.Set(a); err != nil {
			t.Fatalf("Set(%q): %v", a, err)
		}
	}
	if s.Repeats != 7 || s.Methods[1].Bins != 25 || s.Methods[0].Lambda != 1e-6 || s.Methods[1].Lambda != 1e-6 ||
		s.Data.TestSize != 100 || len(s.Sizes) != 2 || s.Sizes[1] != 50 {
		t.Errorf("Set did not apply: %+v", s)
	}
	for _, bad := range []string{"nokey", "methods.9.bins=1", "repeats=many", "bogus=1"} {
		if err := s.Set(bad); err == nil {
			t.Errorf("Set(%q) succeeded, want an error", bad)
		}
	}
}

func TestLoadSpecFiles(t *testing.T) {
	dir := t.TempDir()
	y := filepath.Join(dir, "s.yaml")
	os.WriteFile(y, []byte("name: mine\nprotocol: sample-complexity\ndata: {name: xperm}\ngroup: {kind: permutation}\nmethods:\n  - {features: bow}\nsizes: [10]\nseed: 3\n"), 0o644)
	s, err := LoadSpec(y)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mine" || s.Methods[0].DisplayName() != "bag-of-words RLS" || s.Seed != 3 {
		t.Errorf("LoadSpec: %+v", s)
	}
	j := filepath.Join(dir, "s.json")
	os.WriteFile(j, []byte(`{"name": "x", "protocl": "grid"}`), 0o644)
	if _, err := LoadSpec(j); err == nil || !strings.Contains(err.Error(), "protocl") {
		t.Errorf("misspelt field: err = %v, want it named", err)
	}
}

// TestControlCharactersRefused: an ESC sequence in a spec or method name is refused,
// alone and quoted, before it can reach a terminal.
func TestControlCharactersRefused(t *testing.T) {
	s := &Spec{Name: "x\x1b[2Jy", Protocol: ProtocolCurve, Data: DataSpec{Name: "xperm"}, Group: GroupSpec{Kind: "permutation"},
		Methods: []Method{{Name: "evil\x1b]0;title\x07", Features: "raw"}}, Sizes: []int{20}}
	err := resolve(s)
	if err == nil {
		t.Fatal("control characters accepted")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `name "x\x1b[2Jy" holds control characters`) || !strings.Contains(msg, "methods.0.name") {
		t.Errorf("message %q", msg)
	}
	s.Name, s.Methods[0].Name = "fine", ""
	if err := resolve(s); err != nil {
		t.Errorf("clean spec refused: %v", err)
	}
}

// TestLoadSpecWholeNumbers checks that a YAML spec giving a fraction to a whole-number
// field is refused (yaml.v3 alone would truncate degree 2.5 to 2), while integral floats
// and fractions in real-valued fields load; and that no field name is a whole number in
// one part of the spec and a real number in another (the check goes by name).
func TestLoadSpecWholeNumbers(t *testing.T) {
	for name := range wholeFields {
		if realFields[name] {
			t.Errorf("field %q is both a whole and a real number", name)
		}
	}
	if !wholeFields["degree"] || !wholeFields["sizes"] || !realFields["gamma"] {
		t.Fatalf("field kinds: degree %v, sizes %v, gamma %v", wholeFields["degree"], wholeFields["sizes"], realFields["gamma"])
	}
	write := func(method, sizes string) string {
		p := t.TempDir() + "/spec.yaml"
		y := "name: s\nprotocol: sample-complexity\ndata: {name: circle}\nmethods:\n  - " + method + "\nsizes: " + sizes + "\n"
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := []struct{ method, sizes string }{
		{"{kernel: poly, gamma: 2.5, degree: 8.0, learner: svm, c: 1000}", "[10, 20.0]"},
		{"{kernel: poly, gamma: 0.5, degree: 3, learner: svm, c: 0.5}", "[10]"},
	}
	for _, c := range ok {
		s, err := LoadSpec(write(c.method, c.sizes))
		if err != nil {
			t.Errorf("%s: %v", c.method, err)
		} else if s.Methods[0].Degree < 3 {
			t.Errorf("%s: degree %d", c.method, s.Methods[0].Degree)
		}
	}
	bad := []struct{ method, sizes, want string }{
		{"{kernel: poly, gamma: 0.5, degree: 2.5, learner: svm, c: 1}", "[10]", "methods.0.degree takes a whole number, not 2.5"},
		{"{kernel: poly, gamma: 0.5, degree: .nan, learner: svm, c: 1}", "[10]", "methods.0.degree takes a whole number, not .nan"},
		{"{kernel: poly, gamma: 0.5, degree: 3, learner: svm, c: 1}", "[10, 20.5]", "sizes.1 takes a whole number, not 20.5"},
		{"{features: cdf, bins: 1e100, templates: 5}", "[10]", "methods.0.bins takes a whole number"},
	}
	for _, c := range bad {
		_, err := LoadSpec(write(c.method, c.sizes))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.method, c.sizes, err, c.want)
		}
	}
}

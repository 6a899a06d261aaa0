package model

import (
	"errors"
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
	if err := s.Validate(); err != nil {
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
		err := s.Validate()
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

func TestLoadDataErrors(t *testing.T) {
	_, _, err := LoadData(DataSpec{Name: "mnist"}, t.TempDir(), 1)
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "mnist") {
		t.Errorf("missing MNIST: err = %v, want an InputError naming mnist", err)
	}
	_, _, err = LoadData(DataSpec{Name: "xperm", TestSize: 40000}, "", 1)
	if !errors.As(err, &ie) {
		t.Errorf("test_size too large: err = %v, want an InputError", err)
	}
}

func TestLoadXPermSplit(t *testing.T) {
	pool, test, err := LoadData(DataSpec{Name: "xperm", TestSize: 1000}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Len()+test.Len() != 32768 || test.Len() != 1000 {
		t.Errorf("split %d + %d, want 31768 + 1000", pool.Len(), test.Len())
	}
	// Rows are scaled to unit norm: 5 ones / sqrt(5).
	row := pool.X.RawRowView(0)
	var s float64
	for _, v := range row {
		s += v * v
	}
	if s < 1-1e-12 || s > 1+1e-12 {
		t.Errorf("row norm^2 %v, want 1", s)
	}
}

func TestBuildGroupErrors(t *testing.T) {
	var ie *InputError
	if _, err := BuildGroup(GroupSpec{Kind: "rotation", Angles: &AngleSpec{From: -10, To: 10, Count: 3}}, []int{40}, 1); !errors.As(err, &ie) {
		t.Errorf("rotation on vectors: err = %v, want an InputError", err)
	}
	if _, err := BuildGroup(GroupSpec{Kind: "local-shift", Radius: 30}, []int{28, 28}, 1); !errors.As(err, &ie) {
		t.Errorf("radius 30 on 28x28: err = %v, want an InputError", err)
	}
	g, err := BuildGroup(GroupSpec{Kind: "rotation+shift", Radius: 3, Angles: &AngleSpec{From: -20, To: 20, Count: 9}}, []int{28, 28}, 1)
	if err != nil || g.Len() != 441 {
		t.Fatalf("rotation+shift: %v, |G| = %v, want 441", err, g)
	}
	g, err = BuildGroup(GroupSpec{Kind: "permutation", Size: 10}, []int{5, 8}, 1)
	if err != nil || g.Len() != 10 {
		t.Fatalf("sampled permutations: %v, want |G| = 10", err)
	}
}

// TestControlCharactersRefused: an ESC sequence in a spec or method name is refused,
// alone and quoted, before it can reach a terminal.
func TestControlCharactersRefused(t *testing.T) {
	s := &Spec{Name: "x\x1b[2Jy", Protocol: ProtocolCurve, Data: DataSpec{Name: "xperm"}, Group: GroupSpec{Kind: "permutation"},
		Methods: []Method{{Name: "evil\x1b]0;title\x07", Features: "raw"}}, Sizes: []int{20}}
	err := s.Validate()
	if err == nil {
		t.Fatal("control characters accepted")
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `name "x\x1b[2Jy" holds control characters`) || !strings.Contains(msg, "methods.0.name") {
		t.Errorf("message %q", msg)
	}
	s.Name, s.Methods[0].Name = "fine", ""
	if err := s.Validate(); err != nil {
		t.Errorf("clean spec refused: %v", err)
	}
}

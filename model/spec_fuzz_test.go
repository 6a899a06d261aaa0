package model

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseSpecStrict checks the parse-level refusals: trailing data after a JSON spec,
// a key given twice, a second YAML document, a fraction reaching a whole-number field
// through a YAML alias; and that a plain spec parses in both formats.
func TestParseSpecStrict(t *testing.T) {
	const okJSON = `{"name": "t", "protocol": "sample-complexity", "data": {"name": "xperm"}, "group": {"kind": "permutation"},
		"methods": [{"features": "raw"}], "sizes": [10], "seed": 1}`
	const okYAML = "name: t\nprotocol: sample-complexity\ndata: {name: xperm}\ngroup: {kind: permutation}\nmethods:\n  - {features: raw}\nsizes: [10]\nseed: 1\n"
	if _, err := ParseSpec([]byte(okJSON), false); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	if _, err := ParseSpec([]byte(okYAML), true); err != nil {
		t.Fatalf("YAML: %v", err)
	}
	cases := []struct {
		name string
		in   string
		yml  bool
		want string
	}{
		{"JSON trailing object", okJSON + ` {"seed": 2}`, false, "data after the spec"},
		{"JSON trailing garbage", okJSON + ` xyz`, false, "does not parse"},
		{"JSON duplicate key", strings.Replace(okJSON, `"seed": 1`, `"seed": 1, "seed": 2`, 1), false, `key "seed" appears twice`},
		{"JSON duplicate nested key", strings.Replace(okJSON, `{"features": "raw"}`, `{"features": "raw", "features": "cdf"}`, 1), false, `key "features" appears twice`},
		{"YAML second document", okYAML + "---\nseed: 2\n", true, "a second YAML document"},
		{"YAML duplicate key", okYAML + "seed: 2\n", true, "already defined"},
		{"YAML alias to a fraction", "x: &d 2.5\n" + strings.Replace(okYAML, "{features: raw}", "{kernel: poly, gamma: 1, c: 1, learner: svm, degree: *d}", 1), true, "degree takes a whole number, not 2.5"},
		{"empty YAML", "", true, "empty"},
	}
	for _, c := range cases {
		_, err := ParseSpec([]byte(c.in), c.yml)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
}

// TestSetWildcards checks the wildcard assignments that used to panic: every element of
// a list of numbers, and a whole method replaced by a number (refused with a message).
func TestSetWildcards(t *testing.T) {
	s := validSpec()
	if err := s.Set("sizes.*=30"); err != nil || s.Sizes[0] != 30 || s.Sizes[1] != 30 {
		t.Fatalf("sizes.*=30: %v, sizes %v", err, s.Sizes)
	}
	if err := validSpec().Set("methods.*=1"); err == nil || !strings.Contains(err.Error(), "every element of methods takes an object, not the number 1") {
		t.Errorf("methods.*=1: %v", err)
	}
	for _, a := range []string{"methods.*=1", "methods.=1", "methods..bins=1", ".=1", "sizes.*.x=1", "repeats.*=1"} {
		if err := validSpec().Set(a); err == nil {
			t.Errorf("%s: no error", a)
		}
	}
}

// FuzzSpecSet checks that no --set assignment panics, and that a spec it accepts
// survives a JSON round trip (Set leaves a spec the decoder reads back).
func FuzzSpecSet(f *testing.F) {
	for _, a := range []string{"repeats=10", "methods.0.bins=25", "methods.*.lambda=1e-6", "sizes.*=1", "methods.*=1",
		"data.test_size=2000", "grid.bins=[1,2]", "methods.1.rotations.to=340", "x", "=", "methods.9.bins=1", "sizes=[1e400]"} {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, a string) {
		s := validSpec()
		if err := s.Set(a); err != nil {
			return
		}
		_ = s.Clone()
		_ = resolve(s)
	})
}

// FuzzLoadSpec checks that no byte string makes the spec parser panic, in either format.
func FuzzLoadSpec(f *testing.F) {
	f.Add([]byte(`{"name": "t", "protocol": "grid", "methods": [{"features": "cdf"}], "grid": {"bins": [1], "templates": [1], "size": 10}}`), false)
	f.Add([]byte("name: t\nmethods:\n  - &m {features: raw}\n  - *m\nsizes: [10]\n"), true)
	f.Add([]byte("a: &a [*a]\n"), true)
	f.Add([]byte(`{"methods": [{"locality": {"k1": 3}}], "seed": -1}`), false)
	f.Fuzz(func(t *testing.T, b []byte, yml bool) {
		s, err := ParseSpec(b, yml)
		if err == nil && s == nil {
			t.Fatal("nil spec without an error")
		}
	})
}

// TestYAMLAliasBomb checks that a YAML file whose aliases expand to billions of values
// is refused quickly instead of being walked.
func TestYAMLAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	if _, err := ParseSpec([]byte(b.String()), true); err == nil {
		t.Fatal("alias bomb accepted")
	}
}

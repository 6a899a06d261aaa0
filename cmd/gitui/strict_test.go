package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// TestStrictSpecs checks that specs are strict (docs/spec.md) on the command line:
// a duplicate method name, a field set where it does not apply, a bad enumerated value
// and a combination that cannot run each exit with status 2, end stderr with one
// "gitui: " line naming the field and the fix, write no result.json, and are refused
// before any data are loaded.
func TestStrictSpecs(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string // every piece must be on the last stderr line
	}{
		{"duplicate derived name", []string{"run", "xperm-curve", "--quick", "--set", "methods.1.features=raw"},
			[]string{"methods.0 and methods.1", `"raw RLS"`, "give methods.1 a different name"}},
		{"duplicate written name", []string{"run", "xperm-curve", "--quick", "--set", "methods.3.name=raw RLS"},
			[]string{"methods.0 and methods.3", "give methods.3 a different name"}},
		{"bins on raw features", []string{"run", "xperm-curve", "--quick", "--set", "methods.0.bins=7"},
			[]string{"methods.0.bins applies to features cdf, not raw", "drop it"}},
		{"kernel_norm on raw RLS", []string{"run", "xperm-curve", "--quick", "--set", "methods.0.kernel_norm=cosine"},
			[]string{"methods.0.kernel_norm applies to Liu et al.'s kernels", "not feature methods"}},
		{"psd bogus", []string{"run", "liu-table2", "--quick", "--set", "methods.0.psd=bogus"},
			[]string{`psd "bogus" is unknown: use one of clip, flip`}},
		{"shifts without TI or locality", []string{"run", "liu-table2", "--quick", "--set", "methods.2.shifts=2"},
			[]string{"methods.2.shifts applies to invariance TI or TI-RI, or locality, not invariance RI"}},
		{"C on an RLS learner", []string{"run", "xperm-curve", "--quick", "--set", "methods.3.c=10"},
			[]string{"methods.3.c applies to learners svm, invariant-svm and vsv, not learner rls"}},
		{"Haar with a sampled group", []string{"run", "xperm-curve", "--quick", "--set", "group.size=10"},
			[]string{"group.size 10 keeps a sample of it: set group.size to 0"}},
		{"grid in a pd spec", []string{"run", "liu-table1", "--quick", "--set", `grid={"bins":[1],"templates":[1],"size":10}`},
			[]string{"grid applies to protocols grid and sample-complexity, not protocol pd"}},
		{"angles without rotations", []string{"run", "xperm-curve", "--quick", "--set", `group.angles={"from":0,"to":10,"count":2}`},
			[]string{"group.angles applies to group kinds rotation and rotation+shift, not group.kind permutation"}},
		{"test_path without file", []string{"run", "xperm-curve", "--quick", "--set", "data.test_path=t.csv"},
			[]string{"data.test_path applies to data.name file, not data.name xperm"}},
		{"the same bad size thrice", []string{"run", "xperm-curve", "--quick", "--set", "sizes.*=1"},
			[]string{"training size 1 is out of range: use 2..10000000"}},
		{"a method replaced by a number", []string{"run", "xperm-curve", "--quick", "--set", "methods.*=1"},
			[]string{"every element of methods takes an object, not the number 1"}},
		{"unknown method field", []string{"run", "xperm-curve", "--quick", "--set", "methods.0.binz=7"},
			[]string{`a method has no field "binz": use one of features, kernel,`, "gitui presets -v"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			code, _, stderr := gitui(t, append(c.args, "--out", out, "--data", t.TempDir())...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if len(lines) != 1 || !strings.HasPrefix(last, "gitui: ") {
				t.Errorf("stderr %q, want one gitui: line", stderr)
			}
			for _, w := range c.want {
				if n := strings.Count(last, w); n != 1 {
					t.Errorf("stderr line %q has %q %d times, want once", last, w, n)
				}
			}
			if _, err := os.Stat(filepath.Join(out, "result.json")); err == nil {
				t.Error("result.json written for bad input")
			}
		})
	}
}

// TestDerivedNameFollowsSet checks that a name derived from the settings is derived after
// every --set: bins 7 on the CDF(25,25) method of xperm-curve gives the series
// "CDF(7,25) RLS", and no series keeps the stale name.
func TestDerivedNameFollowsSet(t *testing.T) {
	out := t.TempDir()
	code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", out, "--set", "methods.2.bins=7",
		"--set", "sizes=[20]", "--set", "repeats=1", "--set", "data.test_size=200")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := model.ReadResult(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range r.Series {
		names = append(names, s.Name)
	}
	got := strings.Join(names, "|")
	if !strings.Contains(got, "|CDF(7,25) RLS|") || strings.Contains(got, "CDF(25,25)") {
		t.Errorf("series %q, want CDF(7,25) RLS and no CDF(25,25)", got)
	}
}

// TestPresetsVerboseSchema checks that `gitui presets -v` prints every method family and
// every field of the schema with where it applies, so that the reference cannot fall
// behind the code.
func TestPresetsVerboseSchema(t *testing.T) {
	code, out, _ := gitui(t, "presets", "-v")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range model.Families {
		if !strings.Contains(out, "  "+f.Key+" ") {
			t.Errorf("presets -v lacks family %s", f.Key)
		}
	}
	for _, f := range model.MethodFields {
		found := false
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "  "+f.Key+" ") && strings.Contains(l, f.AppliesTo) {
				found = true
			}
		}
		if !found {
			t.Errorf("presets -v has no line for field %s applying to %q", f.Key, f.AppliesTo)
		}
	}
}

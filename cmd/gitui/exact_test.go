package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExactNumbers checks "exact numbers, or a refusal": a whole number given
// through --set, a JSON spec or --seed is kept to the last digit (2^53+1 is not rounded
// to 2^53), and a value outside the registry's range is refused with exit 2, quoting the
// text the user typed (not its float64 rounding), before anything is written.
func TestExactNumbers(t *testing.T) {
	const big = "9007199254740993" // 2^53 + 1: the first integer float64 cannot hold
	tiny := []string{"--set", "sizes=[20]", "--set", "repeats=1", "--set", "data.test_size=50"}
	seedOf := func(dir string) string {
		b, err := os.ReadFile(filepath.Join(dir, "spec.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			Seed json.Number `json:"seed"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		return string(s.Seed)
	}
	for _, args := range [][]string{{"--set", "seed=" + big}, {"--seed", big}} {
		out := t.TempDir()
		a := append(append([]string{"run", journalArgs[1], "--out", out}, tiny...), args...)
		if code, _, stderr := gitui(t, a...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if got := seedOf(out); got != big {
			t.Errorf("%v: spec.json seed %s, want %s", args, got, big)
		}
	}
	// A JSON spec file carries it exactly too.
	spec := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(spec, []byte(strings.Replace(journalSpec, `"seed": 3`, `"seed": `+big, 1)), 0o644)
	out := t.TempDir()
	if code, _, stderr := gitui(t, append([]string{"run", spec, "--out", out}, tiny...)...); code != 0 {
		t.Fatalf("spec file: exit %d: %s", code, stderr)
	}
	if got := seedOf(out); got != big {
		t.Errorf("spec file: seed %s, want %s", got, big)
	}

	refused := []struct{ set, want string }{
		{"seed=18446744073709551615", "seed 18446744073709551615 is out of range: use 0..9223372036854775807"},
		{"seed=18446744073709551616", "seed 18446744073709551616 is out of range"},
		{"seed=-1", "seed -1 is out of range"},
		{"repeats=0", "repeats 0 is out of range: use 1..10000"},
		{"repeats=99999999999999999999", "repeats 99999999999999999999 is out of range"},
		{"methods.0.lambda=1e308", "lambda 1e308 is out of range: use 1e-12..1e6, or 0 to pick it by leave-one-out"},
		{"methods.0.lambda=1e-320", "lambda 1e-320 is out of range"},
		{"methods.*.lambda=1e7", "lambda 1e7 is out of range"},
		{"sizes=[1,100]", "sizes 1 is out of range"},
	}
	for _, c := range refused {
		out := t.TempDir()
		code, _, stderr := gitui(t, "run", journalArgs[1], "--out", out, "--set", c.set)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("--set %s: exit %d, stderr %q; want exit 2 and one line with %q", c.set, code, stderr, c.want)
		}
		if _, err := os.Stat(filepath.Join(out, "spec.json")); err == nil {
			t.Errorf("--set %s: spec.json written for a refused value", c.set)
		}
	}
	// A seed beyond --seed's range in a spec file is refused by Validate, whole.
	os.WriteFile(spec, []byte(strings.Replace(journalSpec, `"seed": 3`, `"seed": 18446744073709551615`, 1)), 0o644)
	if code, _, stderr := gitui(t, "run", spec, "--out", t.TempDir()); code != 2 || !strings.Contains(stderr, "seed 18446744073709551615 is out of range") {
		t.Errorf("spec file seed 2^64-1: exit %d, %q", code, stderr)
	}
	// Zero still means leave-one-out for lambda.
	if code, _, stderr := gitui(t, append([]string{"run", journalArgs[1], "--out", t.TempDir(), "--set", "methods.0.lambda=0"}, tiny...)...); code != 0 {
		t.Errorf("lambda=0: exit %d: %s", code, stderr)
	}
}

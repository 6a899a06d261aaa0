package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/internal/testenv"
)

// TestBenchCommand runs ti-gram, test-gram and smo at small sizes through the command
// line: exit 0, one JSON object per line with the documented names, then the text form.
func TestBenchCommand(t *testing.T) {
	dir := testenv.MNISTDir(t)
	code, stdout, stderr := gitui(t, "bench", "ti-gram", "test-gram", "smo", "--n", "40", "--test", "30", "--json", "--data", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	want := []struct {
		name, unit string
		pairs      float64
	}{{"ti-gram", "pairs/s", 40 * 41 / 2}, {"test-gram", "pairs/s", 30 * 40}, {"smo", "SMO-iter/s", 0}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout)
	}
	for i, l := range lines {
		var r struct {
			Name       string         `json:"name"`
			Seconds    float64        `json:"seconds"`
			Throughput float64        `json:"throughput"`
			Unit       string         `json:"unit"`
			Params     map[string]any `json:"params"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
		w := want[i]
		if r.Name != w.name || r.Unit != w.unit || r.Seconds <= 0 || r.Throughput <= 0 || r.Params["n"] != 40.0 {
			t.Errorf("line %d: %+v, want name %s unit %s n 40", i+1, r, w.name, w.unit)
		}
		if w.pairs > 0 && r.Params["pairs"] != w.pairs {
			t.Errorf("%s: pairs %v, want %v", r.Name, r.Params["pairs"], w.pairs)
		}
	}
	code, stdout, stderr = gitui(t, "bench", "ti-gram", "--n", "20", "--data", dir)
	if code != exitOK || !strings.HasPrefix(stdout, "ti-gram ") || !strings.Contains(stdout, "pairs/s") || !strings.Contains(stdout, "n=20 ") {
		t.Errorf("text output: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestBenchBadFlags: bad names, sizes and files give exit status 2 and one line on
// stderr naming the problem and the fix.
func TestBenchBadFlags(t *testing.T) {
	empty := t.TempDir()
	asym := filepath.Join(empty, "asym.libsvm")
	if err := os.WriteFile(asym, []byte("1 0:1 1:1 2:0.5\n2 0:2 1:0.25 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"no-such"}, "available: features, ti-gram, test-gram, smo"},
		{[]string{"ti-gram", "--n", "0"}, "--n >= 1"},
		{[]string{"ti-gram", "--n", "-3"}, "--n >= 1"},
		{[]string{"ti-gram", "--n", "abc"}, "invalid value"},
		{[]string{"test-gram", "--test", "0"}, "--test >= 1"},
		{[]string{"smo", "--n", "1"}, "--n >= 2"},
		{[]string{"ti-gram", "--frobnicate"}, "not defined"},
		{[]string{"ti-gram", "--n", "10", "--data", empty}, "--data"},
		{[]string{"smo", "--gram", filepath.Join(empty, "none.libsvm")}, "none.libsvm"},
		{[]string{"smo", "--gram", asym}, "symmetric"},
		{[]string{"smo", "--gram", asym, "--n", "5"}, "--n 2"},
	} {
		code, stdout, stderr := gitui(t, append([]string{"bench"}, c.args...)...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != exitUsage || len(lines) != 1 || !strings.HasPrefix(lines[0], "gitui: ") || !strings.Contains(lines[0], c.want) || stdout != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and one line containing %q", c.args, code, stderr, stdout, c.want)
		}
	}
}

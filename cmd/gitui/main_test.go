package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
)

// gitui runs the command line in-process and returns its exit status, stdout and stderr.
func gitui(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestBadInput checks bad inputs: exit status 2, one line on stderr
// naming the problem and the fix, and no result.json.
func TestBadInput(t *testing.T) {
	corrupt := t.TempDir()
	os.MkdirAll(filepath.Join(corrupt, "mnist"), 0o755)
	writeGz(t, filepath.Join(corrupt, "mnist", "train10k-images-idx3-ubyte.gz"), []byte{0, 0, 8, 3, 0, 0, 0, 10, 0, 0, 0, 28, 0, 0, 0, 28, 1, 2, 3})
	writeGz(t, filepath.Join(corrupt, "mnist", "train10k-labels-idx1-ubyte.gz"), append([]byte{0, 0, 8, 1, 0, 0, 0, 10}, make([]byte, 10)...))
	writeGz(t, filepath.Join(corrupt, "mnist", "t10k-images-idx3-ubyte.gz"), []byte("not an idx file at all"))
	writeGz(t, filepath.Join(corrupt, "mnist", "t10k-labels-idx1-ubyte.gz"), append([]byte{0, 0, 8, 1, 0, 0, 0, 10}, make([]byte, 10)...))
	mismatch := t.TempDir()
	os.MkdirAll(filepath.Join(mismatch, "mnist"), 0o755)
	writeGz(t, filepath.Join(mismatch, "mnist", "train10k-images-idx3-ubyte.gz"), append([]byte{0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2}, make([]byte, 8)...))
	writeGz(t, filepath.Join(mismatch, "mnist", "train10k-labels-idx1-ubyte.gz"), append([]byte{0, 0, 8, 1, 0, 0, 0, 3}, 0, 1, 2))
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown preset", []string{"run", "no-such-preset"}, "unknown preset"},
		{"bins <= 0", []string{"run", "xperm-curve", "--quick", "--set", "methods.2.bins=0"}, "bins 0 is out of range"},
		{"templates <= 0", []string{"run", "xperm-curve", "--quick", "--set", "methods.2.templates=-1"}, "templates -1 is out of range"},
		{"lambda < 0", []string{"run", "xperm-curve", "--quick", "--set", "methods.0.lambda=-0.5"}, "lambda -0.5 is out of range: use 1e-12..1e6, or 0"},
		{"size > pool", []string{"run", "xperm-curve", "--quick", "--set", "sizes=[100000]"}, "larger than the pool"},
		{"missing data", []string{"run", "mnist-cdf", "--quick", "--data", t.TempDir()}, "gitui data fetch mnist"},
		{"truncated IDX", []string{"run", "mnist-cdf", "--quick", "--data", corrupt}, "train10k-images"},
		{"count mismatch", []string{"run", "mnist-cdf", "--quick", "--data", mismatch}, "labels"},
		{"bad --set", []string{"run", "xperm-curve", "--set", "nonsense"}, "want key=value"},
		{"unknown command", []string{"frobnicate"}, "unknown command"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			code, _, stderr := gitui(t, append(c.args, "--out", out)...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			if !strings.HasPrefix(last, "gitui: ") || !strings.Contains(last, c.want) {
				t.Errorf("last stderr line %q, want a gitui: line containing %q", last, c.want)
			}
			if _, err := os.Stat(filepath.Join(out, "result.json")); err == nil {
				t.Error("result.json written for bad input")
			}
		})
	}
}

func writeGz(t *testing.T, path string, b []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRunQuickPreset runs a small X_perm curve end to end and checks result.json.
func TestRunQuickPreset(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", out,
		"--set", "sizes=[20,60]", "--set", "repeats=2", "--set", "data.test_size=500")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	r, err := model.ReadResult(filepath.Join(out, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Preset != "xperm-curve" || len(r.Series) != 4 || r.Partial {
		t.Fatalf("result: preset %q, %d series, partial %v", r.Preset, len(r.Series), r.Partial)
	}
	for _, s := range r.Series {
		if len(s.Points) != 2 || s.XLabel != "training set size" {
			t.Errorf("%s: %d points, x label %q", s.Name, len(s.Points), s.XLabel)
		}
		for _, p := range s.Points {
			if p.Runs != 2 || p.Mean < 0.5 || p.Mean > 1 {
				t.Errorf("%s at %v: mean %v over %d runs", s.Name, p.X, p.Mean, p.Runs)
			}
		}
	}
	var spec model.Spec
	if err := json.Unmarshal(r.Spec, &spec); err != nil || spec.Repeats != 2 {
		t.Errorf("spec in result.json: %v, repeats %d", err, spec.Repeats)
	}
	if !strings.Contains(stdout, "CDF(25,25) RLS") {
		t.Errorf("summary lacks the CDF row:\n%s", stdout)
	}
}

func TestPresetsAndVersion(t *testing.T) {
	code, out, _ := gitui(t, "presets")
	for _, name := range []string{"xperm-curve", "xperm-group-size", "xperm-bins-templates", "mnist-cdf", "kernel-approx"} {
		if code != 0 || !strings.Contains(out, name) {
			t.Errorf("presets lacks %s (exit %d)", name, code)
		}
	}
	if code, out, _ := gitui(t, "version"); code != 0 || !strings.HasPrefix(out, "gitui ") {
		t.Errorf("version: %d %q", code, out)
	}
}

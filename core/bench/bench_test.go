package bench

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// dataDir returns $GITUI_DATA, or skips the test when it does not hold MNIST.
func dataDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("GITUI_DATA")
	if dir == "" {
		t.Skip("set GITUI_DATA to a directory containing mnist/ to run this test")
	}
	if _, err := os.Stat(filepath.Join(dir, MNISTTrainImages)); err != nil {
		t.Skipf("GITUI_DATA=%s has no %s", dir, MNISTTrainImages)
	}
	return dir
}

func TestFeaturesBadInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ n, m, g, bins int }{{0, 1, 49, 5}, {10, 0, 49, 5}, {10, 11, 49, 5}, {10, 5, 50, 5}, {10, 5, 49, 0}} {
		if _, err := Features(ctx, t.TempDir(), c.n, c.m, c.g, c.bins); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	_, err := Features(ctx, t.TempDir(), 10, 5, 49, 5)
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "--data") {
		t.Errorf("missing data: %v", err)
	}
}

func TestFeaturesSmall(t *testing.T) {
	dir := dataDir(t)
	r, err := Features(context.Background(), dir, 300, 10, 441, 25)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(r)
	t.Logf("%s", b)
	for _, k := range []string{`"name":"features"`, `"seconds":`, `"throughput":`, `"unit":"images/s"`, `"params":`, `"gflops":`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON lacks %s", k)
		}
	}
	stages := r.Params["templates_s"].(float64) + r.Params["projection_s"].(float64) + r.Params["pooling_s"].(float64)
	if r.Seconds <= 0 || r.Throughput != 300/r.Seconds || stages > 1.05*r.Seconds {
		t.Errorf("inconsistent times: %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Features(ctx, dir, 300, 10, 49, 25); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}

var peerLine = regexp.MustCompile(`: ([0-9.]+) s \(projection ([0-9.]+) s at ([0-9.]+) GFLOP/s, pooling ([0-9.]+) s; templates ([0-9.]+) s\)`)

// TestSideBySide is the measuring driver, not a unit test: with GITUI_BENCH_PEER=1 it runs
// the numpy peer (/usr/bin/python3 ../shared/bench/cdf_features.py) and Features on the
// same workload, alternately, GITUI_BENCH_REPS times (default 2), and logs the seconds
// and the ratio. Run it once per build:
//
//	GITUI_DATA=/work/shared/data GITUI_BENCH_PEER=1 go test ./core/bench -run SideBySide -v -timeout 30m
//	GITUI_DATA=/work/shared/data GITUI_BENCH_PEER=1 go test -tags openblas ./core/bench -run SideBySide -v
//
// GITUI_BENCH_N (default 10000) sets the number of images.
func TestSideBySide(t *testing.T) {
	if os.Getenv("GITUI_BENCH_PEER") == "" {
		t.Skip("set GITUI_BENCH_PEER=1 (and GITUI_DATA) to time gitui against the numpy peer")
	}
	dir := dataDir(t)
	script := os.Getenv("GITUI_BENCH_SCRIPT")
	if script == "" {
		script = "../../../shared/bench/cdf_features.py"
	}
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("GITUI_BENCH_N")); err == nil {
		n = v
	}
	reps := 2
	if v, err := strconv.Atoi(os.Getenv("GITUI_BENCH_REPS")); err == nil {
		reps = v
	}
	for rep := range reps {
		out, err := exec.Command("/usr/bin/python3", script, "--n", strconv.Itoa(n), "--m", "100", "--g", "441",
			"--data", filepath.Join(dir, "mnist")).CombinedOutput()
		if err != nil {
			t.Fatalf("peer: %v\n%s", err, out)
		}
		mm := peerLine.FindStringSubmatch(string(out))
		if mm == nil {
			t.Fatalf("peer output not understood: %s", out)
		}
		peer, _ := strconv.ParseFloat(mm[1], 64)
		peerT, _ := strconv.ParseFloat(mm[5], 64)
		r, err := Features(context.Background(), dir, n, 100, 441, 25)
		if err != nil {
			t.Fatal(err)
		}
		p := r.Params
		ours := r.Seconds - p["templates_s"].(float64) // the peer times templates separately
		t.Logf("rep %d peer  (numpy): %.3f s = projection %s s (%s GFLOP/s) + pooling %s s; templates %.2f s",
			rep, peer, mm[2], mm[3], mm[4], peerT)
		t.Logf("rep %d gitui (%s, sgemm %s): %.3f s = projection %.3f s (%.1f GFLOP/s) + pooling %.3f s; templates %.2f s",
			rep, p["blas"], p["sgemm"], ours, p["projection_s"], p["gflops"], p["pooling_s"], p["templates_s"])
		t.Logf("rep %d ratio gitui/peer: %.2f (projection+pooling), %.2f (including templates)",
			rep, ours/peer, r.Seconds/(peer+peerT))
	}
}

package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gitui/core/data"

	"gonum.org/v1/gonum/mat"
)

func TestKernelBenchBadInput(t *testing.T) {
	ctx := context.Background()
	empty := t.TempDir()
	for _, c := range []struct {
		name string
		run  func() error
		want string
	}{
		{"ti n=0", func() error { _, err := TIGram(ctx, empty, 0); return err }, "--n >= 1"},
		{"test test=0", func() error { _, err := TestGram(ctx, empty, 0, 5); return err }, "--test >= 1"},
		{"test n=0", func() error { _, err := TestGram(ctx, empty, 5, 0); return err }, "--n >= 1"},
		{"smo n=1", func() error { _, err := SMO(ctx, empty, 1, ""); return err }, "--n >= 2"},
		{"ti missing data", func() error { _, err := TIGram(ctx, empty, 5); return err }, "--data"},
		{"smo missing gram", func() error { _, err := SMO(ctx, empty, 0, filepath.Join(empty, "gram.libsvm")); return err }, "gram.libsvm"},
	} {
		err := c.run()
		var ie *data.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line InputError containing %q", c.name, err, c.want)
		}
	}
	// A Gram file that is not symmetric, and one whose size disagrees with n.
	p := filepath.Join(empty, "asym.libsvm")
	os.WriteFile(p, []byte("1 0:1 1:1 2:0.5\n2 0:2 1:0.25 2:1\n"), 0o644)
	if _, err := SMO(ctx, empty, 0, p); err == nil || !strings.Contains(err.Error(), "symmetric") {
		t.Errorf("asymmetric Gram: %v", err)
	}
	if _, err := SMO(ctx, empty, 3, p); err == nil || !strings.Contains(err.Error(), "--n 2") {
		t.Errorf("n mismatch: %v", err)
	}
}

// TestCorrMax checks the plain definition itself on images whose correlation maximum
// is known: a single pixel against a shifted copy (1 at the matching shift) and two
// constant images (784·a·b at every shift).
func TestCorrMax(t *testing.T) {
	a, b := make([]float64, 784), make([]float64, 784)
	a[3*28+5], b[20*28+1] = 1, 0.5
	if got := corrMax(a, b); got != 0.5 {
		t.Errorf("single pixels: %v, want 0.5", got)
	}
	for i := range a {
		a[i], b[i] = 0.5, 0.25
	}
	if got := corrMax(a, b); math.Abs(got-784*0.125) > 1e-12 {
		t.Errorf("constants: %v, want %v", got, 784*0.125)
	}
}

func TestTIGramSmall(t *testing.T) {
	dir := dataDir(t)
	ctx := context.Background()
	r, err := TIGram(ctx, dir, 60)
	if err != nil {
		t.Fatal(err)
	}
	wantPairs := 60 * 61 / 2
	if r.Name != "ti-gram" || r.Unit != "pairs/s" || r.Params["pairs"] != wantPairs || math.Abs(r.Throughput*r.Seconds-float64(wantPairs)) > 1e-6*float64(wantPairs) {
		t.Errorf("result %+v", r)
	}
	if f := r.Params["fft"]; f != "avx2" && f != "go" {
		t.Errorf("fft implementation %v, want avx2 or go", f)
	}
	if r.Params["spectra_s"].(float64) > r.Seconds {
		t.Errorf("spectra %v s > total %v s", r.Params["spectra_s"], r.Seconds)
	}
	r, err = TestGram(ctx, dir, 30, 20)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "test-gram" || r.Params["pairs"] != 600 || math.Abs(r.Throughput*r.Seconds-600) > 1e-6*600 {
		t.Errorf("result %+v", r)
	}
	if _, err := TestGram(ctx, dir, 10001, 5); err == nil || !strings.Contains(err.Error(), "--test <= 10000") {
		t.Errorf("test above the file: %v", err)
	}
	if _, err := TIGram(ctx, dir, 10001); err == nil || !strings.Contains(err.Error(), "--n <= 10000") {
		t.Errorf("n above the pool: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := TIGram(cctx, dir, 60); err != context.Canceled {
		t.Errorf("cancelled ti-gram: %v", err)
	}
	if _, err := TestGram(cctx, dir, 30, 20); err != context.Canceled {
		t.Errorf("cancelled test-gram: %v", err)
	}
}

// TestSMOSmall trains on generated Grams and on a file in the peer's format written from
// the same Gram: the iteration counts must agree (the same matrix to 15 digits gives
// the same SMO steps).
func TestSMOSmall(t *testing.T) {
	dir := dataDir(t)
	ctx := context.Background()
	const n = 120
	r, err := SMO(ctx, dir, n, "")
	if err != nil {
		t.Fatal(err)
	}
	p := r.Params
	if r.Name != "smo" || p["classes"] != 10 || p["gram"] != "generated" || p["iterations"].(int) <= 0 || p["n_sv"].(int) <= 0 || p["n_sv"].(int) > n {
		t.Fatalf("result %+v", r)
	}
	// Write the Gram as svm_precomputed.sh does: "label 0:i 1:K(i,1) ... n:K(i,n)", %.15g.
	x, y, err := pool(dir, n, true)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d 0:%d", y[i], i+1)
		for j := range n {
			fmt.Fprintf(&b, " %d:%.15g", j+1, math.Pow(1+mat.Dot(x.RowView(i), x.RowView(j))/784, 8))
		}
		b.WriteByte('\n')
	}
	gram := filepath.Join(t.TempDir(), fmt.Sprintf("gram-%d.libsvm", n))
	if err := os.WriteFile(gram, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rf, err := SMO(ctx, "", 0, gram)
	if err != nil {
		t.Fatal(err)
	}
	if rf.Params["gram"] != gram || rf.Params["n"] != n || rf.Params["iterations"] != p["iterations"] || rf.Params["n_sv"] != p["n_sv"] {
		t.Errorf("file %+v, generated %+v", rf.Params, p)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := SMO(cctx, dir, n, ""); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := data.LoadPrecomputedKernel(gram); err != nil {
		t.Error(err)
	}
}

var (
	tiPeerFull  = regexp.MustCompile(`ti_gram full \d+x\d+: ([0-9.]+) s`)
	tiPeerUpper = regexp.MustCompile(`ti_gram upper-triangle \d+x\d+: ([0-9.]+) s`)
	tiPeerTest  = regexp.MustCompile(`ti_gram test \d+x\d+: ([0-9.]+) s`)
	svmPeer     = regexp.MustCompile(`svm_precomputed n=\d+: ([0-9.]+) s`)
)

// TestSideBySideKernels is the measuring driver for ti-gram, test-gram and smo, not a
// unit test: with GITUI_BENCH_PEER=1 it runs each peer of ../shared/bench and the
// matching gitui benchmark one after the other, GITUI_BENCH_REPS times (default 2), and
// logs both times and the ratio gitui/peer:
//
//	ti_gram.py --n 1000                  vs TIGram(1000)  (upper triangle; the peer's full line too)
//	ti_gram.py --n 500 --test 10000      vs TestGram(10000, 500)
//	svm_precomputed.sh 500 DIR           vs SMO on DIR/gram-500.libsvm (the identical matrix)
//
// Run it once per build, from this directory:
//
//	GITUI_DATA=/work/shared/data GITUI_BENCH_PEER=1 go test ./core/bench -run SideBySideKernels -v -timeout 30m
//	GITUI_DATA=/work/shared/data GITUI_BENCH_PEER=1 go test -tags openblas ./core/bench -run SideBySideKernels -v -timeout 30m
//
// GITUI_BENCH_ONLY (ti-gram, test-gram or smo) restricts it to one workload.
func TestSideBySideKernels(t *testing.T) {
	if os.Getenv("GITUI_BENCH_PEER") == "" {
		t.Skip("set GITUI_BENCH_PEER=1 (and GITUI_DATA) to time gitui against the scipy and LIBSVM peers")
	}
	dir := dataDir(t)
	peers := "../../../shared/bench"
	reps := 2
	if v, err := strconv.Atoi(os.Getenv("GITUI_BENCH_REPS")); err == nil {
		reps = v
	}
	only := os.Getenv("GITUI_BENCH_ONLY")
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Env = append(os.Environ(), "GITUI_DATA="+dir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("peer %s %v: %v\n%s", name, args, err, out)
		}
		return string(out)
	}
	secs := func(re *regexp.Regexp, out string) float64 {
		m := re.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("peer output not understood: %s", out)
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	gramDir := t.TempDir()
	ctx := context.Background()
	for rep := range reps {
		if only == "" || only == "ti-gram" {
			args := []string{filepath.Join(peers, "ti_gram.py"), "--n", "1000", "--data", filepath.Join(dir, "mnist")}
			out := run("/usr/bin/python3", args...)
			full, upper := secs(tiPeerFull, out), secs(tiPeerUpper, out)
			r, err := TIGram(ctx, dir, 1000)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("rep %d ti-gram n=1000: peer upper %.3f s (full %.3f s), gitui (%s) %.3f s, ratio %.2f (vs full %.2f)",
				rep, upper, full, r.Params["blas"], r.Seconds, r.Seconds/upper, r.Seconds/full)
		}
		if only == "" || only == "test-gram" {
			p := secs(tiPeerTest, run("/usr/bin/python3", filepath.Join(peers, "ti_gram.py"), "--n", "500", "--test", "10000", "--data", filepath.Join(dir, "mnist")))
			r, err := TestGram(ctx, dir, 10000, 500)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("rep %d test-gram 10000x500: peer %.3f s, gitui %.3f s, ratio %.2f", rep, p, r.Seconds, r.Seconds/p)
		}
		if only == "" || only == "smo" {
			p := secs(svmPeer, run("bash", filepath.Join(peers, "svm_precomputed.sh"), "500", gramDir))
			r, err := SMO(ctx, "", 0, filepath.Join(gramDir, "gram-500.libsvm"))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("rep %d smo n=500: peer (svm-train incl. parsing) %.3f s, gitui training %.4f s (reading the file %.3f s), ratio %.2f (%.2f with reading)",
				rep, p, r.Seconds, r.Params["prepare_s"], r.Seconds/p, (r.Seconds+r.Params["prepare_s"].(float64))/p)
		}
	}
}

// BenchmarkKernelWorkloads runs the `gitui bench` kernel workloads (TIGram n = 1000,
// TestGram 10000 x 500, SMO n = 500 on a generated Gram) and reports their throughput:
// pairs/s for the Grams (spectra included), SMO iterations/s for the training. It needs
// GITUI_DATA. Run with -benchtime 1x: each Gram takes seconds.
func BenchmarkKernelWorkloads(b *testing.B) {
	dir := os.Getenv("GITUI_DATA")
	if dir == "" {
		b.Skip("set GITUI_DATA to a directory containing mnist/")
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func() (Result, error)
	}{
		{"ti-gram/n=1000", func() (Result, error) { return TIGram(ctx, dir, 1000) }},
		{"test-gram/10000x500", func() (Result, error) { return TestGram(ctx, dir, 10000, 500) }},
		{"smo/n=500", func() (Result, error) { return SMO(ctx, dir, 500, "") }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var work, secs float64
			var unit string
			for b.Loop() {
				r, err := c.run()
				if err != nil {
					b.Fatal(err)
				}
				work += r.Throughput * r.Seconds
				secs += r.Seconds
				unit = r.Unit
			}
			b.ReportMetric(work/secs, unit)
		})
	}
}

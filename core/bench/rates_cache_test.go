package bench

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestRatesCacheKeepsEachBuild: the cache keeps one entry per machine-and-build key, so
// calibrating the OpenBLAS build does not make the static build's estimates uncalibrated
// again; a cache of one object (the earlier format) still loads.
func TestRatesCacheKeepsEachBuild(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	here := DefaultRates()
	here.Sgemm, here.Key = 11, RatesKey()
	other := DefaultRates()
	other.Sgemm, other.Key = 22, "another machine|blas=OpenBLAS"
	if _, err := SaveRates(here); err != nil {
		t.Fatal(err)
	}
	path, err := SaveRates(other)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := LoadRates()
	if !ok || got.Sgemm != 11 || !got.Calibrated {
		t.Fatalf("LoadRates after saving another key = %+v, %v: want this build's entry (sgemm 11)", got, ok)
	}
	if all := readRates(path); len(all) != 2 || all[other.Key].Sgemm != 22 {
		t.Fatalf("cache holds %v, want both entries", all)
	}

	// The earlier format: one Rates object.
	b, err := json.Marshal(here)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := LoadRates(); !ok || got.Sgemm != 11 {
		t.Fatalf("LoadRates of a one-object cache = %+v, %v", got, ok)
	}
	// Another machine's one-object cache, or a broken file: the defaults, not calibrated.
	for _, body := range []string{`{"sgemm_gflops": 5, "key": "elsewhere"}`, `{not json`} {
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), "rates.json"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if got, ok := LoadRates(); ok || got.Calibrated {
			t.Fatalf("LoadRates of %q = %+v, %v: want the uncalibrated defaults", body, got, ok)
		}
	}
}

// TestReduceAt: the kernel RLS rate goes through both calibrated points, is constant
// below the small size and past ReduceCapN, and is Reduce alone without ReduceLarge.
func TestReduceAt(t *testing.T) {
	r := Rates{Reduce: 5, ReduceLarge: 5.9}
	for _, c := range []struct{ n, want float64 }{{100, 5}, {ReduceSmallN, 5}, {ReduceLargeN, 5.9}} {
		if got := r.ReduceAt(c.n); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ReduceAt(%g) = %g, want %g", c.n, got, c.want)
		}
	}
	if a, b := r.ReduceAt(ReduceCapN), r.ReduceAt(60000); a != b || !(a > 5.9) {
		t.Errorf("ReduceAt(cap) = %g, ReduceAt(60000) = %g: want equal and above ReduceLarge", a, b)
	}
	// α is clamped to [0, 0.5]: a slower large fit (noise) does not make big fits slower
	// than small ones, a wildly faster one grows at most as sqrt(n).
	if got := (Rates{Reduce: 5, ReduceLarge: 4}).ReduceAt(ReduceCapN); got != 5 {
		t.Errorf("with ReduceLarge < Reduce, ReduceAt(cap) = %g, want 5", got)
	}
	if got, want := (Rates{Reduce: 5, ReduceLarge: 500}).ReduceAt(ReduceCapN), 5*math.Sqrt(ReduceCapN/ReduceSmallN); math.Abs(got-want) > 1e-9 {
		t.Errorf("ReduceAt(cap) with a huge ReduceLarge = %g, want %g", got, want)
	}
	if got := (Rates{Reduce: 5}).ReduceAt(3000); got != 5 {
		t.Errorf("without ReduceLarge ReduceAt = %g, want Reduce", got)
	}
}

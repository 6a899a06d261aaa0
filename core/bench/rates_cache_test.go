package bench

import (
	"encoding/json"
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

package main

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"gitui/core/bench"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/study"
	"gitui/presets"
)

// fixedRates are rates of a plausible 2-core machine, so that the estimates below do
// not depend on the machine the tests run on.
var fixedRates = bench.Rates{Sgemm: 70, Pool: 4.6e8, Dgemm: 16, Kernel: 1e8, FFT: 1.3e6, Reduce: 4.5, SMO: 1.9e8, Calibrated: true}

// TestEstimateTimeQuickPresets checks the time estimate of every quick preset whose data
// size a listing knows (X_perm, MNIST and the sets made from it, USPS, the generated
// circle and graphs): it lies between 0.1 s and 120 s
// (a quick preset takes seconds to a minute on 2 cores; an estimate of hours or of
// nothing is a broken cost model), and it is work divided by rate: with every rate
// doubled, all but the fixed data-load term halves, to 1e-9.
func TestEstimateTimeQuickPresets(t *testing.T) {
	fast := fixedRates
	fast.Sgemm, fast.Pool, fast.Dgemm, fast.Kernel, fast.FFT, fast.Reduce, fast.SMO = 2*fast.Sgemm, 2*fast.Pool, 2*fast.Dgemm, 2*fast.Kernel, 2*fast.FFT, 2*fast.Reduce, 2*fast.SMO
	seen := 0
	for _, p := range presets.All() {
		s := p.Build(true)
		ds, ok := engine.ListingDataSize(s)
		if !ok {
			continue
		}
		if s.Data.TestSize == 0 && ds.Test == 10000 && s.Data.Name == "mnist" {
			ds.Test = 2000 // the quick presets' test subsets are at most this
		}
		seen++
		e := engine.EstimateTime(s, ds, fixedRates)
		if e.Seconds < 0.1 || e.Seconds > 120 {
			t.Errorf("%s: quick estimate %.3g s, want within [0.1, 120] s: %+v", p.Name, e.Seconds, e.Items)
		}
		f := engine.EstimateTime(s, ds, fast)
		if got, want := f.Seconds-f.Load, (e.Seconds-e.Load)/2; math.Abs(got-want) > 1e-9*math.Max(1, want) {
			t.Errorf("%s: with every rate doubled the work takes %.6g s, want half of %.6g", p.Name, got, 2*want)
		}
	}
	if seen < 3 {
		t.Fatalf("only %d quick presets with a known data size: the test checks nothing", seen)
	}
}

// TestEstimateTimeProjectionReference checks one method's term against the formula
// computed by hand: CDF(25,25) RLS on X_perm (d = 40, |G| = 5! = 120), whose preparation
// is the projection of 30,768 + 2,000 rows, 2·rows·d·m·|G| / Sgemm + rows·m·|G| / Pool.
func TestEstimateTimeProjectionReference(t *testing.T) {
	s := presets.XPermCurve(true)
	ds := engine.DataSize{Pool: 30768, Test: 2000, Shape: []int{5, 8}, Classes: 2}
	var m model.Method
	for _, mm := range s.Methods {
		if mm.Features == "cdf" && mm.Bins == 25 && mm.Templates == 25 {
			m = mm
		}
	}
	if m.Features == "" {
		t.Fatal("xperm-curve --quick has no CDF(25,25) method")
	}
	w := engine.MethodWork(s, ds, fixedRates, m)
	rows := 30768.0 + 2000
	want := 2*rows*40*25*120/1e9/fixedRates.Sgemm + rows*25*120/fixedRates.Pool
	if math.Abs(w.Prepare-want) > 1e-12*want {
		t.Fatalf("CDF(25,25) preparation %.9g s, want %.9g s", w.Prepare, want)
	}
	// Cells grow with the training size.
	if a, b := w.Cell(100), w.Cell(500); !(b > a && a > 0) {
		t.Fatalf("cell cost at n = 100: %g s, at 500: %g s; want 0 < first < second", a, b)
	}
}

// TestTimeLine checks the one-line form: the total, the largest method, and the
// uncalibrated hint only without calibration.
func TestTimeLine(t *testing.T) {
	e := engine.TimeEstimate{Seconds: 11400, Items: []engine.TimeItem{{What: "Haar RLS", Prepare: 10800}}, Calibrated: true}
	if got, want := engine.TimeLine(e), "time estimate: about 3 h 10 min (Haar RLS 3 h)"; got != want {
		t.Fatalf("TimeLine = %q, want %q", got, want)
	}
	e.Calibrated = false
	if got := engine.TimeLine(e); !strings.Contains(got, "uncalibrated: `gitui bench --calibrate`") {
		t.Fatalf("TimeLine without calibration = %q: want the calibrate hint", got)
	}
	for s, want := range map[float64]string{0.2: "under 1 s", 4.24: "4.2 s", 40: "40 s", 600: "10 min", 2.5 * 86400: "2.5 days"} {
		if got := engine.Duration(s); got != want {
			t.Errorf("Duration(%g) = %q, want %q", s, got, want)
		}
	}
}

// TestEstimateTimeCDFKept: RLS on CDF features with theory thresholds is estimated on the
// cdfTheoryKept share of the columns learn.FitRLS keeps (about 0.3 on MNIST), so its cell
// costs less than the same features with range thresholds, which keep all of them.
func TestEstimateTimeCDFKept(t *testing.T) {
	s := presets.XPermCurve(true)
	ds := engine.DataSize{Pool: 10000, Test: 2000, Shape: []int{28, 28}, Classes: 10}
	m := model.Method{Name: "cdf", Features: "cdf", Bins: 25, Templates: 100, Learner: "rls"}
	theory := engine.MethodWork(s, ds, fixedRates, m).Cell(5000)
	m.Thresholds = "range"
	rng := engine.MethodWork(s, ds, fixedRates, m).Cell(5000)
	if !(theory > 0 && rng > 3*theory) {
		t.Fatalf("CDF(25,100) RLS at 5000: theory thresholds %g s, range %g s: want range > 3x theory", theory, rng)
	}
}

// TestEstimateTimeCovarianceTemplatesAndAudio checks two terms against the formulas by
// hand, on 1,000 + 300 spectrograms of 64×64: data-covariance templates add
// (8·n·d·r + 6·d·r² + 4·m·d·r) / (Dgemm/4) to a CDF method's preparation (n the pool,
// r = 256), and spoken-digit data add 0.9 ms a recording to the load.
func TestEstimateTimeCovarianceTemplatesAndAudio(t *testing.T) {
	ds := engine.DataSize{Pool: 1000, Test: 300, Shape: []int{64, 64}, Classes: 10}
	gauss := model.Method{Features: "cdf", Bins: 25, Templates: 50, TemplateOf: "gaussian", Thresholds: "range"}
	cov := gauss
	cov.TemplateOf = "gaussian-data"
	s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "fsdd"}, Methods: []model.Method{gauss}, Sizes: []int{500}}
	got := engine.MethodWork(s, ds, fixedRates, cov).Prepare - engine.MethodWork(s, ds, fixedRates, gauss).Prepare
	n, d, r, m := 1000.0, 4096.0, 256.0, 50.0
	if want := (8*n*d*r + 6*d*r*r + 4*m*d*r) / 1e9 / (fixedRates.Dgemm / 4); math.Abs(got-want) > 1e-9*want {
		t.Errorf("data-covariance templates add %.6g s, want %.6g s", got, want)
	}
	load := engine.EstimateTime(s, ds, fixedRates).Load
	if want := 1300*d/5e7 + 0.15 + 1300*0.9e-3; math.Abs(load-want) > 1e-9 {
		t.Errorf("load of 1,300 recordings %.6g s, want %.6g s", load, want)
	}
}

// TestPresetsListAnEstimate: `gitui presets -v` lists a time estimate for every preset,
// in full and quick mode, the study presets (a tune block: svc-halving, mnist-cdf-tune,
// liu-tiri-tune) included, whose estimate is of the whole study (study.ListingEstimate,
// on the sizes a listing knows without loading the data). Only a preset of a speech
// corpus that is not in the data directory has none: its size is the corpus's file list.
func TestPresetsListAnEstimate(t *testing.T) {
	dir := t.TempDir()
	studies := 0
	for _, quick := range []bool{false, true} {
		for _, p := range presets.All() {
			s := p.Build(quick)
			line := listingTime(s, dir)
			if slices.Contains(model.AudioDataNames, s.Data.Name) {
				continue // no corpus in dir
			}
			if line == "" {
				t.Errorf("%s (quick %v): no time estimate in the listing", p.Name, quick)
				continue
			}
			if s.Tune != nil {
				studies++
				if !strings.HasPrefix(line, "study time estimate: ") {
					t.Errorf("%s (quick %v): %q, want the study's estimate", p.Name, quick, line)
				}
			}
		}
	}
	if studies < 6 {
		t.Errorf("%d study presets listed an estimate, want svc-halving, mnist-cdf-tune and liu-tiri-tune in both modes", studies)
	}
	code, out, _ := gitui(t, "presets", "-v", "--data", dir)
	if code != 0 {
		t.Fatalf("presets -v: exit %d", code)
	}
	for _, name := range []string{"svc-halving", "mnist-cdf-tune", "liu-tiri-tune"} {
		want := listingTime(presetSpec(t, name), dir)
		if !strings.Contains(out, "  "+want+"\n") {
			t.Errorf("presets -v does not list %s's %q", name, want)
		}
	}
}

// TestStudyEstimateAveragesTheSpace checks that a study's trials are costed over draws
// from its space, not at the spec's own setting: liu-tiri-tune --quick searches shifts
// 0 (all 784 through the FFT, its own) to 4 (81 copies best-fitted pair by pair), so its
// estimate must exceed the same study's with shifts held at 0 by at least half again
// (measured: 18-20 s against an estimate of 2-4 s before the draws were costed).
func TestStudyEstimateAveragesTheSpace(t *testing.T) {
	s := presets.LiuTIRITune(true)
	ds, ok := engine.ListingDataSize(s)
	if !ok {
		t.Fatal("liu-tiri-tune --quick has no listing size")
	}
	fixed := s.Clone()
	fixed.Tune.Params = maps.Clone(s.Tune.Params)
	fixed.Tune.Params["methods.0.shifts"] = "0"
	all, err := study.ListingEstimate(s, ds, fixedRates)
	if err != nil {
		t.Fatal(err)
	}
	zero, err := study.ListingEstimate(fixed, ds, fixedRates)
	if err != nil {
		t.Fatal(err)
	}
	if !(all.Seconds > 1.5*zero.Seconds) {
		t.Fatalf("study estimate over shifts 0..4: %.3g s; with shifts 0: %.3g s; want at least 1.5x", all.Seconds, zero.Seconds)
	}
}

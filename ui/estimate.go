package ui

import (
	"gitui/core/bench"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/study"
)

// loadRates returns the rates estimates are computed with: those `gitui bench
// --calibrate` measured on this machine, else the built-in defaults, read once per
// process (tests fix them, so that goldens do not depend on the machine).
var loadRates = bench.LoadRatesOnce

// estimates is the time estimate of the spec in the panes, as the Method pane shows it:
// one entry per method ("~40 s", "" when not known) and the run's in all.
type estimates struct {
	per   []string
	total string
	// perSeconds are the per-method estimates in seconds (0 when not known).
	perSeconds []float64
	// seconds is the run's estimate in all (0 when not known); calibrated says whether
	// the rates were measured on this machine (`gitui bench --calibrate`).
	seconds    float64
	calibrated bool
}

// approx formats an estimate of s seconds as the panes show it: "~40 s", "~3 h 10 min",
// "<1 s" below a second.
func approx(s float64) string {
	if s < 1 {
		return "<1 s"
	}
	return "~" + engine.Duration(s)
}

// dataSize is the size of the data a run of s would load: the data set the Data pane's
// preview loaded when it is s's and loaded (engine.LoadedDataSize), else the sizes a
// listing assumes (engine.ListingSize; ok false for a file not loaded yet). Nothing
// is loaded here (of a spoken-digit corpus, its file list is read).
func (a *App) dataSize(s *model.Spec) (engine.DataSize, bool) {
	if p, t := a.data.Pool(), a.data.Test(); p != nil && t != nil && !a.data.Loading() && a.data.Err() == nil {
		return engine.LoadedDataSize(s, p, t), true
	}
	return engine.ListingSize(s, a.opts.DataDir)
}

// estimateSpec computes the estimates of spec s (valid, defaults applied) on the data
// size of dataSize with the rates of `gitui bench --calibrate` (loadRates):
// each method's as the run of that method alone less the data load, and the run's as
// engine.EstimateTime of the whole spec. It is arithmetic over the spec, microseconds
// per method; the workbench calls it when the spec or the loaded data change
// (revalidate), never per frame.
func (a *App) estimateSpec(s *model.Spec) estimates {
	a.estimated++
	ds, ok := a.dataSize(s)
	out := estimates{per: make([]string, len(s.Methods)), perSeconds: make([]float64, len(s.Methods))}
	if !ok {
		return out
	}
	r := loadRates()
	all := engine.EstimateTime(s, ds, r)
	out.seconds, out.calibrated, out.total = all.Seconds, all.Calibrated, approx(all.Seconds)
	if s.Protocol == model.ProtocolApprox || s.Protocol == model.ProtocolGrid {
		return out // their items are template counts, orbit distances or grid cells, not methods
	}
	for i, m := range s.Methods {
		one := s.Clone()
		one.Methods = []model.Method{m}
		one.Grid = nil // the grid is the run's, not this method's
		e := engine.EstimateTime(one, ds, r)
		out.perSeconds[i] = e.Seconds - e.Load
		out.per[i] = approx(out.perSeconds[i])
	}
	return out
}

// refreshEstimates recomputes the estimates of the spec in the panes and hands them to
// the Method pane (nothing is shown while the spec has problems).
func (a *App) refreshEstimates() {
	a.est = estimates{}
	if len(a.issues) == 0 && a.spec != nil {
		s := a.spec.Clone()
		s.Defaults()
		a.est = a.estimateSpec(s)
	}
	a.method.SetEstimates(a.est.per, a.est.total, a.est.calibrated)
}

// pickerEstimates computes the time estimate of every preset in the picker's mode
// (quick or full), as `gitui presets -v` does, on the sizes a listing assumes for its
// data (engine.ListingSize): engine.EstimateTime of a run preset's spec, and of a study
// preset (a tune block) its whole schedule, baseline and refits
// (study.ListingEstimate). A preset whose data size is not known before loading gets
// none, as there. Building a preset reads no file; this runs when the picker opens and
// on f, not per frame.
func (a *App) pickerEstimates() {
	a.picker.est = make([]string, len(a.opts.Presets))
	r := loadRates()
	for i, p := range a.opts.Presets {
		s := p.Build(a.picker.quick)
		s.Defaults()
		ds, ok := engine.ListingSize(s, a.opts.DataDir)
		if !ok || s.Clone().Validate() != nil {
			continue
		}
		if s.Tune == nil {
			a.picker.est[i] = approx(engine.EstimateTime(s, ds, r).Seconds)
			continue
		}
		if e, err := study.ListingEstimate(s, ds, r); err == nil {
			a.picker.est[i] = approx(e.Seconds)
		}
	}
}

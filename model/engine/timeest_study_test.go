package engine

import (
	"math"
	"testing"

	"gitui/core/bench"
	"gitui/model"
)

// TestEstimateStudySharedFeatures checks EstimateStudy's preparation against the
// study's feature cache: a space that decides no feature (a CDF method's gamma) prepares
// each row once, so the rungs' preparations sum to one trial's at the top rung (its n
// plus the validation rows); a space of templates prepares every trial's rows, each
// rung's item k times a trial's; a method that does not pool (raw pixels) is not shared.
func TestEstimateStudySharedFeatures(t *testing.T) {
	cdf := func(params map[string]string) *model.Spec {
		return &model.Spec{
			Name: "s", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist"}, Seed: 1,
			Group:   model.GroupSpec{Kind: model.GroupRotationShift, Radius: 1, Angles: &model.AngleSpec{From: -10, To: 10, Count: 3}},
			Methods: []model.Method{{Features: "cdf", Bins: 10, Templates: 100, FeatureKernel: "rbf"}},
			Sizes:   []int{10000},
			Tune:    &model.TuneSpec{Params: params},
		}
	}
	ds := DataSize{Pool: 10000, Test: 10000, Shape: []int{28, 28}, Classes: 10}
	plan := StudyPlan{Rungs: []int{300, 1200, 4800}, Trials: 16, Eta: 4, Train: 8000, Val: 2000, RefitN: 10000}
	r := bench.DefaultRates()
	prep := func(e TimeEstimate) (sum float64, byRung map[string]float64) {
		byRung = map[string]float64{}
		for _, it := range e.Items {
			if it.What != "refit" {
				sum += it.Prepare
				byRung[it.What] = it.Prepare
			}
		}
		return sum, byRung
	}
	gamma := cdf(map[string]string{"methods.0.gamma": "1,10,100"})
	templates := cdf(map[string]string{"methods.0.templates": "50,100"})
	if !StudySharesFeatures(gamma) || StudySharesFeatures(templates) {
		t.Fatalf("shares features: gamma %v, templates %v; want true, false", StudySharesFeatures(gamma), StudySharesFeatures(templates))
	}
	for _, s := range []*model.Spec{
		cdf(map[string]string{"group.radius": "1,2"}),
		cdf(map[string]string{"methods.0.gamma": "1,10", "methods.0.bins": "5,10"}),
		{Methods: []model.Method{{Features: "raw", FeatureKernel: "rbf"}}, Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "1,10"}}},
	} {
		if StudySharesFeatures(s) {
			t.Errorf("tune.params %v on %s: shares features, want not", s.Tune.Params, s.Methods[0].DisplayName())
		}
	}
	shared, sharedBy := prep(EstimateStudy(gamma, ds, plan, r))
	each, eachBy := prep(EstimateStudy(templates, ds, plan, r))
	// One trial's preparation at the top rung, by the same model: a study of one rung.
	top, _ := prep(EstimateStudy(gamma, ds, StudyPlan{Rungs: []int{4800}, Trials: 1, Train: 8000, Val: 2000, RefitN: 10000}, r))
	if math.Abs(shared-top) > 1e-9*top || top <= 0 {
		t.Errorf("shared features: the rungs prepare %.4g s, one trial at the top rung %.4g s; want equal", shared, top)
	}
	one, _ := prep(EstimateStudy(templates, ds, StudyPlan{Rungs: []int{300}, Trials: 1, Train: 8000, Val: 2000, RefitN: 10000}, r))
	if got := eachBy["16 trials at n = 300"]; math.Abs(got-16*one) > 1e-9*got {
		t.Errorf("templates searched: 16 trials at 300 prepare %.4g s, want 16 x %.4g s", got, one)
	}
	if sharedBy["16 trials at n = 300"] >= eachBy["16 trials at n = 300"]/8 || shared >= each {
		t.Errorf("preparation with shared features %.4g s (first rung %.4g s), without %.4g s (%.4g s): want far less", shared, sharedBy["16 trials at n = 300"], each, eachBy["16 trials at n = 300"])
	}
}

package study

import (
	"testing"

	"gitui/model/store"
)

// TestComparisonNamesTheSetting: the comparison line names the best trial by its number
// and its setting (the tuned keys' short names and values), so that the line says which
// setting won, whether the best trial beats the baseline or the baseline beats it.
func TestComparisonNamesTheSetting(t *testing.T) {
	p5 := map[string]any{"methods.0.bins": 10.0, "methods.0.templates": 215.0, "methods.0.feature_kernel": ""}
	test5, testB := 0.9770, 0.9870
	f := &File{
		Trials: []TrialInfo{
			{ID: 4, Params: map[string]any{"methods.0.bins": 5.0, "methods.0.templates": 40.0, "methods.0.feature_kernel": "rbf"}, State: "pruned", Rungs: []RungInfo{{N: 531, Validation: 0.96}}},
			{ID: 5, Params: p5, State: "complete", Rungs: []RungInfo{{N: 531, Validation: 0.95}, {N: 1593, Validation: 0.9719}}},
		},
		Best:     &BestInfo{Refit: Refit{Trial: 5, Params: p5, Validation: 0.9719, ValidationN: 1593, Test: &test5}},
		Baseline: &store.BaselineInfo{Validation: 0.9701, ValidationN: 1593, Test: &testB},
	}
	want := `best trial 5 (bins=10 feature_kernel="" templates=215) 0.9719 vs your setting 0.9701 on validation (n 1593); test 0.9770 vs 0.9870: your setting tested higher than the best`
	if got := Comparison(f); got != want {
		t.Errorf("Comparison =\n%q, want\n%q", got, want)
	}
	f.Baseline = &store.BaselineInfo{Validation: 0.9775, ValidationN: 1593, Best: true, Test: &testB}
	f.Best = &BestInfo{Refit: Refit{Trial: BaselineTrial, Validation: 0.9775, ValidationN: 1593, Test: &testB, Baseline: true}}
	want = `your setting 0.9775 beats the best trial 5 (bins=10 feature_kernel="" templates=215) 0.9719 on validation (n 1593): it is the best, refit and tested 0.9870`
	if got := Comparison(f); got != want {
		t.Errorf("Comparison =\n%q, want\n%q", got, want)
	}
}

// TestSettingText: keys by their shortest unique tail, in key order; values as the
// trials table shows them.
func TestSettingText(t *testing.T) {
	p := map[string]any{"methods.0.rotations.from": -20.0, "methods.0.rotations.to": 15.0, "methods.1.from": 3.0, "methods.0.c": 0.125}
	if got, want := SettingText(p), "c=0.125 rotations.from=-20 to=15 1.from=3"; got != want {
		t.Errorf("SettingText = %q, want %q", got, want)
	}
	if got := SettingText(nil); got != "" {
		t.Errorf("SettingText(nil) = %q, want \"\"", got)
	}
}

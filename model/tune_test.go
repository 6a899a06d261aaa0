package model

import (
	"reflect"
	"strings"
	"testing"

	"gitui/core/tune"
)

func TestParseDist(t *testing.T) {
	for _, c := range []struct {
		text string
		want tune.Dim
		vals []string
	}{
		{"log:100..2000", tune.Dim{Name: "k", Low: 100, High: 2000, Log: true}, nil},
		{"0.5..1", tune.Dim{Name: "k", Low: 0.5, High: 1}, nil},
		{"int:1..9", tune.Dim{Name: "k", Kind: tune.Int, Low: 1, High: 9}, nil},
		{"int-log:1..1000", tune.Dim{Name: "k", Kind: tune.Int, Low: 1, High: 1000, Log: true}, nil},
		{"5, 10,25", tune.Dim{Name: "k", Kind: tune.Categorical, Choices: 3}, []string{"5", "10", "25"}},
		{"theory,range", tune.Dim{Name: "k", Kind: tune.Categorical, Choices: 2}, []string{"theory", "range"}},
	} {
		p, err := ParseDist("k", c.text)
		if err != nil || p.Dim != c.want || !reflect.DeepEqual(p.Values, c.vals) {
			t.Fatalf("%q: %+v %v %v", c.text, p.Dim, p.Values, err)
		}
	}
	for text, want := range map[string]string{
		"10..1":     "low > high",
		"log:0..1":  "reaches 0",
		"log:-1..1": "reaches 0",
		"x..1":      "not a number",
		"cube:1..2": "not a kind of range",
		"5,,10":     "empty value",
		"5,5":       "listed twice",
		"log:5":     "needs a range",
	} {
		if _, err := ParseDist("k", text); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%q: %v, want one line with %q", text, err, want)
		}
	}
}

func tuneSpec(params map[string]string) *Spec {
	return &Spec{Name: "t", Protocol: ProtocolCurve, Seed: 1, Data: DataSpec{Name: "embedded"},
		Methods: []Method{{Features: "cdf", Bins: 5, Templates: 20}, {Kernel: "rbf", Learner: "svm", Gamma: 1, C: 1}},
		Sizes:   []int{500}, Group: GroupSpec{Kind: "cyclic-shift"}, Tune: &TuneSpec{Params: params}}
}

// Keys are validated as --set validates them: unknown fields, fields that do not
// apply, values out of range and untunable keys are refused naming the key.
func TestTuneSpaceValidation(t *testing.T) {
	ok := tuneSpec(map[string]string{"methods.0.templates": "log:10..200", "methods.0.bins": "5,10,25", "methods.1.c": "log:0.1..1000", "method": "0,1"})
	ps, err := ok.TuneSpace()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]tune.Kind{}
	for _, p := range ps {
		kinds[p.Key] = p.Dim.Kind
	}
	if kinds["methods.0.templates"] != tune.Int || kinds["methods.1.c"] != tune.Float || kinds["method"] != tune.Categorical {
		t.Fatalf("kinds %v: templates (a whole-number field) must be an integer range", kinds)
	}
	// The method choice keeps one method with its tuned fields.
	s, _, err := ok.TrialSpec(ps, []float64{1, 0, 37, 0.5}) // key order: method, methods.0.bins, methods.0.templates, methods.1.c
	if err != nil || len(s.Methods) != 1 || s.Methods[0].Kernel != "rbf" || s.Methods[0].C != 0.5 || s.Tune != nil {
		t.Fatalf("trial spec %+v, %v", s, err)
	}
	for params, want := range map[string]string{
		"methods.0.foo=1,2":        `a method has no field "foo"`,
		"methods.1.bins=5,10":      "methods.1.bins applies to features cdf",
		"methods.0.bins=0..5000":   "methods.0.bins",
		"data.pool=1..3":           "data.pool: this key cannot be tuned",
		"methods.*.lambda=1..2":    "cannot be tuned",
		"method=0,7":               "method 7 is not in 0..1",
		"methods.1.gamma=log:0..1": "reaches 0 or below",
		"methods.1.c=1000..0.1":    "low > high",
	} {
		k, v, _ := strings.Cut(params, "=")
		ps := map[string]string{k: v}
		if k != TuneMethodKey {
			ps[TuneMethodKey] = "0,1" // the spec has two methods
		}
		err := resolve(tuneSpec(ps))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "tune.params") || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%s: %v, want one line with %q", params, err, want)
		}
	}
	for set, want := range map[string]string{
		"tune.eta=1":             "tune.eta 1 is below 2",
		"tune.sampler=\"bayes\"": "tune.sampler \"bayes\" is unknown",
		"tune.min_n=200":         "tune.max_n 300 is smaller than one rung",
	} {
		s := tuneSpec(map[string]string{"methods.1.c": "log:0.1..10"})
		s.Tune.MaxN = 300
		if err := s.Set(set); err != nil {
			t.Fatal(err)
		}
		if err := resolve(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s: %v, want %q", set, err, want)
		}
	}
	// Two methods and no method key: the study scores one.
	two := tuneSpec(map[string]string{"methods.1.c": "log:0.1..10"})
	if err := resolve(two); err == nil || !strings.Contains(err.Error(), "tune method=0,1") {
		t.Fatalf("two methods, no method key: %v", err)
	}
	ps, _ = two.TuneSpace()
	if _, _, err := two.TrialSpec(ps, []float64{1}); err == nil || !strings.Contains(err.Error(), "tune method=0,1") {
		t.Fatalf("two methods: %v", err)
	}
}

// TestTrialSpecDropsInapplicable: a field the spec sets that a configuration makes
// inapplicable (range_sample and standardize once thresholds is theory) is dropped from
// that trial's spec, which then validates; a configuration where it applies keeps it;
// and a tuned field is never dropped (an inapplicable tuned value stays refused).
func TestTrialSpecDropsInapplicable(t *testing.T) {
	s := tuneSpec(map[string]string{"methods.0.thresholds": "theory,range"})
	s.Methods = s.Methods[:1]
	s.Methods[0].Thresholds, s.Methods[0].RangeSample, s.Methods[0].Standardize = "range", 500, "mean"
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	ps, err := s.TuneSpace()
	if err != nil {
		t.Fatal(err)
	}
	theory, _, err := s.TrialSpec(ps, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	if m := theory.Methods[0]; m.Thresholds != "theory" || m.RangeSample != 0 || m.Standardize != "" {
		t.Errorf("theory trial: thresholds %q, range_sample %d, standardize %q; want theory, 0, none", m.Thresholds, m.RangeSample, m.Standardize)
	}
	if err := resolve(theory); err != nil {
		t.Errorf("theory trial refused: %v", err)
	}
	rng, _, err := s.TrialSpec(ps, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	if m := rng.Methods[0]; m.RangeSample != 500 || m.Standardize != "mean" {
		t.Errorf("range trial: range_sample %d, standardize %q; want 500, mean", m.RangeSample, m.Standardize)
	}
	if s.Methods[0].RangeSample != 500 {
		t.Error("TrialSpec changed the study's own spec")
	}
	// A tuned key stays as the configuration sets it.
	both := tuneSpec(map[string]string{"methods.0.thresholds": "theory,range", "methods.0.range_sample": "100,200"})
	both.Methods = both.Methods[:1]
	both.Methods[0].Thresholds = "range"
	ps, err = both.TuneSpace()
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := both.TrialSpec(ps, []float64{1, 0}) // key order: range_sample, thresholds
	if err != nil {
		t.Fatal(err)
	}
	if m := tr.Methods[0]; m.RangeSample != 200 || m.Thresholds != "theory" {
		t.Fatalf("trial %+v: want range_sample 200 with thresholds theory", m)
	}
	if err := resolve(tr); err == nil || !strings.Contains(err.Error(), "range_sample applies to features cdf with thresholds range") {
		t.Errorf("tuned range_sample with theory thresholds: %v, want the refusal", err)
	}
}

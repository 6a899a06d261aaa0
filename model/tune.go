package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gitui/core/tune"
)

// Samplers, pruners and scores a tune block can name.
var (
	TuneSamplers = []string{"tpe", "random", "quasi", "grid"}
	TunePruners  = []string{"asha", "sh", "hyperband", "none"}
	TuneScores   = []string{"validation", "loo", "validation+loo"}
)

// TuneLOO is the Score of a study scored by leave-one-out.
const TuneLOO = "loo"

// TunePooled is the Score of a study scored on its validation split, whose last rung
// pools the split's predictions with the fit's own leave-one-out predictions.
const TunePooled = "validation+loo"

// TuneScoreName is how a study's trials' scores are named to a reader, by its
// tune.score: "leave-one-out" (loo), "validation+loo", else "validation".
func TuneScoreName(score string) string {
	switch score {
	case TuneLOO:
		return "leave-one-out"
	case TunePooled:
		return TunePooled
	}
	return "validation"
}

// TuneSpec is a spec's search space and the settings of its study (`gitui tune`).
//
// Params maps a key to a distribution. A key is a registry field as `--set` names it
// (methods.N.FIELD, group.FIELD), or "method", a choice among the spec's methods (by
// index or name: the trial keeps that method alone). A distribution is a list of values
// "5,10,25" (categorical), a range "LOW..HIGH" (uniform), "log:LOW..HIGH" (log-uniform),
// with whole numbers taken on a field that holds them. Each value is validated as
// `--set KEY=VALUE` would be.
//
// Trials are scored (Score) on a validation split of Validation samples, a seeded
// stratified draw of the training pool, or by leave-one-out on their own training
// samples; the test set is never read. Successive halving runs them at training sizes
// MinN·Eta^k up to MaxN, drawn from the rest of the pool (all of it under leave-one-out).
// The best configuration is then refit at RefitN and tested once.
type TuneSpec struct {
	Params     map[string]string `json:"params" yaml:"params"`
	Sampler    string            `json:"sampler,omitempty" yaml:"sampler,omitempty"`         // tpe (default), random, quasi (scrambled Halton), grid
	Pruner     string            `json:"pruner,omitempty" yaml:"pruner,omitempty"`           // asha (default), sh, hyperband, none
	Eta        int               `json:"eta,omitempty" yaml:"eta,omitempty"`                 // 0: 3
	Trials     int               `json:"trials,omitempty" yaml:"trials,omitempty"`           // configurations (0: eta^(rungs-1); grid: its size)
	MinN       int               `json:"min_n,omitempty" yaml:"min_n,omitempty"`             // first rung (0: max_n/eta^3)
	MaxN       int               `json:"max_n,omitempty" yaml:"max_n,omitempty"`             // last rung at most (0: the training part, at most refit_n)
	Validation int               `json:"validation,omitempty" yaml:"validation,omitempty"`   // validation samples (0: a fifth of the pool; none under score loo)
	RefitN     int               `json:"refit_n,omitempty" yaml:"refit_n,omitempty"`         // final training size (0: the largest of sizes, else the pool)
	GridPoints int               `json:"grid_points,omitempty" yaml:"grid_points,omitempty"` // grid sampler: values per range (0: 5)
	Startup    int               `json:"startup,omitempty" yaml:"startup,omitempty"`         // tpe: random trials first (0: 10)
	// Workers is how many jobs are in flight (0: 2, study.DefaultWorkers, so that two
	// cores are kept busy): the scheduler hears job k's score
	// only after it has given job k+Workers-1, whoever runs them and whenever they end,
	// so the trials depend on Workers alone, never on timing. A Slurm array of N tasks
	// over a study with Workers N gives the same trials as one process with Workers N.
	Workers int `json:"workers,omitempty" yaml:"workers,omitempty"`
	// RefitTop is how many of the best trials are refit at RefitN and tested (0 or 1: the
	// best only). The others' test accuracies are reported beside the best's (study.json
	// "top"), never used to choose: the best stays the best by validation.
	RefitTop int `json:"refit_top,omitempty" yaml:"refit_top,omitempty"`
	// Score is how a trial is scored: "validation" (the default) is its accuracy on the
	// validation split; "loo" is the leave-one-out accuracy of its RLS fit on its own n
	// training samples at the lambda it fits (chosen by leave-one-out or fixed),
	//
	//	(1/n) sum_i [argmax_c (y_ic - r_ic) = y_i],  r_i = the residuals of the fit without sample i,
	//
	// computed in closed form by the fit itself (core/learn's LOOPath), so every pool
	// sample trains and no validation split is carved. Only RLS methods have it.
	// "validation+loo" scores on the validation split, and at the last rung (n = the top
	// rung's training size) pools the split's n_v predictions with the fit's n
	// leave-one-out predictions:
	//
	//	score = (n_v·validation + n·loo) / (n_v + n),
	//
	// so the few trials that reach the top, usually a digit or two apart on the split
	// alone, are ranked on n_v + n held-out predictions instead of n_v. Lower rungs keep
	// the split alone: leave-one-out at a lambda chosen by leave-one-out is optimistic
	// at small n, and more so for wide linear features (docs/tune.md (a2)). RLS only.
	Score string `json:"score,omitempty" yaml:"score,omitempty"`
	// Baseline, unless false, also scores the spec's own setting of the searched params
	// (BaselineSpec: the spec before any trial's values, a default where it leaves a
	// param unset) on the validation split once the search is done, at the highest rung a
	// trial reached, as one more job of the journal. It competes with the trials (winning
	// a tie there),
	// is refit and tested like them, and study.json reports the best against it. It is
	// never shown to the sampler: trials 0..N-1 are those of a study without it. Nil
	// (absent) is true.
	Baseline *bool `json:"baseline,omitempty" yaml:"baseline,omitempty"`
}

// BaselineOn reports whether the study scores its baseline (tune.baseline, true unless
// set to false).
func (t *TuneSpec) BaselineOn() bool { return t != nil && (t.Baseline == nil || *t.Baseline) }

// TuneParam is one parsed dimension of a tune block: its key, its dimension (named by
// the key) and, for a categorical one, the value literals in order (as `--set` takes them).
type TuneParam struct {
	Key    string
	Dim    tune.Dim
	Values []string
}

// TuneMethodKey is the tune key that chooses among the spec's methods.
const TuneMethodKey = "method"

// ParseDist parses the distribution text of key (see TuneSpec) into a dimension. It
// does not consult the registry (TuneSpace does).
func ParseDist(key, text string) (TuneParam, error) {
	p := TuneParam{Key: key, Dim: tune.Dim{Name: key}}
	t := strings.TrimSpace(text)
	kind, rest, hasKind := strings.Cut(t, ":")
	if !hasKind || strings.Contains(kind, ",") {
		kind, rest = "", t
	}
	if lo, hi, ok := strings.Cut(rest, ".."); ok {
		var err error
		if p.Dim.Low, err = strconv.ParseFloat(strings.TrimSpace(lo), 64); err != nil {
			return p, fmt.Errorf("%s=%s: the low end %q is not a number: give a range such as %s=log:0.1..1000", key, text, lo, key)
		}
		if p.Dim.High, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return p, fmt.Errorf("%s=%s: the high end %q is not a number: give a range such as %s=0.1..10", key, text, hi, key)
		}
		switch kind {
		case "":
		case "log":
			p.Dim.Log = true
		case "int":
			p.Dim.Kind = tune.Int
		case "int-log", "log-int":
			p.Dim.Kind, p.Dim.Log = tune.Int, true
		default:
			return p, fmt.Errorf("%s=%s: %q is not a kind of range: write LOW..HIGH, log:LOW..HIGH, int:LOW..HIGH or int-log:LOW..HIGH", key, text, kind)
		}
		return p, (tune.Space{p.Dim}).Check()
	}
	if kind != "" {
		return p, fmt.Errorf("%s=%s: a %s: prefix needs a range LOW..HIGH: write e.g. %s=%s:1..100, or list values 5,10,25", key, text, kind, key, kind)
	}
	for _, v := range strings.Split(t, ",") {
		if v = strings.TrimSpace(v); v == "" {
			return p, fmt.Errorf("%s=%s: an empty value in the list: write values separated by commas, e.g. %s=5,10,25", key, text, key)
		}
		if slices.Contains(p.Values, v) {
			return p, fmt.Errorf("%s=%s: %s is listed twice: list each value once", key, text, v)
		}
		p.Values = append(p.Values, v)
	}
	p.Dim.Kind, p.Dim.Choices = tune.Categorical, len(p.Values)
	return p, nil
}

// Literal returns the `--set` literal of value x on the dimension (a whole number
// without a fraction, a float in the shortest form that round-trips).
func (p TuneParam) Literal(x float64) string {
	switch p.Dim.Kind {
	case tune.Categorical:
		return p.Values[int(x)]
	case tune.Int:
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Value returns value x as it is written in study.json: a number, or a categorical
// literal decoded as JSON when it is JSON (else the text).
func (p TuneParam) Value(x float64) any {
	if p.Dim.Kind != tune.Categorical {
		return x
	}
	var v any
	if err := json.Unmarshal([]byte(p.Values[int(x)]), &v); err != nil {
		return p.Values[int(x)]
	}
	return v
}

// TuneSpace parses and checks the tune block's parameters, in key order: each key must
// be tunable (methods.N.FIELD, group.FIELD, method) and every value the distribution can
// take (the ends of a range, every listed value) must pass `--set` and Validate on the
// spec. A range over a whole-number field becomes an integer range. Errors are one
// line per problem, naming the key and the fix.
func (s *Spec) TuneSpace() ([]TuneParam, error) {
	if s.Tune == nil || len(s.Tune.Params) == 0 {
		return nil, errors.New("tune.params is empty: give at least one parameter, e.g. --param methods.0.lambda=log:1e-9..1e-3")
	}
	keys := make([]string, 0, len(s.Tune.Params))
	for k := range s.Tune.Params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var ps []TuneParam
	var errs []error
	for _, k := range keys {
		p, err := s.tuneParam(k, s.Tune.Params[k])
		if err != nil {
			errs = append(errs, fmt.Errorf("tune.params %w", err))
			continue
		}
		ps = append(ps, p)
	}
	return ps, errors.Join(errs...)
}

func (s *Spec) tuneParam(key, text string) (TuneParam, error) {
	p, err := ParseDist(key, text)
	if err != nil {
		return p, err
	}
	base := s.Clone()
	base.Tune = nil
	if key == TuneMethodKey {
		if p.Dim.Kind != tune.Categorical {
			return p, fmt.Errorf("%s=%s: method is chosen from a list of the spec's methods: write e.g. method=0,1 (indices) or their names", key, text)
		}
		for _, v := range p.Values {
			if _, err := base.methodIndex(v); err != nil {
				return p, fmt.Errorf("%s=%s: %w", key, text, err)
			}
		}
		return p, nil
	}
	parts := strings.Split(key, ".")
	if !(parts[0] == "methods" && len(parts) >= 3 || parts[0] == "group" && len(parts) >= 2) || slices.Contains(parts, "*") {
		return p, fmt.Errorf("%s: this key cannot be tuned: tune a method's field (methods.N.FIELD), a group field (group.FIELD) or method (a choice among the spec's methods)", key)
	}
	try := func(lit string) error {
		c := base.Clone()
		if err := c.Set(key + "=" + lit); err != nil {
			return fmt.Errorf("%s=%s: %w", key, text, err)
		}
		for i := range c.Methods { // as TrialSpec does
			c.Methods[i].DropInapplicable(func(k string) bool { return fmt.Sprintf("methods.%d.%s", i, k) == key })
		}
		c.Defaults()
		if err := c.Validate(); err != nil {
			return fmt.Errorf("%s=%s: with %s=%s the spec does not validate: %s", key, text, key, lit, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
		return nil
	}
	if p.Dim.Kind == tune.Categorical {
		for _, v := range p.Values {
			if err := try(v); err != nil {
				return p, err
			}
		}
		return p, nil
	}
	// A whole-number field refuses a fraction: its range is an integer range.
	if c := base.Clone(); c.Set(key+"=0.5") != nil && c.Set(key+"=1") == nil {
		p.Dim.Kind = tune.Int
		if err := (tune.Space{p.Dim}).Check(); err != nil {
			return p, err
		}
	}
	ends := []float64{p.Dim.Low, p.Dim.High}
	if p.Dim.Kind == tune.Int {
		ends = []float64{math.Ceil(p.Dim.Low), math.Floor(p.Dim.High)}
	}
	for _, x := range ends {
		if err := try(p.Literal(x)); err != nil {
			return p, err
		}
	}
	return p, nil
}

// methodIndex returns the index of the method named by v: an index into methods, or a
// method's display name.
func (s *Spec) methodIndex(v string) (int, error) {
	if i, err := strconv.Atoi(v); err == nil {
		if i < 0 || i >= len(s.Methods) {
			return 0, fmt.Errorf("method %d is not in 0..%d: give a method's index or name", i, len(s.Methods)-1)
		}
		return i, nil
	}
	name := strings.Trim(v, `"`)
	for i, m := range s.Methods {
		if m.DisplayName() == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("no method is named %q: give a method's index (0..%d) or its name", name, len(s.Methods)-1)
}

// TrialSpec returns the plain spec of one configuration x of the space ps: a clone of s
// without its tune block, each key set as `--set` sets it, and with a "method" key only
// the chosen method kept. A method field the spec sets that the configuration makes
// inapplicable (range_sample when thresholds becomes theory, say) is dropped from that
// trial's spec, as it would be refused there and means nothing; a tuned field never is.
// It also returns the configuration's values by key.
func (s *Spec) TrialSpec(ps []TuneParam, x []float64) (*Spec, map[string]any, error) {
	c := s.Clone()
	c.Tune = nil
	params := map[string]any{}
	keep := -1
	for i, p := range ps {
		params[p.Key] = p.Value(x[i])
		if p.Key == TuneMethodKey {
			k, err := c.methodIndex(p.Values[int(x[i])])
			if err != nil {
				return nil, nil, err
			}
			keep = k
			continue
		}
		if err := c.Set(p.Key + "=" + p.Literal(x[i])); err != nil {
			return nil, nil, err
		}
	}
	for i := range c.Methods {
		c.Methods[i].DropInapplicable(func(key string) bool {
			_, tuned := params[fmt.Sprintf("methods.%d.%s", i, key)]
			return tuned
		})
	}
	if keep >= 0 {
		c.Methods = []Method{c.Methods[keep]}
	}
	if len(c.Methods) != 1 {
		return nil, nil, fmt.Errorf("the spec has %d methods and the study scores one: keep one method, or tune method=0,1,... to choose among them", len(c.Methods))
	}
	return c, params, nil
}

// BaselineSpec returns the plain spec of the study's baseline, the spec's own setting of
// the space ps: a clone of s without its tune block (with a "method" key, its first
// method alone), and the value of each key in it, as study.json writes a trial's: the
// spec's value, else the field's default (Defaults), else its zero value.
func (s *Spec) BaselineSpec(ps []TuneParam) (*Spec, map[string]any, error) {
	c := s.Clone()
	c.Tune = nil
	d := c.Clone()
	d.Defaults()
	b, err := json.Marshal(d)
	if err != nil {
		return nil, nil, fmt.Errorf("encode the spec for its baseline: %w", err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, nil, fmt.Errorf("decode the spec for its baseline: %w", err)
	}
	params := map[string]any{}
	for _, p := range ps {
		if p.Key == TuneMethodKey {
			params[p.Key] = float64(0)
			for i, v := range p.Values {
				if k, err := c.methodIndex(v); err == nil && k == 0 {
					params[p.Key] = p.Value(float64(i))
					break
				}
			}
			c.Methods = c.Methods[:1]
			continue
		}
		params[p.Key] = specValue(doc, p.Key)
	}
	if len(c.Methods) != 1 {
		return nil, nil, fmt.Errorf("the spec has %d methods and the study scores one: keep one method, or tune method=0,1,... to choose among them", len(c.Methods))
	}
	return c, params, nil
}

// specValue returns the value at the dotted key in the decoded spec doc, else the
// field's zero value ("" for a field not in the registry).
func specValue(doc any, key string) any {
	cur := doc
	for _, part := range strings.Split(key, ".") {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				cur = nil
			} else {
				cur = x[i]
			}
		default:
			cur = nil
		}
		if cur == nil {
			break
		}
	}
	if cur != nil {
		return cur
	}
	lit := `""`
	parts := strings.Split(key, ".")
	if parts[0] == "methods" && len(parts) >= 3 {
		if f := MethodFieldOf(strings.Join(parts[2:], ".")); f != nil {
			lit = f.Kind.zeroLiteral()
		}
	} else if f := SpecFieldOf(key); f != nil {
		lit = f.ZeroLiteral()
	}
	var v any
	json.Unmarshal([]byte(lit), &v)
	return v
}

// validateTune reports the problems of the tune block (Validate calls it when the
// spec has one): its sampler, pruner and sizes, and every parameter (TuneSpace).
func (s *Spec) validateTune(bad func(field, format string, a ...any)) {
	t := s.Tune
	if t.Sampler != "" && !slices.Contains(TuneSamplers, t.Sampler) {
		bad("tune.sampler", "tune.sampler %q is unknown: use one of %s", t.Sampler, strings.Join(TuneSamplers, ", "))
	}
	if t.Pruner != "" && !slices.Contains(TunePruners, t.Pruner) {
		bad("tune.pruner", "tune.pruner %q is unknown: use one of %s", t.Pruner, strings.Join(TunePruners, ", "))
	}
	if t.Score != "" && !slices.Contains(TuneScores, t.Score) {
		bad("tune.score", "tune.score %q is unknown: use validation (a split of the pool), loo (leave-one-out, RLS only) or validation+loo (the split, pooled with leave-one-out at the last rung; RLS only)", t.Score)
	}
	if t.Score == TuneLOO && t.Validation > 0 {
		bad("tune.validation", "tune.validation %d with tune.score loo: leave-one-out carves no validation split; set tune.validation to 0", t.Validation)
	}
	if t.Score == TuneLOO || t.Score == TunePooled {
		for i, m := range s.Methods {
			if !m.IsRLS() {
				bad("tune.score", "tune.score %s: methods.%d (%s) is not an RLS fit and has no leave-one-out accuracy: use tune.score validation, or an RLS method", t.Score, i, m.DisplayName())
			}
		}
	}
	if t.Eta != 0 && t.Eta < 2 {
		bad("tune.eta", "tune.eta %d is below 2: keep the top 1/eta at each rung with eta >= 2 (3 is usual)", t.Eta)
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"tune.trials", t.Trials}, {"tune.min_n", t.MinN}, {"tune.max_n", t.MaxN}, {"tune.validation", t.Validation}, {"tune.refit_n", t.RefitN}, {"tune.grid_points", t.GridPoints}, {"tune.startup", t.Startup}, {"tune.workers", t.Workers}, {"tune.refit_top", t.RefitTop}} {
		if f.v < 0 {
			bad(f.name, "%s %d is negative: give a positive number, or 0 for its default", f.name, f.v)
		}
	}
	if t.GridPoints > MaxGridPoints {
		bad("tune.grid_points", "tune.grid_points %d is above %d values per range: use at most %d, or the random or tpe sampler for a fine search of a range", t.GridPoints, MaxGridPoints, MaxGridPoints)
	}
	if t.MinN > 0 && t.MaxN > 0 && t.Pruner != "none" {
		eta := 3
		if t.Eta >= 2 {
			eta = t.Eta
		}
		if _, err := tune.Rungs(t.MinN, t.MaxN, eta); err != nil {
			bad("tune.min_n", "%v", err)
		}
	}
	if s.Data.Holdout > 0 {
		bad("data.holdout", "data.holdout %d with a tune block: the study carves its own validation split from the pool (tune.validation): set data.holdout to 0", s.Data.Holdout)
	}
	if _, choose := t.Params[TuneMethodKey]; !choose && len(s.Methods) != 1 {
		bad("tune.params", "tune: the spec has %d methods and a study scores one: keep one method, or tune method=0,1,... to choose among them", len(s.Methods))
	}
	if _, err := s.TuneSpace(); err != nil {
		for _, e := range strings.Split(err.Error(), "\n") {
			bad("tune.params", "%s", e)
		}
	}
}

// MaxGridPoints is the most values per range tune.grid_points may ask of the grid
// sampler: the grid holds every range's values (1e9 of them took gigabytes before the
// first trial).
const MaxGridPoints = 1000

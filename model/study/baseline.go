package study

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"gitui/model"
)

// Comparison is the line that reports study.json f's best against its baseline
// (tune.baseline: the spec's own setting), on validation and, once both are refit, on
// test, the best trial named by its number and its setting (SettingText): "best trial 3
// (bins=10 templates=215) 0.9719 vs your setting 0.9801 on validation (n 1593); test
// 0.9770 vs 0.9870: your setting tested higher than the best". When the baseline is
// the best it says so, against the best trial; when its job failed it says that. It is
// "" for a study without a baseline. `gitui tune`, the workbench's Tune view, its status
// line and `gitui export` print it.
func Comparison(f *File) string {
	if f == nil || f.Baseline == nil {
		return ""
	}
	b, score := f.Baseline, model.TuneScoreName(f.Score)
	if b.Error != "" {
		return "your setting failed on " + score + ": " + b.Error
	}
	if f.Best == nil {
		return fmt.Sprintf("your setting %.4f on %s (n %d)", b.Validation, score, b.ValidationN)
	}
	if b.Best {
		s := fmt.Sprintf("your setting %.4f on %s (n %d) is the best", b.Validation, score, b.ValidationN)
		if t, ok := bestTrialInfo(f.Trials); ok {
			r := t.Rungs[len(t.Rungs)-1]
			s = fmt.Sprintf("your setting %.4f beats the best trial %s %.4f on %s (n %d): it is the best", b.Validation, trialName(t.ID, t.Params), r.Validation, score, r.N)
		}
		if b.Test != nil {
			s += fmt.Sprintf(", refit and tested %.4f", *b.Test)
		}
		return s
	}
	n := fmt.Sprintf("n %d", b.ValidationN)
	if f.Best.ValidationN != b.ValidationN {
		n = fmt.Sprintf("n %d vs %d", f.Best.ValidationN, b.ValidationN)
	}
	s := fmt.Sprintf("best trial %s %.4f vs your setting %.4f on %s (%s)", trialName(f.Best.Trial, f.Best.Params), f.Best.Validation, b.Validation, score, n)
	if f.Best.Test == nil || b.Test == nil {
		return s
	}
	verdict := "they tested the same"
	switch {
	case *b.Test > *f.Best.Test:
		verdict = "your setting tested higher than the best"
	case *b.Test < *f.Best.Test:
		verdict = "the best tested higher"
	}
	return s + fmt.Sprintf("; test %.4f vs %.4f: %s", *f.Best.Test, *b.Test, verdict)
}

// trialName is trial id as a comparison names it: "5 (bins=10 templates=215)", or "5"
// when its setting is not known.
func trialName(id int, params map[string]any) string {
	if p := SettingText(params); p != "" {
		return fmt.Sprintf("%d (%s)", id, p)
	}
	return fmt.Sprint(id)
}

// SettingText returns a trial's parameters compactly, in key order: each key by the
// shortest tail of its dotted segments that no other key ends with ("methods.0.bins" →
// "bins", "rotations.from" beside "methods.1.from"), each value as ParamText gives it
// (an empty text as ""), "bins=10 templates=215". It is "" for no parameters.
func SettingText(params map[string]any) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := ParamText(params[k])
		if v == "" {
			v = `""`
		}
		parts[i] = shortKey(k, keys) + "=" + v
	}
	return strings.Join(parts, " ")
}

// shortKey is the shortest tail of key's dotted segments that no other of keys ends with.
func shortKey(key string, keys []string) string {
	segs := strings.Split(key, ".")
	for n := 1; n < len(segs); n++ {
		tail := strings.Join(segs[len(segs)-n:], ".")
		unique := true
		for _, o := range keys {
			if o != key && (o == tail || strings.HasSuffix(o, "."+tail)) {
				unique = false
				break
			}
		}
		if unique {
			return tail
		}
	}
	return key
}

// BaselineTestedHigher reports whether study.json f's baseline, not chosen, tested
// higher than its best: the search's choice did worse on the test set than the spec's
// own setting.
func BaselineTestedHigher(f *File) bool {
	if f == nil || f.Baseline == nil || f.Best == nil || f.Baseline.Best {
		return false
	}
	return f.Baseline.Test != nil && f.Best.Test != nil && *f.Baseline.Test > *f.Best.Test
}

// bestTrialInfo returns the best of study.json's trials, as the study ranks them: the
// highest rung reached, then the score there (ties: the lower id); failed trials are
// left out.
func bestTrialInfo(ts []TrialInfo) (TrialInfo, bool) {
	var best TrialInfo
	ok := false
	for _, t := range ts {
		if t.State == "failed" || len(t.Rungs) == 0 {
			continue
		}
		r := t.Rungs[len(t.Rungs)-1]
		if !ok {
			best, ok = t, true
			continue
		}
		br := best.Rungs[len(best.Rungs)-1]
		if r.N > br.N || r.N == br.N && r.Validation > br.Validation {
			best = t
		}
	}
	return best, ok
}

package study

import (
	"fmt"

	"gitui/model"
)

// Comparison is the line that reports study.json f's best against its baseline
// (tune.baseline: the spec's own setting), on validation and, once both are refit, on
// test: "best trial 3 0.9719 vs your setting 0.9801 on validation (n 1593); test
// 0.9770 vs 0.9870: your setting tested higher than the best". When the baseline is
// the best it says so; when its job failed it says that. It is "" for a study without a
// baseline. `gitui tune`, the workbench's Tune view and its status line print it.
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
			s = fmt.Sprintf("your setting %.4f beats the best trial %d %.4f on %s (n %d): it is the best", b.Validation, t.ID, r.Validation, score, r.N)
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
	s := fmt.Sprintf("best trial %d %.4f vs your setting %.4f on %s (%s)", f.Best.Trial, f.Best.Validation, b.Validation, score, n)
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

package study

import (
	"math"
	"testing"
)

// TestTrialsSumSecondsAndKeepEveryRung checks Trials on a small snapshot: a trial's
// Seconds is the sum of its jobs' seconds, a failed job fails its trial, and a rung
// named only by a study.json trial (a file edited by hand) becomes a column instead of
// an index out of range.
func TestTrialsSumSecondsAndKeepEveryRung(t *testing.T) {
	s := Snapshot{Jobs: []Job{
		{Trial: 0, Rung: 0, N: 10, Validation: 0.5, Seconds: 1.25},
		{Trial: 0, Rung: 1, N: 30, Validation: 0.75, Seconds: 2.5},
		{Trial: 1, Rung: 0, N: 10, Error: "not positive definite", Seconds: 0.5},
	}}
	ts, sizes := Trials(s, false)
	if len(ts) != 2 || len(sizes) != 2 || sizes[0] != 10 || sizes[1] != 30 {
		t.Fatalf("trials %+v, sizes %v", ts, sizes)
	}
	if ts[0].Seconds != 3.75 || ts[0].State != "stopped" || ts[1].State != "failed" || ts[1].Seconds != 0.5 {
		t.Errorf("trial 0: %.2f s %s; trial 1: %.2f s %s", ts[0].Seconds, ts[0].State, ts[1].Seconds, ts[1].State)
	}
	if id, rung, v, ok := BestTrial(ts); !ok || id != 0 || rung != 1 || v != 0.75 {
		t.Errorf("best %d at rung %d (%v, %v), want trial 0 at rung 1 (0.75)", id, rung, v, ok)
	}
	s.File = &File{Rungs: []int{10}, Trials: []TrialInfo{{ID: 2, State: "complete", Rungs: []RungInfo{{N: 90, Validation: 0.9}}}}}
	ts, sizes = Trials(s, false)
	if len(sizes) != 3 || sizes[2] != 90 || len(ts) != 3 || ts[2].Scores[2] != 0.9 || !math.IsNaN(ts[2].Scores[0]) {
		t.Errorf("sizes %v, trial 2 %+v", sizes, ts[len(ts)-1])
	}
}

package study

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
)

// Snapshot is a study as its directory holds it at one moment: the scored jobs of its
// journal in order and, once the search finished, study.json (File).
type Snapshot struct {
	Jobs []Job
	File *File // nil while the search runs (study.json is written at its end)
	// BestSpec is the path of best.spec.json ("" while it is not written).
	BestSpec string
	// Score is the study's tune.score, from the spec of its journal's header: "" (a
	// validation split), model.TuneLOO (the scores are leave-one-out accuracies) or
	// model.TunePooled (the last rung's scores pool the split with leave-one-out).
	Score string
}

// Load reads the study directory dir: its journal (ReadJournal) and, when present,
// study.json and best.spec.json. A directory without a journal yet is an empty
// snapshot; a study.json that cannot be read is an error naming it. It never writes, so
// a study being searched by another process can be read while it runs. It is the one
// reader of a study's trials for the workbench's Tune view and for `gitui export`.
func Load(dir string) (Snapshot, error) {
	jobs, score, err := ReadJournal(dir)
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Jobs: jobs, Score: score}
	if _, err := os.Stat(filepath.Join(dir, StudyFile)); err == nil {
		if s.File, err = ReadFile(dir); err != nil {
			return s, err
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return s, err
	}
	if p := filepath.Join(dir, BestSpecFile); fileExists(p) {
		s.BestSpec = p
	}
	return s, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Trial is one row of the trials table: a configuration, its score at each rung it
// reached (by rung index), the seconds its jobs took, its state and error.
type Trial struct {
	ID     int
	Params map[string]any
	// Scores[k] is the validation accuracy at rung k (NaN where not scored).
	Scores []float64
	// Seconds is the sum of the seconds of the trial's journaled jobs (every rung).
	Seconds float64
	State   string // running, complete, pruned, failed, stopped
	Error   string
}

// Top returns the index of the highest rung the trial reached and its validation
// accuracy there (-1 and NaN when none).
func (t Trial) Top() (int, float64) {
	for k := len(t.Scores) - 1; k >= 0; k-- {
		if !math.IsNaN(t.Scores[k]) {
			return k, t.Scores[k]
		}
	}
	return -1, math.NaN()
}

// Trials returns the trials of s in id order and the training size of each rung: from
// study.json when it is there (its rungs and states), else from the journal (the rungs
// seen so far, every trial running, or stopped when running is false). Each trial's
// Seconds sums its journaled jobs. The baseline (tune.baseline), when journaled, is the
// trial BaselineTrial (the first in id order), its state "baseline".
func Trials(s Snapshot, running bool) ([]Trial, []int) {
	var sizes []int
	if s.File != nil {
		sizes = append(sizes, s.File.Rungs...)
	}
	for _, j := range s.Jobs {
		if !slices.Contains(sizes, j.N) {
			sizes = append(sizes, j.N)
		}
	}
	for _, ti := range fileTrials(s.File) {
		for _, r := range ti.Rungs {
			if !slices.Contains(sizes, r.N) {
				sizes = append(sizes, r.N)
			}
		}
	}
	sort.Ints(sizes)
	rungOf := func(n int) int { return slices.Index(sizes, n) }
	byID := map[int]*Trial{}
	var ids []int
	get := func(id int) *Trial {
		t, ok := byID[id]
		if !ok {
			t = &Trial{ID: id, State: "running", Scores: make([]float64, len(sizes))}
			for k := range t.Scores {
				t.Scores[k] = math.NaN()
			}
			byID[id] = t
			ids = append(ids, id)
		}
		return t
	}
	for _, j := range s.Jobs {
		t := get(j.Trial)
		t.Params = j.Params
		t.Seconds += j.Seconds
		if j.Error != "" {
			t.State, t.Error = "failed", j.Error
			continue
		}
		t.Scores[rungOf(j.N)] = j.Validation
	}
	if s.File != nil {
		for _, ti := range s.File.Trials {
			t := get(ti.ID)
			t.Params, t.State, t.Error = ti.Params, ti.State, ti.Error
			for _, r := range ti.Rungs {
				t.Scores[rungOf(r.N)] = r.Validation
			}
		}
	} else if !running {
		for _, t := range byID {
			if t.State == "running" {
				t.State = "stopped"
			}
		}
	}
	if t, ok := byID[BaselineTrial]; ok && t.State != "failed" {
		t.State = "baseline" // one job, at the top rung: never pruned
	}
	sort.Ints(ids)
	out := make([]Trial, len(ids))
	for i, id := range ids {
		out[i] = *byID[id]
	}
	return out, sizes
}

// fileTrials returns the trials of study.json f (none when f is nil).
func fileTrials(f *File) []TrialInfo {
	if f == nil {
		return nil
	}
	return f.Trials
}

// BestTrial returns the best trial: the highest validation accuracy at the highest rung
// reached by any trial (ties: the lower id, so the baseline, BaselineTrial, wins a tie
// as in the study), as the study chooses it; rung is the
// index of that rung and v the accuracy. ok is false when no trial was scored.
func BestTrial(ts []Trial) (id, rung int, v float64, ok bool) {
	rung, v = -1, math.Inf(-1)
	for _, t := range ts {
		k, s := t.Top()
		if k < 0 || t.State == "failed" {
			continue
		}
		if k > rung || k == rung && s > v {
			id, rung, v, ok = t.ID, k, s, true
		}
	}
	return id, rung, v, ok
}

// ParamTexts returns the trial's parameters as the trials table, the axes and the
// importance view show them (ParamText of each value).
func (t Trial) ParamTexts() map[string]string {
	p := make(map[string]string, len(t.Params))
	for key, val := range t.Params {
		p[key] = ParamText(val)
	}
	return p
}

// ParamText formats a parameter's value for a trials table and the axes: whole numbers
// without a fraction, other numbers with 3 significant digits, booleans and text as
// they are, nil as "", anything else as compact JSON.
func ParamText(v any) string {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e9 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', 3, 64)
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

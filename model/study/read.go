package study

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"gitui/model/store"
)

// Job is one scored job of a study's journal, as a reader sees it: trial Trial at rung
// Rung (training size N), its parameters, validation accuracy, the seconds it took and
// its error ("" when it was scored).
type Job struct {
	Trial      int
	Rung       int
	N          int
	Params     map[string]any
	Validation float64
	Seconds    float64
	Error      string
}

// ReadJobs returns the scored jobs of dir/trials.jsonl in journal order, as the journal
// holds them now (store.ReadTrials, the one reader, which changes nothing): a study
// being searched by another goroutine or process can be read while it runs. Lines that
// fail their CRC-32C (a torn last line being written) are left out; a journal of another
// format is an error; a study with no journal yet has no jobs (no error).
func ReadJobs(dir string) ([]Job, error) {
	jobs, _, err := ReadJournal(dir)
	return jobs, err
}

// ReadJournal is ReadJobs that also returns the study's tune.score, read from the spec
// in the journal's header (the same read): model.TuneLOO for a study scored by
// leave-one-out, model.TunePooled for one whose last rung pools the split with
// leave-one-out, "" for one scored on a validation split or a journal with no header.
func ReadJournal(dir string) (jobs []Job, score string, err error) {
	j, err := store.ReadTrials(filepath.Join(dir, TrialsFile))
	if err != nil {
		return nil, "", fmt.Errorf("read the study journal: %w", err)
	}
	jobs = make([]Job, 0, len(j.Trials))
	for _, r := range j.Trials {
		jobs = append(jobs, Job{Trial: r.Trial, Rung: r.Rung, N: r.N, Params: r.Params, Validation: r.Validation, Seconds: r.Seconds, Error: r.Error})
	}
	if j.Header != nil {
		var h struct {
			Tune *struct {
				Score string `json:"score"`
			} `json:"tune"`
		}
		if json.Unmarshal(j.Header.Spec, &h) == nil && h.Tune != nil {
			score = h.Tune.Score
		}
	}
	return jobs, score, nil
}

// ReadFile returns dir/study.json (written when a search finishes): store.ReadStudy.
func ReadFile(dir string) (*File, error) { return store.ReadStudy(dir) }

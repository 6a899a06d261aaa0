package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Files `gitui slurm` writes into its DIR (besides spec.json).
const (
	SlurmArrayScript = "array.sbatch" // the job array: one shard per index
	SlurmMergeScript = "merge.sbatch" // gitui merge DIR, after the array
	SlurmFile        = "slurm.json"   // SlurmState: tasks and submitted job ids
	ShardsDir        = "shards"       // DIR/shards/<i>/: the run directory of array index i
)

// SlurmState is DIR/slurm.json: how the array was laid out and every submission.
type SlurmState struct {
	Tasks       int          `json:"tasks"`
	Spec        string       `json:"spec"` // DIR/spec.json, the resolved spec every shard runs
	Submissions []Submission `json:"submissions,omitempty"`
}

// Submission is one `sbatch` of the array (all indices, or the unfinished ones) and its merge.
type Submission struct {
	Time    time.Time `json:"time"`
	Indices string    `json:"indices"` // the --array value: "0-3%2", "1,3"
	ArrayID string    `json:"array_job_id"`
	MergeID string    `json:"merge_job_id"`
}

// ReadSlurmState reads DIR/slurm.json. A missing file is returned as an error wrapping
// os.ErrNotExist; a file that does not parse is an error naming it.
func ReadSlurmState(dir string) (*SlurmState, error) {
	b, err := os.ReadFile(filepath.Join(dir, SlurmFile))
	if err != nil {
		return nil, err
	}
	var st SlurmState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s does not parse (%v): it was not written by gitui slurm", filepath.Join(dir, SlurmFile), err)
	}
	return &st, nil
}

// WriteSlurmState writes st to DIR/slurm.json atomically.
func WriteSlurmState(dir string, st *SlurmState) error {
	b, _ := json.MarshalIndent(st, "", "  ")
	if err := WriteFileAtomic(filepath.Join(dir, SlurmFile), append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(dir, SlurmFile), err)
	}
	return nil
}

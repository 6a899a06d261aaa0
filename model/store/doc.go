// Package store owns the run directory (DESIGN.md, "A run directory"): its layout,
// the verified cell journal with its one writer and its one reader, the lock and the
// liveness check of the process holding it, how a run concludes (the same rules for
// the CLI and the TUI), merging the shards of a run, writing Slurm job arrays, and
// listing the runs of a folder with their status for the Runs pane.
//
// It owns the study directory too (DESIGN.md, "A study directory"; study.go): its files,
// the trials journal (the same header, per-line CRC-32C and reader as the cell journal;
// OpenTrials for its one writer, JoinTrials for the tasks of an array), study.json
// (Study, ReadStudy, WriteStudy), the study's flock (LockStudy), the per-job claims of
// an array (ClaimJob, by O_CREATE|O_EXCL), Slurm arrays over a study (WriteSlurmStudy),
// and its listing (Load gives an Entry with Study set; StudyStatus). model/study runs
// the search on top of it.
//
// The journal formats are documented in docs/runs.md.
package store

import "gitui/model"

// inputErr wraps err as a *model.InputError: bad input whose message names the fix
// (exit 2 at the CLI).
func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return &model.InputError{Err: err}
}

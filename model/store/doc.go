// Package store owns the run directory (DESIGN.md, "A run directory"): its layout,
// the verified cell journal with its one writer and its one reader, the lock and the
// liveness check of the process holding it, how a run concludes (the same rules for
// the CLI and the TUI), merging the shards of a run, writing Slurm job arrays, and
// listing the runs of a folder with their status for the Runs pane.
//
// The journal format is documented in docs/runs.md.
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

// Package store owns the run directory (docs/runs.md, "The run directory in detail"): its layout,
// the verified cell journal with its one writer and its one reader, the lock and the
// liveness check of the process holding it, how a run concludes (the same rules for
// the CLI and the TUI), merging the shards of a run, writing Slurm job arrays, and
// listing the runs of a folder with their status for the Runs pane.
//
// It owns the study directory too (docs/runs.md, "A study directory"; study.go): its files,
// the trials journal (the same header, per-line CRC-32C and reader as the cell journal;
// OpenTrials for its one writer, JoinTrials for the tasks of an array), study.json
// (Study, ReadStudy, WriteStudy), the study's flock (LockStudy), the per-job claims of
// an array (ClaimJob, by O_CREATE|O_EXCL), Slurm arrays over a study (WriteSlurmStudy),
// and its listing (Load gives an Entry with Study set; StudyStatus). model/study runs
// the search on top of it.
//
// The journal formats are documented in docs/runs.md.
package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"gitui/model"
)

// inputErr wraps err as a *model.InputError: bad input whose message names the fix
// (exit 2 at the CLI).
func inputErr(err error) error {
	if err == nil {
		return nil
	}
	return &model.InputError{Err: err}
}

// unwritable is the refusal of a directory or file that cannot be written: an
// *InputError "what (cause): fix" (exit 2, choose another), unless the file system is
// full (NoSpace): that is a failure while running, returned as "what: err" for the
// command to add its fix (NoSpaceHint: free space, then resume).
func unwritable(err error, what, fix string) error {
	if NoSpace(err) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return inputErr(fmt.Errorf("%s (%v): %s", what, unwrapPath(err), fix))
}

// NoSpace reports whether err is a full file system or an exhausted quota (ENOSPC,
// EDQUOT).
func NoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// NoSpaceError is a write that failed on a full file system, with the fix for the
// directory whose run or study it stopped: free space, then `gitui resume DIR`.
type NoSpaceError struct {
	Err error
	Fix string
}

func (e *NoSpaceError) Error() string { return e.Err.Error() + ": " + e.Fix }

func (e *NoSpaceError) Unwrap() error { return e.Err }

// NoSpaceHint returns err as a *NoSpaceError when it is a full file system (NoSpace) and
// not one already: its fix is "free space, then `gitui resume DIR`" when dir holds a run
// or study to continue (its spec.json), else "free space, or choose another --out".
// Other errors are returned as they are.
func NoSpaceHint(err error, dir string) error {
	var ns *NoSpaceError
	if err == nil || !NoSpace(err) || errors.As(err, &ns) {
		return err
	}
	fix := "free space, or choose another --out"
	if _, serr := os.Stat(filepath.Join(dir, SpecFile)); serr == nil {
		fix = "free space, then `gitui resume " + model.ShellQuote(dir) + "`"
	}
	return &NoSpaceError{Err: err, Fix: fix}
}

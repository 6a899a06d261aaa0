package store

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"gitui/core/eval"
	"gitui/model"
)

// Conclusion is how Conclude left a run directory.
type Conclusion struct {
	// Result is the result written into result.json (or result.partial.json beside a
	// complete one), or the complete result kept when Unchanged; nil when Discarded.
	Result *model.Result
	// Status is "done" (a complete result), "partial" (a cancelled or failed run, or one
	// with cells missing) or "discarded".
	Status string
	// Discarded is set when the run ended with an error (a refused spec, a failure, a
	// cancel) before any cell was journaled: the directory was removed (Discard).
	Discarded bool
	// Refused is set when the run was refused with an *model.InputError before this
	// process journaled a cell, in a directory holding an earlier run's cells (a resume
	// on changed data, BindInputs): nothing was written, the directory is as it was.
	Refused bool
	// Unchanged is set when every cell was already journaled and result.json was already
	// complete: nothing was rewritten.
	Unchanged bool
	// Added is the number of cells this process journaled.
	Added int
}

// Conclude ends the run held in d, the same way for the CLI and the TUI, and closes d:
//
//   - A run that ended with an error (runErr: bad input, a failure, or a cancel) before
//     any cell was journaled, in this process or an earlier one, leaves nothing behind:
//     the directory is removed (Discard) and the conclusion is Discarded. There is nothing
//     to resume, and the same --out starts cleanly.
//   - A run refused as bad input (an *model.InputError) before this process journaled a
//     cell, in a directory an earlier run left cells in, writes nothing: the directory
//     stays as it was (Refused), for a resume once the input is put right.
//   - A run that ended without error, with no cell missing (or every cell of its shard
//     journaled), is marked complete in run.json (MarkComplete).
//   - A run that journaled no new cell into a complete result.json rewrites nothing
//     (Unchanged).
//   - Otherwise result.json and predictions.csv are written from the journal (Finish):
//     a partial result (cancelled, failed or missing cells) never replaces a complete one.
//
// The error is a failure to write run.json or the result; the journal still holds
// every finished cell and the message says how to write the result again.
func (d *RunDir) Conclude(out *eval.Outcome, runErr error, wall time.Duration) (Conclusion, error) {
	added := d.Added()
	if runErr != nil && added == 0 && d.Resumed == 0 {
		d.Discard()
		return Conclusion{Status: "discarded", Discarded: true}, nil
	}
	defer d.Close()
	var ie *model.InputError
	if added == 0 && errors.As(runErr, &ie) {
		return Conclusion{Status: "refused", Refused: true}, nil
	}
	c := Conclusion{Added: added}
	res := d.Result(out, runErr, wall)
	if runErr == nil && (out == nil || len(out.Missing) == 0 || d.Meta.Shard != "") && !d.Meta.Complete {
		if err := d.MarkComplete(); err != nil {
			return c, err
		}
	}
	if runErr == nil && added == 0 {
		if old, err := model.ReadResult(d.ResultPath()); err == nil && !old.Partial {
			c.Result, c.Status, c.Unchanged = old, "done", true
			return c, nil
		}
	}
	if err := d.Finish(res); err != nil {
		return c, fmt.Errorf("%w (the finished cells are in %s: `gitui resume %s` writes the result)", err, filepath.Join(d.Path, CellsFile), d.Path)
	}
	c.Result, c.Status = res, "done"
	if res.Partial {
		c.Status = "partial"
	}
	return c, nil
}

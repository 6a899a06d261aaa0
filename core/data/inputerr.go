package data

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// InputError marks an error in the input: the spec, the data (a missing data set, a
// corrupt file, a training size larger than the pool) or the arguments of a benchmark.
// The command line exits with status 2 and writes no result; the TUI shows it inline.
// Its message names the problem and the fix. It is the one such type of gitui: every
// layer above core wraps its input errors in it (model.InputError is the same type).
type InputError struct{ Err error }

// Error returns the wrapped error's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *InputError) Unwrap() error { return e.Err }

// InputErr returns err wrapped in an *InputError, or nil when err is nil.
func InputErr(err error) error {
	if err == nil {
		return nil
	}
	return &InputError{Err: err}
}

// ErrNotRegular is wrapped by the refusal of a data path that names a named pipe, a
// socket or a device instead of a file (CheckRegular).
var ErrNotRegular = errors.New("not a regular file")

// CheckRegular refuses (an *InputError wrapping ErrNotRegular) a path that names a
// named pipe (FIFO), a socket or a device, before anything opens it: opening a FIFO
// blocks until a writer comes, and a data file is read more than once (its size, its
// checksum, its rows). A missing path, a regular file and a directory (of edge lists)
// pass; their readers say what is wrong with them.
func CheckRegular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	var what string
	switch m := fi.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	case m&fs.ModeIrregular != 0:
		what = "not a regular file"
	default:
		return nil
	}
	return InputErr(notRegular(fmt.Sprintf("%s is %s, not a regular file: gitui reads a data file more than once (its size, its checksum, its rows): save the data to a file and give that path", path, what)))
}

// notRegular is CheckRegular's refusal: errors.Is(err, ErrNotRegular).
type notRegular string

func (e notRegular) Error() string        { return string(e) }
func (e notRegular) Is(target error) bool { return target == ErrNotRegular }

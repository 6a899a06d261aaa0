package data

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

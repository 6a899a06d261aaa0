package model

import "gitui/core/data"

// InputError marks an error in the spec or the data (a missing data set, a corrupt file, a
// training size larger than the pool): the command line exits with status 2 and writes no
// result, the TUI shows it inline. Its message names the problem and the fix. It is the
// same type as data.InputError (one type for every layer; this name spares callers the
// import of core/data).
type InputError = data.InputError

// inputErr wraps err as an *InputError (nil stays nil).
func inputErr(err error) error { return data.InputErr(err) }

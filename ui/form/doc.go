// Package form is the field editor shared by the data, group and method panes: a list
// of typed fields bound to dotted JSON paths of a model.Spec (the paths `gitui run
// --set` takes), with inline validation, step keys and the equivalent command line.
//
// # Overview
//
// A Field names its path, label, kind (Int, Float, LogFloat, Enum, Text, Bool,
// IntList), bounds and step. Enter edits (Enum and Bool cycle), ←/→ (h/l, -/+) step:
// ±Step for numbers, ×/÷10 for LogFloat fields such as lambda and gamma. Text being
// typed is parsed on every key; a value that does not parse or is out of range is never
// assigned: it stays in the editor with a one-line message. Spec-level problems from
// Spec.Validate are listed under the fields (SetIssues): those keyed by the fields under
// the form's keys (model.Problem.Field and Under), never picked by their text.
//
// SetArgs and CommandLine turn the difference between a preset's spec and the edited
// one into `gitui run PRESET --set key=value ...`, so a session can be repeated
// headless; Apply replays such assignments.
//
// # Shapes
//
// Values are read and written through the spec's JSON tree: lists as "a,b,c" in the
// form and as JSON lists on the command line.
//
// # Errors
//
// Parse and range errors are one-line messages naming the field, the bad value and the
// fix ("bins: \"x\" is not a whole number: type digits, e.g. 25"). Internal JSON
// failures panic with a "form:" prefix (they cannot happen for a model.Spec).
//
// # Concurrency
//
// A Model is used from the Bubble Tea loop only; the spec it edits is shared with the
// other panes of the same loop and cloned before a run starts.
package form

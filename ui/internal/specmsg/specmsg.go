// Package specmsg holds the message that hands the workbench's panes a new spec. It lives
// apart from ui/pane, which knows nothing of the model (deps_test.go).
package specmsg

import "gitui/model"

// Msg hands the panes that follow the spec a new one (a preset or a study's best spec
// loaded): each points its fields and previews at Spec and returns the command that
// reloads what it previews (nil when nothing). The root sends it, through the same
// fan-out as the spec's other messages, to every pane declared to follow the spec.
type Msg struct{ Spec *model.Spec }

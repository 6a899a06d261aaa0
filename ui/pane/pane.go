// Package pane holds the contract every pane of the workbench meets, so that the root
// model (package ui) keeps its panes in a slice and sizes, focuses, draws and asks them
// alike, as soft-serve's common.Component does.
//
// # Overview
//
// A pane package keeps its Bubble Tea model with a value-returning Update (`m, cmd =
// m.Update(msg)`, which its tests use); Of turns a pointer to it into a Component, whose
// Update writes the new model back through the pointer. One generic adapter serves every
// pane: the pane packages hold no adapter code. The workbench's panes are declared in
// one list of the root (ui/panes.go).
//
// Of forwards Init, Editing, Wants and Problem when the model has them. Capabilities only
// some panes have are optional interfaces of the model, found with As: Clicker (mouse
// clicks on fields, tabs or rows) and Cacher (charts that keep their last frame between
// redraws).
package pane

import (
	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
)

// Component is one pane of the workbench.
//
//   - tea.Model: Init (the command that loads what the pane shows first, or nil),
//     Update (returns the Component itself) and View (the content, exactly the size set).
//   - help.KeyMap: ShortHelp and FullHelp list the pane's keys that work now.
//   - SetSize sets the content size (inside the frame and title line).
//   - Focus and Blur give and take the keyboard; a blurred pane drops an edit in progress.
//   - Editing reports whether the pane holds the keyboard (a text edit, a filter being
//     typed): it then takes every key, global ones included.
//   - Wants reports whether the pane takes k before the global keys although it is not
//     editing (a view of its own that esc closes, a key it binds over a global one).
//   - Problem returns the error the pane holds and shows (a spec problem of its fields, a
//     data set that does not load, a failed run), or nil; the root marks its tab with !.
type Component interface {
	tea.Model
	help.KeyMap
	SetSize(width, height int)
	Focus()
	Blur()
	Editing() bool
	Wants(k tea.KeyMsg) bool
	Problem() error
}

// Clicker is a Component that acts on a left click at column x, line y of its content
// (as last drawn), reporting whether something was there.
type Clicker interface {
	Click(x, y int) bool
}

// Cacher is a Component that keeps its last frame: Dirty reports whether View would
// draw anew, Cached returns the last frame drawn (for the root's redraw throttle).
type Cacher interface {
	Dirty() bool
	Cached() string
}

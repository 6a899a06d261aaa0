package form

import "github.com/charmbracelet/bubbles/key"

// sideBySide is the pane width from which a Split puts its preview beside the form.
const sideBySide = 90

// Split is the part of a pane made of a form and a preview: the layout (side by side
// from 90 columns, the form on the left half; stacked below that), the focus and the
// keys that the data and group panes share. Panes embed it.
type Split struct {
	Editor Model // the form
	W, H   int   // the pane's content size
	// FormRows is how many lines of the pane the form took in its last View (the pane
	// sets it: all of them side by side, the form's share when stacked).
	FormRows int
}

// Click selects the form's field drawn at column x, line y of the pane's content (as
// last drawn), as a mouse click does; it reports whether a field is there (a click on
// the preview is not).
func (s *Split) Click(x, y int) bool {
	if x < 0 || y < 0 || y >= s.FormRows || s.Side() && x >= s.FormWidth() {
		return false
	}
	return s.Editor.Click(y)
}

// SetSize sets the pane's content size and sizes the form to its part of it.
func (s *Split) SetSize(w, h int) {
	s.W, s.H = w, h
	s.Editor.SetSize(s.FormWidth(), h)
}

// Side reports whether the preview stands beside the form.
func (s *Split) Side() bool { return s.W >= sideBySide }

// FormWidth returns the columns given to the form.
func (s *Split) FormWidth() int {
	if s.Side() {
		return s.W / 2
	}
	return s.W
}

// Focus gives or takes the keyboard focus.
func (s *Split) Focus(on bool) { s.Editor.Focus(on) }

// Editing reports whether the form is in a text edit (it then takes every key).
func (s *Split) Editing() bool { return s.Editor.Editing() }

// Problem returns the first spec problem the form shows (Model.SetIssues), or nil.
func (s *Split) Problem() error { return s.Editor.Problem() }

// ShortHelp returns the keys that work now.
func (s Split) ShortHelp() []key.Binding { return s.Editor.ShortHelp() }

// FullHelp returns the keys that work now.
func (s Split) FullHelp() [][]key.Binding { return s.Editor.FullHelp() }

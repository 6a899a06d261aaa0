// Package previewpane is the workbench's Data preview pane: sample images of the loaded
// data set, a few per class, and the orbit of the selected sample under the spec's group
// (x, g·x for some elements g).
//
// # Overview
//
// The pane follows the spec: it takes the data set from the data pane's
// datapane.LoadedMsg (it loads nothing itself), and builds the group of the spec
// (engine.BuildGroup) in the background whenever the data set, a group field or the seed
// changes. The orbit of the selected sample is applied on the built group when the
// selection moves, so moving through samples costs no rebuild.
//
// Keys: ←/→ (h/l) choose the class, ↑/↓ (k/j) the sample within it; the selected
// sample is marked ▸ in the grid and is the x of the orbit row.
//
// # Shapes
//
// Images (two axes of at least 8) are drawn with pix.Image, block-averaged so that the
// class rows and the orbit row fit the pane's height (half blocks in colour, shade runes
// under NO_COLOR); one-hot sequences as letters (pix.Sequence); other shapes as their
// first values. The class rows shown scroll with the selected class.
//
// # Errors
//
// A group that does not build on the data (a shift group on sequences, a bad file) is
// shown in the orbit row; the pane holds no error of its own (Problem is the group
// pane's and the data pane's).
//
// # Concurrency
//
// The group is built in a command's goroutine, which recovers its panics; a result with
// a stale tag is dropped.
package previewpane

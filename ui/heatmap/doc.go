// Package heatmap is the workbench's kernel-matrix pane: Gram matrices of a training
// sample, sorted by class, drawn with '▀' half blocks. A run sends them while it builds
// its kernels (engine.Start's Matrix events: the linear kernel on the inputs, then each
// method's kernel); g asks the root for the base and invariant Gram of the current spec
// without running it.
//
// # Overview
//
// Each character cell shows two vertically stacked pixels (foreground = upper pixel,
// background = lower pixel), so a p×p pixel image takes p columns and p/2 rows and its
// pixels are square. Matrices larger than the pane are block-averaged (Resample),
// smaller ones are repeated by an integer factor. Values are mapped linearly to the
// theme's colour scale over a range that is the matrix's own (Range, from all its
// entries before resampling, so a matrix looks the same at every size): min–max,
// centred on the diagonal mean, or the 2–98% quantiles; c cycles through them. A
// constant matrix maps to the middle colour; without colour the shade runes " ░▒▓█"
// are used. Class boundaries are lines in the text colour (─ │ ┼ without colour), and
// each class's label stands left of its first row and above its first column. Beside
// each matrix: its colour bar with the range, its smallest eigenvalue and whether it is
// positive definite. Two matrices are shown side by side; with more, the title says
// "2–3 of 5" and ←/→ move by one (n by two).
//
// # Shapes
//
// eval.Matrix is row-major N×N with N labels (or none). Set panics with a "heatmap:"
// prefix on any other shape.
//
// # Errors
//
// SetStatus shows an error line (for example when the Gram computation failed).
//
// # Concurrency
//
// A Model is used from the Bubble Tea loop only; the Gram matrices themselves are
// computed elsewhere (by the engine during a run, or by the root for RequestMsg).
package heatmap

// Package heatmap is the workbench's kernel-matrix pane: Gram matrices of a sample,
// sorted by class, drawn with '▀' half blocks.
//
// # Overview
//
// Each character cell shows two vertically stacked pixels (foreground = upper pixel,
// background = lower pixel), so a p×p pixel image takes p columns and p/2 rows and its
// pixels are square. Matrices larger than the pane are block-averaged (Resample),
// smaller ones are repeated by an integer factor. Values are mapped linearly to the
// theme's colour scale (a constant matrix maps to the middle colour); without colour
// the shade runes " ░▒▓█" are used. Beside each matrix: its colour bar with the value
// range, its smallest eigenvalue and whether it is positive definite. The left margin
// marks where each class starts.
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
// computed elsewhere (the root sends RequestMsg's work to a goroutine).
package heatmap

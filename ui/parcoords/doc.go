// Package parcoords is the Runs pane's parallel-coordinates view (the view researchers
// use most in TensorBoard's HParams), drawn in braille dots with keyboard brushing.
//
// # Overview
//
// Model draws a set of Run values (ID, flattened spec, headline accuracy). Axes: the
// spec fields that vary among the runs (Fields: most distinct values first; identifiers
// and seeds last; a field equal run by run to one before it left out), as many as the
// width allows (an axis every 11 columns or more, at most MaxAxes with the accuracy;
// "fields 1–6 of 10 (, . page)" when they do not all fit, , and . page; - hides the
// selected field and + shows them all again: the user's choice), then the accuracy. Each axis is an Axis: Linear (min..max), Log when its numbers are positive
// and span more than two decades (marked "log" under it), or Categorical (its sorted
// values evenly spaced and labelled on the axis). A field a run lacks breaks that run's
// line at the axis.
//
// Each run is a polyline of braille dots (a Grid: 2×4 dots per cell, U+2800 + the dot
// bits, segments by Bresenham) between adjacent axes, coloured by its accuracy (the
// upper six colours of the theme's sequential scale; the highest accuracy wins a shared
// cell). A marked run (Run.Mark: a study's baseline, "your setting") is not one of the
// others: its line is drawn over theirs in its own colour, MarkGlyph (◆) where it crosses
// each axis, and its label is in the header ("◆ your setting") and, with its value, in
// the selected axis's description. The view keeps its own small grid rather than ntcharts' canvas: each cell needs
// two dot layers (brushed in and out) and the colour of its best run.
//
// Brushing: ←/→ select an axis (▸ before its name, its line drawn ┃); ↑/↓ start a brush
// on it (the top quarter, or the top value of a categorical axis) and move it by a step
// (1/16 of the axis, or one value); K/J (shift+↑/↓) widen / narrow it; x clears it, X
// clears all. A run is in when its value lies in every brush (In, Brushed); the runs
// out are drawn with a third of their dots and muted, so they stay apart from the runs
// in without colour. The brushed interval is drawn █ on its axis; the header says
// "k of N runs in brush" and "brush: lambda∈[1e-3,0.1] features∈{cdf}" (BrushText).
// Key returns Mark on enter (the holder marks Brushed in its table) and Close on esc
// or p.
//
// # Shapes
//
// View draws into at most the w×h given to SetSize; below 22×10 it says so in one line.
//
// # Errors
//
// None: values that are not numbers make an axis categorical; missing values are not
// drawn.
//
// # Concurrency
//
// Used from the Bubble Tea loop only.
package parcoords

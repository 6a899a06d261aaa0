// Package curves is the workbench's curves pane: accuracy against training size (or
// bins, templates, |G| for the grid protocols), mean ± std over repeats, for the current
// run and any pinned earlier runs, drawn with ntcharts' linechart.
//
// # Overview
//
// Points arrive as eval.Point events (Add) while repeats finish; a point replaces the
// earlier one of the same series and X. Pin copies the current run into an overlay for
// comparison. The x axis is logarithmic when every x is positive and they span a factor
// of 8 or more (L toggles it). Error bars are drawn by default; b switches to a band.
// Every series is drawn with its theme.Look (theme.Looks over the drawn runs: pinned in
// order, then the current run unless it was just pinned): the colour and marker shape
// follow the series name, so a method has one colour in every run (current, pinned or
// compared), its marker filled in the first run and hollow (○ □ △ ◇) in the second (alternating after), and
// every line has its own braille dash pattern, shown in the legend. ui/export draws the
// same runs in the same order with the same looks, so the TUI and the PNG/SVG agree.
//
// # Shapes
//
// The pane draws into exactly the w×h set by SetSize: a title, the chart, the x-axis
// label and one legend line per series, up to a third of the pane. When the series do
// not fit, the legend shows a window of them under a line "legend a–b of N series"
// and { and } scroll it: no pinned or compared series is ever left out. Where several
// runs are drawn, series are labelled "name · run". An accuracy axis never goes above 1.
// While a run has no points yet, the pane says "running: N of M cells done".
//
// # Errors
//
// Nothing returns errors; a pane too small for a chart says so in one line.
//
// # Concurrency
//
// A Model is used from the Bubble Tea loop only. View draws only when a dirty flag is
// set (new points, pins, size or option changes) and otherwise returns the cached frame.
package curves

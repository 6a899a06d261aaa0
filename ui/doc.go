// Package ui is gitui's terminal workbench: panes for the data set, the group and the
// method, runs in the background, live accuracy curves, kernel heatmaps and orbits.
//
// # Overview
//
// Run opens it; cmd/gitui calls Run when gitui is started without arguments. The root
// model (App) owns the spec that the data, group and method panes edit (ui/datapane,
// ui/grouppane, ui/methodpane on top of ui/form), the run (ui/runpane), the curves
// (ui/curves) and the Gram matrices (ui/heatmap). Keys: tab/shift+tab or 1-6 between
// panes, arrows/hjkl inside them, enter to edit, r run, esc/x cancel, p presets,
// P pin, s save, ? full help, q quit (asks while a run is going), ctrl+c quits at once.
//
// A run clones the spec and starts model.Start in the background. Its events are
// coalesced (at most 512 events or 50 ms per batch) and pumped into Update one batch
// at a time; each batch marks the curves dirty and they are redrawn once, at the next
// frame (at most 20 frames a second). Cancelling keeps pumping until the engine's
// Done, so finished cells are kept. Nothing ticks while idle.
//
// # Shapes
//
// The layout needs at least 80×24. Below 120 columns or 34 rows one pane is shown at
// a time and the header's tabs reach the others; wider terminals show the focused
// configuration pane, the run, the curves and the heatmap at once.
//
// # Errors
//
// Bad input stays in its field with an inline message; spec problems are listed in
// their pane and disable r. Engine errors end the run with a message in the run pane.
// Run returns ErrNotTerminal without a terminal, and an error wrapping
// tea.ErrProgramPanic (after saving the partial result) if the UI panicked.
//
// # Concurrency
//
// Update never blocks: data loading, group building, Gram matrices, saving and the
// engine run in goroutines started by commands, each recovering its panics and
// reporting them as messages. The model holds no mutex; messages carry a run id or a
// request tag, and stale ones are dropped.
package ui

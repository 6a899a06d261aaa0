// Package runs is the workbench's Runs pane and compare view: the terminal's take on
// TensorBoard's HParams table, over the run store and the folders given to `gitui open`.
//
// # Overview
//
// The run store (gitui/model/store) reads run directories and lone result.json files
// into Entry values (store.Load): name, start time, status (store.Status), data set,
// group, methods, headline accuracy, the spec flattened to dotted keys (store.Flatten)
// and the curves. This package keeps only the table, the filters and the views.
//
// Model lists the entries: o cycles the sort column and O reverses it, / filters
// (ParseFilter: plain words are substrings of the names, status, methods or a
// key=value of the spec; an expression compares spec keys, their suffixes and metrics,
// as templates>=100 && acc@1000>0.95),
// space marks, enter asks the workbench to open the run's curves (OpenMsg), c opens
// the compare view of the marked runs (where enter pins them all into the Curves pane,
// so that s exports their overlay).
//
// Compare shows the spec keys that differ (Diff), the accuracy at each x side by side
// with the difference from the first run and whether it exceeds the draws' spread
// (Rows), and the runs' curves overlaid in a curves.Model.
//
// g groups the filtered runs by a spec field that varies (GroupBy: mean ± sample std of
// the headline and of acc@X at the sizes every run has; enter lists a group's runs, G
// ungroups); i shows each varying field's η² = SS_between/SS_total of the headline
// accuracy as bars (Importances); m measures one kind of series (SeriesKind) instead
// of the best of each run. Both live in explore.go, apart from the table's
// Update and View.
//
// p opens the parallel-coordinates view of the runs shown (package ui/parcoords;
// parcoords.go here): enter there marks exactly the brushed runs.
//
// h opens the HParams table of the runs shown (HParams, in hparams.go; drawn by
// hparamsview.go): a row per run and series, a column per spec field that differs and
// per metric (the accuracy at each x, the λ and γ the fits chose, the wall time),
// sorted with o and O, filtered with the table's filter, its columns dropped or cut to
// fit the pane.
//
// # Shapes
//
// Every view draws into exactly the w×h given to SetSize.
//
// # Errors
//
// A run that cannot be read is skipped and reported (one line naming its directory);
// the others are listed.
//
// # Concurrency
//
// Load does file I/O and runs in a tea.Cmd (LoadCmd); the models are used from the
// Bubble Tea loop only.
package runs

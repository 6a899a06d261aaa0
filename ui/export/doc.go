// Package export renders results and kernel matrices to files a person can look at or
// compare: accuracy curves as PNG, SVG or PDF (gonum.org/v1/plot), Gram matrices as
// heatmaps with a colour bar, and the points of every curve as CSV. It backs
// `gitui export` and the workbench's save keys.
//
// # Overview
//
// Overlay (and Curves, its shorthand) draws any number of results in one figure for a
// paper draft ("current + pinned runs", `gitui export A.json B.json`): one panel per
// x-axis label; each series a line with its points and ± std error bars (kept inside
// [0, 1] for accuracies, curves dodged so bars at one x do not overlap); a colour and
// marker per series name (filled in the first run, hollow in the second, alternating) and a dash per line, all
// from theme.Looks as the TUI's Curves pane draws them; x
// ticks at the measured abscissae, on a logarithmic axis when they span more than a
// decade; an accuracy axis that stops at 1; the legend below the axes, naming
// "series · run" when there are several runs, run being what tells their specs apart
// (RunLabels). PNG, SVG and PDF are Overlay for one result in a fixed format.
// HeatmapPNG and HeatmapSVG draw an eval.Matrix with class boundaries. CSV, CSVAll and
// WriteCSV write one row per point, each run under its full label (FullRunLabels).
//
// Tables: ResultTables builds a result's tables as `gitui run` prints them (a row per
// series, a column per x, mean ± std, the best per column marked, a caption saying what
// the numbers are), NamedTables its named tables (confusion matrices, chosen
// hyperparameters), StudyTable a study's trials table (model/study's reader, as the
// Tune view shows it), and WriteTables writes any of them as aligned text (gitui run's
// summary), a GitHub Markdown pipe table, a LaTeX booktabs tabular or CSV, each string
// made printable and escaped for its format.
//
// # Shapes
//
// A model.Result holds series of points (x, mean, std, runs); points need not be sorted
// (they are sorted by x for drawing) and non-finite means are skipped. An eval.Matrix is
// n×n, row-major in Data (len n*n), with Labels of length n (or nil) sorted by class.
//
// # Errors
//
// Files are written atomically (a temporary file in the target directory, then a
// rename); a path that cannot be written gives an error naming it. Unknown extensions,
// results with nothing to draw and empty matrices return one-line errors naming the
// problem and the fix. A Matrix whose Data or Labels do not match N is a programmer error
// and panics with the prefix "export: ".
//
// # Concurrency
//
// The functions keep no state and may run concurrently on different paths.
package export

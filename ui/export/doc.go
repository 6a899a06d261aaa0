// Package export renders results and kernel matrices to files a person can look at or
// compare: accuracy curves as PNG, SVG or PDF (gonum.org/v1/plot), Gram matrices as
// heatmaps with a colour bar, and the points of every curve as CSV. It backs
// `gitui export` and the workbench's save keys.
//
// # Overview
//
// Curves overlays any number of results ("current + pinned runs"): one panel per x-axis
// label, each series a line with its points, a shaded band of mean ± std and error bars,
// a legend naming "label: series", and a logarithmic x axis when the abscissae span more
// than a decade (training-set sizes). PNG and SVG are Curves for one result in a fixed
// format. HeatmapPNG and HeatmapSVG draw an eval.Matrix with class boundaries. CSV and
// WriteCSV write one row per point.
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

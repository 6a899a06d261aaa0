// Package datapane is the workbench's data set pane: the data fields of the spec
// (name, files, pool cap, test size, normalization), what the data directory holds,
// and a preview of the loaded pool.
//
// # Overview
//
// Every change of a data.* field reloads the preview in the background
// (engine.LoadData) and reports LoadedMsg, which the group pane also uses for its orbit
// preview. The preview shows the pool and test sizes, the class counts and the first
// sample of each class: images with half blocks, one-hot sequences as letters, 2-D
// points as a scatter.
//
// # Shapes
//
// Wide panes (90 columns or more) put the preview beside the fields, narrow ones below.
//
// # Errors
//
// A load error (a file that does not parse, a missing data set) is shown in the
// preview; Err returns it so the root keeps the run key disabled.
//
// # Concurrency
//
// Loading runs in a command's goroutine and recovers its panics; a LoadedMsg with a
// stale tag is ignored.
package datapane

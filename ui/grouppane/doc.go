// Package grouppane is the workbench's group pane: the group fields of the spec (kind,
// shift radius, rotation angles, |G| sampling) and a preview of one sample's orbit
// x, g1·x, g2·x, ... under the group they build.
//
// # Overview
//
// The group is built with engine.BuildGroup on the shape of the data loaded by the data
// pane (datapane.LoadedMsg), in the background, after every group.* change. Up to
// eight evenly spaced elements of G are applied to the pool's first sample: images are
// drawn with half blocks, sequences as letters.
//
// # Shapes
//
// Wide panes (90 columns or more) put the preview beside the fields, narrow ones below.
//
// # Errors
//
// A group that does not fit the data (a shift group on sequences, a radius larger than
// the image) is shown in the preview and returned by Err, which keeps r disabled.
//
// # Concurrency
//
// The build runs in a command's goroutine, recovers its panics, and stale results
// (older request tags) are dropped.
package grouppane

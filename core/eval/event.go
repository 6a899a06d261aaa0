package eval

import "time"

// Event is one message of a running protocol on its event channel. It is one of
// Progress, Point, Matrix, Log or Done.
type Event interface{ event() }

// Progress reports that Done of Total units of a stage are finished. For the "cells"
// stage of a protocol whose arms carry costs (Arm.Cost, Arm.PrepareCost), Work of
// WorkTotal estimated seconds are done as well: the cells and method preparations
// finished, each weighted by its estimated cost, so that a progress bar and its ETA
// follow the work rather than the cell count (WorkTotal 0: no costs known).
type Progress struct {
	Stage           string // e.g. "features", "cells", "gram"
	Done, Total     int
	Work, WorkTotal float64
}

// Fraction returns the part of the stage that is done, in [0, 1]: Work/WorkTotal when
// costs are known, else Done/Total (0 when Total is 0).
func (p Progress) Fraction() float64 {
	switch {
	case p.WorkTotal > 0:
		return min(max(p.Work/p.WorkTotal, 0), 1)
	case p.Total > 0:
		return min(max(float64(p.Done)/float64(p.Total), 0), 1)
	}
	return 0
}

// Point reports the current mean and standard deviation over the finished repeats of
// one cell: series Series at abscissa X. It is sent again each time a repeat finishes.
type Point struct {
	Series         string
	XLabel, YLabel string
	X, Mean, Std   float64
	Runs           int
}

// Matrix is a snapshot of an n×n matrix (a Gram matrix of a sample, rows sorted by
// Labels) for the heatmap, with its smallest eigenvalue.
type Matrix struct {
	Name   string
	N      int
	Data   []float64 // row-major n×n
	Labels []int     // class of each row
	MinEig float64
}

// Log is a free-text line for the run log.
type Log struct {
	Time time.Time
	Line string
}

// Done is the last event: the outcome of the run (possibly partial) and the error that
// ended it, nil on success, context.Canceled when cancelled.
type Done struct {
	Outcome *Outcome
	Err     error
}

func (Progress) event() {}
func (Point) event()    {}
func (Matrix) event()   {}
func (Log) event()      {}
func (Done) event()     {}

// Series is one curve of an Outcome: points sorted by X.
type Series struct {
	Name           string
	XLabel, YLabel string
	Points         []SeriesPoint
}

// SeriesPoint is the mean and standard deviation over Runs repeats at abscissa X.
type SeriesPoint struct {
	X, Mean, Std float64
	Runs         int
}

// Table is a named table of results (rows of strings or numbers).
type Table struct {
	Name    string
	Columns []string
	Rows    [][]any
}

// Outcome is everything a protocol produced: curves, tables and time spent per stage.
type Outcome struct {
	Series []Series
	Tables []Table
	Stages map[string]float64 // seconds per stage: "features", "gram", "fit", "predict"
	// Missing lists the cells neither done nor run because Protocol.Only refused them
	// (cells of other shards), in run order; empty for a whole run.
	Missing []CellKey
	// Data names the data set the run loaded (set by the caller that loaded it; the
	// model's engine sets data.name, or data.fallback when it stood in), "" if unset.
	Data string
}

package model

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"runtime/debug"
	"time"

	"gitui/core/eval"
	"gitui/core/linalg"
)

// Version is the program version written into result.json; set by the linker
// (-ldflags "-X gitui/model.Version=v1.2.3"), else read from the build info.
var Version = ""

// VersionString returns Version, or the module version from the build info, or "devel".
func VersionString() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// NewResult assembles result.json content from the spec that ran, the protocol outcome
// (possibly partial) and the error that ended the run (nil, context.Canceled, or a failure).
func NewResult(spec *Spec, out *eval.Outcome, err error, wall time.Duration) *Result {
	raw, _ := json.Marshal(spec)
	r := &Result{
		Schema: ResultSchema,
		Preset: spec.Name,
		Spec:   raw,
		Seed:   spec.Seed,
		Series: []Series{},
		Timing: Timing{WallSeconds: float64(wall.Round(time.Millisecond)) / 1e9, Stages: map[string]float64{}},
		Env:    Env{Version: VersionString(), Go: runtime.Version(), GOMAXPROCS: runtime.GOMAXPROCS(0), BLAS: linalg.BLAS(), BLASCore: linalg.BLASCore(), Sgemm: linalg.SgemmImpl(), Dgemm: linalg.DgemmImpl()},
	}
	if out != nil {
		r.Data = out.Data
		for _, s := range out.Series {
			rs := Series{Name: s.Name, XLabel: s.XLabel, YLabel: s.YLabel, Points: []Point{}}
			for _, p := range s.Points {
				rs.Points = append(rs.Points, Point{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
			}
			r.Series = append(r.Series, rs)
		}
		for _, t := range out.Tables {
			r.Tables = append(r.Tables, Table{Name: t.Name, Columns: t.Columns, Rows: t.Rows})
		}
		for k, v := range out.Stages {
			r.Timing.Stages[k] = v
		}
	}
	if err == nil && out != nil && len(out.Missing) > 0 {
		r.Partial = true
		r.Error = MissingLine(out.Missing)
	}
	if err != nil {
		r.Partial = true
		if !errors.Is(err, context.Canceled) {
			r.Error = err.Error()
		} else {
			r.Error = "cancelled"
		}
	}
	return r
}

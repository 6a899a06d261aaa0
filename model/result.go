package model

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gitui/internal/printable"
)

// ResultSchema is the schema tag of result.json files written by this version.
const ResultSchema = "gitui.result/v1"

// Result is the content of result.json (docs/design.md, "result.json"): the spec that ran,
// every series (accuracy in [0,1]), tables, timing and environment.
type Result struct {
	Schema string          `json:"schema"`
	Preset string          `json:"preset,omitempty"`
	Spec   json.RawMessage `json:"spec"`
	Seed   uint64          `json:"seed"`
	// Data names the data set the run loaded: the spec's data.name, or its data.fallback
	// when data.name's files were not in the data directory ("" in older results).
	Data   string   `json:"data,omitempty"`
	Series []Series `json:"series"`
	Tables []Table  `json:"tables,omitempty"`
	Timing Timing   `json:"timing"`
	Env    Env      `json:"env"`
	// Partial is true when the run was cancelled or failed, or when cells are missing (a
	// shard, or a merge of incomplete shards; Error names them): the series hold the
	// finished cells only.
	Partial bool   `json:"partial,omitempty"`
	Error   string `json:"error,omitempty"`
	// ResumedCells counts the cells taken from the journal of an earlier, interrupted run
	// (gitui resume); timing covers only this run's work.
	ResumedCells int `json:"resumed_cells,omitempty"`
}

// Series is one curve: the method's short name first, as the papers name their rows.
type Series struct {
	Name   string  `json:"name"`
	XLabel string  `json:"x_label"`
	YLabel string  `json:"y_label"`
	Points []Point `json:"points"`
}

// Point is the mean and standard deviation of Runs repeats at abscissa X.
type Point struct {
	X    float64 `json:"x"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	Runs int     `json:"runs"`
}

// Table is a named table; each row has one cell per column (string or number).
type Table struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

// Timing is the wall time of the run and the seconds spent per stage
// ("features", "gram", "fit", "predict").
type Timing struct {
	WallSeconds float64            `json:"wall_seconds"`
	Stages      map[string]float64 `json:"stages"`
}

// Env records what produced the result.
type Env struct {
	Version    string `json:"version"`
	Go         string `json:"go"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	BLAS       string `json:"blas,omitempty"`
	// BLASCore is the OpenBLAS version and kernel set (linalg.BLASCore), absent in the
	// pure-Go build: the low-order bits of the products depend on it.
	BLASCore string `json:"blas_core,omitempty"`
	// Sgemm is the float32 GEMM of the projection (linalg.SgemmImpl: avx512, avx2 or
	// blas32 (...)): with the assembly kernels too, the low-order bits depend on it.
	Sgemm string `json:"sgemm,omitempty"`
	// Dgemm is the float64 GEMM under blas64's level-3 routines (linalg.DgemmImpl:
	// avx512, avx2 or blas64 (...)): the kernel matrices, fits and reductions; their
	// low-order bits depend on it.
	Dgemm string `json:"dgemm,omitempty"`
}

// WriteFile writes r as indented JSON to path atomically (see WriteFileAtomic), so a
// reader never sees a half-written result.
func (r *Result) WriteFile(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("encode result: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// WriteFileAtomic writes b to path through a temporary file in the same directory, fsync,
// mode 0644, then rename: path holds either its old content or all of b. The directory must
// exist. The error names the path.
func WriteFileAtomic(path string, b []byte) error {
	// The temporary file is named as AtomicTemp recognises it.
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(b)
	if werr == nil {
		werr = f.Chmod(0o644) // CreateTemp makes 0600; results and exports are for sharing
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, werr)
	}
	return nil
}

// ReadResult reads and checks a result.json file. Every string in it comes back with
// its control characters as visible escapes (printable.JSON).
func ReadResult(path string) (*Result, error) {
	b, err := ReadFileCapped(path)
	if err != nil {
		return nil, fmt.Errorf("read result: %w", err)
	}
	var r Result
	// A result shared by a colleague is text from a file: its names reach tables, panes
	// and exports, so control characters become visible escapes first.
	if err := json.Unmarshal(printable.JSON(b), &r); err != nil {
		return nil, fmt.Errorf("%s is not a result.json (%v): pass a file written by gitui run", path, err)
	}
	if r.Schema != ResultSchema {
		return nil, fmt.Errorf("%s has schema %q, want %q: pass a file written by gitui run", path, r.Schema, ResultSchema)
	}
	return &r, nil
}

// AtomicTemp reports whether name is a temporary file WriteFileAtomic creates beside a
// run's or a study's file ("." + the target's name, a .json, .csv or .sbatch file, + "-"
// + digits, e.g. ".result.json-1234567"), which a process killed between the write and
// the rename leaves behind.
func AtomicTemp(name string) bool {
	i := strings.LastIndexByte(name, '-')
	if len(name) < 2 || name[0] != '.' || i < 2 || i == len(name)-1 {
		return false
	}
	switch filepath.Ext(name[1:i]) {
	case ".json", ".csv", ".sbatch":
	default:
		return false
	}
	for _, r := range name[i+1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// RemoveAtomicTemps removes from dir the files AtomicTemp recognises, as a process that
// holds dir's lock may: their writer is gone (a kill mid-write). It returns their names.
func RemoveAtomicTemps(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var gone []string
	for _, e := range ents {
		if e.Type().IsRegular() && AtomicTemp(e.Name()) && os.Remove(filepath.Join(dir, e.Name())) == nil {
			gone = append(gone, e.Name())
		}
	}
	return gone
}

// MaxFileBytes bounds the files of run and study directories and of specs that gitui
// reads (result.json, spec.json, study.json, the journals): 1 GiB, far above what a run
// writes, so that a file linked to /dev/zero or a huge foreign file is refused before it
// is read, not read until memory runs out.
const MaxFileBytes = 1 << 30

// ReadFileCapped is os.ReadFile for gitui's own files: a path that is not a regular
// file, or a file above MaxFileBytes, is an error naming it and the fix; a missing file
// is os.ReadFile's error (errors.Is(err, fs.ErrNotExist)).
func ReadFileCapped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file: gitui reads only the files it wrote; give such a file", path, fileKind(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return nil, fmt.Errorf("%s holds %d bytes, more than the %d of any file gitui writes: it is not gitui's; give a file gitui wrote", path, fi.Size(), MaxFileBytes)
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err == nil && len(b) > MaxFileBytes {
		err = fmt.Errorf("%s grew past %d bytes while read: it is not gitui's; give a file gitui wrote", path, MaxFileBytes)
	}
	return b, err
}

// fileKind names what a path that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

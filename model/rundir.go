package model

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"gitui/core/eval"
)

// Files of a run directory (DESIGN.md, "A run directory").
const (
	SpecFile        = "spec.json"       // the resolved spec, written first
	CellsFile       = "cells.jsonl"     // one line per finished cell, fsynced: the source of truth
	ResultFile      = "result.json"     // derived from the journal, written atomically
	PredictionsFile = "predictions.csv" // per test sample, at each method's largest training size
	MetaFile        = "run.json"        // how the run was started (data directory, quick)
	LockFile        = "lock"            // "PID HOST" while a process runs in the directory
	partialFile     = "result.partial.json"
)

// RunMeta is what a run needs besides its spec to be resumed: where its data came from.
type RunMeta struct {
	DataDir string `json:"data_dir,omitempty"`
	Quick   bool   `json:"quick,omitempty"`
	// Shard is "i/N" for a run of shard i of N (gitui run --shard), else empty.
	Shard string `json:"shard,omitempty"`
	// Complete is set once every cell of the run (of its shard, for a shard) is journaled.
	Complete bool      `json:"complete,omitempty"`
	Started  time.Time `json:"started"`
	Version  string    `json:"version"`
}

// CellRecord is one line of cells.jsonl: a finished cell (eval.Cell) as JSON. Floats are
// written in Go's shortest round-trip form, so a cell read back is bit-identical.
type CellRecord struct {
	Stage   string   `json:"stage"`
	Series  string   `json:"series"`
	X       float64  `json:"x"`
	Rep     int      `json:"rep"`
	Size    int      `json:"size"`
	Acc     float64  `json:"acc"`
	BAcc    float64  `json:"bacc"`
	AccT    *float64 `json:"acc_transformed,omitempty"`
	BAccT   *float64 `json:"bacc_transformed,omitempty"`
	Seconds float64  `json:"seconds"`
	Pred    []int    `json:"pred,omitempty"`
	// Score is the decision value of each prediction (eval.Cell.Score), where the learner has one.
	Score []float64 `json:"score,omitempty"`
	// Chosen holds the hyperparameters the cell's fit chose itself (eval.Cell.Chosen):
	// "lambda" (RLS, leave-one-out), "gamma" (a Gaussian kernel's median heuristic).
	Chosen map[string]float64 `json:"chosen,omitempty"`
}

func recordOf(c eval.Cell) CellRecord {
	return CellRecord{Stage: c.Stage, Series: c.Series, X: c.X, Rep: c.Rep, Size: c.Size, Acc: c.Acc, BAcc: c.BAcc,
		AccT: c.AccT, BAccT: c.BAccT, Seconds: c.Seconds, Pred: c.Pred, Score: c.Score, Chosen: c.Chosen}
}

func (r CellRecord) cell() eval.Cell {
	return eval.Cell{CellKey: eval.CellKey{Stage: r.Stage, Series: r.Series, X: r.X, Rep: r.Rep}, Size: r.Size,
		Acc: r.Acc, BAcc: r.BAcc, AccT: r.AccT, BAccT: r.BAccT, Seconds: r.Seconds, Pred: r.Pred, Score: r.Score, Chosen: r.Chosen}
}

// RunDir is a run directory held by this process: spec.json, the cell journal
// cells.jsonl, result.json, predictions.csv and a lock file (DESIGN.md). Open it with
// OpenRunDir, pass it to Start in RunOptions.Dir, write the result with Finish and
// release it with Close. Append is safe for concurrent use.
type RunDir struct {
	Path string
	Spec *Spec
	Meta RunMeta
	// Resumed is the number of cells read from the journal when the directory was opened.
	Resumed int
	// Warning is set when opening took over a stale lock (its process is gone).
	Warning string

	mu      sync.Mutex
	cells   []CellRecord // every journaled cell, earlier runs' first
	journal *os.File
	added   int // cells appended by this process
	test    testLabels
}

// testLabels are the class names of the test rows, for predictions.csv and confusion tables.
type testLabels struct {
	y           []int
	classes     []string
	transformed bool
}

// OpenRunDir creates or reopens the run directory path for spec and locks it.
//
//   - A new or empty directory gets spec.json and run.json and an empty journal.
//   - A directory holding a run of the same spec is reopened: its journaled cells (Cells)
//     are not run again (a torn last line, from a kill in mid-write, is dropped and its
//     cell recomputed). spec nil reads the spec from spec.json (gitui resume).
//   - A directory holding a run of another spec, or a result.json without a journal, is
//     refused: nothing there is overwritten.
//   - A directory locked by a live process is refused; a lock whose process is gone is
//     taken over (Warning says so).
//
// Errors are *InputError naming the directory and the fix.
func OpenRunDir(path string, spec *Spec, meta RunMeta) (*RunDir, error) {
	if path == "" {
		return nil, inputErr(errors.New("the run directory is empty: give --out DIR"))
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, inputErr(fmt.Errorf("cannot create the run directory %s (%v): choose a writable directory with --out", path, unwrapPath(err)))
	}
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		return nil, inputErr(fmt.Errorf("%s is not a directory: choose a directory with --out", path))
	}
	d := &RunDir{Path: path, Meta: meta}
	if err := d.lock(); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			d.unlock()
		}
	}()
	old, err := readSpecFile(filepath.Join(path, SpecFile))
	switch {
	case err != nil:
		return nil, err
	case old == nil && spec == nil:
		return nil, inputErr(fmt.Errorf("%s holds no %s: it is not a gitui run directory (give the directory that `gitui run --out` wrote)", path, SpecFile))
	case old == nil:
		if _, err := os.Stat(filepath.Join(path, ResultFile)); err == nil {
			return nil, inputErr(fmt.Errorf("%s already holds a %s without a journal (an earlier run): choose another --out, nothing there is overwritten", path, ResultFile))
		}
		b, _ := json.MarshalIndent(spec, "", "  ")
		if err := WriteFileAtomic(filepath.Join(path, SpecFile), append(b, '\n')); err != nil {
			return nil, inputErr(fmt.Errorf("the run directory %s is not writable (%v): choose another --out", path, unwrapPath(err)))
		}
		if err := d.writeMeta(); err != nil {
			return nil, err
		}
		d.Spec = spec
	default:
		if spec != nil {
			if f := specDiff(old, spec); f != "" {
				return nil, inputErr(fmt.Errorf("%s holds a run of another spec (%s differs): continue it with `gitui resume %s`, or choose another --out", path, f, path))
			}
		}
		d.Spec = old
		if m, err := readMeta(filepath.Join(path, MetaFile)); err == nil {
			d.Meta = m
			if meta.DataDir != "" {
				d.Meta.DataDir = meta.DataDir
			}
		}
	}
	if err := d.openJournal(); err != nil {
		return nil, err
	}
	ok = true
	return d, nil
}

// unwrapPath drops the operation and path of a *PathError, which the message names already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readSpecFile(path string) (*Spec, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, inputErr(fmt.Errorf("read %s: %w", path, err))
	}
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, inputErr(fmt.Errorf("%s does not parse (%v): it was not written by this version of gitui; choose another --out", path, err))
	}
	if err := s.Validate(); err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", path, err))
	}
	return &s, nil
}

// specDiff returns the dotted path of the first field where the JSON forms of a and b
// differ, or "" when they are equal.
func specDiff(a, b *Spec) string {
	var ta, tb any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	_ = json.Unmarshal(ja, &ta)
	_ = json.Unmarshal(jb, &tb)
	return jsonDiff(ta, tb, "")
}

func jsonDiff(a, b any, at string) string {
	name := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return at
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		ks := make([]string, 0, len(keys))
		for k := range keys {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			if d := jsonDiff(x[k], y[k], name(k)); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return at
		}
		for i := range x {
			if d := jsonDiff(x[i], y[i], name(strconv.Itoa(i))); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		if at == "" {
			return "the spec"
		}
		return at
	}
	return ""
}

func (d *RunDir) writeMeta() error {
	if d.Meta.Version == "" {
		d.Meta.Version = VersionString()
	}
	if d.Meta.Started.IsZero() {
		d.Meta.Started = time.Now().UTC().Truncate(time.Second)
	}
	b, _ := json.MarshalIndent(d.Meta, "", "  ")
	if err := WriteFileAtomic(filepath.Join(d.Path, MetaFile), append(b, '\n')); err != nil {
		return inputErr(fmt.Errorf("the run directory %s is not writable (%v): choose another --out", d.Path, unwrapPath(err)))
	}
	return nil
}

func readMeta(path string) (RunMeta, error) {
	var m RunMeta
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

// lock takes DIR/lock with O_EXCL, writing "PID HOST". A lock of a live process on this
// host is refused; one whose process is gone is taken over. A lock from another host
// cannot be checked and is refused with the way out.
func (d *RunDir) lock() error {
	path := filepath.Join(d.Path, LockFile)
	host, _ := os.Hostname()
	for attempt := 0; attempt < 3; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := fmt.Fprintf(f, "%d %s\n", os.Getpid(), host)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return inputErr(fmt.Errorf("the run directory %s is not writable (%v): choose another --out", d.Path, unwrapPath(werr)))
			}
			return nil
		}
		if !errors.Is(err, os.ErrExist) {
			return inputErr(fmt.Errorf("the run directory %s is not writable (%v): choose another --out", d.Path, unwrapPath(err)))
		}
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			continue // released meanwhile
		}
		var pid int
		var lhost string
		fmt.Sscan(string(b), &pid, &lhost)
		switch {
		case pid <= 0:
			// An empty or torn lock file: its writer died between create and write.
		case lhost != "" && lhost != host:
			return inputErr(fmt.Errorf("%s is locked by gitui process %d on host %s: wait for it to finish, or remove %s if that process is gone", d.Path, pid, lhost, path))
		case processAlive(pid):
			return inputErr(fmt.Errorf("%s is in use by gitui process %d: wait for it to finish, or choose another --out", d.Path, pid))
		}
		d.Warning = fmt.Sprintf("took over the lock of %s from process %d, which is gone", d.Path, pid)
		os.Remove(path)
	}
	return inputErr(fmt.Errorf("cannot lock %s: another process keeps taking it; choose another --out", d.Path))
}

// processAlive reports whether a process with this PID exists (signal 0 is delivered or
// refused for permission: both mean it exists) and is not a zombie (killed, not yet
// reaped by its parent: on Linux, state Z in /proc/PID/stat).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) && b[i+2] == 'Z' {
			return false
		}
	}
	return true
}

func (d *RunDir) unlock() {
	os.Remove(filepath.Join(d.Path, LockFile))
}

// openJournal reads cells.jsonl and opens it for appending. A last line without its
// newline or that does not parse is a write cut short by a kill: it is cut off and its
// cell runs again. A bad line before the last is a damaged journal: refused.
func (d *RunDir) openJournal() error {
	path := filepath.Join(d.Path, CellsFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return inputErr(fmt.Errorf("open the journal %s (%v): choose a writable --out", path, unwrapPath(err)))
	}
	good := int64(0)
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		b, err := r.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			var rec CellRecord
			if jerr := json.Unmarshal(b, &rec); jerr == nil && rec.Series != "" {
				d.cells = append(d.cells, rec)
				good += int64(len(b))
				continue
			}
			if _, perr := r.Peek(1); perr == nil {
				f.Close()
				return inputErr(fmt.Errorf("the journal %s is damaged at line %d: move it away and run again (its cells will be recomputed)", path, line))
			}
		}
		if err == io.EOF || err == nil {
			break // torn or empty last line
		}
		if err != nil {
			f.Close()
			return fmt.Errorf("read the journal %s: %w", path, err)
		}
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return fmt.Errorf("cut the torn last line of %s: %w", path, err)
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return fmt.Errorf("seek %s: %w", path, err)
	}
	d.journal = f
	d.Resumed = len(d.cells)
	return nil
}

// Done returns the journaled cells, keyed for eval.Protocol.Done.
func (d *RunDir) Done() map[eval.CellKey]eval.Cell {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := make(map[eval.CellKey]eval.Cell, len(d.cells))
	for _, r := range d.cells {
		c := r.cell()
		m[c.Key()] = c
	}
	return m
}

// Append journals a finished cell: one JSON line, written and fsynced before it returns,
// so a cell reported done survives a kill of the process or the machine.
func (d *RunDir) Append(c eval.Cell) error {
	rec := recordOf(c)
	b, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode cell %s at %g: %w", c.Series, c.X, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.journal == nil {
		return errors.New("the journal is closed")
	}
	if _, err := d.journal.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("write the journal %s: %w", d.journal.Name(), err)
	}
	if err := d.journal.Sync(); err != nil {
		return fmt.Errorf("sync the journal %s: %w", d.journal.Name(), err)
	}
	d.cells = append(d.cells, rec)
	d.added++
	return nil
}

// Added returns the number of cells this process journaled.
func (d *RunDir) Added() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.added
}

// SetTest records the labels of the test rows (2N rows with a transformed copy).
func (d *RunDir) SetTest(y []int, classes []string, transformed bool) {
	d.mu.Lock()
	d.test = testLabels{y: y, classes: classes, transformed: transformed}
	d.mu.Unlock()
}

// Result assembles result.json from the outcome, adding a confusion matrix per method at
// its largest training size (summed over the draws, from the journal's predictions).
func (d *RunDir) Result(out *eval.Outcome, runErr error, wall time.Duration) *Result {
	r := NewResult(d.Spec, out, runErr, wall)
	r.ResumedCells = d.Resumed
	r.Tables = append(r.Tables, d.confusionTables()...)
	if t := d.chosenTable(); t != nil {
		r.Tables = append(r.Tables, *t)
	}
	return r
}

// ChosenTableName names the result table of chosenTable.
const ChosenTableName = "chosen by the fits (median over the draws at each series' last x)"

// chosenTable returns, for each series whose cells recorded chosen hyperparameters
// (eval.Cell.Chosen), the median of each over the journaled draws at the series' largest
// x (the largest training size of a curve, the most bins of a grid): one row per
// series (sorted by name), a column per name ("gamma", "lambda"), empty where a series
// chose no such value. It returns nil if no cell chose anything.
func (d *RunDir) chosenTable() *Table {
	d.mu.Lock()
	defer d.mu.Unlock()
	type last struct {
		x     float64
		size  int
		draws int
		v     map[string][]float64
	}
	by := map[string]*last{}
	names := map[string]bool{}
	for _, c := range d.cells {
		if len(c.Chosen) == 0 {
			continue
		}
		a := by[c.Series]
		if a == nil || c.X > a.x {
			a = &last{x: c.X, size: c.Size, v: map[string][]float64{}}
			by[c.Series] = a
		}
		if c.X < a.x {
			continue
		}
		a.draws++
		for k, v := range c.Chosen {
			a.v[k] = append(a.v[k], v)
			names[k] = true
		}
	}
	if len(by) == 0 {
		return nil
	}
	cols := slices.Sorted(maps.Keys(names))
	t := &Table{Name: ChosenTableName, Columns: append([]string{"series", "x", "size", "draws"}, cols...)}
	for _, series := range slices.Sorted(maps.Keys(by)) {
		a := by[series]
		row := []any{series, a.x, a.size, a.draws}
		for _, k := range cols {
			v := a.v[k]
			if len(v) == 0 {
				row = append(row, "")
				continue
			}
			slices.Sort(v)
			row = append(row, (v[(len(v)-1)/2]+v[len(v)/2])/2)
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// predCells returns the journaled cells with predictions, sorted by series, size, repeat.
func (d *RunDir) predCells() []CellRecord {
	var cs []CellRecord
	for _, c := range d.cells {
		if c.Pred != nil {
			cs = append(cs, c)
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if a.Series != b.Series {
			return a.Series < b.Series
		}
		if a.Size != b.Size {
			return a.Size < b.Size
		}
		return a.Rep < b.Rep
	})
	return cs
}

// confusionTables returns, per series with kept predictions, the confusion matrix
// (rows: true class, columns: predicted class) summed over its draws, in the order of
// the result's series; a transformed test set adds one for the transformed copy.
func (d *RunDir) confusionTables() []Table {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.test
	if t.y == nil {
		return nil
	}
	type acc struct {
		m     [][]int
		size  int
		draws int
	}
	k := len(t.classes)
	conf := map[string]*acc{}
	var order []string
	for _, c := range d.predCells() {
		if len(c.Pred) != len(t.y) {
			continue
		}
		n := len(t.y)
		halves := []string{c.Series}
		if t.transformed {
			n /= 2
			halves = append(halves, c.Series+eval.TransformedSuffix)
		}
		for h, name := range halves {
			a := conf[name]
			if a == nil {
				a = &acc{m: make([][]int, k), size: c.Size}
				for i := range a.m {
					a.m[i] = make([]int, k)
				}
				conf[name] = a
				order = append(order, name)
			}
			for j := 0; j < n; j++ {
				yt, yp := t.y[h*n+j], c.Pred[h*n+j]
				if yt >= 0 && yt < k && yp >= 0 && yp < k {
					a.m[yt][yp]++
				}
			}
			a.draws++
		}
	}
	sort.Strings(order)
	var tables []Table
	for _, name := range order {
		a := conf[name]
		tab := Table{Name: fmt.Sprintf("confusion %s at %d (%d draws; rows true, columns predicted)", name, a.size, a.draws),
			Columns: append([]string{"true"}, t.classes...)}
		for i, row := range a.m {
			r := []any{t.classes[i]}
			for _, v := range row {
				r = append(r, v)
			}
			tab.Rows = append(tab.Rows, r)
		}
		tables = append(tables, tab)
	}
	return tables
}

// Finish writes predictions.csv (when cells kept predictions) and result.json. A
// partial result never replaces a complete one: it goes to result.partial.json instead.
func (d *RunDir) Finish(r *Result) error {
	if err := d.writePredictions(); err != nil {
		return err
	}
	path := filepath.Join(d.Path, ResultFile)
	if r.Partial {
		if old, err := ReadResult(path); err == nil && !old.Partial {
			path = filepath.Join(d.Path, partialFile)
		}
	}
	return r.WriteFile(path)
}

// ResultPath returns where Finish wrote (or will write) result.json.
func (d *RunDir) ResultPath() string { return filepath.Join(d.Path, ResultFile) }

// writePredictions writes predictions.csv: draw, size, method, index, true, predicted and
// decision (the learner's score of the predicted class, empty where it has none), one
// row per test sample of every cell that kept its predictions.
func (d *RunDir) writePredictions() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	t := d.test
	cs := d.predCells()
	if len(cs) == 0 || t.y == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString("draw,size,method,index,true,predicted,decision\n")
	for _, c := range cs {
		if len(c.Pred) != len(t.y) {
			continue
		}
		n, halves := len(t.y), []string{c.Series}
		if t.transformed {
			n /= 2
			halves = append(halves, c.Series+eval.TransformedSuffix)
		}
		for h, name := range halves {
			q := csvField(name)
			for j := 0; j < n; j++ {
				dec := ""
				if len(c.Score) == len(c.Pred) {
					dec = strconv.FormatFloat(c.Score[h*n+j], 'g', -1, 64)
				}
				fmt.Fprintf(&b, "%d,%d,%s,%d,%s,%s,%s\n", c.Rep, c.Size, q, j, csvField(className(t.classes, t.y[h*n+j])), csvField(className(t.classes, c.Pred[h*n+j])), dec)
			}
		}
	}
	return WriteFileAtomic(filepath.Join(d.Path, PredictionsFile), []byte(b.String()))
}

func className(classes []string, c int) string {
	if c >= 0 && c < len(classes) {
		return classes[c]
	}
	return strconv.Itoa(c)
}

// csvField quotes s for CSV when it holds a comma, a quote or a line break.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// Discard removes what OpenRunDir wrote into a new directory (spec.json, run.json, an
// empty journal, and the directory itself if that leaves it empty) when no cell was
// journaled: a run refused before its first cell leaves nothing behind. It does nothing
// to a directory that holds cells. It closes d.
func (d *RunDir) Discard() {
	d.mu.Lock()
	n := len(d.cells)
	d.mu.Unlock()
	d.Close()
	if n > 0 {
		return
	}
	for _, f := range []string{CellsFile, SpecFile, MetaFile} {
		os.Remove(filepath.Join(d.Path, f))
	}
	os.Remove(d.Path) // only if empty
}

// Close closes the journal and releases the lock.
func (d *RunDir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var err error
	if d.journal != nil {
		err = d.journal.Close()
		d.journal = nil
	}
	d.unlock()
	return err
}

// StoreDir returns the run store, where the TUI saves every run: $XDG_DATA_HOME/gitui/runs,
// else ~/.local/share/gitui/runs.
func StoreDir() (string, error) {
	base := os.Getenv("XDG_DATA_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no run store: set XDG_DATA_HOME or HOME (%w)", err)
		}
		base = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(base, "gitui", "runs"), nil
}

// RunDirName returns a fresh folder name for a run of spec started at t: the time, then
// the spec's name made safe for a file name (SafeName: "../../x" cannot leave the parent
// folder).
func RunDirName(name string, t time.Time) string {
	return t.Format("20060102-150405") + "-" + SafeName(name)
}

// SafeName maps s to a file name of ASCII letters, digits, '-' and '_': runs of other
// characters (dots, slashes, controls) become one '-', leading and trailing '-' are
// dropped, at most 64 bytes; "run" when nothing is left.
func SafeName(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
		if ok {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 64 {
		out = out[:64]
	}
	if out == "" {
		return "run"
	}
	return out
}

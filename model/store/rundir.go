package store

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"gitui/core/eval"
	"gitui/model"
)

// RunDir is a run directory held by this process: spec.json, the cell journal
// cells.jsonl, result.json, predictions.csv and a lock file (docs/runs.md). Open it with
// OpenRunDir, pass it to Start in RunOptions.Dir, write the result with Finish and
// release it with Close. Append is safe for concurrent use.
type RunDir struct {
	Path string
	Spec *model.Spec
	Meta RunMeta
	// Resumed is the number of cells read from the journal when the directory was opened.
	Resumed int
	// Warning is set when opening took over a stale lock (its process is gone).
	Warning string
	// Notices are one line each about the journal as it was opened: damaged lines moved
	// to cells.damaged.jsonl (their cells run again), or a journal of the earlier format
	// read unverified.
	Notices []string

	mu      sync.Mutex
	cells   []CellRecord // every journaled cell, earlier runs' first
	journal *os.File
	added   int // cells appended by this process
	test    testLabels
	inputs  *model.Inputs // what the cells were computed on (BindInputs), nil until known
}

// testLabels are the class names of the test rows, for predictions.csv and confusion tables.
type testLabels struct {
	y           []int
	classes     []string
	transformed bool
}

// OpenRunDir creates or reopens the run directory path for spec and locks it.
//
//   - A new or empty directory gets spec.json and run.json and a journal holding only
//     its header (the hash of the canonical spec; docs/runs.md).
//   - A directory holding a run of the same spec is reopened: its journaled cells (Cells)
//     are not run again (a torn last line, from a kill in mid-write, is dropped and its
//     cell recomputed). spec nil reads the spec from spec.json (gitui resume).
//   - A spec.json that no longer hashes to the journal's header is refused, naming the
//     changed keys. A cell line that fails its checksum is moved to cells.damaged.jsonl
//     (Notices says so) and only its cell runs again.
//   - A directory holding a run of another spec, or a result.json without a journal, is
//     refused: nothing there is overwritten.
//   - A directory locked by a live process is refused; a lock whose process is gone is
//     taken over (Warning says so).
//
// Errors are *model.InputError naming the directory and the fix.
func OpenRunDir(path string, spec *model.Spec, meta RunMeta) (*RunDir, error) {
	if path == "" {
		return nil, inputErr(errors.New("the run directory is empty: give --out DIR"))
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, unwritable(err, fmt.Sprintf("cannot create the run directory %s", path), "choose a writable directory with --out")
	}
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		return nil, inputErr(fmt.Errorf("%s is not a directory: choose a directory with --out", path))
	}
	d := &RunDir{Path: path, Meta: meta}
	if err := d.lock(); err != nil {
		return nil, err
	}
	// Under the lock no other process writes here: a temporary file is a killed write's.
	if gone := model.RemoveAtomicTemps(path); len(gone) > 0 {
		d.Notices = append(d.Notices, fmt.Sprintf("removed %d temporary files a killed write left in %s (%s)", len(gone), path, strings.Join(gone, ", ")))
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
		if err := model.WriteFileAtomic(filepath.Join(path, SpecFile), append(b, '\n')); err != nil {
			return nil, unwritable(err, fmt.Sprintf("the run directory %s is not writable", path), "choose another --out")
		}
		if err := d.writeMeta(); err != nil {
			return nil, err
		}
		d.Spec = spec
	default:
		if spec != nil {
			if f := specDiff(old, spec); f != "" {
				return nil, inputErr(fmt.Errorf("%s holds a run of another spec (%s): continue it with `gitui resume %s`, or choose another --out", path, f, path))
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

func (d *RunDir) writeMeta() error {
	if d.Meta.Version == "" {
		d.Meta.Version = model.VersionString()
	}
	if d.Meta.Started.IsZero() {
		d.Meta.Started = time.Now().UTC().Truncate(time.Second)
	}
	if old, err := readMeta(filepath.Join(d.Path, MetaFile)); err == nil && old.Label != "" {
		d.Meta.Label = old.Label // given by SetLabel while the run went on
	}
	b, _ := json.MarshalIndent(d.Meta, "", "  ")
	if err := model.WriteFileAtomic(filepath.Join(d.Path, MetaFile), append(b, '\n')); err != nil {
		return unwritable(err, fmt.Sprintf("the run directory %s is not writable", d.Path), "choose another --out")
	}
	return nil
}

// openJournal reads cells.jsonl (ReadJournal), checks spec.json against its header,
// moves damaged lines to cells.damaged.jsonl, cuts a torn last line, writes the header
// of a new journal, and opens it for appending.
func (d *RunDir) openJournal() error {
	path := filepath.Join(d.Path, CellsFile)
	j, err := ReadJournal(path)
	if err != nil {
		return err
	}
	if err := j.CheckSpec(d.Spec, d.Path); err != nil {
		return err
	}
	if j.Legacy {
		d.Notices = append(d.Notices, fmt.Sprintf("%s is in the earlier journal format (no spec hash, no checksums): its %d cells are read unverified", path, len(j.Cells)))
	}
	var rewrite []byte
	damaged := j.Damaged
	if j.HeaderDamaged {
		damaged = append([]DamagedLine{{Line: 1, Text: j.headerText, Reason: "header checksum mismatch"}}, damaged...)
	}
	if len(damaged) > 0 {
		if err := moveDamaged(d.Path, damaged); err != nil {
			return err
		}
	}
	if j.HeaderDamaged {
		d.Notices = append(d.Notices, fmt.Sprintf("%s line 1, its header, failed its check but still holds the hash of %s: moved to %s, header written again", path, SpecFile, DamagedFile))
	}
	for _, l := range j.Damaged {
		d.Notices = append(d.Notices, fmt.Sprintf("%s line %d failed its check (%s): moved to %s; its cell runs again", path, l.Line, l.Reason, DamagedFile))
	}
	switch {
	case j.HeaderDamaged || j.Header == nil && !j.Legacy:
		// a new (empty) journal, or one whose header is written again: the header first
		h, err := headerLine(d.Spec)
		if err != nil {
			return fmt.Errorf("encode the journal header of %s: %w", path, err)
		}
		rewrite = append(h, bytes.Join(j.lines, nil)...)
	case len(j.Damaged) > 0:
		rewrite = bytes.Join(j.lines, nil)
	}
	if rewrite != nil {
		if err := model.WriteFileAtomic(path, rewrite); err != nil {
			return unwritable(err, fmt.Sprintf("rewrite the journal %s", path), "choose a writable --out")
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return unwritable(err, fmt.Sprintf("open the journal %s", path), "choose a writable --out")
	}
	size := j.size
	if rewrite != nil {
		size = int64(len(rewrite))
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return fmt.Errorf("cut the torn last line of %s: %w", path, err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return fmt.Errorf("seek %s: %w", path, err)
	}
	d.journal = f
	d.cells = j.Cells
	d.inputs = j.Inputs
	d.Resumed = len(d.cells)
	return nil
}

// damagedRecord is one line of cells.damaged.jsonl: a journal line that failed its
// check, as it was read, with where it was and why it was moved.
type damagedRecord struct {
	Line   int       `json:"line"`
	Reason string    `json:"reason"`
	Moved  time.Time `json:"moved"`
	Text   string    `json:"text"`
}

// moveDamaged appends the damaged lines to DIR/cells.damaged.jsonl (fsynced), before the
// journal is rewritten without them.
func moveDamaged(dir string, ls []DamagedLine) error {
	return moveDamagedTo(filepath.Join(dir, DamagedFile), ls)
}

// moveDamagedTo appends the damaged lines to the file at path (fsynced), one JSON line
// each with its line number, reason and time.
func moveDamagedTo(path string, ls []DamagedLine) error {
	var buf bytes.Buffer
	now := time.Now().UTC().Truncate(time.Second)
	for _, l := range ls {
		b, _ := json.Marshal(damagedRecord{Line: l.Line, Reason: l.Reason, Moved: now, Text: string(l.Text)})
		buf.Write(append(b, '\n'))
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err == nil {
		_, err = f.Write(buf.Bytes())
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return unwritable(err, fmt.Sprintf("move damaged journal lines to %s", path), "choose a writable --out")
	}
	return nil
}

// Done returns the journaled cells, keyed for eval.Protocol.Done.
func (d *RunDir) Done() map[eval.CellKey]eval.Cell {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := make(map[eval.CellKey]eval.Cell, len(d.cells))
	for _, r := range d.cells {
		c := r.Cell()
		m[c.Key()] = c
	}
	return m
}

// Append journals a finished cell: one JSON line sealed with its CRC-32C (EncodeCell),
// written and fsynced before it returns,
// so a cell reported done survives a kill of the process or the machine.
func (d *RunDir) Append(c eval.Cell) error {
	rec := recordOf(c)
	b, err := EncodeCell(rec)
	if err != nil {
		return fmt.Errorf("encode cell %s at %g: %w", c.Series, c.X, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.journal == nil {
		return errors.New("the journal is closed")
	}
	if err := appendSealed(d.journal, b, true); err != nil {
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
func (d *RunDir) Result(out *eval.Outcome, runErr error, wall time.Duration) *model.Result {
	r := model.NewResult(d.Spec, out, runErr, wall)
	r.ResumedCells = d.Resumed
	r.Tables = append(r.Tables, d.confusionTables()...)
	if t := d.chosenTable(); t != nil {
		r.Tables = append(r.Tables, *t)
	}
	if t := d.notesTable(); t != nil {
		r.Tables = append(r.Tables, *t)
	}
	return r
}

// NotesTableName names the result table of notesTable.
const NotesTableName = "degenerate fits (notes of the cells' fits)"

// notesTable returns one row per series, x and note of the journaled cells' Notes
// (eval.Cell.Notes: a degenerate kernel, every test prediction in one class), with how
// many of the draws at that x had it, sorted by series, x and note; nil if no cell has a
// note.
func (d *RunDir) notesTable() *model.Table {
	d.mu.Lock()
	defer d.mu.Unlock()
	type key struct {
		series string
		x      float64
		note   string
	}
	count, draws := map[key]int{}, map[key]int{}
	for _, c := range d.cells {
		draws[key{c.Series, c.X, ""}]++
		for _, n := range c.Notes {
			count[key{c.Series, c.X, n}]++
		}
	}
	if len(count) == 0 {
		return nil
	}
	keys := slices.SortedFunc(maps.Keys(count), func(a, b key) int {
		if a.series != b.series {
			return strings.Compare(a.series, b.series)
		}
		if a.x != b.x {
			return cmp.Compare(a.x, b.x)
		}
		return strings.Compare(a.note, b.note)
	})
	t := &model.Table{Name: NotesTableName, Columns: []string{"series", "x", "draws", "of", "note"}}
	for _, k := range keys {
		t.Rows = append(t.Rows, []any{k.series, k.x, count[k], draws[key{k.series, k.x, ""}], k.note})
	}
	return t
}

// ChosenTableName names the result table of chosenTable.
const ChosenTableName = "chosen by the fits (median over the draws at each series' last x)"

// chosenTable returns, for each series whose cells recorded chosen hyperparameters
// (eval.Cell.Chosen), the median of each over the journaled draws at the series' largest
// x (the largest training size of a curve, the most bins of a grid): one row per
// series (sorted by name), a column per name ("gamma", "lambda"), empty where a series
// chose no such value. It returns nil if no cell chose anything.
func (d *RunDir) chosenTable() *model.Table {
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
	t := &model.Table{Name: ChosenTableName, Columns: append([]string{"series", "x", "size", "draws"}, cols...)}
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
func (d *RunDir) confusionTables() []model.Table {
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
	var tables []model.Table
	for _, name := range order {
		a := conf[name]
		tab := model.Table{Name: fmt.Sprintf("confusion %s at %d (%d draws; rows true, columns predicted)", name, a.size, a.draws),
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
func (d *RunDir) Finish(r *model.Result) error {
	if err := d.writePredictions(); err != nil {
		return err
	}
	path := filepath.Join(d.Path, ResultFile)
	if r.Partial {
		if old, err := model.ReadResult(path); err == nil && !old.Partial {
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
	return model.WriteFileAtomic(filepath.Join(d.Path, PredictionsFile), []byte(b.String()))
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
// empty journal, the TUI's log.txt, and the directory itself if that leaves it empty) when no cell was
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
	for _, f := range []string{CellsFile, SpecFile, MetaFile, LogFile} {
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

package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"gitui/core/eval"
)

// CellName names a cell for people: "CDF(5,10) RLS at 60, draw 3", with its stage
// first when the run has several ("m=10: CDF(n,10) RLS at 5, draw 0").
func CellName(k eval.CellKey) string {
	s := fmt.Sprintf("%s at %s, draw %d", k.Series, fmtX(k.X), k.Rep)
	switch k.Stage {
	case "", "curve", "sweep":
		return s
	}
	return k.Stage + ": " + s
}

func fmtX(x float64) string { b, _ := json.Marshal(x); return string(b) }

// missingShown is how many missing cells MissingLine names before it counts the rest.
const missingShown = 5

// MissingLine returns one line naming the missing cells (the first few by CellName,
// then how many more): the Error of a result that lacks them.
func MissingLine(missing []eval.CellKey) string {
	var names []string
	for i, k := range missing {
		if i == missingShown {
			names = append(names, fmt.Sprintf("and %d more", len(missing)-missingShown))
			break
		}
		names = append(names, CellName(k))
	}
	return fmt.Sprintf("%d cells missing: %s", len(missing), strings.Join(names, "; "))
}

// journalOf is one run directory read for a merge, without taking its lock.
type journalOf struct {
	dir   string
	spec  *Spec
	meta  RunMeta
	cells []CellRecord
}

// readJournalDir reads spec.json, run.json and the whole lines of cells.jsonl of dir.
// A torn last line (a shard still writing, or killed mid-write) is left out; a bad line
// before the last is refused. A directory without spec.json is refused when must is set
// and returned as nil otherwise.
func readJournalDir(dir string, must bool) (*journalOf, error) {
	spec, err := readSpecFile(filepath.Join(dir, SpecFile))
	if err != nil {
		return nil, err
	}
	if spec == nil {
		if !must {
			return nil, nil
		}
		return nil, inputErr(fmt.Errorf("%s holds no %s: it is not a gitui run directory (give the --out of `gitui run --shard`)", dir, SpecFile))
	}
	j := &journalOf{dir: dir, spec: spec}
	j.meta, _ = readMeta(filepath.Join(dir, MetaFile))
	path := filepath.Join(dir, CellsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return nil, inputErr(fmt.Errorf("read the journal %s (%v): check its permissions", path, unwrapPath(err)))
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	for i, l := range lines {
		if !bytes.HasSuffix(l, []byte("\n")) {
			break // the torn last line of a shard still writing, or killed mid-write
		}
		var rec CellRecord
		if jerr := json.Unmarshal(l, &rec); jerr != nil || rec.Series == "" {
			if i == len(lines)-1 || i == len(lines)-2 && len(lines[i+1]) == 0 {
				break // a last line cut short: as OpenRunDir, its cell counts as not run
			}
			return nil, inputErr(fmt.Errorf("the journal %s is damaged at line %d: move it away and rerun that shard", path, i+1))
		}
		j.cells = append(j.cells, rec)
	}
	return j, nil
}

// sameCell reports whether two journal lines record the same outcome: everything but
// the seconds the cell took, which differ when a cell was computed twice.
func sameCell(a, b CellRecord) bool {
	a.Seconds, b.Seconds = 0, 0
	return reflect.DeepEqual(a, b)
}

// MergeReport says what MergeRunDirs combined.
type MergeReport struct {
	Shards     int // shard directories read
	Cells      int // distinct cells in the merged journal
	Added      int // cells appended to out's journal by this merge
	Duplicates int // cells found in more than one place (equal, kept once)
}

// MergeRunDirs unions the journals of the shard run directories into the run
// directory out and returns it opened (locked), ready for Start with RunOptions.NoRun
// to derive result.json.
//
//   - Every shard's spec.json, and out's when present, must be the same spec (compared
//     field by field); otherwise it is refused naming the two directories and the first
//     differing field.
//   - A cell found in several journals must record the same outcome (its seconds
//     aside); a conflict is refused naming the cell and both directories.
//   - Cells already in out's journal are kept; the others are appended in shard order
//     with one fsync.
//
// Every refusal is an *InputError and happens before anything is written. meta fills
// out's run.json when out is new; an empty DataDir takes the first shard's.
func MergeRunDirs(out string, shards []string, meta RunMeta) (*RunDir, MergeReport, error) {
	var rep MergeReport
	if len(shards) == 0 {
		return nil, rep, inputErr(fmt.Errorf("no shard directories to merge: give them after OUT, or put them under %s", filepath.Join(out, "shards")))
	}
	var js []*journalOf
	for _, s := range shards {
		if fi, err := os.Stat(s); err != nil || !fi.IsDir() {
			return nil, rep, inputErr(fmt.Errorf("%s is not a directory: give the --out directories of `gitui run --shard`", s))
		}
		j, err := readJournalDir(s, true)
		if err != nil {
			return nil, rep, err
		}
		if len(js) > 0 {
			if f := specDiff(js[0].spec, j.spec); f != "" {
				return nil, rep, inputErr(fmt.Errorf("%s and %s are runs of different specs (%s differs): merge only the shards of one run", js[0].dir, s, f))
			}
		}
		js = append(js, j)
	}
	spec := js[0].spec
	old, err := readJournalDir(out, false)
	if err != nil {
		return nil, rep, err
	}
	if old != nil {
		if f := specDiff(old.spec, spec); f != "" {
			return nil, rep, inputErr(fmt.Errorf("%s holds a run of another spec than the shards (%s differs): choose another OUT", out, f))
		}
	}
	type seen struct {
		rec CellRecord
		dir string
	}
	union := map[eval.CellKey]seen{}
	var add []CellRecord
	put := func(j *journalOf, appendNew bool) error {
		for _, r := range j.cells {
			k := r.cell().Key()
			if s, ok := union[k]; ok {
				if !sameCell(s.rec, r) {
					return inputErr(fmt.Errorf("cell %s differs between %s and %s (accuracy %v vs %v): they are not shards of one run; merge them into separate OUTs", CellName(k), s.dir, j.dir, s.rec.Acc, r.Acc))
				}
				rep.Duplicates++
				continue
			}
			union[k] = seen{r, j.dir}
			if appendNew {
				add = append(add, r)
			}
		}
		return nil
	}
	if old != nil {
		if err := put(old, false); err != nil {
			return nil, rep, err
		}
	}
	for _, j := range js {
		if err := put(j, true); err != nil {
			return nil, rep, err
		}
	}
	rep.Shards, rep.Cells, rep.Added = len(js), len(union), len(add)
	if meta.DataDir == "" {
		meta.DataDir = js[0].meta.DataDir
	}
	meta.Quick = meta.Quick || js[0].meta.Quick
	d, err := OpenRunDir(out, spec, meta)
	if err != nil {
		return nil, rep, err
	}
	if old == nil || old.meta.Started.IsZero() {
		if err := d.writeMeta(); err != nil {
			d.Close()
			return nil, rep, err
		}
	}
	if err := d.appendRecords(add); err != nil {
		d.Close()
		return nil, rep, err
	}
	return d, rep, nil
}

// appendRecords journals recs with one write and one fsync, skipping any cell the
// journal already holds (a merge run twice, or a journal grown since it was read).
func (d *RunDir) appendRecords(recs []CellRecord) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	have := make(map[eval.CellKey]bool, len(d.cells))
	for _, r := range d.cells {
		have[r.cell().Key()] = true
	}
	var buf bytes.Buffer
	var kept []CellRecord
	for _, r := range recs {
		if have[r.cell().Key()] {
			continue
		}
		b, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("encode cell %s: %w", CellName(r.cell().Key()), err)
		}
		buf.Write(append(b, '\n'))
		kept = append(kept, r)
	}
	if len(kept) == 0 {
		return nil
	}
	if _, err := d.journal.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write the journal %s: %w", d.journal.Name(), err)
	}
	if err := d.journal.Sync(); err != nil {
		return fmt.Errorf("sync the journal %s: %w", d.journal.Name(), err)
	}
	d.cells = append(d.cells, kept...)
	d.added += len(kept)
	return nil
}

// MarkComplete records in run.json that every cell this run directory is meant to hold
// (all of them, or all of its shard's) is journaled: `gitui slurm --resubmit` resubmits
// only the array indices whose shard is not complete.
func (d *RunDir) MarkComplete() error {
	d.Meta.Complete = true
	return d.writeMeta()
}

// ShardComplete reports whether the run directory dir holds a shard marked complete
// (MarkComplete): false when it is absent, unreadable or unfinished.
func ShardComplete(dir string) bool {
	m, err := readMeta(filepath.Join(dir, MetaFile))
	return err == nil && m.Complete
}

// ReadRunMeta returns the run.json of the run directory dir (zero when absent or unreadable).
func ReadRunMeta(dir string) RunMeta {
	m, _ := readMeta(filepath.Join(dir, MetaFile))
	return m
}

package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	"gitui/core/eval"
	"gitui/model"
)

// journalOf is one run directory read for a merge, without taking its lock.
type journalOf struct {
	dir     string
	spec    *model.Spec
	meta    RunMeta
	cells   []CellRecord
	inputs  *model.Inputs // the journal's inputs line, nil when it has none
	notices []string      // one line per damaged line left out, or an unverified journal
}

// readJournalDir reads spec.json, run.json and the verified cells of cells.jsonl of dir
// (ReadJournal), without taking its lock or writing to it. A spec.json that no longer
// hashes to the journal's header is refused naming the changed keys; a damaged line is
// left out with a notice (its cell counts as not run: `gitui resume` of that shard moves
// it away and runs it again); a torn last line is left out. A directory without
// spec.json is refused when must is set and returned as nil otherwise.
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
	jo := &journalOf{dir: dir, spec: spec}
	jo.meta, _ = readMeta(filepath.Join(dir, MetaFile))
	j, err := ReadJournal(filepath.Join(dir, CellsFile))
	if err != nil {
		return nil, err
	}
	if err := j.CheckSpec(spec, dir); err != nil {
		return nil, err
	}
	if j.Legacy {
		jo.notices = append(jo.notices, fmt.Sprintf("%s is in the earlier journal format (no spec hash, no checksums): its %d cells are read unverified", j.Path, len(j.Cells)))
	}
	for _, l := range j.Damaged {
		jo.notices = append(jo.notices, fmt.Sprintf("%s line %d failed its check (%s): left out; `gitui resume %s` moves it away and runs its cell again", j.Path, l.Line, l.Reason, dir))
	}
	jo.cells, jo.inputs = j.Cells, j.Inputs
	return jo, nil
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
	// Notices are one line each about the shards' journals: damaged lines left out
	// (their cells are missing from the merge), journals of the earlier format.
	Notices []string
}

// MergeRunDirs unions the journals of the shard run directories into the run
// directory out and returns it opened (locked), ready for Start with RunOptions.NoRun
// to derive result.json.
//
//   - Every shard's spec.json, and out's when present, must be the same spec (compared
//     field by field); otherwise it is refused naming the two directories and the first
//     differing field. Each journal is checked as OpenRunDir checks it (ReadJournal):
//     a spec.json that no longer hashes to its journal's header is refused naming the
//     changed keys, and a damaged line is left out (MergeReport.Notices).
//   - A cell found in several journals must record the same outcome (its seconds
//     aside); a conflict is refused naming the cell and both directories.
//   - Every journal that records its inputs (the fingerprint of its data, BindInputs)
//     must record the same; shards computed on different data are refused naming the
//     two directories and the file or data that differs.
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
				return nil, rep, inputErr(fmt.Errorf("%s and %s are runs of different specs (%s): merge only the shards of one run", js[0].dir, s, f))
			}
		}
		js = append(js, j)
		rep.Notices = append(rep.Notices, j.notices...)
	}
	spec := js[0].spec
	old, err := readJournalDir(out, false)
	if err != nil {
		return nil, rep, err
	}
	if old != nil {
		if f := specDiff(old.spec, spec); f != "" {
			return nil, rep, inputErr(fmt.Errorf("%s holds a run of another spec than the shards (%s): choose another OUT", out, f))
		}
	}
	all := js
	if old != nil {
		all = append([]*journalOf{old}, js...)
	}
	inputs, err := sameInputsOrRefuse(all)
	if err != nil {
		return nil, rep, err
	}
	type seen struct {
		rec CellRecord
		dir string
	}
	union := map[eval.CellKey]seen{}
	var add []CellRecord
	put := func(j *journalOf, appendNew bool) error {
		for _, r := range j.cells {
			k := r.Key()
			if s, ok := union[k]; ok {
				if !sameCell(s.rec, r) {
					return inputErr(fmt.Errorf("cell %s differs between %s and %s (accuracy %v vs %v): they are not shards of one run; merge them into separate OUTs", model.CellName(k), s.dir, j.dir, s.rec.Acc, r.Acc))
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
	if inputs != nil && d.Inputs() == nil {
		if _, err := d.BindInputs(*inputs); err != nil {
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
		have[r.Key()] = true
	}
	var buf bytes.Buffer
	var kept []CellRecord
	for _, r := range recs {
		if have[r.Key()] {
			continue
		}
		b, err := EncodeCell(r)
		if err != nil {
			return fmt.Errorf("encode cell %s: %w", model.CellName(r.Key()), err)
		}
		buf.Write(b)
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

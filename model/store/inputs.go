package store

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"gitui/model"
)

// inputsKind marks the inputs line of a journal: {"kind":"inputs","inputs":{...}}, sealed
// like every line. It is written once, after the data is loaded and before the first
// cell or job, and read back by ReadJournal into Journal.Inputs.
const (
	inputsKind   = "inputs"
	inputsPrefix = `{"kind":"inputs",`
)

// inputsRecord is the inputs line of a journal.
type inputsRecord struct {
	Kind   string       `json:"kind"`
	Inputs model.Inputs `json:"inputs"`
}

// encodeInputs returns the sealed inputs line of in, ending in '\n'.
func encodeInputs(in model.Inputs) ([]byte, error) {
	b, err := json.Marshal(inputsRecord{Kind: inputsKind, Inputs: in})
	if err != nil {
		return nil, fmt.Errorf("encode the inputs line: %w", err)
	}
	return sealLine(b), nil
}

// inputsRefusal is the error of a journal whose recorded inputs are not cur's: an
// *model.InputError (exit 2) naming what changed and the two ways on.
func inputsRefusal(dir, what, changed, evidence string) error {
	return inputErr(fmt.Errorf("%s changed since the %s in %s started (%s): restore it (or pass the %s's data with --data), or start a new %s in another DIR",
		changed, what, dir, evidence, what, what))
}

// legacyInputsNotice is the run log's line for a journal of cells written before gitui
// recorded its inputs: they are kept, unchecked.
func legacyInputsNotice(path string, n int, what string) string {
	return fmt.Sprintf("%s records no fingerprint of its data (an earlier gitui): its %d %s are kept unchecked; the data of this run is recorded from now on", path, n, what)
}

// BindInputs binds the run directory to the inputs its cells are computed on (the
// engine calls it once the data is loaded, before any cell runs; see
// engine.InputBinder). A journal that records other inputs is refused with an
// *model.InputError naming the changed file or data ("data.csv changed (SHA-256 3f2a… →
// 9b41…) since the run in r started: restore it, …"), before a cell of the other data
// is mixed in. A journal without them gets an inputs line (fsynced); when it already
// holds cells (a journal of an earlier gitui) notice says they are kept unchecked.
func (d *RunDir) BindInputs(in model.Inputs) (notice string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.inputs != nil {
		if ch, ev := model.InputChange(*d.inputs, in); ch != "" {
			return "", inputsRefusal(d.Path, "run", ch, ev)
		}
		return "", nil
	}
	if d.journal == nil {
		return "", fmt.Errorf("bind the inputs of %s: the journal is closed", d.Path)
	}
	if len(d.cells) > 0 {
		notice = legacyInputsNotice(filepath.Join(d.Path, CellsFile), len(d.cells), "cells")
	}
	b, err := encodeInputs(in)
	if err != nil {
		return "", err
	}
	if _, err := d.journal.Write(b); err != nil {
		return "", fmt.Errorf("write the journal %s: %w", d.journal.Name(), err)
	}
	if err := d.journal.Sync(); err != nil {
		return "", fmt.Errorf("sync the journal %s: %w", d.journal.Name(), err)
	}
	d.inputs = &in
	return notice, nil
}

// Inputs returns the inputs the run directory is bound to (its journal's inputs line,
// or what BindInputs recorded), or nil.
func (d *RunDir) Inputs() *model.Inputs {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.inputs
}

// BindInputs binds the study's trials journal to the inputs its jobs are computed on
// (the study's training pool), as RunDir.BindInputs does for cells: recorded inputs
// that differ are an *model.InputError naming what changed; a journal without them gets
// an inputs line. Several writers (the tasks of a Slurm array, JoinTrials) may bind at
// once: each appends its line only when the journal holds none, reads the journal back
// and compares against the first inputs line in it, so a task on other data is refused
// whichever task wrote first.
func (t *Trials) BindInputs(in model.Inputs) (notice string, err error) {
	j, err := ReadTrials(t.Path)
	if err != nil {
		return "", err
	}
	dir := filepath.Dir(t.Path)
	if j.Inputs == nil {
		if len(j.Trials) > 0 {
			notice = legacyInputsNotice(t.Path, len(j.Trials), "jobs")
		}
		b, err := encodeInputs(in)
		if err != nil {
			return "", err
		}
		if _, err := t.f.Write(b); err != nil {
			return "", fmt.Errorf("write %s: %w", t.Path, err)
		}
		if err := t.f.Sync(); err != nil {
			return "", fmt.Errorf("sync %s: %w", t.Path, err)
		}
		if j, err = ReadTrials(t.Path); err != nil {
			return "", err
		}
		if j.Inputs == nil {
			return "", fmt.Errorf("%s: the inputs line just written does not read back: check the file system", t.Path)
		}
	}
	if ch, ev := model.InputChange(*j.Inputs, in); ch != "" {
		return "", inputsRefusal(dir, "study", ch, ev)
	}
	return notice, nil
}

// sameInputsOrRefuse checks that the shards of a merge were computed on the same
// inputs: every shard that records them against the first that does. It returns those
// inputs (nil when no shard records them).
func sameInputsOrRefuse(js []*journalOf) (*model.Inputs, error) {
	var first *journalOf
	for _, j := range js {
		if j.inputs == nil {
			continue
		}
		if first == nil {
			first = j
			continue
		}
		if ch, ev := model.InputChange(*first.inputs, *j.inputs); ch != "" {
			return nil, inputErr(fmt.Errorf("%s and %s were computed on different data (%s differs: %s): merge only the shards of one run on one copy of its data", first.dir, j.dir, ch, ev))
		}
	}
	if first == nil {
		return nil, nil
	}
	return first.inputs, nil
}

// isInputsLine reports whether a journal line (with or without its newline) is an
// inputs line, by its prefix (HasCells reads no more than that).
func isInputsLine(l []byte) bool {
	return len(l) >= len(inputsPrefix) && string(l[:len(inputsPrefix)]) == inputsPrefix
}

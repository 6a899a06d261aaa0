package study

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// Job is one scored job of a study's journal, as a reader sees it: trial Trial at rung
// Rung (training size N), its parameters, validation accuracy, the seconds it took and
// its error ("" when it was scored).
type Job struct {
	Trial      int
	Rung       int
	N          int
	Params     map[string]any
	Validation float64
	Seconds    float64
	Error      string
}

// ReadJobs returns the scored jobs of dir/trials.jsonl in journal order, as the
// journal holds them now: a study being searched by another goroutine or process can
// be read while it runs. Lines that fail their CRC-32C (a torn last line being
// written) are skipped; a journal of another schema is an error; a study with no
// journal yet has no jobs (no error).
func ReadJobs(dir string) ([]Job, error) {
	b, err := os.ReadFile(filepath.Join(dir, TrialsFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the study journal: %w", err)
	}
	var out []Job
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		raw := bytes.TrimSpace(sc.Bytes())
		var l line
		if len(raw) == 0 || json.Unmarshal(raw, &l) != nil || fmt.Sprintf("%08x", crc32.Checksum(l.Record, castagnoli)) != l.CRC {
			continue
		}
		var r jobRecord
		if json.Unmarshal(l.Record, &r) != nil {
			continue
		}
		switch r.Kind {
		case "header":
			var h header
			if json.Unmarshal(l.Record, &h) != nil || h.Schema != TrialsSchema {
				return nil, fmt.Errorf("%s: its header is not a %s journal: give a study directory of this gitui", filepath.Join(dir, TrialsFile), TrialsSchema)
			}
		case "job":
			out = append(out, Job{Trial: r.Trial, Rung: r.Rung, N: r.N, Params: r.Params, Validation: r.Validation, Seconds: r.Seconds, Error: r.Error})
		}
	}
	return out, nil
}

// ReadFile returns dir/study.json (written when a search finishes).
func ReadFile(dir string) (*File, error) {
	b, err := os.ReadFile(filepath.Join(dir, StudyFile))
	if err != nil {
		return nil, fmt.Errorf("read the study: %w", err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, StudyFile), err)
	}
	if f.Schema != StudySchema {
		return nil, fmt.Errorf("%s is not a %s file: give a study directory of this gitui", filepath.Join(dir, StudyFile), StudySchema)
	}
	return &f, nil
}

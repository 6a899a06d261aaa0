package study

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"

	"gitui/model"
)

// Journal file names and schemas.
const (
	TrialsFile   = "trials.jsonl"
	DamagedFile  = "trials.damaged.jsonl"
	SpecFile     = "spec.json"
	StudyFile    = "study.json"
	BestSpecFile = "best.spec.json"
	RefitDir     = "refit"
	SplitFile    = "split.json"
	LockFile     = "study.lock"
	TrialsSchema = "gitui.trials/v1"
	StudySchema  = "gitui.study/v1"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// line is one journal line: a record and the CRC-32C of its exact bytes (hex).
type line struct {
	CRC    string          `json:"crc32c"`
	Record json.RawMessage `json:"record"`
}

// header is the first record: the schema and the SHA-256 of the canonical spec.
type header struct {
	Kind   string `json:"kind"` // "header"
	Schema string `json:"schema"`
	Spec   string `json:"spec_sha256"`
}

// jobRecord is a scored job: trial Trial at rung Rung (training size N), its
// parameters, validation accuracy, seconds, and an error when it failed.
type jobRecord struct {
	Kind       string         `json:"kind"` // "job"
	Trial      int            `json:"trial"`
	Rung       int            `json:"rung"`
	N          int            `json:"n"`
	Params     map[string]any `json:"params"`
	Validation float64        `json:"validation"`
	Seconds    float64        `json:"seconds"`
	Error      string         `json:"error,omitempty"`
}

// SpecHash returns the hex SHA-256 of the spec's canonical JSON (encoding/json of the
// spec after Defaults).
func SpecHash(s *model.Spec) string {
	c := s.Clone()
	c.Defaults()
	b, _ := json.Marshal(c)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func encodeLine(rec any) ([]byte, error) {
	r, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(line{CRC: fmt.Sprintf("%08x", crc32.Checksum(r, castagnoli)), Record: r})
	return append(b, '\n'), err
}

// journal is the open trials.jsonl of a study (one writer).
type journal struct {
	f    *os.File
	jobs map[[2]int]jobRecord // by (trial, rung)
}

// openJournal opens or creates dir/trials.jsonl for the spec with hash hash. Lines that
// fail their check (a torn last line after a kill, a flipped byte) are moved to
// trials.damaged.jsonl and their jobs run again; a header of another spec is refused.
func openJournal(dir, hash string) (*journal, error) {
	path := filepath.Join(dir, TrialsFile)
	j := &journal{jobs: map[[2]int]jobRecord{}}
	b, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read the study journal: %w", err)
	}
	var good, damaged [][]byte
	sawHeader := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		var l line
		if json.Unmarshal(raw, &l) != nil || fmt.Sprintf("%08x", crc32.Checksum(l.Record, castagnoli)) != l.CRC {
			damaged = append(damaged, append([]byte(nil), raw...))
			continue
		}
		var kind struct {
			Kind string `json:"kind"`
		}
		_ = json.Unmarshal(l.Record, &kind)
		switch kind.Kind {
		case "header":
			var h header
			if json.Unmarshal(l.Record, &h) != nil || h.Schema != TrialsSchema {
				return nil, fmt.Errorf("%s: its header is not a %s journal: give a study directory of this gitui", path, TrialsSchema)
			}
			if h.Spec != hash {
				return nil, fmt.Errorf("%s was written for another spec (hash %.12s, this one %.12s): resume with the study's own spec.json, or give a new --out", path, h.Spec, hash)
			}
			sawHeader = true
		case "job":
			var r jobRecord
			if json.Unmarshal(l.Record, &r) != nil {
				damaged = append(damaged, append([]byte(nil), raw...))
				continue
			}
			j.jobs[[2]int{r.Trial, r.Rung}] = r
		default:
			damaged = append(damaged, append([]byte(nil), raw...))
			continue
		}
		good = append(good, append([]byte(nil), raw...))
	}
	if len(damaged) > 0 {
		df, err := os.OpenFile(filepath.Join(dir, DamagedFile), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			return nil, fmt.Errorf("keep the damaged journal lines: %w", err)
		}
		for _, d := range damaged {
			df.Write(append(d, '\n'))
		}
		if err := df.Close(); err != nil {
			return nil, fmt.Errorf("keep the damaged journal lines: %w", err)
		}
	}
	if !sawHeader {
		good, j.jobs = nil, map[[2]int]jobRecord{}
		h, _ := encodeLine(header{Kind: "header", Schema: TrialsSchema, Spec: hash})
		good = append(good, bytes.TrimSpace(h))
	}
	if len(damaged) > 0 || !sawHeader {
		// Rewrite the journal with its good lines only (atomically), so that appends
		// never follow a torn line.
		tmp := path + ".tmp"
		var buf bytes.Buffer
		for _, g := range good {
			buf.Write(g)
			buf.WriteByte('\n')
		}
		if err := writeSync(tmp, buf.Bytes()); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, path); err != nil {
			return nil, fmt.Errorf("rewrite the study journal: %w", err)
		}
	}
	if j.f, err = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o644); err != nil {
		return nil, fmt.Errorf("open the study journal: %w", err)
	}
	return j, nil
}

// append journals a job durably (written and fsynced) before it returns.
func (j *journal) append(r jobRecord) error {
	r.Kind = "job"
	b, err := encodeLine(r)
	if err != nil {
		return fmt.Errorf("journal trial %d: %w", r.Trial, err)
	}
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("journal trial %d: %w", r.Trial, err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("journal trial %d: %w", r.Trial, err)
	}
	j.jobs[[2]int{r.Trial, r.Rung}] = r
	return nil
}

func (j *journal) close() error { return j.f.Close() }

// writeSync writes b to path and fsyncs it.
func writeSync(path string, b []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// writeAtomic writes b to path through a temporary file and a rename.
func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := writeSync(tmp, b); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

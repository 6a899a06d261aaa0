package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"gitui/internal/printable"
	"gitui/model"
)

// Files of a run directory (docs/runs.md, "The run directory in detail").
const (
	SpecFile        = "spec.json"           // the resolved spec, written first
	CellsFile       = "cells.jsonl"         // one line per finished cell, fsynced: the source of truth
	ResultFile      = "result.json"         // derived from the journal, written atomically
	PredictionsFile = "predictions.csv"     // per test sample, at each method's largest training size
	MetaFile        = "run.json"            // how the run was started (data directory, quick)
	LockFile        = "lock"                // "PID HOST" while a process runs in the directory
	DamagedFile     = "cells.damaged.jsonl" // journal lines that failed their check, moved out of cells.jsonl
	LogFile         = "log.txt"             // the TUI's run log (engine log lines, where the result went)
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
	// Label is a short name the user gave the run to tell it from its neighbours (the
	// Runs pane's n), "" if none. SetLabel writes it; a process still writing the run
	// keeps it.
	Label string `json:"label,omitempty"`
}

// MaxLabel is the longest run label SetLabel takes, in runes.
const MaxLabel = 60

// SetLabel gives the run directory dir the label (trimmed; "" removes it) in its
// run.json, written atomically with every other field kept. It refuses a label longer
// than MaxLabel runes or holding control characters, and a directory without run.json
// (a lone result.json, or a run not written by gitui): one line naming the fix.
func SetLabel(dir, label string) error {
	label = strings.TrimSpace(label)
	if n := utf8.RuneCountInString(label); n > MaxLabel {
		return fmt.Errorf("the label has %d characters: keep it to %d", n, MaxLabel)
	}
	if strings.IndexFunc(label, unicode.IsControl) >= 0 {
		return errors.New("the label holds a control character: type plain text")
	}
	path := filepath.Join(dir, MetaFile)
	m, err := readMeta(path)
	if err != nil {
		return fmt.Errorf("%s has no readable %s (%v): only a run directory takes a label", dir, MetaFile, unwrapPath(err))
	}
	m.Label = label
	b, _ := json.MarshalIndent(m, "", "  ")
	if err := model.WriteFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// unwrapPath drops the operation and path of a *PathError, which the message names already.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readSpecFile(path string) (*model.Spec, error) {
	b, err := model.ReadFileCapped(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, inputErr(fmt.Errorf("read %s: %w", path, err))
	}
	var s model.Spec
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, inputErr(fmt.Errorf("%s does not parse (%v): it was not written by this version of gitui; choose another --out", path, err))
	}
	s.Defaults()
	if err := s.Validate(); err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", path, err))
	}
	return &s, nil
}

// specDiff names the keys whose values differ between a and b with the old and the
// new value (SpecChanges), or returns "" when their JSON forms are equal.
func specDiff(a, b *model.Spec) string {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return strings.Join(specChanges(ja, jb), ", ")
}

func readMeta(path string) (RunMeta, error) {
	var m RunMeta
	b, err := model.ReadFileCapped(path)
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(printable.JSON(b), &m) // its label is shown
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

// ClaimRunDir creates a new, empty directory parent/name (name-2, name-3, ... when a
// run of the same second has it) and returns its path: the TUI's folder for a new run
// in its run store.
func ClaimRunDir(parent, name string) (string, error) {
	return ClaimDir(parent, name, "set XDG_DATA_HOME to a writable directory")
}

// ClaimDir is ClaimRunDir whose errors end in fix: the command line's runs/TIME-NAME
// when no --out is given ("give --out DIR"), so that runs started in one second, of
// specs of one name, get a folder each.
func ClaimDir(parent, name, fix string) (string, error) {
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("cannot create the run store %s (%w): %s", parent, err, fix)
	}
	for i := 1; i < 100; i++ {
		dir := filepath.Join(parent, name)
		if i > 1 {
			dir = fmt.Sprintf("%s-%d", dir, i)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("cannot create %s (%w): %s", dir, err, fix)
		}
	}
	return "", fmt.Errorf("%s: 99 runs named %s already: remove some, or %s", parent, name, fix)
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

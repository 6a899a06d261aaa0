package model

import (
	"fmt"
	"time"
)

// Inputs is the fingerprint of what a run's cells (or a study's trials) were computed
// on, recorded once in its journal (docs/runs.md) and compared on every resume, re-run
// into the same directory, join and merge: the data as loaded and the files a user
// brings. A spec fixes everything else (generated data, generated groups, seeds), and
// the journal's header already binds the spec.
type Inputs struct {
	// Data is the loaded data: the training pool and the test set (a study's: its pool).
	Data DataPrint `json:"data"`
	// Files are the files the spec names (data.path, data.test_path, group.path,
	// group.generators_path), each by size, modification time and SHA-256.
	Files []FilePrint `json:"files,omitempty"`
}

// DataPrint fingerprints loaded data: where it came from (for messages only: a moved
// directory of the same content matches) and the SHA-256 of its samples
// (data.Fingerprint), which decides.
type DataPrint struct {
	Source string `json:"source"` // "mnist from /data", "file data.csv"
	Pool   int    `json:"pool"`
	Test   int    `json:"test"`
	SHA256 string `json:"sha256"`
}

// FilePrint fingerprints one file a spec names: its role (the spec key naming it), its
// path as given, size, modification time and the SHA-256 of its bytes, which decides.
type FilePrint struct {
	Role    string    `json:"role"`
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	SHA256  string    `json:"sha256"`
}

// InputChange says how cur differs from the recorded inputs was: what changed, named
// as the user knows it ("data.path data.csv", "the data mnist from /d1, now from
// /d2"), and the evidence ("SHA-256 3f2a1b0c… → 9b41d2e7…, 23731 → 23773 bytes"). what
// is "" when they match: every file of the same role has the same SHA-256 and the data
// the same samples' fingerprint. Paths, sizes and times never decide, so a moved
// directory of the same content matches.
func InputChange(was, cur Inputs) (what, evidence string) {
	for _, w := range was.Files {
		for _, c := range cur.Files {
			if c.Role == w.Role && c.SHA256 != w.SHA256 {
				name := w.Path
				if c.Path != w.Path {
					name += " (now " + c.Path + ")"
				}
				return w.Role + " " + name, fmt.Sprintf("SHA-256 %s → %s, %d → %d bytes", short(w.SHA256), short(c.SHA256), w.Size, c.Size)
			}
		}
	}
	if was.Data.SHA256 == cur.Data.SHA256 {
		return "", ""
	}
	what = "the data " + was.Data.Source
	if cur.Data.Source != was.Data.Source {
		what += ", now " + cur.Data.Source + ","
	}
	return what, fmt.Sprintf("its samples' SHA-256 %s → %s; pool %d → %d, test %d → %d",
		short(was.Data.SHA256), short(cur.Data.SHA256), was.Data.Pool, cur.Data.Pool, was.Data.Test, cur.Data.Test)
}

// short returns the first 8 hex digits of a digest and an ellipsis.
func short(h string) string {
	if len(h) <= 8 {
		return h
	}
	return h[:8] + "…"
}

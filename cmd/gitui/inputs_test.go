package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model/store"
)

// The journal is bound to its data (docs/runs.md, "The inputs line"): a resume, merge
// or study resume on other data than the journal's, which would mix one number from two
// data sets, is refused with exit 2 in one line naming what changed; a moved directory
// of the same content is accepted; a journal of an earlier gitui (no inputs line) is
// resumed with a one-line notice.

// writeBlobCSV writes n samples of 3 Gaussian blobs in 4 dimensions (label last), from
// seed: two seeds give two data sets of the same shape and different values.
func writeBlobCSV(t *testing.T, path string, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	var b strings.Builder
	for i := range n {
		for k := range 4 {
			c := 0.0
			if k == i%3 {
				c = 1.2
			}
			fmt.Fprintf(&b, "%.6f,", c+rng.NormFloat64())
		}
		fmt.Fprintf(&b, "%d\n", i%3)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeFakeMNIST writes dir/mnist/{train,t10k}-{images,labels} IDX files (gzipped) of
// 8×8 "digits" of two classes drawn from seed.
func writeFakeMNIST(t *testing.T, dir string, seed uint64) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "mnist"), 0o755)
	rng := rand.New(rand.NewPCG(seed, 3))
	be := func(v ...uint32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.BigEndian.PutUint32(b[4*i:], x)
		}
		return b
	}
	write := func(name string, b []byte) {
		var buf bytes.Buffer
		w := gzip.NewWriter(&buf)
		w.Write(b)
		w.Close()
		if err := os.WriteFile(filepath.Join(dir, "mnist", name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []struct {
		prefix string
		n      int
	}{{"train", 300}, {"t10k", 100}} {
		img := be(0x803, uint32(s.n), 28, 28)
		lab := be(0x801, uint32(s.n))
		for i := range s.n {
			y := i % 2
			for p := range 28 * 28 {
				v := rng.IntN(60)
				if (p%28 < 14) == (y == 0) {
					v += 120
				}
				img = append(img, byte(v))
			}
			lab = append(lab, byte(y))
		}
		write(s.prefix+"-images-idx3-ubyte.gz", img)
		write(s.prefix+"-labels-idx1-ubyte.gz", lab)
	}
}

// cutJournal keeps the header, the inputs line and the first keep cells of DIR's
// journal, as a kill would leave it.
func cutJournal(t *testing.T, dir string, keep int) {
	t.Helper()
	p := filepath.Join(dir, store.CellsFile)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 2+keep || !strings.HasPrefix(lines[1], `{"kind":"inputs",`) {
		t.Fatalf("%s: want a header, an inputs line and %d cells, got %d lines", p, keep, len(lines))
	}
	os.WriteFile(p, []byte(strings.Join(lines[:2+keep], "")), 0o644)
}

// refused checks exit 2 with one error line on stderr, its last, holding every one of
// want, and no result written ("result:" lines).
func refused(t *testing.T, what string, code int, stderr string, want ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != exitUsage || strings.Count(stderr, "gitui: ") != 1 || !strings.HasPrefix(lines[len(lines)-1], "gitui: ") || strings.Contains(stderr, "\nresult: ") {
		t.Fatalf("%s: exit %d, stderr %q; want exit 2, one error line last and no result", what, code, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: stderr %q lacks %q", what, stderr, w)
		}
	}
}

func TestResumeRefusesChangedDataFile(t *testing.T) {
	dir := t.TempDir()
	a, b, csv := filepath.Join(dir, "A.csv"), filepath.Join(dir, "B.csv"), filepath.Join(dir, "data.csv")
	writeBlobCSV(t, a, 600, 1)
	writeBlobCSV(t, b, 600, 2)
	spec := filepath.Join(dir, "dc.json")
	os.WriteFile(spec, fmt.Appendf(nil, `{"name": "dc", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "file", "path": %q, "test_size": 200},
  "methods": [{"features": "raw"}], "sizes": [20, 50, 100, 200], "repeats": 5}`, csv), 0o644)
	cp := func(src string) {
		raw, _ := os.ReadFile(src)
		os.WriteFile(csv, raw, 0o644)
	}
	cp(a)
	r := filepath.Join(dir, "r")
	if code, _, stderr := gitui(t, "run", spec, "--out", r); code != 0 {
		t.Fatalf("run on A: exit %d: %s", code, stderr)
	}
	cutJournal(t, r, 10)
	cp(b)
	code, _, stderr := gitui(t, "resume", r)
	refused(t, "resume on B", code, stderr, "data.path "+csv+" changed since the run", "SHA-256", "restore it")
	code, _, stderr = gitui(t, "run", spec, "--out", r) // the natural re-run after fixing the file
	refused(t, "re-run on B into the same --out", code, stderr, "data.path "+csv+" changed since the run")

	// Restored, the run resumes and ends as a run on A alone.
	cp(a)
	if code, _, stderr := gitui(t, "resume", r); code != 0 {
		t.Fatalf("resume on A restored: exit %d: %s", code, stderr)
	}
	ref := filepath.Join(dir, "ref")
	if code, _, stderr := gitui(t, "run", spec, "--out", ref); code != 0 {
		t.Fatalf("run on A: exit %d: %s", code, stderr)
	}
	sameResult(t, "resumed on the restored file", ref, r)

}

func TestResumeRefusesOtherDataDir(t *testing.T) {
	dir := t.TempDir()
	d1, d2 := filepath.Join(dir, "d1"), filepath.Join(dir, "d2")
	writeFakeMNIST(t, d1, 1)
	writeFakeMNIST(t, d2, 2)
	spec := filepath.Join(dir, "m.json")
	os.WriteFile(spec, []byte(`{"name": "m", "protocol": "sample-complexity", "seed": 2,
  "data": {"name": "mnist", "pool": 200, "test_size": 80},
  "methods": [{"features": "raw"}], "sizes": [20, 60], "repeats": 4}`), 0o644)
	r := filepath.Join(dir, "r")
	if code, _, stderr := gitui(t, "run", spec, "--data", d1, "--out", r); code != 0 {
		t.Fatalf("run on d1: exit %d: %s", code, stderr)
	}
	cutJournal(t, r, 3)
	code, _, stderr := gitui(t, "resume", r, "--data", d2)
	refused(t, "resume --data d2", code, stderr, "the data mnist from "+d1+", now mnist from "+d2+", changed since the", "--data")
	// A copy of d1 elsewhere (a moved directory of the same content) is accepted: the
	// path does not decide.
	copyDir := filepath.Join(dir, "elsewhere")
	writeFakeMNIST(t, copyDir, 1)
	if code, _, stderr := gitui(t, "resume", r, "--data", copyDir); code != 0 {
		t.Fatalf("resume --data on a copy of d1: exit %d: %s", code, stderr)
	}
	ref := filepath.Join(dir, "ref")
	if code, _, stderr := gitui(t, "run", spec, "--data", d1, "--out", ref); code != 0 {
		t.Fatalf("run on d1: exit %d: %s", code, stderr)
	}
	sameResult(t, "resumed on a copy of the data", ref, r)

	// Shards run on different copies of the data are not merged.
	s0, s1 := filepath.Join(dir, "s0"), filepath.Join(dir, "s1")
	if code, _, stderr := gitui(t, "run", spec, "--data", d1, "--shard", "0/2", "--out", s0); code != 0 {
		t.Fatalf("shard 0: exit %d: %s", code, stderr)
	}
	if code, _, stderr := gitui(t, "run", spec, "--data", d2, "--shard", "1/2", "--out", s1); code != 0 {
		t.Fatalf("shard 1: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "merged")
	code, _, stderr = gitui(t, "merge", out, s0, s1, "--data", d1)
	refused(t, "merge of shards on d1 and d2", code, stderr, s0+" and "+s1+" were computed on different data")
	if _, err := os.Stat(filepath.Join(out, store.CellsFile)); err == nil {
		t.Errorf("the refused merge wrote %s", out)
	}
}

func TestStudyResumeRefusesOtherData(t *testing.T) {
	dir := t.TempDir()
	d1, d2 := filepath.Join(dir, "d1"), filepath.Join(dir, "d2")
	writeFakeMNIST(t, d1, 1)
	writeFakeMNIST(t, d2, 2)
	spec := filepath.Join(dir, "t.json")
	os.WriteFile(spec, []byte(`{"name": "t", "protocol": "sample-complexity", "seed": 2,
  "data": {"name": "mnist", "pool": 240},
  "methods": [{"kernel": "rbf", "learner": "svm", "gamma": 1, "c": 1}], "sizes": [180],
  "tune": {"params": {"methods.0.gamma": "log:0.001..10"}, "trials": 6, "validation": 60, "min_n": 20, "max_n": 180}}`), 0o644)
	s := filepath.Join(dir, "s")
	if code, _, stderr := gitui(t, "tune", spec, "--data", d1, "--out", s); code != 0 {
		t.Fatalf("tune on d1: exit %d: %s", code, stderr)
	}
	p := filepath.Join(s, "trials.jsonl")
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[1], `{"kind":"inputs",`) {
		t.Fatalf("%s: want a header, an inputs line and jobs: %d lines", p, len(lines))
	}
	os.WriteFile(p, []byte(strings.Join(lines[:4], "")), 0o644) // two jobs kept, as a kill leaves them
	code, _, stderr := gitui(t, "resume", s, "--data", d2)
	refused(t, "study resume --data d2", code, stderr, "the data mnist from "+d1+", now mnist from "+d2+", changed since the", "study")
	if code, _, stderr := gitui(t, "resume", s, "--data", d1); code != 0 {
		t.Fatalf("study resume --data d1: exit %d: %s", code, stderr)
	}
}

// A journal written before gitui recorded its inputs (no inputs line) is resumed, with
// one notice saying its cells are kept unchecked; the inputs are recorded from then on.
func TestResumeOfJournalWithoutInputs(t *testing.T) {
	dir := t.TempDir()
	r := filepath.Join(dir, "r")
	if code, _, stderr := gitui(t, append(journalArgs, "--out", r)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	p := filepath.Join(r, store.CellsFile)
	b, _ := os.ReadFile(p)
	lines := strings.SplitAfter(string(b), "\n")
	os.WriteFile(p, []byte(lines[0]+strings.Join(lines[2:12], "")), 0o644) // no inputs line, 10 cells
	code, _, stderr := gitui(t, "resume", r)
	if code != 0 || strings.Count(stderr, "records no fingerprint of its data") != 1 {
		t.Fatalf("resume: exit %d, stderr %q; want 0 and one notice", code, stderr)
	}
	b, _ = os.ReadFile(p)
	if strings.Count(string(b), `{"kind":"inputs",`) != 1 {
		t.Errorf("the resumed journal records its inputs %d times, want once", strings.Count(string(b), `{"kind":"inputs",`))
	}
}

package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// TestSealLine: a sealed line is the record's JSON with a last field crc32c holding the
// CRC-32C of that JSON (checked against hash/crc32 by hand); unseal gives the JSON back,
// and any changed byte fails the check.
func TestSealLine(t *testing.T) {
	body := []byte(`{"stage":"curve","series":"raw RLS","x":20,"rep":1,"acc":0.75}`)
	line := sealLine(body)
	want := fmt.Sprintf(`{"stage":"curve","series":"raw RLS","x":20,"rep":1,"acc":0.75,"crc32c":"%08x"}`+"\n", crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	if string(line) != want {
		t.Fatalf("sealed line\n%s\nwant\n%s", line, want)
	}
	got, sealed, ok := unseal(line[:len(line)-1])
	if !sealed || !ok || !bytes.Equal(got, body) {
		t.Fatalf("unseal: %s sealed %v ok %v", got, sealed, ok)
	}
	for i := 0; i < len(line)-1; i++ {
		bad := bytes.Clone(line[:len(line)-1])
		bad[i] ^= 0x04
		if _, _, ok := unseal(bad); ok {
			t.Errorf("a flip at byte %d (%q) passes the check", i, line[i])
		}
	}
	if _, sealed, _ := unseal(body); sealed {
		t.Error("a line without crc32c counts as sealed")
	}
}

func appendCells(t *testing.T, d *RunDir, n int) []eval.Cell {
	t.Helper()
	var cs []eval.Cell
	for i := range n {
		c := eval.Cell{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: i}, Size: 20, Acc: 0.5 + float64(i)/100, BAcc: 0.5}
		if err := d.Append(c); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// TestDamagedLineMoved: a cell line whose bytes changed (still valid JSON) fails its
// checksum; reopening moves it to cells.damaged.jsonl with its line number, keeps the
// other cells, and leaves a journal that reads clean.
func TestDamagedLineMoved(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	appendCells(t, d, 3)
	d.Close()
	path := filepath.Join(dir, CellsFile)
	b, _ := os.ReadFile(path)
	lines := bytes.SplitAfter(b, []byte("\n"))
	if !bytes.Contains(lines[2], []byte(`"acc":0.51,`)) {
		t.Fatalf("line 3: %s", lines[2])
	}
	lines[2] = bytes.Replace(lines[2], []byte(`"acc":0.51,`), []byte(`"acc":0.91,`), 1)
	os.WriteFile(path, bytes.Join(lines, nil), 0o644)
	d, err = OpenRunDir(dir, nil, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	done := d.Done()
	if _, ok := done[eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: 1}]; ok || len(done) != 2 {
		t.Errorf("reopened with %d cells %v, want draws 0 and 2", len(done), done)
	}
	if len(d.Notices) != 1 || !strings.Contains(d.Notices[0], "line 3 failed its check (checksum mismatch): moved to "+DamagedFile) {
		t.Errorf("notices %q", d.Notices)
	}
	moved, _ := os.ReadFile(filepath.Join(dir, DamagedFile))
	var rec damagedRecord
	if err := json.Unmarshal(moved, &rec); err != nil || rec.Line != 3 || !strings.Contains(rec.Text, `"acc":0.91,`) {
		t.Errorf("%s: %s (%v)", DamagedFile, moved, err)
	}
	j, err := ReadJournal(path)
	if err != nil || len(j.Damaged) != 0 || len(j.Cells) != 2 || j.Header == nil {
		t.Errorf("journal after the move: %+v, %v", j, err)
	}
}

// TestSpecChangedRefused: a spec.json edited after the run started no longer hashes to
// the journal's header: reopening is refused, naming the changed keys with their values.
func TestSpecChangedRefused(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	appendCells(t, d, 1)
	d.Close()
	s := journalSpec()
	s.Seed, s.Repeats = 7, 4
	b, _ := json.MarshalIndent(s, "", "  ")
	os.WriteFile(filepath.Join(dir, SpecFile), b, 0o644)
	_, err = OpenRunDir(dir, nil, RunMeta{})
	var ie *model.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "changed since the run started (repeats 3 → 4, seed 1 → 7): restore it, or start a new run in another DIR") {
		t.Fatalf("edited spec.json: %v", err)
	}
	// A spec.json rewritten with other white space is the same spec.
	s.Seed, s.Repeats = 1, 3
	b, _ = json.Marshal(s)
	os.WriteFile(filepath.Join(dir, SpecFile), append(b, '\n', '\n'), 0o644)
	if d, err = OpenRunDir(dir, nil, RunMeta{}); err != nil {
		t.Fatalf("restored spec.json: %v", err)
	}
	d.Close()
}

// TestLegacyJournalRead: a journal of the earlier format (cell lines, no header, no
// checksums) is still read, with one notice; the cells appended to it are sealed.
func TestLegacyJournalRead(t *testing.T) {
	dir := t.TempDir()
	b, _ := json.MarshalIndent(journalSpec(), "", "  ")
	os.WriteFile(filepath.Join(dir, SpecFile), b, 0o644)
	var lines []byte
	for rep := range 2 {
		l, _ := json.Marshal(CellRecord{Stage: "curve", Series: "raw RLS", X: 20, Rep: rep, Size: 20, Acc: 0.6})
		lines = append(append(lines, l...), '\n')
	}
	os.WriteFile(filepath.Join(dir, CellsFile), lines, 0o644)
	d, err := OpenRunDir(dir, nil, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Resumed != 2 || len(d.Notices) != 1 || !strings.Contains(d.Notices[0], "earlier journal format") {
		t.Errorf("resumed %d, notices %q", d.Resumed, d.Notices)
	}
	if err := d.Append(eval.Cell{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: 2}, Size: 20, Acc: 0.7}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	j, err := ReadJournal(filepath.Join(dir, CellsFile))
	if err != nil || !j.Legacy || len(j.Cells) != 3 || len(j.Damaged) != 0 {
		t.Fatalf("legacy journal after an append: %+v %v", j, err)
	}
}

// TestMergeChecksShards: merge refuses a shard whose spec.json changed since it ran
// (naming the key), and leaves out a shard's damaged line with a notice, without
// writing into the shard.
func TestMergeChecksShards(t *testing.T) {
	base := t.TempDir()
	var shards []string
	for i := range 2 {
		dir := filepath.Join(base, fmt.Sprint(i))
		d, err := OpenRunDir(dir, journalSpec(), RunMeta{Shard: fmt.Sprintf("%d/2", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Append(eval.Cell{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: i}, Size: 20, Acc: 0.6}); err != nil {
			t.Fatal(err)
		}
		d.Close()
		shards = append(shards, dir)
	}
	j1 := filepath.Join(shards[1], CellsFile)
	b, _ := os.ReadFile(j1)
	damaged := bytes.Replace(b, []byte(`"acc":0.6,`), []byte(`"acc":0.9,`), 1)
	os.WriteFile(j1, damaged, 0o644)
	d, rep, err := MergeRunDirs(filepath.Join(base, "out"), shards, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if rep.Cells != 1 || len(rep.Notices) != 1 || !strings.Contains(rep.Notices[0], "line 2 failed its check") {
		t.Errorf("merge report %+v", rep)
	}
	if after, _ := os.ReadFile(j1); !bytes.Equal(after, damaged) {
		t.Error("merge wrote into a shard's journal")
	}
	s := journalSpec()
	s.Seed = 9
	sb, _ := json.Marshal(s)
	os.WriteFile(filepath.Join(shards[0], SpecFile), sb, 0o644)
	_, _, err = MergeRunDirs(filepath.Join(base, "out2"), shards, RunMeta{})
	if err == nil || !strings.Contains(err.Error(), "changed since the run started (seed 1 → 9)") {
		t.Errorf("merge of a shard with an edited spec.json: %v", err)
	}
}

// TestConcludeCancelledBeforeFirstCell: the rule both the CLI and the TUI follow. A run
// that ends with an error before its first cell leaves nothing; one that ends with an
// error after a cell keeps a partial result; a resumed run cancelled before a new cell
// keeps its earlier cells.
func TestConcludeCancelledBeforeFirstCell(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "run")
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Conclude(nil, errors.New("context canceled"), 0)
	if err != nil || !c.Discarded || c.Result != nil {
		t.Fatalf("conclusion %+v, %v", c, err)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 0 {
		t.Errorf("left behind %v", ents)
	}
	d, _ = OpenRunDir(dir, journalSpec(), RunMeta{})
	appendCells(t, d, 1)
	d.Close()
	d, _ = OpenRunDir(dir, nil, RunMeta{})
	c, err = d.Conclude(&eval.Outcome{}, errors.New("context canceled"), 0)
	if err != nil || c.Discarded || c.Status != "partial" {
		t.Fatalf("resumed, cancelled: %+v, %v", c, err)
	}
	if _, err := os.Stat(filepath.Join(dir, ResultFile)); err != nil {
		t.Error("no partial result")
	}
}

// TestDamagedHeaderRecovered: a header whose checksum fails but whose spec hash is still
// spec.json's is moved to cells.damaged.jsonl and written again, the cells kept; a
// header whose hash is damaged too is refused (ErrDamagedHeader).
func TestDamagedHeaderRecovered(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	appendCells(t, d, 2)
	d.Close()
	path := filepath.Join(dir, CellsFile)
	clean, _ := os.ReadFile(path)
	at := bytes.Index(clean, []byte(`"spec":{`)) + 9 // inside the spec copy
	b := bytes.Clone(clean)
	b[at] ^= 0x20
	os.WriteFile(path, b, 0o644)
	d, err = OpenRunDir(dir, nil, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if d.Resumed != 2 || len(d.Notices) != 1 || !strings.Contains(d.Notices[0], "header written again") {
		t.Errorf("resumed %d, notices %q", d.Resumed, d.Notices)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, clean) {
		t.Errorf("the header written again differs from the original:\n%s\n%s", after, clean)
	}
	at = bytes.Index(clean, []byte(`"spec_sha256":"`)) + 20 // inside the hash
	b = bytes.Clone(clean)
	b[at] ^= 0x01
	os.WriteFile(path, b, 0o644)
	if _, err := OpenRunDir(dir, nil, RunMeta{}); !errors.Is(err, ErrDamagedHeader) {
		t.Errorf("a header with a damaged hash: %v", err)
	}
}

// TestStatusOfHeaderOnlyJournal: a run directory whose journal holds only its header is
// empty; one more cell makes it interrupted.
func TestStatusOfHeaderOnlyJournal(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if st := Status(dir); st != "empty" {
		t.Errorf("header only: status %q, want empty", st)
	}
	d, _ = OpenRunDir(dir, nil, RunMeta{})
	appendCells(t, d, 1)
	d.Close()
	if st := Status(dir); st != "interrupted" {
		t.Errorf("one cell: status %q, want interrupted", st)
	}
}

package store

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

func journalSpec() *model.Spec {
	s := &model.Spec{Name: "j", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"}, Group: model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{20}, Repeats: 3, Seed: 1}
	s.Defaults()
	if err := s.Validate(); err != nil {
		panic(err)
	}
	return s
}

// TestJournalTornLine: a last line cut short by a kill is dropped (and cut off the file,
// so the next append starts a clean line); the cells before it are kept bit for bit;
// the journal is the header and three cell lines after one more append.
func TestJournalTornLine(t *testing.T) {
	dir := t.TempDir()
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	third := 1.0 / 3
	cells := []eval.Cell{
		{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: 0}, Size: 20, Acc: third, BAcc: 0.1 + 0.2},
		{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: 1}, Size: 20, Acc: 0.7, BAcc: 0.6, AccT: &third, BAccT: &third, Pred: []int{0, 1}},
	}
	for _, c := range cells {
		if err := d.Append(c); err != nil {
			t.Fatal(err)
		}
	}
	d.Close()
	f, _ := os.OpenFile(filepath.Join(dir, CellsFile), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"stage":"curve","series":"raw RLS","x":20,"rep":2,"si`)
	f.Close()
	d, err = OpenRunDir(dir, nil, RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	done := d.Done()
	if d.Resumed != 2 || len(done) != 2 {
		t.Fatalf("reopened with %d cells, want 2", d.Resumed)
	}
	for _, c := range cells {
		got := done[c.Key()]
		if got.Acc != c.Acc || got.BAcc != c.BAcc || (c.AccT != nil) != (got.AccT != nil) || len(got.Pred) != len(c.Pred) {
			t.Errorf("cell %+v read back as %+v", c, got)
		}
	}
	if err := d.Append(eval.Cell{CellKey: eval.CellKey{Stage: "curve", Series: "raw RLS", X: 20, Rep: 2}, Size: 20, Acc: 0.5}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	b, _ := os.ReadFile(filepath.Join(dir, CellsFile))
	if n := strings.Count(string(b), "\n"); n != 4 || strings.Contains(string(b), `"si`+"\n") {
		t.Errorf("journal after the torn line and one append:\n%s", b)
	}
	// A damaged header (line 1) is refused: no cell can be matched to the spec.
	os.WriteFile(filepath.Join(dir, CellsFile), append([]byte("garbage\n"), b[bytes.IndexByte(b, '\n')+1:]...), 0o644)
	if _, err := OpenRunDir(dir, nil, RunMeta{}); err == nil || !strings.Contains(err.Error(), "damaged at line 1") {
		t.Errorf("damaged journal: %v", err)
	}
}

// TestStaleLockTakenOver: a lock left by a process that is gone is taken over with a
// warning; a lock of a live process is refused.
func TestStaleLockTakenOver(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no `true` to make a dead PID:", err)
	}
	host, _ := os.Hostname()
	os.WriteFile(filepath.Join(dir, LockFile), []byte(strconv.Itoa(cmd.Process.Pid)+" "+host+"\n"), 0o644)
	d, err := OpenRunDir(dir, journalSpec(), RunMeta{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(d.Warning, "took over the lock") {
		t.Errorf("warning %q", d.Warning)
	}
	if _, err := OpenRunDir(dir, journalSpec(), RunMeta{}); err == nil || !strings.Contains(err.Error(), "in use by gitui process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("second open while locked: %v", err)
	}
	d.Close()
	if _, err := os.Stat(filepath.Join(dir, LockFile)); !os.IsNotExist(err) {
		t.Error("Close left the lock")
	}
}

// TestSafeName: spec names cannot leave the run store.
func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{"../../../escaped": "escaped", "a/b c": "a-b-c", "": "run", "..": "run", "mnist-cdf": "mnist-cdf", "\x1b[31mred": "31mred"} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkJournalAppend: the cost of journaling one cell (a JSON line, written and
// fsynced), the journal's whole cost per cell; cells/s is the most a run can journal.
func BenchmarkJournalAppend(b *testing.B) {
	d, err := OpenRunDir(b.TempDir(), journalSpec(), RunMeta{})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	c := eval.Cell{CellKey: eval.CellKey{Stage: "curve", Series: "CDF(25,25) RLS", X: 100}, Size: 100, Acc: 0.9871, BAcc: 0.9812, Seconds: 0.0123}
	b.ResetTimer()
	for i := range b.N {
		c.Rep = i
		if err := d.Append(c); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "cells/s")
}

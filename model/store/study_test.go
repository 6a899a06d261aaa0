package store

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gitui/model"
)

func studySpec() *model.Spec {
	s := journalSpec()
	s.Repeats = 1
	s.Tune = &model.TuneSpec{Params: map[string]string{"methods.0.lambda": "log:1e-6..1e-2"}}
	return s
}

// The trials journal is verified like cells.jsonl, by the same reader: a changed byte
// and a torn last line are moved to trials.damaged.jsonl on reopening (their jobs are
// gone from Jobs, so they run again), the rest is kept in order, and a changed spec
// is refused naming the key.
func TestTrialsJournalVerified(t *testing.T) {
	dir := t.TempDir()
	s := studySpec()
	tr, err := OpenTrials(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		if err := tr.Append(TrialRecord{Trial: i, N: 20, Params: map[string]any{"methods.0.lambda": 0.001}, Validation: 0.5 + float64(i)/10}); err != nil {
			t.Fatal(err)
		}
	}
	tr.Close()
	path := filepath.Join(dir, TrialsFile)
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var h journalHeader
	body, sealed, ok := unseal([]byte(lines[0]))
	if !sealed || !ok || json.Unmarshal(body, &h) != nil || h.Format != TrialsFormat || h.SpecSHA256 != hashHex(h.Spec) {
		t.Fatalf("header %s: want a sealed %s header with the spec and its hash", lines[0], TrialsFormat)
	}
	lines[2] = strings.Replace(lines[2], `"validation":0.6`, `"validation":0.9`, 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"+lines[4][:15]), 0o644)
	j, err := ReadTrials(path)
	if err != nil || len(j.Trials) != 3 || len(j.Damaged) != 1 || j.Damaged[0].Line != 3 || !j.Torn {
		t.Fatalf("ReadTrials: %v, %d jobs, damaged %v, torn %v; want 3 jobs, line 3 damaged, torn", err, len(j.Trials), j.Damaged, j.Torn)
	}
	tr, err = OpenTrials(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	tr.Close()
	if got := []int{tr.Jobs[0].Trial, tr.Jobs[1].Trial, tr.Jobs[2].Trial}; len(tr.Jobs) != 3 || got[1] != 2 || len(tr.Notices) != 2 {
		t.Fatalf("reopened: jobs %v, notices %q; want trials 0 2 3 and two notices", got, tr.Notices)
	}
	d, _ := os.ReadFile(filepath.Join(dir, TrialsDamagedFile))
	if strings.Count(string(d), "\n") != 2 {
		t.Fatalf("trials.damaged.jsonl: %q, want two lines", d)
	}
	if j, _ := ReadTrials(path); len(j.Damaged) != 0 || j.Torn || len(j.Trials) != 3 {
		t.Fatalf("after reopening the journal still has damaged %v, torn %v", j.Damaged, j.Torn)
	}
	s2 := studySpec()
	s2.Seed = 9
	_, err = OpenTrials(dir, s2)
	var ie *model.InputError
	if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), "seed 1 → 9") || !strings.Contains(err.Error(), "since the study started") {
		t.Fatalf("another spec: %v; want an input error naming seed 1 → 9", err)
	}
	// A cells journal is not a trials journal, nor the other way round.
	if j, err := ReadJournal(path); err != nil || !j.HeaderDamaged || len(j.Cells) != 0 {
		t.Fatalf("trials.jsonl read as cells: %v, header damaged %v", err, j.HeaderDamaged)
	}
}

// One claim per job however many processes race for it; a claim of a dead process on
// this host is taken over once however many race for it, and only while its job is not
// journaled (the process may have scored it just before it ended).
func TestClaimJobOnce(t *testing.T) {
	dir := t.TempDir()
	tr, err := OpenTrials(dir, studySpec())
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Append(TrialRecord{Trial: 5, Rung: 0, N: 20, Validation: 0.5}); err != nil {
		t.Fatal(err)
	}
	tr.Close()
	race := func(trial, rung int) int {
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := ClaimJob(dir, trial, rung)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					won++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return won
	}
	if won := race(3, 1); won != 1 {
		t.Fatalf("%d claims of one job succeeded, want 1", won)
	}
	if ClaimStale(dir, 3, 1) {
		t.Fatal("a claim of this live process reads as stale")
	}
	host, _ := os.Hostname()
	dead := []byte("999999999 " + host + " 2\n")
	os.WriteFile(filepath.Join(dir, ClaimsDir, "4.0"), dead, 0o644)
	if won := race(4, 0); won != 1 {
		t.Fatalf("a claim of a dead process was taken over %d times, want once", won)
	}
	os.WriteFile(filepath.Join(dir, ClaimsDir, "5.0"), dead, 0o644)
	if ok, err := ClaimJob(dir, 5, 0); ok || err != nil {
		t.Fatalf("the dead claim of a journaled job: %v %v, want it left (false, nil)", ok, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ClaimsDir, "5.0")); string(b) != string(dead) {
		t.Fatalf("the claim of the journaled job became %q, want it kept", b)
	}
}

// Load lists a study directory as one entry with its study.json and the refit's test
// accuracy; ReadStudy reads it back; StudyStatus follows the lock and the files.
func TestLoadListsStudies(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "20261127-150000-s-tune")
	os.MkdirAll(dir, 0o755)
	s := studySpec()
	b, _ := json.Marshal(s)
	os.WriteFile(filepath.Join(dir, SpecFile), b, 0o644)
	tr, err := OpenTrials(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	tr.Append(TrialRecord{Trial: 0, N: 20, Validation: 0.7})
	tr.Close()
	if got := StudyStatus(dir); got != "interrupted" {
		t.Fatalf("status %q, want interrupted", got)
	}
	unlock, err := LockStudy(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := StudyStatus(dir); got != "running" {
		t.Fatalf("status with a task holding the lock %q, want running", got)
	}
	if _, err := LockStudy(dir, false); err == nil {
		t.Fatal("an exclusive lock while a task holds the shared one was granted")
	}
	unlock()
	test := 0.91
	want := &Study{Schema: StudySchema, Sampler: "tpe", Pruner: "asha", Eta: 3, Rungs: []int{20},
		Trials: []TrialInfo{{ID: 0, Rungs: []RungInfo{{N: 20, Validation: 0.7}}, State: "complete"}},
		Best:   &BestInfo{Refit: Refit{Trial: 0, Validation: 0.7, ValidationN: 20, Test: &test}, N: 20, Compared: 1}}
	if err := WriteStudy(dir, want); err != nil {
		t.Fatal(err)
	}
	ents, errs := Load([]string{root}, true)
	if len(errs) != 0 || len(ents) != 1 {
		t.Fatalf("Load: %v, %d entries", errs, len(ents))
	}
	e := ents[0]
	if e.Study == nil || e.Study.Best == nil || e.Acc != 0.91 || e.Status != "done" || e.Name != "j (tune)" {
		t.Fatalf("entry: study %+v, acc %v, status %q, name %q", e.Study, e.Acc, e.Status, e.Name)
	}
	if got, err := ReadStudy(dir); err != nil || got.Best.Compared != 1 || len(got.Trials) != 1 {
		t.Fatalf("ReadStudy: %+v, %v", got, err)
	}
	if _, err := ReadStudy(root); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadStudy of a directory without study.json: %v, want os.ErrNotExist", err)
	}
}

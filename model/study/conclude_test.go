package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/model"
	"gitui/model/store"
)

// Start concludes a study in order: the search's lines, Searched, then each refit
// (rank 1, then rank 2 of tune.refit_top) started and concluded, and Done last with the
// test accuracy study.json records; the study is closed then (it opens again).
func TestStartConcludes(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	writeBlobs(t, filepath.Join(dir, "test.csv"), 300, 2)
	spec := blobSpec(dir, filepath.Join(dir, "test.csv"))
	spec.Tune.Trials, spec.Tune.RefitTop = 9, 2
	sdir := filepath.Join(dir, "s")
	st, err := Open(sdir, spec)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	var done Done
	for e := range Start(context.Background(), st, Options{}) {
		switch e := e.(type) {
		case Log:
			if len(kinds) == 0 || kinds[len(kinds)-1] != "log" {
				kinds = append(kinds, "log")
			}
		case Estimated:
			kinds = append(kinds, "estimated")
		case Searched:
			kinds = append(kinds, "searched")
			if !e.Found || e.Trials != 9 || e.RefitN != 600 {
				t.Errorf("Searched %+v: want a best of 9 trials, refit at 600", e)
			}
		case RefitStarted:
			kinds = append(kinds, "started")
		case RefitEvent:
		case Refitted:
			kinds = append(kinds, "refitted")
			if e.Test == nil || e.Err != nil || e.Conclusion.Status != "done" {
				t.Errorf("Refitted rank %d: test %v, err %v, status %s", e.Rank, e.Test, e.Err, e.Conclusion.Status)
			}
		case Done:
			kinds = append(kinds, "done")
			done = e
		}
	}
	want := "[estimated log searched started refitted started refitted done]"
	if got := fmtKinds(kinds); got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if done.Err != nil || done.Test == nil || done.BestSpec != filepath.Join(sdir, BestSpecFile) {
		t.Fatalf("Done %+v", done)
	}
	f, err := ReadFile(sdir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Best == nil || f.Best.Test == nil || *f.Best.Test != *done.Test || len(f.Top) != 2 {
		t.Fatalf("study.json best %+v, top %d; Done's test %v", f.Best, len(f.Top), *done.Test)
	}
	if _, err := os.Stat(filepath.Join(sdir, store.ResultFile)); err != nil {
		t.Errorf("the refit's result.json is not copied: %v", err)
	}
	again, err := Open(sdir, nil)
	if err != nil {
		t.Fatalf("the concluded study is not closed: %v", err)
	}
	again.Close()
}

// A study refused as bad input before a job was journaled (tune.refit_n above the pool)
// ends with Done.Discarded and leaves no directory; one cancelled after its first
// scored job ends with context.Canceled, its directory kept.
func TestStartRefusedAndCancelled(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	spec := blobSpec(dir, filepath.Join(dir, "test.csv"))
	spec.Tune.RefitN = 10000
	bad := filepath.Join(dir, "bad")
	st, err := Open(bad, spec)
	if err != nil {
		t.Fatal(err)
	}
	d := last(Start(context.Background(), st, Options{}))
	var ie *model.InputError
	if !d.Discarded || !errors.As(d.Err, &ie) {
		t.Fatalf("refused study: Done %+v", d)
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("the refused study left %s behind (%v)", bad, err)
	}
	spec.Tune.RefitN = 0
	st, err = Open(filepath.Join(dir, "cut"), spec)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d = Done{}
	for e := range Start(ctx, st, Options{}) {
		switch e := e.(type) {
		case Log:
			if strings.HasPrefix(e.Line, "trial ") {
				cancel() // after the first scored job
			}
		case Done:
			d = e
		}
	}
	if !errors.Is(d.Err, context.Canceled) || d.Discarded {
		t.Fatalf("cancelled study: Done %+v", d)
	}
	if _, err := os.Stat(filepath.Join(dir, "cut", TrialsFile)); err != nil {
		t.Errorf("the cancelled study kept no journal: %v", err)
	}
}

func last(ch <-chan Event) Done {
	var d Done
	for e := range ch {
		if e, ok := e.(Done); ok {
			d = e
		}
	}
	return d
}

func fmtKinds(k []string) string {
	s := "["
	for i, x := range k {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s + "]"
}

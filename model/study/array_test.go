package study

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gitui/model"
	"gitui/model/store"
)

// Three array tasks (Join) taking jobs from one journal by claims, then the final
// resume, give the same study.json as one process with tune.workers 3, for ASHA and
// TPE; every job is journaled once and claimed once.
func TestArrayTasksGiveTheTrialsOfWorkers(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	spec := blobSpec(dir, filepath.Join(dir, "absent.csv"))
	spec.Tune.Workers = 3
	local := filepath.Join(dir, "local")
	st, err := Open(local, spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Search(context.Background(), Options{}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	array := filepath.Join(dir, "array")
	st, err = Open(array, spec)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	var wg sync.WaitGroup
	errs := make([]error, 3)
	ran := make([]int, 3)
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Join(array)
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Close()
			errs[i] = s.Search(context.Background(), Options{Log: func(string) { ran[i]++ }})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
	}
	if _, err := os.Stat(filepath.Join(array, StudyFile)); err == nil {
		t.Fatal("an array task wrote study.json; the final job does")
	}
	// While a task holds the shared lock, gitui resume is refused.
	s, err := Join(array)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(array, nil); err == nil || !strings.Contains(err.Error(), "in use") {
		t.Fatalf("resume while a task holds the study: %v", err)
	}
	s.Close()

	st, err = Open(array, nil) // the final job: gitui resume DIR
	if err != nil {
		t.Fatal(err)
	}
	jobs := st.Resumed
	// The tasks leave the baseline (tune.baseline) to the final job, which scores it
	// once the replayed search is done; it scores nothing else.
	baseline := 0
	if err := st.Search(context.Background(), Options{Log: func(l string) {
		if strings.HasPrefix(l, "baseline ") {
			baseline++
			return
		}
		t.Error("the final job scored a job the tasks left: " + l)
	}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	a, b := readStudy(t, local), readStudy(t, array)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("array study differs from the local one with workers 3:\n%+v\n%+v", a.Best, b.Best)
	}
	j, err := store.ReadTrials(filepath.Join(array, TrialsFile))
	if err != nil {
		t.Fatal(err)
	}
	claims, _ := os.ReadDir(filepath.Join(array, store.ClaimsDir))
	if baseline != 1 {
		t.Errorf("the final job scored the baseline %d times, want once", baseline)
	}
	if len(j.Trials) != jobs+1 || len(claims) != jobs || ran[0]+ran[1]+ran[2] != jobs || len(j.Damaged) != 0 {
		t.Fatalf("journal %d jobs (%d damaged), %d claims, tasks scored %v; want each job once", len(j.Trials), len(j.Damaged), len(claims), ran)
	}
	t.Logf("tasks scored %v of %d jobs", ran, jobs)
}

// tune.workers 0 is DefaultWorkers: the same study.json; workers 3 may take other
// decisions but is itself reproducible.
func TestWorkersDefault(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	run := func(name string, workers int) File {
		spec := blobSpec(dir, filepath.Join(dir, "absent.csv"))
		spec.Tune.Workers = workers
		st, err := Open(filepath.Join(dir, name), spec)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.Search(context.Background(), Options{}); err != nil {
			t.Fatal(err)
		}
		return readStudy(t, filepath.Join(dir, name))
	}
	if a, b := run("w0", 0), run("wd", DefaultWorkers); !reflect.DeepEqual(a, b) {
		t.Fatalf("workers %d differs from the default", DefaultWorkers)
	}
	if a, b := run("w3a", 3), run("w3b", 3); !reflect.DeepEqual(a, b) {
		t.Fatal("workers 3 is not reproducible")
	}
}

// Resuming a study whose spec.json was edited is refused, naming the changed key.
func TestResumeRefusesAnEditedSpec(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 300, 1)
	sdir := filepath.Join(dir, "s")
	st, err := Open(sdir, blobSpec(dir, ""))
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	p := filepath.Join(sdir, SpecFile)
	b, _ := os.ReadFile(p)
	os.WriteFile(p, []byte(strings.Replace(string(b), `"seed": 4`, `"seed": 5`, 1)), 0o644)
	_, err = Open(sdir, nil)
	var ie *model.InputError
	if err == nil || !errors.As(err, &ie) || !strings.Contains(err.Error(), "seed 4 → 5") {
		t.Fatalf("resume of an edited spec.json: %v; want an input error naming seed 4 → 5", err)
	}
}

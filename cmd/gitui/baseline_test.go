package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"gitui/model"
	"gitui/model/store"
	"gitui/model/study"
)

// blobsGamma writes the blobs study of writeTuneBlobs (9 trials) with the method's own
// gamma and the distribution dist searched for it, and returns its path.
func blobsGamma(t *testing.T, dir string, gamma float64, dist string) string {
	t.Helper()
	path := writeTuneBlobs(t, dir, 9)
	s, err := model.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Methods[0].Gamma, s.Tune.Params["methods.0.gamma"] = gamma, dist
	b, _ := json.Marshal(s)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// tuneBaseline runs `gitui tune` on the blobs spec with args and returns its study.json
// and stdout.
func tuneBaseline(t *testing.T, spec, out string, args ...string) (study.File, string) {
	t.Helper()
	var o, e bytes.Buffer
	if code := run(append([]string{"tune", spec, "--out", out}, args...), &o, &e); code != 0 {
		t.Fatalf("tune %v: exit %d: %s", args, code, e.String())
	}
	return readStudyFile(t, out), o.String()
}

// The spec's own gamma 0.1 suits the blobs and the space (gamma 100..1000) does not: the
// baseline beats every trial at the highest rung reached, is the best, is what best.spec.json and
// DIR/refit hold, and no refit-baseline is made; gitui tune says so.
func TestTuneBaselineWins(t *testing.T) {
	dir := t.TempDir()
	spec := blobsGamma(t, dir, 0.1, "log:100..1000")
	sdir := filepath.Join(dir, "s")
	f, stdout := tuneBaseline(t, spec, sdir)
	b, top := f.Baseline, 0
	for _, tr := range f.Trials {
		top = max(top, tr.Rungs[len(tr.Rungs)-1].N)
	}
	if b == nil || !b.Best || b.Test == nil || b.Dir != study.RefitDir || b.ValidationN != top || b.Params["methods.0.gamma"] != 0.1 {
		t.Fatalf("study.json baseline %+v, want the best, refit in %s at n %d (the highest a trial reached) with gamma 0.1", b, study.RefitDir, top)
	}
	if f.Best == nil || !f.Best.Baseline || f.Best.Trial != study.BaselineTrial || *f.Best.Test != *b.Test || f.Best.Validation != b.Validation {
		t.Fatalf("study.json best %+v, want the baseline %+v", f.Best, b)
	}
	if len(f.Trials) != 9 {
		t.Errorf("%d trials in study.json, want the sampler's 9 (the baseline is beside them)", len(f.Trials))
	}
	for _, tr := range f.Trials {
		if r := tr.Rungs; len(r) > 0 && r[len(r)-1].N == b.ValidationN && r[len(r)-1].Validation > b.Validation {
			t.Errorf("trial %d scored %v at the top rung, above the best baseline's %v", tr.ID, r[len(r)-1].Validation, b.Validation)
		}
	}
	bs, err := os.ReadFile(filepath.Join(sdir, study.BestSpecFile))
	if err != nil || !bytes.Contains(bs, []byte(`"gamma": 0.1`)) {
		t.Errorf("best.spec.json is not the baseline's (gamma 0.1): %v\n%s", err, bs)
	}
	if _, err := os.Stat(filepath.Join(sdir, study.BaselineDir)); err == nil {
		t.Errorf("%s was made for a baseline that is the best (refit in %s)", study.BaselineDir, study.RefitDir)
	}
	if !strings.Contains(stdout, "your setting 0.") || !strings.Contains(stdout, "it is the best, refit and tested") {
		t.Errorf("gitui tune's stdout does not say the baseline is the best:\n%s", stdout)
	}
}

// The spec's own gamma 1000 is hopeless on the blobs and the space (0.01..1) is not: a
// trial is the best; the baseline is refit in DIR/refit-baseline and tested, and the
// line reports the best against it on validation and test.
func TestTuneBaselineLoses(t *testing.T) {
	dir := t.TempDir()
	spec := blobsGamma(t, dir, 1000, "log:0.01..1")
	sdir := filepath.Join(dir, "s")
	f, stdout := tuneBaseline(t, spec, sdir)
	b := f.Baseline
	if b == nil || b.Best || b.Test == nil || b.Dir != study.BaselineDir || b.Validation >= f.Best.Validation {
		t.Fatalf("study.json baseline %+v, best %+v: want a losing baseline refit in %s", b, f.Best, study.BaselineDir)
	}
	if f.Best.Baseline || f.Best.Trial == study.BaselineTrial {
		t.Fatalf("study.json best %+v is the baseline", f.Best)
	}
	r, err := model.ReadResult(filepath.Join(sdir, study.BaselineDir, store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Series[0].Points[0].Mean; got != *b.Test {
		t.Errorf("%s/result.json: test %v, study.json's baseline %v", study.BaselineDir, got, *b.Test)
	}
	want := study.Comparison(&f)
	if !strings.HasPrefix(want, "best trial ") || !strings.Contains(want, "vs your setting") || !strings.Contains(want, "; test ") || !strings.Contains(stdout, want+"\n") {
		t.Errorf("gitui tune's stdout lacks the comparison %q:\n%s", want, stdout)
	}
}

// The baseline never enters the sampler's history nor the scheduler: with TPE (27
// trials, 10 random first), the trials of study.json are the same with and without
// tune.baseline, and tune.baseline false writes no baseline and journals no job of it.
func TestTuneBaselineKeepsTrials(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 27)
	on, _ := tuneBaseline(t, spec, filepath.Join(dir, "on"))
	off, _ := tuneBaseline(t, spec, filepath.Join(dir, "off"), "--set", "tune.baseline=false")
	if on.Baseline == nil || off.Baseline != nil {
		t.Fatalf("baseline with it on %+v, off %+v", on.Baseline, off.Baseline)
	}
	if !reflect.DeepEqual(on.Trials, off.Trials) {
		t.Fatalf("the trials differ with the baseline:\non  %+v\noff %+v", on.Trials, off.Trials)
	}
	jobs, err := study.ReadJobs(filepath.Join(dir, "off"))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.Trial == study.BaselineTrial {
			t.Fatalf("tune.baseline false journaled the baseline: %+v", j)
		}
	}
}

// A study killed once its baseline is journaled (the search's last job, before
// study.json and the refits) and resumed concludes as one never interrupted: the same
// study.json, baseline included; the baseline is taken from the journal, not scored
// again. (TestTuneKilledAndResumed kills one before its baseline is scored.)
func TestTuneBaselineKilledAndResumed(t *testing.T) {
	dir := t.TempDir()
	spec := writeTuneBlobs(t, dir, 81)
	whole := filepath.Join(dir, "whole")
	a, _ := tuneBaseline(t, spec, whole)
	cut := filepath.Join(dir, "cut")
	cmd := child(t, "tune", spec, "--out", cut)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(cut, study.TrialsFile)
	deadline := time.Now().Add(60 * time.Second)
	for {
		if jobs, _ := study.ReadJobs(cut); len(jobs) >= 5 && hasBaselineJob(jobs) {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the study journaled no baseline in 60 s (%s)", journal)
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(cut, study.StudyFile)); err == nil {
		t.Skip("the study finished before it was killed")
	}
	var out, errb bytes.Buffer
	if code := run([]string{"resume", cut}, &out, &errb); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if strings.Contains(errb.String(), "baseline (your setting) rung") {
		t.Errorf("resume scored the journaled baseline again:\n%s", errb.String())
	}
	b := readStudyFile(t, cut)
	if a.Baseline == nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("killed and resumed study differs: baseline %+v and %+v, best %+v and %+v", a.Baseline, b.Baseline, a.Best, b.Best)
	}
}

func hasBaselineJob(jobs []study.Job) bool {
	for _, j := range jobs {
		if j.Trial == study.BaselineTrial {
			return true
		}
	}
	return false
}

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"gitui/model/store"
)

// TestRealSlurmStudy runs a study of 81 trials (ASHA, TPE) on generated blobs as a
// 3-task Slurm array on a running cluster (GITUI_SLURM=1, SLURM_CONF set:
// testdata/slurm/start.sh, as .ci/run does): the tasks take jobs from the shared
// trials.jsonl by O_EXCL claims, the final job refits the best. Its study.json (every
// trial, rung, score and state, and the best with its test accuracy) equals a local
// `gitui tune --workers 3` of the same spec and seed: with 3 jobs in flight the
// scheduler hears each score at a fixed point of the job sequence, so which task runs a
// job, and when, does not change the decisions.
func TestRealSlurmStudy(t *testing.T) {
	if os.Getenv("GITUI_SLURM") != "1" {
		t.Skip("no Slurm test cluster: start one with testdata/slurm/start.sh and set GITUI_SLURM=1 (.ci/run does)")
	}
	for _, c := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("GITUI_SLURM=1 but %s is not on PATH", c)
		}
	}
	t.Setenv(childEnv, "argv")
	base, err := os.MkdirTemp("", "gitui-slurm-study")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	spec := writeTuneBlobs(t, base, 81)
	local := filepath.Join(base, "local")
	t0 := time.Now()
	if code, _, stderr := gitui(t, "tune", spec, "--workers", "3", "--out", local); code != 0 {
		t.Fatalf("local tune: exit %d: %s", code, stderr)
	}
	localWall := time.Since(t0)

	dir := filepath.Join(base, "array")
	t0 = time.Now()
	code, _, stderr := gitui(t, "slurm", spec, "--out", dir, "--tasks", "3", "--cpus-per-task", "1", "--time", "00:10:00", "--submit", "--gitui", os.Args[0])
	if code != 0 {
		t.Fatalf("gitui slurm: exit %d: %s", code, stderr)
	}
	st, err := store.ReadSlurmState(dir)
	if err != nil {
		t.Fatal(err)
	}
	sub := st.Submissions[0]
	t.Cleanup(func() { exec.Command("scancel", sub.ArrayID, sub.MergeID).Run() })
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if s, err := store.ReadStudy(dir); err == nil && s.Best != nil && s.Best.Test != nil {
			break
		}
		if time.Now().After(deadline) {
			q, _ := exec.Command("squeue").CombinedOutput()
			logs, _ := os.ReadFile(filepath.Join(dir, "logs", "refit.out"))
			t.Fatalf("no refit within 5 minutes; squeue:\n%s\nrefit log:\n%s", q, logs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	arrayWall := time.Since(t0)
	a, b := readStudyFile(t, local), readStudyFile(t, dir)
	if !reflect.DeepEqual(a, b) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		t.Fatalf("the array's study differs from the local one:\n%s\n%s", ja, jb)
	}
	j, err := store.ReadTrials(filepath.Join(dir, store.TrialsFile))
	if err != nil {
		t.Fatal(err)
	}
	claims, _ := os.ReadDir(filepath.Join(dir, store.ClaimsDir))
	claimed := 0 // the baseline is scored by the final resume, not claimed by a task
	for _, tr := range j.Trials {
		if tr.Trial != store.BaselineTrial {
			claimed++
		}
	}
	if len(claims) != claimed || len(j.Damaged) != 0 {
		t.Fatalf("%d claims for %d journaled jobs of the tasks (%d damaged lines): want one claim per job", len(claims), claimed, len(j.Damaged))
	}
	perTask := map[string]int{}
	for _, c := range claims {
		b, _ := os.ReadFile(filepath.Join(dir, store.ClaimsDir, c.Name()))
		var pid int
		var host, task string
		fmt.Sscan(string(b), &pid, &host, &task)
		perTask[task]++
	}
	t.Logf("local tune --workers 3: %.1f s; 3-task array + refit: %.1f s from submission to study.json; %d jobs of %d trials, claimed per task %v; best trial %d, validation %.4f, test %.4f",
		localWall.Seconds(), arrayWall.Seconds(), len(j.Trials), len(a.Trials), perTask, a.Best.Trial, a.Best.Validation, *a.Best.Test)

	// An array cancelled mid-study (scancel: its running task killed, its claim left
	// without a journal line, the final job never eligible), then resubmitted: the
	// claims of unjournaled jobs are released and the study ends as the local one.
	cut := filepath.Join(base, "cut")
	code, _, stderr = gitui(t, "slurm", spec, "--out", cut, "--tasks", "3", "--cpus-per-task", "1", "--time", "00:10:00", "--max-parallel", "1", "--submit", "--gitui", os.Args[0])
	if code != 0 {
		t.Fatalf("gitui slurm: exit %d: %s", code, stderr)
	}
	st, _ = store.ReadSlurmState(cut)
	sub2 := st.Submissions[0]
	t.Cleanup(func() { exec.Command("scancel", sub2.ArrayID, sub2.MergeID).Run() })
	deadline = time.Now().Add(2 * time.Minute)
	for {
		b, _ := os.ReadFile(filepath.Join(cut, store.TrialsFile))
		if bytes.Count(b, []byte("\n")) >= 15 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second array journaled fewer than 15 jobs in 2 minutes")
		}
		time.Sleep(2 * time.Millisecond)
	}
	// The killed task exits 130 and asks to be requeued (the time-limit path of
	// array.sbatch): scancel again until nothing of the array is queued.
	for deadline = time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		exec.Command("scancel", sub2.ArrayID).Run()
		out, _ := exec.Command("squeue", "-h", "-r", "-j", sub2.ArrayID, "-o", "%K").Output()
		if strings.TrimSpace(string(out)) == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled array is still queued: %s", out)
		}
	}
	if store.StudyStatus(cut) == "done" {
		t.Log("the second array finished before scancel reached it: resubmit not exercised")
		return
	}
	jc, _ := store.ReadTrials(filepath.Join(cut, store.TrialsFile))
	code, _, stderr = gitui(t, "slurm", "--resubmit", cut, "--submit")
	if code != 0 || !strings.Contains(stderr, "released") {
		t.Fatalf("resubmit: exit %d: %s", code, stderr)
	}
	st, _ = store.ReadSlurmState(cut)
	sub3 := st.Submissions[len(st.Submissions)-1]
	t.Cleanup(func() { exec.Command("scancel", sub3.ArrayID, sub3.MergeID).Run() })
	for deadline = time.Now().Add(5 * time.Minute); ; time.Sleep(500 * time.Millisecond) {
		if s, err := store.ReadStudy(cut); err == nil && s.Best != nil && s.Best.Test != nil {
			break
		}
		if time.Now().After(deadline) {
			q, _ := exec.Command("squeue").CombinedOutput()
			t.Fatalf("no refit within 5 minutes of the resubmission; squeue:\n%s", q)
		}
	}
	if c := readStudyFile(t, cut); !reflect.DeepEqual(a, c) {
		t.Fatalf("the cancelled and resubmitted study differs from the local one: best %+v and %+v", a.Best, c.Best)
	}
	t.Logf("cancelled after %d of %d jobs, resubmitted (%s): same study.json as the local run", len(jc.Trials), len(j.Trials), strings.TrimSpace(stderr))
}

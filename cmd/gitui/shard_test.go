package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"gitui/model"
	"gitui/model/store"
)

// cellKeys returns the keys of a journal's cells, failing on a repeated key.
func cellKeys(t *testing.T, dir string) map[string]bool {
	t.Helper()
	j, err := store.ReadJournal(filepath.Join(dir, store.CellsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Damaged) > 0 {
		t.Fatalf("%s: damaged lines %v", dir, j.Damaged)
	}
	keys := map[string]bool{}
	for _, r := range j.Cells {
		k := r.Stage + "|" + r.Series + "|" + strconv.FormatFloat(r.X, 'g', -1, 64) + "|" + strconv.Itoa(r.Rep)
		if keys[k] {
			t.Fatalf("%s: cell %s journaled twice", dir, k)
		}
		keys[k] = true
	}
	return keys
}

// TestShardMergeEqualsWhole runs xperm-curve --quick as 1, 2, 3 and 7 shards: the
// shards' cells are disjoint and together are every cell of the run, each shard is
// marked complete with a partial result (except 1/1), and `gitui merge` writes a
// result.json (series and tables) and predictions.csv equal to the unsharded run's.
func TestShardMergeEqualsWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("13 shard runs of xperm-curve --quick")
	}
	base := t.TempDir()
	ref := filepath.Join(base, "whole")
	if code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", ref); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	total := len(cellKeys(t, ref))
	for _, n := range []int{1, 2, 3, 7} {
		out := filepath.Join(base, "n"+strconv.Itoa(n))
		union := map[string]bool{}
		for i := range n {
			dir := filepath.Join(out, "shards", strconv.Itoa(i))
			code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--shard", strconv.Itoa(i)+"/"+strconv.Itoa(n), "--out", dir)
			if code != 0 {
				t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, stderr)
			}
			for k := range cellKeys(t, dir) {
				if union[k] {
					t.Fatalf("shard %d/%d: cell %s is in another shard too", i, n, k)
				}
				union[k] = true
			}
			r, err := model.ReadResult(filepath.Join(dir, store.ResultFile))
			if err != nil {
				t.Fatal(err)
			}
			if r.Partial != (n > 1) || !store.ShardComplete(dir) {
				t.Errorf("shard %d/%d: partial %v (error %q), complete %v", i, n, r.Partial, r.Error, store.ShardComplete(dir))
			}
		}
		if len(union) != total {
			t.Fatalf("%d shards journaled %d distinct cells, the whole run %d", n, len(union), total)
		}
		code, _, stderr := gitui(t, "merge", out)
		if code != 0 {
			t.Fatalf("merge of %d shards: exit %d: %s", n, code, stderr)
		}
		sameResult(t, strconv.Itoa(n)+" shards merged", ref, out)
	}
}

// TestMergeMissingThenResume merges 2 of 3 shards: exit 1, the missing cells named on
// stderr and in the partial result; `gitui resume OUT` then runs exactly the missing
// shard's cells (no other) and the result equals the unsharded run's.
func TestMergeMissingThenResume(t *testing.T) {
	base := t.TempDir()
	ref := filepath.Join(base, "whole")
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	var shards []string
	for i := range 3 {
		dir := filepath.Join(base, "s"+strconv.Itoa(i))
		if code, _, stderr := gitui(t, append(journalArgs, "--shard", strconv.Itoa(i)+"/3", "--out", dir)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		shards = append(shards, dir)
	}
	// A shard cut short (its last 3 cells lost, as by a kill) and resumed runs exactly
	// its own missing cells again.
	want1 := cellKeys(t, shards[1])
	j1, _ := os.ReadFile(filepath.Join(shards[1], store.CellsFile))
	lines := bytes.SplitAfter(j1, []byte("\n"))
	os.WriteFile(filepath.Join(shards[1], store.CellsFile), bytes.Join(lines[:len(lines)-4], nil), 0o644)
	if code, _, stderr := gitui(t, "resume", shards[1]); code != 0 {
		t.Fatalf("resume of shard 1: exit %d: %s", code, stderr)
	}
	if got := cellKeys(t, shards[1]); !reflect.DeepEqual(got, want1) {
		t.Fatalf("resumed shard 1 holds %d cells, want its own %d", len(got), len(want1))
	}
	out := filepath.Join(base, "merged")
	code, _, stderr := gitui(t, "merge", out, shards[0], shards[2])
	missing := len(cellKeys(t, shards[1]))
	if code != exitFailure || !strings.Contains(stderr, strconv.Itoa(missing)+" cells missing: ") || strings.Count(strings.TrimSpace(stderr[strings.Index(stderr, "gitui: merge:"):]), "\n") != 0 {
		t.Fatalf("merge without shard 1: exit %d, stderr %q; want 1 and one line naming the %d missing cells", code, stderr, missing)
	}
	r, err := model.ReadResult(filepath.Join(out, store.ResultFile))
	if err != nil || !r.Partial || !strings.HasPrefix(r.Error, strconv.Itoa(missing)+" cells missing: ") {
		t.Fatalf("partial merge: %v, result %+v", err, r)
	}
	before := len(cellKeys(t, out))
	code, _, stderr = gitui(t, "resume", out)
	if code != 0 {
		t.Fatalf("resume of the partial merge: exit %d: %s", code, stderr)
	}
	after := cellKeys(t, out)
	for k := range cellKeys(t, shards[1]) {
		if !after[k] {
			t.Errorf("resume did not compute cell %s of the missing shard", k)
		}
	}
	if len(after)-before != missing {
		t.Errorf("resume added %d cells, the missing shard has %d", len(after)-before, missing)
	}
	if !strings.Contains(stderr, "continuing") {
		t.Errorf("resume did not report continuing from the merged journal: %s", stderr)
	}
	sameResult(t, "resumed partial merge", ref, out)
}

// TestShardBadInput: bad --shard values, a shard of a protocol without cells, a shard
// directory reused for another shard, a merge of different specs or conflicting cells,
// and gitui slurm without sbatch or with bad flags: each exits 2 with one line on
// stderr naming the problem, and writes nothing.
func TestShardBadInput(t *testing.T) {
	base := t.TempDir()
	s0 := filepath.Join(base, "s0")
	if code, _, stderr := gitui(t, append(journalArgs, "--shard", "0/2", "--out", s0)...); code != 0 {
		t.Fatalf("shard 0/2: exit %d: %s", code, stderr)
	}
	other := filepath.Join(base, "other")
	if code, _, stderr := gitui(t, append(journalArgs, "--set", "repeats=5", "--shard", "1/2", "--out", other)...); code != 0 {
		t.Fatalf("other spec: exit %d: %s", code, stderr)
	}
	// A copy of s0 whose first cell records another accuracy.
	forged := filepath.Join(base, "forged")
	os.MkdirAll(forged, 0o755)
	for _, f := range []string{store.SpecFile, store.MetaFile} {
		b, _ := os.ReadFile(filepath.Join(s0, f))
		os.WriteFile(filepath.Join(forged, f), b, 0o644)
	}
	j, _ := os.ReadFile(filepath.Join(s0, store.CellsFile))
	// A forger who seals the line again: the checksums pass, the conflict is found.
	var rec store.CellRecord
	header, cells, _ := bytes.Cut(j, []byte("\n"))
	inputs, cells, _ := bytes.Cut(cells, []byte("\n")) // the data's fingerprint, then the cells
	if !bytes.HasPrefix(inputs, []byte(`{"kind":"inputs",`)) {
		t.Fatalf("line 2 of the shard's journal is not its inputs line: %.80s", inputs)
	}
	first, rest, _ := bytes.Cut(cells, []byte("\n"))
	json.Unmarshal(first, &rec)
	rec.Acc += 0.25
	fb, _ := store.EncodeCell(rec)
	os.WriteFile(filepath.Join(forged, store.CellsFile), bytes.Join([][]byte{header, inputs, fb[:len(fb)-1], rest}, []byte("\n")), 0o644)
	s0Journal := j

	noSbatch := t.TempDir() // a PATH without sbatch
	cases := []struct {
		name, want string
		path       string // PATH for the command ("" keeps it)
		args       []string
	}{
		{"shard 0/0", "N must be at least 1", "", append(journalArgs, "--shard", "0/0", "--out", filepath.Join(base, "x"))},
		{"shard 3/2", "shard 3 does not exist among shards 0..1", "", append(journalArgs, "--shard", "3/2", "--out", filepath.Join(base, "x"))},
		{"shard a/b", "whole numbers", "", append(journalArgs, "--shard", "a/b", "--out", filepath.Join(base, "x"))},
		{"shard -1/2", "does not exist", "", append(journalArgs, "--shard", "-1/2", "--out", filepath.Join(base, "x"))},
		{"shard 2", "no slash", "", append(journalArgs, "--shard", "2", "--out", filepath.Join(base, "x"))},
		{"shard of kernel-approx", "not made of independent cells", "", []string{"run", "kernel-approx", "--quick", "--shard", "0/2", "--out", filepath.Join(base, "x")}},
		{"another shard into a shard's dir", `holds shard "0/2" of this run, not "1/2"`, "", append(journalArgs, "--shard", "1/2", "--out", s0)},
		{"merge of different specs", "are runs of different specs (repeats ", "", []string{"merge", filepath.Join(base, "x"), s0, other}},
		{"merge of conflicting cells", "differs between", "", []string{"merge", filepath.Join(base, "x"), s0, forged}},
		{"merge without shards", "has no shards/ folder", "", []string{"merge", filepath.Join(base, "x")}},
		{"merge into a shard", "also given as a shard", "", []string{"merge", s0, s0}},
		{"slurm without sbatch", "sbatch is not on PATH", noSbatch, []string{"slurm", "xperm-curve", "--quick", "--out", filepath.Join(base, "x")}},
		{"slurm --tasks 0", "--tasks 0", "", []string{"slurm", "xperm-curve", "--quick", "--tasks", "0", "--out", filepath.Join(base, "x")}},
		{"slurm --tasks 1002", "MaxArraySize", "", []string{"slurm", "xperm-curve", "--quick", "--tasks", "1002", "--out", filepath.Join(base, "x")}},
		{"slurm --time 1h", "[D-]HH:MM:SS", "", []string{"slurm", "xperm-curve", "--quick", "--time", "1h", "--out", filepath.Join(base, "x")}},
		{"slurm --mem lots", "--mem", "", []string{"slurm", "xperm-curve", "--quick", "--mem", "lots", "--out", filepath.Join(base, "x")}},
		{"slurm of kernel-approx", "not made of independent cells", "", []string{"slurm", "kernel-approx", "--quick", "--out", filepath.Join(base, "x")}},
		{"slurm into a shard of another spec", "already holds another run's spec", "", []string{"slurm", "xperm-curve", "--quick", "--out", s0}},
	}
	fake, _ := filepath.Abs("../../testdata/slurm/fake")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.path != "" {
				t.Setenv("PATH", c.path)
			} else {
				t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			code, stdout, stderr := gitui(t, c.args...)
			if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want 2 and one line with %q", code, stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(filepath.Join(base, "x")); err == nil {
				t.Errorf("%s was created", filepath.Join(base, "x"))
			}
			if j, _ := os.ReadFile(filepath.Join(s0, store.CellsFile)); !bytes.Equal(j, s0Journal) {
				t.Errorf("the journal of %s changed", s0)
			}
			if _, err := os.Stat(filepath.Join(s0, "array.sbatch")); err == nil {
				t.Errorf("a job script was written into %s", s0)
			}
		})
	}
}

// TestSlurmFakeSbatch drives gitui slurm --submit against testdata/slurm/fake/sbatch
// (which runs the array's tasks at once, in parallel, on this machine) with index 1
// cancelled: shards 0 and 2 finish, the merge job never runs; `gitui slurm --resubmit
// --submit` then submits index 1 alone, leaves the other shards' journals untouched, and
// the merged result equals a local run's. The job ids are recorded in slurm.json.
func TestSlurmFakeSbatch(t *testing.T) {
	fake, err := filepath.Abs("../../testdata/slurm/fake")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_SLURM_DIR", state)
	t.Setenv(childEnv, "argv") // the job scripts run this test binary as gitui
	base := t.TempDir()
	ref := filepath.Join(base, "whole")
	if code, _, stderr := gitui(t, append(journalArgs, "--out", ref)...); code != 0 {
		t.Fatalf("whole run: exit %d: %s", code, stderr)
	}
	dir := filepath.Join(base, "slurm")
	os.WriteFile(filepath.Join(state, "cancel"), []byte("1"), 0o644)
	code, stdout, stderr := gitui(t, "slurm", journalArgs[1], "--out", dir, "--tasks", "3", "--cpus-per-task", "1", "--max-parallel", "2", "--submit", "--gitui", os.Args[0])
	if code != 0 {
		t.Fatalf("gitui slurm --submit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "--array=0-2%2") || !strings.Contains(stdout, "--dependency=afterok:") {
		t.Errorf("printed commands %q: want the array 0-2%%2 and the merge after it", stdout)
	}
	arr, _ := os.ReadFile(filepath.Join(dir, "array.sbatch"))
	for _, want := range []string{"#SBATCH --array=0-2%2", "#SBATCH --output=\"" + filepath.Join(dir, "logs", "%a.out") + "\"", "GOMAXPROCS=\"${SLURM_CPUS_PER_TASK:-1}\"", "--signal=B:USR1@90", `--shard "$i/3"`} {
		if !bytes.Contains(arr, []byte(want)) {
			t.Errorf("array.sbatch lacks %q", want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, store.ResultFile)); err == nil {
		t.Fatal("the merge ran although index 1 was cancelled")
	}
	if !store.ShardComplete(filepath.Join(dir, "shards", "0")) || !store.ShardComplete(filepath.Join(dir, "shards", "2")) || store.ShardComplete(filepath.Join(dir, "shards", "1")) {
		t.Fatal("want shards 0 and 2 complete and shard 1 not")
	}
	j0, _ := os.ReadFile(filepath.Join(dir, "shards", "0", store.CellsFile))
	j2, _ := os.ReadFile(filepath.Join(dir, "shards", "2", store.CellsFile))
	code, stdout, stderr = gitui(t, "slurm", "--resubmit", dir, "--submit")
	if code != 0 {
		t.Fatalf("resubmit: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "--array=1 ") {
		t.Errorf("resubmit printed %q: want --array=1 alone", stdout)
	}
	if a, _ := os.ReadFile(filepath.Join(dir, "shards", "0", store.CellsFile)); !bytes.Equal(a, j0) {
		t.Error("resubmission changed shard 0's journal")
	}
	if a, _ := os.ReadFile(filepath.Join(dir, "shards", "2", store.CellsFile)); !bytes.Equal(a, j2) {
		t.Error("resubmission changed shard 2's journal")
	}
	sameResult(t, "fake-sbatch array merged", ref, dir)
	var st SlurmState
	b, _ := os.ReadFile(filepath.Join(dir, slurmFile))
	if err := json.Unmarshal(b, &st); err != nil || st.Tasks != 3 || len(st.Submissions) != 2 || st.Submissions[1].Indices != "1" || st.Submissions[1].ArrayID == "" || st.Submissions[1].MergeID == "" {
		t.Errorf("slurm.json: %v %s", err, b)
	}
	code, _, stderr = gitui(t, "slurm", "--resubmit", dir, "--submit")
	if code != 0 || !strings.Contains(stderr, "nothing to resubmit") {
		t.Errorf("resubmit of a finished array: exit %d, %s", code, stderr)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "array.sbatch"))
	code, _, stderr = gitui(t, "slurm", journalArgs[1], "--out", dir, "--tasks", "4", "--submit", "--gitui", os.Args[0])
	if after, _ := os.ReadFile(filepath.Join(dir, "array.sbatch")); code != exitUsage || !strings.Contains(stderr, "holds the shards of a 3-task array") || !bytes.Equal(before, after) {
		t.Errorf("a 4-task array into a 3-task array's DIR: exit %d, %s; scripts changed %v", code, stderr, !bytes.Equal(before, after))
	}
}

// TestRealSlurm submits xperm-curve --quick to a running Slurm cluster (GITUI_SLURM=1,
// SLURM_CONF set: testdata/slurm/start.sh, as .ci/run does) as a 3-task array plus
// merge and checks the merged result against a local run; then a second array with
// index 2 cancelled by scancel before it starts, resubmitted: only shard 2 is run again
// and the merged result equals the local run's.
func TestRealSlurm(t *testing.T) {
	if os.Getenv("GITUI_SLURM") != "1" {
		t.Skip("no Slurm test cluster: start one with testdata/slurm/start.sh and set GITUI_SLURM=1 (.ci/run does)")
	}
	for _, c := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(c); err != nil {
			t.Fatalf("GITUI_SLURM=1 but %s is not on PATH", c)
		}
	}
	t.Setenv(childEnv, "argv")
	base, err := os.MkdirTemp("", "gitui-slurm-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	ref := filepath.Join(base, "local")
	if code, _, stderr := gitui(t, "run", "xperm-curve", "--quick", "--out", ref); code != 0 {
		t.Fatalf("local run: exit %d: %s", code, stderr)
	}
	var jobs []string
	t.Cleanup(func() { exec.Command("scancel", jobs...).Run() })
	submit := func(dir string, extra ...string) *SlurmState {
		t.Helper()
		args := append([]string{"slurm", "xperm-curve", "--quick", "--out", dir, "--tasks", "3", "--cpus-per-task", "1", "--time", "00:10:00", "--submit", "--gitui", os.Args[0]}, extra...)
		if code, _, stderr := gitui(t, args...); code != 0 {
			t.Fatalf("gitui slurm: exit %d: %s", code, stderr)
		}
		st, err := readSlurmState(dir)
		if err != nil {
			t.Fatal(err)
		}
		last := st.Submissions[len(st.Submissions)-1]
		jobs = append(jobs, last.ArrayID, last.MergeID)
		return st
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Minute)
		for !ok() {
			if time.Now().After(deadline) {
				q, _ := exec.Command("squeue").CombinedOutput()
				t.Fatalf("%s: not within 5 minutes; squeue:\n%s", what, q)
			}
			time.Sleep(time.Second)
		}
	}
	exists := func(p string) func() bool {
		return func() bool { _, err := os.Stat(p); return err == nil }
	}

	t0 := time.Now()
	a := filepath.Join(base, "a")
	submit(a)
	wait("the merged result of the 3-task array", exists(filepath.Join(a, store.ResultFile)))
	t.Logf("3-task array + merge: %.1f s from submission to result.json", time.Since(t0).Seconds())
	sameResult(t, "Slurm array merged", ref, a)

	b := filepath.Join(base, "b")
	st := submit(b, "--max-parallel", "1") // one task at a time: index 2 waits, and is cancelled
	aid := st.Submissions[0].ArrayID
	if out, err := exec.Command("scancel", aid+"_2").CombinedOutput(); err != nil {
		t.Fatalf("scancel %s_2: %v %s", aid, err, out)
	}
	wait("indices 0 and 1 to finish", func() bool {
		out, _ := exec.Command("squeue", "-h", "-r", "-j", aid, "-o", "%K").Output()
		return strings.TrimSpace(string(out)) == ""
	})
	if !store.ShardComplete(filepath.Join(b, "shards", "0")) || !store.ShardComplete(filepath.Join(b, "shards", "1")) || store.ShardComplete(filepath.Join(b, "shards", "2")) {
		t.Fatal("after scancel of index 2: want shards 0 and 1 complete and shard 2 not")
	}
	if _, err := os.Stat(filepath.Join(b, store.ResultFile)); err == nil {
		t.Fatal("the merge ran although index 2 was cancelled")
	}
	j0, _ := os.ReadFile(filepath.Join(b, "shards", "0", store.CellsFile))
	j1, _ := os.ReadFile(filepath.Join(b, "shards", "1", store.CellsFile))
	code, stdout, stderr := gitui(t, "slurm", "--resubmit", b, "--submit")
	if code != 0 || !strings.Contains(stdout, "--array=2 ") {
		t.Fatalf("resubmit: exit %d, stdout %q, stderr %s; want --array=2 alone", code, stdout, stderr)
	}
	st, _ = readSlurmState(b)
	jobs = append(jobs, st.Submissions[1].ArrayID, st.Submissions[1].MergeID)
	wait("the merged result after resubmission", exists(filepath.Join(b, store.ResultFile)))
	if a0, _ := os.ReadFile(filepath.Join(b, "shards", "0", store.CellsFile)); !bytes.Equal(a0, j0) {
		t.Error("the resubmission changed shard 0's journal")
	}
	if a1, _ := os.ReadFile(filepath.Join(b, "shards", "1", store.CellsFile)); !bytes.Equal(a1, j1) {
		t.Error("the resubmission changed shard 1's journal")
	}
	sameResult(t, "Slurm array with index 2 cancelled and resubmitted", ref, b)
	t.Logf("scancel + resubmit case: %.1f s in all", time.Since(t0).Seconds())
}

// TestShardCountBounded checks that --shard 0/99999999999 (which would run AssignShards
// out of memory and leave a stale lock) is refused with exit 2 before the run directory
// or its lock exists, and N may be at most the spec's number of cells.
func TestShardCountBounded(t *testing.T) {
	// journalSpec: 3 methods x 3 sizes x 6 draws = 54 cells.
	for _, c := range []struct {
		shard string
		code  int
	}{{"0/99999999999", 2}, {"0/55", 2}, {"53/54", 0}} {
		out := filepath.Join(t.TempDir(), "run")
		code, _, stderr := gitui(t, "run", journalArgs[1], "--out", out, "--shard", c.shard)
		if code != c.code {
			t.Fatalf("--shard %s: exit %d, want %d: %s", c.shard, code, c.code, stderr)
		}
		if c.code != 2 {
			continue
		}
		if !strings.Contains(stderr, "for a spec of at most 54 cells: give N <= 54") {
			t.Errorf("--shard %s: %q does not bound N by the cells", c.shard, stderr)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("--shard %s: %s exists (a lock or a spec written before the refusal)", c.shard, out)
		}
	}
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
	"gitui/model/store"
	"gitui/model/study"
)

// Files `gitui slurm` writes into its DIR (model's names).
const (
	arrayScript = store.SlurmArrayScript
	mergeScript = store.SlurmMergeScript
	slurmFile   = store.SlurmFile
)

// SlurmState is DIR/slurm.json (store.SlurmState).
type SlurmState = store.SlurmState

// Submission is one sbatch of the array and its merge (store.Submission).
type Submission = store.Submission

// cmdSlurm implements `gitui slurm SPEC --out DIR ...` (write the job scripts, and with
// --submit submit them) and `gitui slurm --resubmit DIR` (only the unfinished indices).
func cmdSlurm(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	out := fs.String("out", "", "directory on a file system every node sees: scripts, logs/, shards/, the merged result")
	tasks := fs.Int("tasks", 4, "array tasks (shards); each runs its share of the cells")
	partition := fs.String("partition", "", "Slurm partition (default: the cluster's)")
	timeLimit := fs.String("time", "01:00:00", "time limit per task, [D-]HH:MM:SS")
	cpus := fs.Int("cpus-per-task", 2, "CPUs per task (GOMAXPROCS follows SLURM_CPUS_PER_TASK)")
	mem := fs.String("mem", "", "memory per task, e.g. 4G (default: the cluster's)")
	maxPar := fs.Int("max-parallel", 0, "at most P tasks at once (--array=0-N%P); 0: no throttle")
	submit := fs.Bool("submit", false, "submit with sbatch --parsable and record the job ids in DIR/slurm.json")
	resubmit := fs.String("resubmit", "", "DIR of an earlier `gitui slurm`: resubmit only the indices whose shard is unfinished")
	quick := fs.Bool("quick", false, "the quick variant of a preset")
	dataFlag := fs.String("data", "", "data directory every node sees (default $GITUI_DATA)")
	seed := fs.Int64("seed", -1, "seed of every random draw (default: the preset's)")
	bin := fs.String("gitui", "", "the gitui binary the nodes run (default: this one)")
	var sets multiFlag
	fs.Var(&sets, "set", "override a spec field: key=value (repeatable)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *resubmit != "" {
		if len(pos) != 0 {
			return usagef("slurm --resubmit DIR takes no SPEC: the spec is DIR/spec.json")
		}
		return slurmResubmit(ctx, *resubmit, *submit, stdout, stderr)
	}
	if len(pos) != 1 {
		return usagef("slurm needs one PRESET or SPEC file: gitui slurm SPEC --out DIR [--tasks N] [--submit]")
	}
	if *out == "" {
		return usagef("slurm needs --out DIR, on a file system every node sees")
	}
	if abs, err := filepath.Abs(*out); err == nil {
		if err := store.CheckSbatchDir(abs); err != nil {
			return usageError{err}
		}
	}
	opts := store.SlurmOptions{Tasks: *tasks, Partition: *partition, Time: *timeLimit, CPUs: *cpus, Mem: *mem, MaxParallel: *maxPar}
	if err := opts.Validate("--"); err != nil {
		return usageError{err}
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return usagef("slurm: sbatch is not on PATH: run gitui slurm on a Slurm login node (or load its module), or use gitui run --shard i/N on each machine")
	}
	spec, err := loadSpec(ctx, pos[0], *quick, *seed, sets)
	if err != nil {
		return err
	}
	if spec.Tune == nil {
		if err := shardable(spec, eval.Shard{Count: *tasks}); err != nil {
			return err
		}
	}
	dataDir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	if dataDir, err = filepath.Abs(dataDir); err != nil {
		return usagef("--data: %v", err)
	}
	exe := *bin
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return usagef("cannot find this gitui binary (%v): give --gitui PATH", err)
		}
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return usagef("--gitui: %v", err)
	}
	if fi, err := os.Stat(exe); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return usagef("--gitui %s is not an executable file: give the gitui binary the nodes run", exe)
	}
	opts.Data, opts.Gitui = dataDir, exe
	if spec.Tune != nil {
		return slurmStudy(ctx, *out, spec, opts, *submit, stdout, stderr)
	}
	st, local, err := store.WriteSlurm(*out, spec, opts, "--")
	var ie *model.InputError
	if errors.As(err, &ie) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	dir := filepath.Dir(st.Spec)
	if local {
		fmt.Fprintf(stderr, "gitui: warning: %s is on a node-local file system (tmpfs): other nodes cannot see it; use a shared directory on a multi-node cluster\n", dir)
	}
	fmt.Fprintf(stderr, "wrote %s and %s (%d tasks; each task's cells by estimated cost, logs in %s)\n",
		filepath.Join(dir, arrayScript), filepath.Join(dir, mergeScript), *tasks, filepath.Join(dir, "logs"))
	return submitArray(ctx, dir, st, opts.ArrayRange(), *submit, stdout, stderr)
}

func readSlurmState(dir string) (*SlurmState, error) { return store.ReadSlurmState(dir) }

func writeSlurmState(dir string, st *SlurmState) error { return store.WriteSlurmState(dir, st) }

// submitArray prints (and with submit runs, store.SubmitSlurm) the two sbatch
// commands: the array over indices, then the merge after it. Submitted job ids go to
// DIR/slurm.json.
func submitArray(ctx context.Context, dir string, st *SlurmState, indices string, submit bool, stdout, stderr io.Writer) error {
	if !submit {
		array, merge := store.SbatchCommands(dir, indices, "<array job id>")
		fmt.Fprintf(stdout, "%s\n%s\n", store.ShellLine(array), store.ShellLine(merge))
		return nil
	}
	sub, err := store.SubmitSlurm(ctx, dir, st, indices)
	if sub.ArrayID != "" {
		array, merge := store.SbatchCommands(dir, indices, sub.ArrayID)
		fmt.Fprintln(stdout, store.ShellLine(array)+"  # job "+sub.ArrayID)
		if err == nil {
			fmt.Fprintln(stdout, store.ShellLine(merge)+"  # job "+sub.MergeID)
		}
	}
	if err != nil {
		return err
	}
	if store.IsStudyDir(dir) {
		fmt.Fprintf(stderr, "submitted: array %s, refit %s (recorded in %s); follow with squeue -j %s,%s and %s\n",
			sub.ArrayID, sub.MergeID, filepath.Join(dir, slurmFile), sub.ArrayID, sub.MergeID, filepath.Join(dir, store.TrialsFile))
		return nil
	}
	fmt.Fprintf(stderr, "submitted: array %s, merge %s (recorded in %s); follow with squeue -j %s,%s and %s\n",
		sub.ArrayID, sub.MergeID, filepath.Join(dir, slurmFile), sub.ArrayID, sub.MergeID, filepath.Join(dir, "shards", "*", store.CellsFile))
	return nil
}

// slurmResubmit resubmits the indices of DIR's array whose shard is not complete
// (store.ShardComplete) and that squeue does not show pending or running, then a new
// merge after them; a pending merge of an earlier submission is cancelled (its
// dependency can no longer be satisfied).
func slurmResubmit(ctx context.Context, dir string, submit bool, stdout, stderr io.Writer) error {
	st, err := readSlurmState(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return usagef("%s holds no %s: give the --out of an earlier gitui slurm", dir, slurmFile)
		}
		return usageError{err}
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return usagef("slurm: sbatch is not on PATH: run gitui slurm on a Slurm login node (or load its module)")
	}
	active := activeIndices(ctx, st)
	if store.IsStudyDir(dir) {
		return resubmitStudy(ctx, dir, st, active, submit, stdout, stderr)
	}
	var missing []string
	for i := 0; i < st.Tasks; i++ {
		if !store.ShardComplete(filepath.Join(dir, "shards", strconv.Itoa(i))) && !active[i] {
			missing = append(missing, strconv.Itoa(i))
		}
	}
	if len(missing) == 0 {
		fmt.Fprintf(stderr, "nothing to resubmit: every shard of %s is complete or still queued; merge with gitui merge %s\n", dir, dir)
		return nil
	}
	fmt.Fprintf(stderr, "resubmitting %d of %d shards: %s\n", len(missing), st.Tasks, strings.Join(missing, ","))
	if submit && len(st.Submissions) > 0 {
		if last := st.Submissions[len(st.Submissions)-1]; last.MergeID != "" {
			if _, err := exec.LookPath("scancel"); err == nil {
				exec.CommandContext(ctx, "scancel", "--state=PENDING", last.MergeID).Run()
			}
		}
	}
	return submitArray(ctx, dir, st, strings.Join(missing, ","), submit, stdout, stderr)
}

// activeIndices returns the array indices that squeue shows pending or running for the
// recorded array jobs (none when squeue is absent or fails).
func activeIndices(ctx context.Context, st *SlurmState) map[int]bool {
	active := map[int]bool{}
	if _, err := exec.LookPath("squeue"); err != nil || len(st.Submissions) == 0 {
		return active
	}
	var ids []string
	for _, s := range st.Submissions {
		ids = append(ids, s.ArrayID)
	}
	out, err := exec.CommandContext(ctx, "squeue", "-h", "-r", "-t", "PENDING,RUNNING,REQUEUED,CONFIGURING,COMPLETING", "-j", strings.Join(ids, ","), "-o", "%K").Output()
	if err != nil {
		return active
	}
	for _, f := range strings.Fields(string(out)) {
		if i, err := strconv.Atoi(f); err == nil {
			active[i] = true
		}
	}
	return active
}

// slurmStudy lays out a study (a spec with a tune block) as a job array: it opens the
// study in dir once (spec.json, the journal's header; tune.workers set to the number of
// tasks when the spec leaves it 0), writes array.sbatch (each task: gitui tune --join
// DIR) and merge.sbatch (gitui resume DIR: study.json and the refit), and submits them
// with submit.
func slurmStudy(ctx context.Context, dir string, spec *model.Spec, opts store.SlurmOptions, submit bool, stdout, stderr io.Writer) error {
	if spec.Tune.Workers == 0 {
		spec.Tune.Workers = opts.Tasks
	}
	if err := spec.Validate(); err != nil {
		return usageError{err}
	}
	s, err := study.Open(dir, spec)
	if err != nil {
		return asUsage(err)
	}
	for _, n := range s.Notices {
		fmt.Fprintf(stderr, "gitui: %s\n", n)
	}
	if err := s.Close(); err != nil {
		return err
	}
	st, local, err := store.WriteSlurmStudy(dir, spec.Name, opts, "--")
	if err != nil {
		return asUsage(err)
	}
	adir := filepath.Dir(st.Spec)
	if local {
		fmt.Fprintf(stderr, "gitui: warning: %s is on a node-local file system (tmpfs): other nodes cannot see it; use a shared directory on a multi-node cluster\n", adir)
	}
	fmt.Fprintf(stderr, "wrote %s and %s (%d tasks take jobs from %s, %d in flight: the trials of `gitui tune --workers %d`; the final job refits the best)\n",
		filepath.Join(adir, arrayScript), filepath.Join(adir, mergeScript), opts.Tasks, filepath.Join(adir, store.TrialsFile), spec.Tune.Workers, spec.Tune.Workers)
	return submitArray(ctx, adir, st, opts.ArrayRange(), submit, stdout, stderr)
}

// resubmitStudy resubmits the array of a study that has not finished (no refit in
// study.json) and has no task queued: the claims of jobs never journaled (their tasks
// are gone) are released first, then every index joins again and a new final job refits.
func resubmitStudy(ctx context.Context, dir string, st *SlurmState, active map[int]bool, submit bool, stdout, stderr io.Writer) error {
	if store.StudyStatus(dir) == "done" {
		fmt.Fprintf(stderr, "nothing to resubmit: the study in %s is done (study.json holds the refit's test accuracy)\n", dir)
		return nil
	}
	if len(active) > 0 {
		fmt.Fprintf(stderr, "nothing to resubmit: %d tasks of the study in %s are still queued or running\n", len(active), dir)
		return nil
	}
	if submit {
		n, err := store.ReleaseClaims(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "released %d claims of jobs never journaled; resubmitting the %d tasks and the refit\n", n, st.Tasks)
		if last := st.Submissions; len(last) > 0 && last[len(last)-1].MergeID != "" {
			if _, err := exec.LookPath("scancel"); err == nil {
				exec.CommandContext(ctx, "scancel", "--state=PENDING", last[len(last)-1].MergeID).Run()
			}
		}
	}
	return submitArray(ctx, dir, st, fmt.Sprintf("0-%d", st.Tasks-1), submit, stdout, stderr)
}

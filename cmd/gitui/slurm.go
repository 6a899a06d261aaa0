package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
)

// Files `gitui slurm` writes into its DIR (model's names).
const (
	arrayScript = model.SlurmArrayScript
	mergeScript = model.SlurmMergeScript
	slurmFile   = model.SlurmFile
)

// maxArrayTasks is Slurm's default MaxArraySize (1001: indices 0..1000).
const maxArrayTasks = 1001

// SlurmState is DIR/slurm.json (model.SlurmState).
type SlurmState = model.SlurmState

// Submission is one sbatch of the array and its merge (model.Submission).
type Submission = model.Submission

var (
	slurmTimeRe = regexp.MustCompile(`^(\d+-)?\d{1,2}(:\d{2}){0,2}$`)
	slurmMemRe  = regexp.MustCompile(`^\d+[KMGT]?$`)
	slurmPartRe = regexp.MustCompile(`^[A-Za-z0-9_.,-]+$`)
)

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
	switch {
	case *out == "":
		return usagef("slurm needs --out DIR, on a file system every node sees")
	case *tasks < 1 || *tasks > maxArrayTasks:
		return usagef("--tasks %d: give 1..%d (Slurm's default MaxArraySize is %d; each task runs several cells)", *tasks, maxArrayTasks, maxArrayTasks)
	case *cpus < 1:
		return usagef("--cpus-per-task %d: give at least 1", *cpus)
	case *maxPar < 0:
		return usagef("--max-parallel %d: give 0 (no throttle) or more", *maxPar)
	case !slurmTimeRe.MatchString(*timeLimit):
		return usagef("--time %q: give [D-]HH:MM:SS, e.g. --time 02:00:00", *timeLimit)
	case *mem != "" && !slurmMemRe.MatchString(*mem):
		return usagef("--mem %q: give a size such as 4G or 4000M", *mem)
	case *partition != "" && !slurmPartRe.MatchString(*partition):
		return usagef("--partition %q: give a partition name (letters, digits, - _ . ,)", *partition)
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return usagef("slurm: sbatch is not on PATH: run gitui slurm on a Slurm login node (or load its module), or use gitui run --shard i/N on each machine")
	}
	spec, err := loadSpec(pos[0], *quick, *seed, sets)
	if err != nil {
		return err
	}
	if err := shardable(spec, eval.Shard{Count: *tasks}); err != nil {
		return err
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
	dir, err := filepath.Abs(*out)
	if err != nil {
		return usagef("--out: %v", err)
	}
	specPath := filepath.Join(dir, model.SpecFile)
	if b, err := os.ReadFile(specPath); err == nil {
		old, perr := model.ParseSpec(b, false)
		if perr != nil || !sameSpec(old, spec) {
			return usagef("%s already holds another run's spec: choose another --out (nothing there is overwritten)", dir)
		}
	}
	if old, err := readSlurmState(dir); err == nil && old.Tasks != *tasks {
		if ents, _ := os.ReadDir(filepath.Join(dir, "shards")); len(ents) > 0 {
			return usagef("%s holds the shards of a %d-task array: continue it with gitui slurm --resubmit %s, or choose another --out", dir, old.Tasks, dir)
		}
	}
	if isNodeLocal(dir) {
		fmt.Fprintf(stderr, "gitui: warning: %s is on a node-local file system (tmpfs): other nodes cannot see it; use a shared directory on a multi-node cluster\n", dir)
	}
	for _, d := range []string{dir, filepath.Join(dir, "logs"), filepath.Join(dir, "shards")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return usagef("cannot create %s (%v): choose a writable --out", d, errors.Unwrap(err))
		}
	}
	sb, _ := json.MarshalIndent(spec, "", "  ")
	j := slurmJob{dir: dir, exe: exe, data: dataDir, name: model.SafeName(spec.Name), tasks: *tasks, maxPar: *maxPar,
		partition: *partition, time: *timeLimit, cpus: *cpus, mem: *mem}
	files := map[string][]byte{
		specPath:                        append(sb, '\n'),
		filepath.Join(dir, arrayScript): []byte(j.arrayScript()),
		filepath.Join(dir, mergeScript): []byte(j.mergeScript()),
	}
	for path, b := range files {
		if err := model.WriteFileAtomic(path, b); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	os.Chmod(filepath.Join(dir, arrayScript), 0o755)
	os.Chmod(filepath.Join(dir, mergeScript), 0o755)
	st := &SlurmState{Tasks: *tasks, Spec: specPath}
	if old, err := readSlurmState(dir); err == nil {
		st.Submissions = old.Submissions
	}
	if err := writeSlurmState(dir, st); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s and %s (%d tasks; each task's cells by estimated cost, logs in %s)\n",
		filepath.Join(dir, arrayScript), filepath.Join(dir, mergeScript), *tasks, filepath.Join(dir, "logs"))
	return submitArray(ctx, dir, st, j.arrayRange(), *submit, stdout, stderr)
}

// sameSpec reports whether two specs are equal field by field (their JSON forms).
func sameSpec(a, b *model.Spec) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// isNodeLocal reports whether dir (or its nearest existing parent) is on tmpfs or ramfs,
// which no other node can see. Whether any other file system is shared with the nodes
// cannot be checked from here: it is assumed (README, "Running on a cluster").
func isNodeLocal(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil {
			const tmpfsMagic, ramfsMagic = 0x01021994, 0x858458f6
			return st.Type == tmpfsMagic || st.Type == ramfsMagic
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}

// slurmJob holds what the two job scripts are made of.
type slurmJob struct {
	dir, exe, data, name string
	tasks, maxPar, cpus  int
	partition, time, mem string
}

// arrayRange returns the --array value for every index: 0-(N-1), throttled with %P.
func (j slurmJob) arrayRange() string {
	r := fmt.Sprintf("0-%d", j.tasks-1)
	if j.maxPar > 0 {
		r += fmt.Sprintf("%%%d", j.maxPar)
	}
	return r
}

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (j slurmJob) header(b *strings.Builder, name, output string) {
	fmt.Fprintf(b, "#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --output=%s\n#SBATCH --time=%s\n", name, output, j.time)
	if j.partition != "" {
		fmt.Fprintf(b, "#SBATCH --partition=%s\n", j.partition)
	}
	if j.mem != "" {
		fmt.Fprintf(b, "#SBATCH --mem=%s\n", j.mem)
	}
}

// arrayScript is DIR/array.sbatch: index i runs shard i/N into DIR/shards/i. Slurm's
// warning signal before the time limit (USR1, 90 s ahead, to the batch shell) is
// forwarded to gitui, which journals its finished cells and exits 130; the task then
// asks to be requeued, and the requeued task continues the shard's journal.
func (j slurmJob) arrayScript() string {
	var b strings.Builder
	j.header(&b, "gitui-"+j.name, filepath.Join(j.dir, "logs", "%a.out"))
	fmt.Fprintf(&b, "#SBATCH --array=%s\n#SBATCH --cpus-per-task=%d\n#SBATCH --signal=B:USR1@90\n#SBATCH --requeue\n#SBATCH --open-mode=append\n", j.arrayRange(), j.cpus)
	fmt.Fprintf(&b, `# Written by gitui slurm. Resubmit only the unfinished shards: gitui slurm --resubmit %[1]s --submit
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
i="${SLURM_ARRAY_TASK_ID:?run this script with sbatch: it is a job array}"
echo "gitui shard $i/%[2]d on $(hostname) with GOMAXPROCS=$GOMAXPROCS, $(date -u +%%FT%%TZ)"
%[3]s run %[4]s --shard "$i/%[2]d" --out %[5]s"/$i" --data %[6]s &
pid=$!
trap 'echo "time limit near: journaling and stopping"; kill -USR1 "$pid" 2>/dev/null' USR1
trap 'kill -TERM "$pid" 2>/dev/null' TERM
wait "$pid"
code=$?
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; code=$?; done
if [ "$code" = 130 ] && [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${i}" && exit 0
fi
exit "$code"
`, shq(j.dir), j.tasks, shq(j.exe), shq(filepath.Join(j.dir, model.SpecFile)), shq(filepath.Join(j.dir, "shards")), shq(j.data))
	return b.String()
}

// mergeScript is DIR/merge.sbatch: gitui merge DIR over DIR/shards/*.
func (j slurmJob) mergeScript() string {
	var b strings.Builder
	j.header(&b, "gitui-"+j.name+"-merge", filepath.Join(j.dir, "logs", "merge.out"))
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&b, `# Written by gitui slurm: submitted with --dependency=afterok:<array job id>.
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
exec %s merge %s --data %s
`, shq(j.exe), shq(j.dir), shq(j.data))
	return b.String()
}

func readSlurmState(dir string) (*SlurmState, error) { return model.ReadSlurmState(dir) }

func writeSlurmState(dir string, st *SlurmState) error { return model.WriteSlurmState(dir, st) }

// submitArray prints (and with submit runs) the two sbatch commands: the array over
// indices, then the merge after it. Submitted job ids go to DIR/slurm.json.
func submitArray(ctx context.Context, dir string, st *SlurmState, indices string, submit bool, stdout, stderr io.Writer) error {
	array := []string{"sbatch", "--parsable", "--array=" + indices, filepath.Join(dir, arrayScript)}
	if !submit {
		fmt.Fprintf(stdout, "%s\n%s\n", shellLine(array), shellLine([]string{"sbatch", "--parsable", "--dependency=afterok:<array job id>", filepath.Join(dir, mergeScript)}))
		return nil
	}
	aid, err := sbatch(ctx, array)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, shellLine(array)+"  # job "+aid)
	merge := []string{"sbatch", "--parsable", "--dependency=afterok:" + aid, filepath.Join(dir, mergeScript)}
	mid, err := sbatch(ctx, merge)
	sub := Submission{Time: time.Now().UTC().Truncate(time.Second), Indices: indices, ArrayID: aid, MergeID: mid}
	st.Submissions = append(st.Submissions, sub)
	if werr := writeSlurmState(dir, st); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("%w (the array is job %s; submit the merge yourself: sbatch --dependency=afterok:%s %s)", err, aid, aid, filepath.Join(dir, mergeScript))
	}
	fmt.Fprintln(stdout, shellLine(merge)+"  # job "+mid)
	fmt.Fprintf(stderr, "submitted: array %s, merge %s (recorded in %s); follow with squeue -j %s,%s and %s\n",
		aid, mid, filepath.Join(dir, slurmFile), aid, mid, filepath.Join(dir, "shards", "*", model.CellsFile))
	return nil
}

// sbatch runs an sbatch --parsable command and returns the job id it prints
// ("ID" or "ID;CLUSTER").
func sbatch(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var errb strings.Builder
	cmd.Stderr = &errb
	outb, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %v: %s", shellLine(argv), err, strings.TrimSpace(errb.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(outb)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("%s printed %q, not a job id", shellLine(argv), strings.TrimSpace(string(outb)))
	}
	return id, nil
}

func shellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if strings.ContainsAny(a, " '\"$<>&;|*?") {
			a = shq(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}

// slurmResubmit resubmits the indices of DIR's array whose shard is not complete
// (model.ShardComplete) and that squeue does not show pending or running, then a new
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
	var missing []string
	for i := 0; i < st.Tasks; i++ {
		if !model.ShardComplete(filepath.Join(dir, "shards", strconv.Itoa(i))) && !active[i] {
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

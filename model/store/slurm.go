package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gitui/model"
)

// Files `gitui slurm` writes into its DIR (besides spec.json).
const (
	SlurmArrayScript = "array.sbatch" // the job array: one shard per index
	SlurmMergeScript = "merge.sbatch" // gitui merge DIR, after the array
	SlurmFile        = "slurm.json"   // SlurmState: tasks and submitted job ids
	ShardsDir        = "shards"       // DIR/shards/<i>/: the run directory of array index i
)

// SlurmState is DIR/slurm.json: how the array was laid out and every submission.
type SlurmState struct {
	Tasks       int          `json:"tasks"`
	Spec        string       `json:"spec"` // DIR/spec.json, the resolved spec every shard runs
	Submissions []Submission `json:"submissions,omitempty"`
}

// Submission is one `sbatch` of the array (all indices, or the unfinished ones) and its merge.
type Submission struct {
	Time    time.Time `json:"time"`
	Indices string    `json:"indices"` // the --array value: "0-3%2", "1,3"
	ArrayID string    `json:"array_job_id"`
	MergeID string    `json:"merge_job_id"`
}

// ReadSlurmState reads DIR/slurm.json. A missing file is returned as an error wrapping
// os.ErrNotExist; a file that does not parse is an error naming it.
func ReadSlurmState(dir string) (*SlurmState, error) {
	b, err := model.ReadFileCapped(filepath.Join(dir, SlurmFile))
	if err != nil {
		return nil, err
	}
	var st SlurmState
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%s does not parse (%v): it was not written by gitui slurm", filepath.Join(dir, SlurmFile), err)
	}
	return &st, nil
}

// WriteSlurmState writes st to DIR/slurm.json atomically.
func WriteSlurmState(dir string, st *SlurmState) error {
	b, _ := json.MarshalIndent(st, "", "  ")
	if err := model.WriteFileAtomic(filepath.Join(dir, SlurmFile), append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(dir, SlurmFile), err)
	}
	return nil
}

// MaxArrayTasks is Slurm's default MaxArraySize (1001: indices 0..1000).
const MaxArrayTasks = 1001

// SlurmOptions is how `gitui slurm` (and the TUI's S) lays out the job array.
type SlurmOptions struct {
	Tasks       int    // array tasks (shards), 1..MaxArrayTasks
	Partition   string // "" for the cluster's default
	Time        string // time limit per task, [D-]HH:MM:SS
	CPUs        int    // CPUs per task (GOMAXPROCS follows SLURM_CPUS_PER_TASK)
	Mem         string // memory per task, "" for the cluster's default
	MaxParallel int    // at most this many tasks at once (--array=0-N%P); 0: no throttle
	Data        string // the data directory every node sees (absolute)
	Gitui       string // the gitui binary the nodes run (absolute)
}

var (
	slurmTimeRe = regexp.MustCompile(`^(\d+-)?\d{1,2}(:\d{2}){0,2}$`)
	slurmMemRe  = regexp.MustCompile(`^\d+[KMGT]?$`)
	slurmPartRe = regexp.MustCompile(`^[A-Za-z0-9_.,-]+$`)
)

// Validate checks the options' values, naming a bad one as prefix+field ("--tasks" on
// the command line with prefix "--", "tasks" in the TUI with ""), in one line with the fix.
func (o SlurmOptions) Validate(prefix string) error {
	switch {
	case o.Tasks < 1 || o.Tasks > MaxArrayTasks:
		return fmt.Errorf("%stasks %d: give 1..%d (Slurm's default MaxArraySize is %d; each task runs several cells)", prefix, o.Tasks, MaxArrayTasks, MaxArrayTasks)
	case o.CPUs < 1:
		return fmt.Errorf("%scpus-per-task %d: give at least 1", prefix, o.CPUs)
	case o.MaxParallel < 0:
		return fmt.Errorf("%smax-parallel %d: give 0 (no throttle) or more", prefix, o.MaxParallel)
	case !slurmTimeRe.MatchString(o.Time):
		return fmt.Errorf("%stime %q: give [D-]HH:MM:SS, e.g. 02:00:00", prefix, o.Time)
	case o.Mem != "" && !slurmMemRe.MatchString(o.Mem):
		return fmt.Errorf("%smem %q: give a size such as 4G or 4000M", prefix, o.Mem)
	case o.Partition != "" && !slurmPartRe.MatchString(o.Partition):
		return fmt.Errorf("%spartition %q: give a partition name (letters, digits, - _ . ,)", prefix, o.Partition)
	}
	return nil
}

// ArrayRange returns the --array value for every index: 0-(N-1), throttled with %P.
func (o SlurmOptions) ArrayRange() string {
	r := fmt.Sprintf("0-%d", o.Tasks-1)
	if o.MaxParallel > 0 {
		r += fmt.Sprintf("%%%d", o.MaxParallel)
	}
	return r
}

// WriteSlurm writes the job array of spec into dir (made absolute; created with logs/
// and shards/): dir/spec.json, dir/array.sbatch (index i runs `gitui run --shard i/N`
// into dir/shards/i), dir/merge.sbatch (`gitui merge dir`) and dir/slurm.json (its
// earlier submissions kept). It does not submit (SubmitSlurm does).
//
// Refusals are *InputError, before anything is written: invalid options (Validate with
// prefix), a dir holding another spec, a dir holding the shards of an array of another
// size. It returns the state written and whether dir is node-local (NodeLocal).
func WriteSlurm(dir string, spec *model.Spec, o SlurmOptions, prefix string) (*SlurmState, bool, error) {
	if err := o.Validate(prefix); err != nil {
		return nil, false, inputErr(err)
	}
	if o.Gitui == "" || o.Data == "" {
		return nil, false, inputErr(errors.New("the gitui binary and the data directory the nodes use must be given"))
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, false, inputErr(fmt.Errorf("the output directory %s: %w", dir, err))
	}
	if err := CheckSbatchDir(dir); err != nil {
		return nil, false, err
	}
	specPath := filepath.Join(dir, SpecFile)
	if b, err := model.ReadFileCapped(specPath); err == nil {
		old, perr := model.ParseSpec(b, false)
		if perr != nil || !sameSpecJSON(old, spec) {
			return nil, false, inputErr(fmt.Errorf("%s already holds another run's spec: choose another output directory (nothing there is overwritten)", dir))
		}
	}
	if old, err := ReadSlurmState(dir); err == nil && old.Tasks != o.Tasks {
		if ents, _ := os.ReadDir(filepath.Join(dir, ShardsDir)); len(ents) > 0 {
			return nil, false, inputErr(fmt.Errorf("%s holds the shards of a %d-task array: continue it with gitui slurm --resubmit %s, or choose another output directory", dir, old.Tasks, dir))
		}
	}
	for _, d := range []string{dir, filepath.Join(dir, "logs"), filepath.Join(dir, ShardsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, false, inputErr(fmt.Errorf("cannot create %s (%v): choose a writable output directory", d, errors.Unwrap(err)))
		}
	}
	sb, _ := json.MarshalIndent(spec, "", "  ")
	j := slurmJob{dir: dir, name: SafeName(spec.Name), o: o}
	files := []struct {
		path string
		b    []byte
	}{
		{specPath, append(sb, '\n')},
		{filepath.Join(dir, SlurmArrayScript), []byte(j.arrayScript())},
		{filepath.Join(dir, SlurmMergeScript), []byte(j.mergeScript())},
	}
	for _, f := range files {
		if err := model.WriteFileAtomic(f.path, f.b); err != nil {
			return nil, false, fmt.Errorf("write %s: %w", f.path, err)
		}
	}
	os.Chmod(filepath.Join(dir, SlurmArrayScript), 0o755)
	os.Chmod(filepath.Join(dir, SlurmMergeScript), 0o755)
	st := &SlurmState{Tasks: o.Tasks, Spec: specPath}
	if old, err := ReadSlurmState(dir); err == nil {
		st.Submissions = old.Submissions
	}
	if err := WriteSlurmState(dir, st); err != nil {
		return nil, false, err
	}
	return st, NodeLocal(dir), nil
}

// sameSpecJSON reports whether two specs are equal field by field (their JSON forms).
func sameSpecJSON(a, b *model.Spec) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// NodeLocal reports whether dir (or its nearest existing parent) is on tmpfs or ramfs,
// which no other node can see. Whether any other file system is shared with the nodes
// cannot be checked from here: it is assumed (README, "Running on a cluster").
func NodeLocal(dir string) bool {
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
	dir, name string
	o         SlurmOptions
	study     bool // a study: tasks take jobs from DIR/trials.jsonl, the final job refits
}

// WriteSlurmStudy writes the job array of the study in dir (which must hold a study
// opened once, spec.json and trials.jsonl: model/study.Open): dir/array.sbatch (every
// index runs `gitui tune --join DIR`, taking jobs from the shared journal by
// ClaimJob), dir/merge.sbatch (`gitui resume DIR`: replays the journal, writes
// study.json and refits the best) and dir/slurm.json. It does not submit (SubmitSlurm
// does). Refusals are *InputError: invalid options, a dir that holds no study.
func WriteSlurmStudy(dir, name string, o SlurmOptions, prefix string) (*SlurmState, bool, error) {
	if err := o.Validate(prefix); err != nil {
		return nil, false, inputErr(err)
	}
	if o.Gitui == "" || o.Data == "" {
		return nil, false, inputErr(errors.New("the gitui binary and the data directory the nodes use must be given"))
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, false, inputErr(fmt.Errorf("the output directory %s: %w", dir, err))
	}
	if err := CheckSbatchDir(dir); err != nil {
		return nil, false, err
	}
	if !IsStudyDir(dir) {
		return nil, false, inputErr(fmt.Errorf("%s holds no %s: open the study first (gitui slurm does)", dir, TrialsFile))
	}
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		return nil, false, inputErr(fmt.Errorf("cannot create %s (%v): choose a writable output directory", filepath.Join(dir, "logs"), errors.Unwrap(err)))
	}
	j := slurmJob{dir: dir, name: SafeName(name), o: o, study: true}
	for _, f := range []struct {
		path, text string
	}{{filepath.Join(dir, SlurmArrayScript), j.arrayScript()}, {filepath.Join(dir, SlurmMergeScript), j.mergeScript()}} {
		if err := model.WriteFileAtomic(f.path, []byte(f.text)); err != nil {
			return nil, false, fmt.Errorf("write %s: %w", f.path, err)
		}
		os.Chmod(f.path, 0o755)
	}
	st := &SlurmState{Tasks: o.Tasks, Spec: filepath.Join(dir, SpecFile)}
	if old, err := ReadSlurmState(dir); err == nil {
		st.Submissions = old.Submissions
	}
	if err := WriteSlurmState(dir, st); err != nil {
		return nil, false, err
	}
	return st, NodeLocal(dir), nil
}

// ShellLine joins argv into one shell command line, each argument through
// model.ShellQuote (the one shell quoting: a path with a backtick or a parenthesis is
// quoted too).
func ShellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = model.ShellQuote(a)
	}
	return strings.Join(q, " ")
}

// CheckSbatchDir refuses (an *InputError) a job directory that an #SBATCH line cannot
// name: sbatch ends an option at a newline, and a backslash in an --output pattern
// turns its %a off and is dropped from the path. Every other character is quoted
// (sbatchQuote) or escaped (sbatchOutput).
func CheckSbatchDir(dir string) error {
	for _, c := range []struct{ ch, name string }{{"\n", "a newline"}, {"\\", "a backslash"}} {
		if strings.Contains(dir, c.ch) {
			return inputErr(fmt.Errorf("--out %s holds %s, which sbatch cannot take in an #SBATCH --output path: choose a directory without it", model.ShellQuote(dir), c.name))
		}
	}
	return nil
}

// sbatchQuote quotes s for an #SBATCH line, as sbatch's script parser reads one: in
// double quotes, with a double quote escaped by a backslash (spaces, # and ' are then
// part of the value). s holds no newline or backslash (CheckSbatchDir).
func sbatchQuote(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// sbatchOutput is the --output pattern of file under dir/logs: a % of dir doubled, so
// that only file's own replacement symbols (%a) are expanded.
func sbatchOutput(dir, file string) string {
	return strings.ReplaceAll(filepath.Join(dir, "logs"), "%", "%%") + "/" + file
}

func (j slurmJob) header(b *strings.Builder, name, output string) {
	fmt.Fprintf(b, "#!/bin/bash\n#SBATCH --job-name=%s\n#SBATCH --output=%s\n#SBATCH --time=%s\n", sbatchQuote(name), sbatchQuote(output), j.o.Time)
	if j.o.Partition != "" {
		fmt.Fprintf(b, "#SBATCH --partition=%s\n", j.o.Partition)
	}
	if j.o.Mem != "" {
		fmt.Fprintf(b, "#SBATCH --mem=%s\n", j.o.Mem)
	}
}

// arrayHeader writes the #SBATCH lines of an array job: one task per index, each
// warned (USR1) 90 s before its time limit and requeueable, appending to its log.
func (j slurmJob) arrayHeader(b *strings.Builder) {
	j.header(b, "gitui-"+j.name, sbatchOutput(j.dir, "%a.out"))
	fmt.Fprintf(b, "#SBATCH --array=%s\n#SBATCH --cpus-per-task=%d\n#SBATCH --signal=B:USR1@90\n#SBATCH --requeue\n#SBATCH --open-mode=append\n", j.o.ArrayRange(), j.o.CPUs)
}

// arrayWaitRequeue is the part of an array task's script after gitui is started in the
// background: it forwards USR1 (the time limit's warning) and TERM to gitui, waits for
// it, and asks Slurm to requeue the task when gitui stopped at the warning (exit 130).
// It holds no format verbs, so it is spliced into the scripts' format strings as is.
const arrayWaitRequeue = `pid=$!
trap 'echo "time limit near: journaling and stopping"; kill -USR1 "$pid" 2>/dev/null' USR1
trap 'kill -TERM "$pid" 2>/dev/null' TERM
wait "$pid"
code=$?
while kill -0 "$pid" 2>/dev/null; do wait "$pid"; code=$?; done
if [ "$code" = 130 ] && [ -n "${SLURM_ARRAY_JOB_ID:-}" ]; then
  scontrol requeue "${SLURM_ARRAY_JOB_ID}_${i}" && exit 0
fi
`

// arrayScript is DIR/array.sbatch: index i runs shard i/N into DIR/shards/i. Slurm's
// warning signal before the time limit (USR1, 90 s ahead, to the batch shell) is
// forwarded to gitui, which journals its finished cells and exits 130; the task then
// asks to be requeued, and the requeued task continues the shard's journal.
func (j slurmJob) arrayScript() string {
	if j.study {
		return j.studyArrayScript()
	}
	var b strings.Builder
	j.arrayHeader(&b)
	fmt.Fprintf(&b, `# Written by gitui slurm. Resubmit only the unfinished shards: gitui slurm --resubmit %[1]s --submit
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
i="${SLURM_ARRAY_TASK_ID:?run this script with sbatch: it is a job array}"
echo "gitui shard $i/%[2]d on $(hostname) with GOMAXPROCS=$GOMAXPROCS, $(date -u +%%FT%%TZ)"
%[3]s run %[4]s --shard "$i/%[2]d" --out %[5]s"/$i" --data %[6]s &
`+arrayWaitRequeue+`exit "$code"
`, model.ShellQuote(j.dir), j.o.Tasks, model.ShellQuote(j.o.Gitui), model.ShellQuote(filepath.Join(j.dir, SpecFile)), model.ShellQuote(filepath.Join(j.dir, ShardsDir)), model.ShellQuote(j.o.Data))
	return b.String()
}

// studyArrayScript is DIR/array.sbatch of a study: every index joins the study
// (`gitui tune --join DIR`) and takes jobs from its journal until the schedule is done.
// A task stopped by the time limit's warning (USR1) or killed leaves its finished jobs
// journaled; its claim of the job it was running is taken over by a task on the same
// host once its process is gone, and a requeued task joins again.
func (j slurmJob) studyArrayScript() string {
	var b strings.Builder
	j.arrayHeader(&b)
	fmt.Fprintf(&b, `# Written by gitui slurm for a study: every task takes jobs from %[1]s/trials.jsonl.
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
i="${SLURM_ARRAY_TASK_ID:?run this script with sbatch: it is a job array}"
echo "gitui study task $i on $(hostname) with GOMAXPROCS=$GOMAXPROCS, $(date -u +%%FT%%TZ)"
%[2]s tune --join %[1]s --data %[3]s &
`+arrayWaitRequeue+`echo "gitui study task $i done (exit $code), $(date -u +%%FT%%TZ)"
exit "$code"
`, model.ShellQuote(j.dir), model.ShellQuote(j.o.Gitui), model.ShellQuote(j.o.Data))
	return b.String()
}

// mergeScript is DIR/merge.sbatch: gitui merge DIR over DIR/shards/* (for a study,
// gitui resume DIR: study.json and the refit of the best).
func (j slurmJob) mergeScript() string {
	var b strings.Builder
	if j.study {
		j.header(&b, "gitui-"+j.name+"-refit", sbatchOutput(j.dir, "refit.out"))
		fmt.Fprintf(&b, "#SBATCH --cpus-per-task=%d\n", j.o.CPUs)
		fmt.Fprintf(&b, `# Written by gitui slurm: submitted with --dependency=afterok:<array job id>.
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
exec %s resume %s --data %s
`, model.ShellQuote(j.o.Gitui), model.ShellQuote(j.dir), model.ShellQuote(j.o.Data))
		return b.String()
	}
	j.header(&b, "gitui-"+j.name+"-merge", sbatchOutput(j.dir, "merge.out"))
	fmt.Fprintf(&b, "#SBATCH --cpus-per-task=1\n")
	fmt.Fprintf(&b, `# Written by gitui slurm: submitted with --dependency=afterok:<array job id>.
set -u
export GOMAXPROCS="${SLURM_CPUS_PER_TASK:-1}"
exec %s merge %s --data %s
`, model.ShellQuote(j.o.Gitui), model.ShellQuote(j.dir), model.ShellQuote(j.o.Data))
	return b.String()
}

// SbatchCommands returns the two sbatch command lines of a submission of dir's array
// over indices (an --array value): the array, then the merge after it (dep is the
// array's job id, or a placeholder when printed before submitting).
func SbatchCommands(dir, indices, dep string) (array, merge []string) {
	return []string{"sbatch", "--parsable", "--array=" + indices, filepath.Join(dir, SlurmArrayScript)},
		[]string{"sbatch", "--parsable", "--dependency=afterok:" + dep, filepath.Join(dir, SlurmMergeScript)}
}

// SubmitSlurm submits dir's array over indices (an --array value) and then its merge
// after it, each with `sbatch --parsable`, and records the submission in dir/slurm.json
// (st, as WriteSlurm or ReadSlurmState returned it). When the array was submitted but
// the merge failed, the array's id is recorded and the error says how to submit the
// merge by hand. sbatch not on PATH is an *InputError.
func SubmitSlurm(ctx context.Context, dir string, st *SlurmState, indices string) (Submission, error) {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return Submission{}, inputErr(errors.New("sbatch is not on PATH: run on a Slurm login node (or load its module)"))
	}
	array, _ := SbatchCommands(dir, indices, "")
	aid, err := Sbatch(ctx, array)
	if err != nil {
		return Submission{}, err
	}
	_, merge := SbatchCommands(dir, indices, aid)
	mid, err := Sbatch(ctx, merge)
	sub := Submission{Time: time.Now().UTC().Truncate(time.Second), Indices: indices, ArrayID: aid, MergeID: mid}
	st.Submissions = append(st.Submissions, sub)
	if werr := WriteSlurmState(dir, st); werr != nil {
		return sub, werr
	}
	if err != nil {
		return sub, fmt.Errorf("%w (the array is job %s; submit the merge yourself: sbatch --dependency=afterok:%s %s)", err, aid, aid, filepath.Join(dir, SlurmMergeScript))
	}
	return sub, nil
}

// Sbatch runs an sbatch --parsable command and returns the job id it prints
// ("ID" or "ID;CLUSTER").
func Sbatch(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var errb strings.Builder
	cmd.Stderr = &errb
	outb, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w: %s", ShellLine(argv), err, strings.TrimSpace(errb.String()))
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(outb)), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("%s printed %q, not a job id", ShellLine(argv), strings.TrimSpace(string(outb)))
	}
	return id, nil
}

package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"gitui/internal/printable"
	"gitui/model"
)

// Files of a study directory (docs/runs.md, "A study directory").
const (
	TrialsFile        = "trials.jsonl"         // the verified journal of scored jobs: the source of truth
	TrialsDamagedFile = "trials.damaged.jsonl" // trials lines that failed their check, moved out
	StudyFile         = "study.json"           // derived: gitui.study/v1
	BestSpecFile      = "best.spec.json"       // the plain spec of the best configuration at the refit size
	RefitDir          = "refit"                // the refit's run directory
	SplitFile         = "split.json"           // the pool rows of the validation split
	StudyLockFile     = "study.lock"           // flock: exclusive for gitui tune/resume, shared for array tasks
	ClaimsDir         = "claims"               // claims/TRIAL.RUNG: a job taken by an array task (O_EXCL)
	ClaimsLockFile    = "claims.lock"          // flock: held while a task takes over a stale claim
	TrialsFormat      = "gitui.trials/v1"      // the format in trials.jsonl's header
	StudySchema       = "gitui.study/v1"       // study.json's schema
)

// TrialRecord is one job line of trials.jsonl: trial Trial scored at rung Rung
// (training size N) with its parameters, its validation accuracy, the seconds it took,
// when it ended, and an error when it failed (Validation is 0 then).
type TrialRecord struct {
	Kind   string         `json:"kind"` // "job"
	Trial  int            `json:"trial"`
	Rung   int            `json:"rung"`
	N      int            `json:"n"`
	Params map[string]any `json:"params"`
	// Validation is the job's score: its accuracy on the validation split, or under
	// tune.score loo its leave-one-out accuracy, or under validation+loo at the last
	// rung the two pooled (model.TuneSpec.Score).
	Validation float64 `json:"validation"`
	// LOO is the fit's leave-one-out accuracy on its n training samples when it enters
	// a pooled score (validation+loo at the last rung; the split's accuracy is then
	// ((n_v+n)·Validation - n·LOO)/n_v), else nil and absent.
	LOO     *float64 `json:"loo,omitempty"`
	Seconds float64  `json:"seconds"`
	// End is when the job ended, in Unix seconds (to the millisecond): with Seconds, when
	// it ran, so best-so-far curves can be drawn against wall time (several jobs run at
	// once). 0 in journals written before it was recorded.
	End   float64 `json:"end,omitempty"`
	Error string  `json:"error,omitempty"`
}

// ReadTrials reads the trials journal at path (ReadJournal's rules, the same reader):
// the header holds the format gitui.trials/v1, the SHA-256 of the canonical study spec
// and that spec; every job line carries a CRC-32C. A missing file is an empty journal;
// a trials journal has no headerless earlier format. It never writes.
func ReadTrials(path string) (*Journal, error) { return readJournal(path, TrialsFormat) }

// Trials is an open trials.jsonl of a study, appended to by Append.
type Trials struct {
	Path string
	// Jobs are the jobs journaled when it was opened, in order.
	Jobs []TrialRecord
	// Notices say what opening repaired: damaged lines moved to trials.damaged.jsonl
	// (their jobs run again), a torn last line cut.
	Notices []string
	f       *os.File
	shared  bool // JoinTrials: other tasks append to the file too
}

// OpenTrials opens (creating it) DIR/trials.jsonl of the study spec s for its one
// writer (gitui tune, gitui resume): it checks spec.json against the journal's header
// (an edited spec is an *model.InputError naming the changed keys), moves the lines that
// fail their check to trials.damaged.jsonl, cuts a torn last line, writes the header of
// a new journal, and opens it for appending.
func OpenTrials(dir string, s *model.Spec) (*Trials, error) {
	path := filepath.Join(dir, TrialsFile)
	j, err := ReadTrials(path)
	if err != nil {
		return nil, err
	}
	if err := j.CheckSpec(s, dir); err != nil {
		return nil, err
	}
	t := &Trials{Path: path, Jobs: j.Trials}
	damaged := j.Damaged
	if j.HeaderDamaged {
		damaged = append([]DamagedLine{{Line: 1, Text: j.headerText, Reason: "header checksum mismatch"}}, damaged...)
	}
	for _, l := range damaged {
		t.Notices = append(t.Notices, fmt.Sprintf("%s line %d failed its check (%s): moved to %s; its job runs again", path, l.Line, l.Reason, TrialsDamagedFile))
	}
	if j.Torn {
		damaged = append(damaged, DamagedLine{Line: len(j.lines) + len(j.Damaged) + 1, Text: j.tornText, Reason: "torn (no newline)"})
		t.Notices = append(t.Notices, fmt.Sprintf("%s: its last line was cut short (a kill or a full disk mid-write): moved to %s; its job runs again", path, TrialsDamagedFile))
	}
	if len(damaged) > 0 {
		if err := moveDamagedTo(filepath.Join(dir, TrialsDamagedFile), damaged); err != nil {
			return nil, err
		}
	}
	if j.Header == nil || len(damaged) > 0 || j.Torn {
		h, err := formatHeaderLine(s, TrialsFormat)
		if err != nil {
			return nil, fmt.Errorf("encode the header of %s: %w", path, err)
		}
		body := j.lines
		if j.Header != nil {
			body = body[1:]
		}
		for _, l := range body {
			h = append(h, l...)
		}
		if err := model.WriteFileAtomic(path, h); err != nil {
			return nil, unwritable(err, fmt.Sprintf("rewrite %s", path), "choose a writable --out")
		}
	}
	if t.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, unwritable(err, fmt.Sprintf("open %s", path), "choose a writable --out")
	}
	return t, nil
}

// JoinTrials opens DIR/trials.jsonl of the study spec s for one of several writers (the
// tasks of a Slurm array): it checks the header against s but repairs nothing (the
// journal was opened once by OpenTrials before the array started; a damaged line is
// skipped by every reader). Each Append is one write(2) on a file opened O_APPEND, so
// the lines of several tasks never interleave on a local or cluster file system that
// honours O_APPEND.
func JoinTrials(dir string, s *model.Spec) (*Trials, error) {
	path := filepath.Join(dir, TrialsFile)
	j, err := ReadTrials(path)
	if err != nil {
		return nil, err
	}
	if j.Header == nil {
		return nil, inputErr(fmt.Errorf("%s has no verified header: open the study once with gitui slurm (or gitui resume) before its array tasks join it", path))
	}
	if err := j.CheckSpec(s, dir); err != nil {
		return nil, err
	}
	t := &Trials{Path: path, Jobs: j.Trials, shared: true}
	if t.f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, unwritable(err, fmt.Sprintf("open %s", path), "check the study directory's permissions")
	}
	return t, nil
}

// Append journals a job durably: one sealed line written with one write(2) and fsynced
// before it returns.
func (t *Trials) Append(r TrialRecord) error {
	r.Kind = "job"
	b, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("journal trial %d: %w", r.Trial, err)
	}
	if err := appendSealed(t.f, sealLine(b), !t.shared); err != nil {
		return fmt.Errorf("journal trial %d in %s: %w", r.Trial, t.Path, err)
	}
	if err := t.f.Sync(); err != nil {
		return fmt.Errorf("journal trial %d in %s: %w", r.Trial, t.Path, err)
	}
	return nil
}

// Close closes the journal.
func (t *Trials) Close() error { return t.f.Close() }

// MoveJobs moves the job lines of the journal for which drop is true to
// trials.damaged.jsonl, with reason, as damaged lines are moved: the journal is rewritten
// without them (atomically) and opened again for appending. Only the study's one writer
// (OpenTrials) may call it. It returns how many lines it moved.
func (t *Trials) MoveJobs(drop func(TrialRecord) bool, reason string) (int, error) {
	if t.shared {
		return 0, errors.New("the tasks of an array do not rewrite the shared journal")
	}
	j, err := ReadTrials(t.Path)
	if err != nil {
		return 0, err
	}
	var keep []byte
	var moved []DamagedLine
	for i, l := range j.lines {
		body, sealed, ok := unseal(bytes.TrimSuffix(l, []byte("\n")))
		var rec TrialRecord
		if i > 0 && sealed && ok && json.Unmarshal(printable.JSON(body), &rec) == nil && rec.Kind == "job" && drop(rec) {
			moved = append(moved, DamagedLine{Line: i + 1, Text: bytes.TrimSuffix(l, []byte("\n")), Reason: reason})
			continue
		}
		keep = append(keep, l...)
	}
	if len(moved) == 0 {
		return 0, nil
	}
	dir := filepath.Dir(t.Path)
	if err := moveDamagedTo(filepath.Join(dir, TrialsDamagedFile), moved); err != nil {
		return 0, err
	}
	if err := model.WriteFileAtomic(t.Path, keep); err != nil {
		return 0, unwritable(err, fmt.Sprintf("rewrite %s", t.Path), "choose a writable --out")
	}
	t.f.Close()
	if t.f, err = os.OpenFile(t.Path, os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return 0, unwritable(err, fmt.Sprintf("open %s", t.Path), "choose a writable --out")
	}
	return len(moved), nil
}

// LockStudy takes the study's lock, DIR/study.lock (flock: the kernel releases it when
// the process dies, even by SIGKILL): exclusive for the one process that searches a
// study (gitui tune, gitui resume), shared for the tasks of an array, which take their
// jobs by ClaimJob. A study locked the other way is an *model.InputError.
func LockStudy(dir string, shared bool) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, StudyLockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, unwritable(err, fmt.Sprintf("the study directory %s is not writable", dir), "choose another --out")
	}
	how := unix.LOCK_EX
	if shared {
		how = unix.LOCK_SH
	}
	for attempt := 0; ; attempt++ {
		err = unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		if err == nil || attempt == 20 {
			break
		}
		time.Sleep(50 * time.Millisecond) // StudyStatus probes the lock for an instant
	}
	if err != nil {
		f.Close()
		return nil, inputErr(fmt.Errorf("%s is in use by another gitui process: wait for it to finish, or choose another --out", dir))
	}
	return func() { f.Close() }, nil
}

// studyLocked reports whether a process holds DIR/study.lock (probing it for an instant).
func studyLocked(dir string) bool {
	f, err := os.Open(filepath.Join(dir, StudyLockFile))
	if err != nil {
		return false
	}
	defer f.Close()
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) != nil {
		return true
	}
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	return false
}

// ClaimJob claims job (trial, rung) of the study in dir for this process: it creates
// DIR/claims/TRIAL.RUNG with O_CREATE|O_EXCL (atomic on a local or NFSv3+ file system,
// as Optuna's JournalFileStorage relies on), writing "PID HOST TASK". It reports false
// when another process holds the claim, or when the job is already journaled.
//
// A claim on this host whose process is gone (ProcessAlive) is taken over, under the
// flock of DIR/claims.lock and only if the journal still lacks the job: its process may
// have journaled it just before it ended (a task exits when the scheduler has nothing
// left for it), and two tasks that both found the claim stale must not both take it.
// So every journaled job has exactly one claim and is scored once.
func ClaimJob(dir string, trial, rung int) (bool, error) {
	cdir := filepath.Join(dir, ClaimsDir)
	if err := os.MkdirAll(cdir, 0o755); err != nil {
		return false, fmt.Errorf("create %s: %w", cdir, err)
	}
	path := filepath.Join(cdir, strconv.Itoa(trial)+"."+strconv.Itoa(rung))
	host, _ := os.Hostname()
	if ok, err := createClaim(path, host); ok || err != nil {
		return ok, err
	}
	if !claimStale(path, host) {
		return false, nil
	}
	lk, err := os.OpenFile(filepath.Join(dir, ClaimsLockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return false, fmt.Errorf("take over the claim of job %d.%d: %w", trial, rung, err)
	}
	defer lk.Close() // releases the flock
	if err := unix.Flock(int(lk.Fd()), unix.LOCK_EX); err != nil {
		return false, fmt.Errorf("take over the claim of job %d.%d: lock %s: %w", trial, rung, lk.Name(), err)
	}
	if !claimStale(path, host) { // another task took it over first
		return false, nil
	}
	j, err := ReadTrials(filepath.Join(dir, TrialsFile))
	if err != nil {
		return false, fmt.Errorf("take over the claim of job %d.%d: %w", trial, rung, err)
	}
	for _, r := range j.Trials {
		if r.Trial == trial && r.Rung == rung {
			return false, nil // scored by the gone process: keep its claim
		}
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, fmt.Errorf("take over the claim of job %d.%d: %w", trial, rung, err)
	}
	return createClaim(path, host)
}

// createClaim creates the claim file path with O_EXCL and writes "PID HOST TASK" into
// it. It reports false, with no error, when the file exists.
func createClaim(path, host string) (bool, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("claim job %s: %w", filepath.Base(path), err)
	}
	_, werr := fmt.Fprintf(f, "%d %s %s\n", os.Getpid(), host, os.Getenv("SLURM_ARRAY_TASK_ID"))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return true, werr
}

// ReleaseClaims removes the claims in DIR/claims whose job is not in the journal (the
// tasks that made them are gone: call it only when no task of the study runs, as
// `gitui slurm --resubmit` does after squeue shows none), so that new tasks take those
// jobs. It returns how many it removed.
func ReleaseClaims(dir string) (int, error) {
	j, err := ReadTrials(filepath.Join(dir, TrialsFile))
	if err != nil {
		return 0, err
	}
	done := map[string]bool{}
	for _, r := range j.Trials {
		done[strconv.Itoa(r.Trial)+"."+strconv.Itoa(r.Rung)] = true
	}
	ents, err := os.ReadDir(filepath.Join(dir, ClaimsDir))
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the claims of %s: %w", dir, err)
	}
	n := 0
	for _, e := range ents {
		if !done[e.Name()] {
			if err := os.Remove(filepath.Join(dir, ClaimsDir, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
				return n, fmt.Errorf("release the claim %s: %w", e.Name(), err)
			}
			n++
		}
	}
	return n, nil
}

// ClaimStale reports whether the claim of job (trial, rung) in dir was made by a
// process of this host that is gone: its job will not be journaled by it.
func ClaimStale(dir string, trial, rung int) bool {
	host, _ := os.Hostname()
	return claimStale(filepath.Join(dir, ClaimsDir, strconv.Itoa(trial)+"."+strconv.Itoa(rung)), host)
}

func claimStale(path, host string) bool {
	b, err := model.ReadFileCapped(path)
	if err != nil {
		return false
	}
	var pid int
	var h string
	fmt.Sscan(string(b), &pid, &h)
	return pid > 0 && h == host && !ProcessAlive(pid)
}

// Study is study.json (schema gitui.study/v1), derived from the journal: the search's
// settings, every trial with its rungs and state, and the best configuration.
type Study struct {
	Schema        string      `json:"schema"`
	Sampler       string      `json:"sampler"`
	Pruner        string      `json:"pruner"`
	Eta           int         `json:"eta"`
	Rungs         []int       `json:"rungs"`
	Validation    int         `json:"validation_size"`
	Pool          int         `json:"pool"`
	Workers       int         `json:"workers,omitempty"` // tune.workers: jobs decided ahead of results
	SearchSeconds float64     `json:"search_seconds,omitempty"`
	Trials        []TrialInfo `json:"trials"`
	Best          *BestInfo   `json:"best,omitempty"`
	// Score is "loo" when the trials' validation figures are leave-one-out accuracies on
	// their own training samples (tune.score loo; validation_size 0), "validation+loo"
	// when the last rung's figures pool the split with each fit's leave-one-out
	// (model.TuneSpec.Score), empty for a split alone.
	Score string `json:"score,omitempty"`
	// Top lists the refits of the top trials, the best first, when tune.refit_top asks
	// for more than the best (absent otherwise).
	Top []TopInfo `json:"top,omitempty"`
	// Baseline is the spec's own setting of the searched params scored as the trials are
	// (tune.baseline; absent when it is off), with its refit's test accuracy.
	Baseline *BaselineInfo `json:"baseline,omitempty"`
}

// BaselineTrial is the trial number of a study's baseline in trials.jsonl and in a
// Refit: the spec's own setting, scored at one rung only (the highest a trial reached),
// never seen by the sampler.
const BaselineTrial = -1

// BaselineInfo is study.json's baseline: the spec's own values of the searched params,
// its validation accuracy at training size ValidationN (the highest rung a trial
// reached, scored as the trials are), whether it is the best (it then is study.json's best, refit in DIR/refit),
// and the test accuracy of its refit at the best's refit size (nil until it ran; Dir is
// its run directory). Error is set when its job failed (it then does not compete).
type BaselineInfo struct {
	Params      map[string]any `json:"params"`
	Validation  float64        `json:"validation"`
	ValidationN int            `json:"validation_n"`
	Best        bool           `json:"best"`
	Test        *float64       `json:"test,omitempty"`
	Dir         string         `json:"dir,omitempty"`
	Error       string         `json:"error,omitempty"`
}

// TrialInfo is one trial of study.json.
type TrialInfo struct {
	ID     int            `json:"id"`
	Params map[string]any `json:"params"`
	Rungs  []RungInfo     `json:"rungs"`
	State  string         `json:"state"` // complete, pruned, running, failed
	Error  string         `json:"error,omitempty"`
}

// RungInfo is a trial's score at one rung.
type RungInfo struct {
	N          int     `json:"n"`
	Validation float64 `json:"validation"`
	// LOO is the fit's leave-one-out accuracy when Validation pools it with the split
	// (TrialRecord.LOO), else nil and absent.
	LOO *float64 `json:"loo,omitempty"`
}

// Refit is a trial refit and tested: its configuration, its validation accuracy at the
// highest rung it reached (trained on ValidationN samples) and the test accuracy of its
// refit (nil until the refit ran). BestInfo and TopInfo embed it (its fields appear
// directly in their JSON).
type Refit struct {
	Trial       int            `json:"trial"`
	Params      map[string]any `json:"params"`
	Validation  float64        `json:"validation"`
	ValidationN int            `json:"validation_n"`
	Test        *float64       `json:"test,omitempty"`
	// Baseline is set when the refit is the study's baseline (Trial is BaselineTrial).
	Baseline bool `json:"baseline,omitempty"`
}

// BestInfo is the best configuration (Refit), the refit's training size N, and how many
// configurations were compared.
type BestInfo struct {
	Refit
	N        int `json:"n"`
	Compared int `json:"compared"`
}

// TopInfo is one of the top trials refit and tested (tune.refit_top): its rank by
// validation (1 is the best, study.json's "best"), the trial and its refit (Refit), and
// the refit's run directory. The test accuracies are reported, never used to choose: the
// best stays the best by validation.
type TopInfo struct {
	Rank int `json:"rank"`
	Refit
	// Dir is the refit's run directory, relative to the study directory.
	Dir string `json:"dir,omitempty"`
}

// WriteStudy writes DIR/study.json atomically.
func WriteStudy(dir string, s *Study) error {
	b, _ := json.MarshalIndent(s, "", "  ")
	path := filepath.Join(dir, StudyFile)
	if err := model.WriteFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadStudy reads DIR/study.json. A missing file is an error wrapping os.ErrNotExist
// (a study that has not finished a search writes none); a file of another schema is an
// error naming it.
func ReadStudy(dir string) (*Study, error) {
	path := filepath.Join(dir, StudyFile)
	b, err := model.ReadFileCapped(path)
	if err != nil {
		return nil, err
	}
	var s Study
	if err := json.Unmarshal(printable.JSON(b), &s); err != nil || s.Schema != StudySchema {
		return nil, fmt.Errorf("%s is not a %s file: it was not written by this gitui", path, StudySchema)
	}
	return &s, nil
}

// IsStudyDir reports whether dir holds a study (its journal trials.jsonl).
func IsStudyDir(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, TrialsFile))
	return err == nil
}

// StudyStatus returns the status of the study directory dir:
//
//   - "running": a process holds its lock (gitui tune or resume, or array tasks);
//   - "done": study.json records the refit's test accuracy;
//   - "searched": study.json is written but the refit has not run;
//   - "interrupted": the journal holds jobs and there is no study.json (gitui resume);
//   - "empty": nothing was journaled.
func StudyStatus(dir string) string {
	if studyLocked(dir) {
		return "running"
	}
	if s, err := ReadStudy(dir); err == nil {
		if s.Best != nil && s.Best.Test != nil {
			return "done"
		}
		return "searched"
	}
	j, err := ReadTrials(filepath.Join(dir, TrialsFile))
	if err == nil && (len(j.Trials) > 0 || len(j.Damaged) > 0 || j.Torn) {
		return "interrupted"
	}
	return "empty"
}

// loadStudyDir reads the study directory dir as an Entry: its spec, status, study.json
// (Study; nil before the search ends, when the jobs journaled so far are counted), and
// the refit's curve and test accuracy when it ran.
func loadStudyDir(dir string) (Entry, error) {
	e := Entry{ID: filepath.Base(dir), Path: dir, Status: StudyStatus(dir), Acc: nan, BestValidation: nan}
	b, err := model.ReadFileCapped(filepath.Join(dir, SpecFile))
	if err != nil {
		return e, fmt.Errorf("study %s holds no readable %s: it is not a gitui study directory", dir, SpecFile)
	}
	if err := e.setSpec(printable.JSON(b)); err != nil {
		return e, fmt.Errorf("study %s: %s: %w", dir, SpecFile, err)
	}
	e.Name += " (tune)"
	e.Study = &Study{}
	if s, err := ReadStudy(dir); err == nil {
		e.Study = s
	} else if j, err := ReadTrials(filepath.Join(dir, TrialsFile)); err == nil {
		trials := map[int]bool{}
		for _, r := range j.Trials {
			if r.Trial != BaselineTrial {
				trials[r.Trial] = true
			}
		}
		e.Status += fmt.Sprintf(" (%s, %s)", plural(len(j.Trials), "job"), plural(len(trials), "trial"))
		top := 0
		for _, r := range j.Trials {
			if r.Error != "" {
				continue
			}
			if r.N > top || r.N == top && !(r.Validation <= e.BestValidation) {
				top, e.BestValidation = r.N, r.Validation
			}
		}
	}
	if e.Study.Best != nil {
		e.BestValidation = e.Study.Best.Validation
	}
	e.Seconds = e.Study.SearchSeconds
	if _, err := os.Stat(filepath.Join(dir, ResultFile)); err == nil {
		if r, err := model.ReadResult(filepath.Join(dir, ResultFile)); err == nil {
			e.Series = seriesOf(r)
			e.Seconds += r.Timing.WallSeconds
		}
	}
	e.finish() // the headline of the refit's curve, when it ran
	if e.Study != nil && e.Study.Best != nil && e.Study.Best.Test != nil {
		e.Acc = *e.Study.Best.Test
	}
	e.Time = runTime(dir)
	return e, nil
}

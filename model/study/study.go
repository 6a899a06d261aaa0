package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"gitui/core/eval"
	"gitui/core/tune"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// Study is an open study directory: its spec (with the tune block), the parsed search
// space, and the journal of scored jobs.
type Study struct {
	Dir    string
	Spec   *model.Spec
	Params []model.TuneParam
	// Resumed is the number of jobs found in the journal when the study was opened.
	Resumed int
	// Notices say what opening the journal repaired (damaged lines moved to
	// trials.damaged.jsonl: their jobs run again).
	Notices []string

	j      *store.Trials
	mu     sync.Mutex                   // guards jobs, the journal's appends and opts.Log while jobs score at once
	jobs   map[[2]int]store.TrialRecord // by (trial, rung)
	unlock func()
	// worker is set for an array task (Join): it takes jobs by store.ClaimJob and waits
	// for the jobs other tasks claimed.
	worker bool

	// Set by Search.
	Sizes      []int // the rungs' training sizes
	Trials     int   // configurations compared
	Validation int   // validation samples (0 under leave-one-out)
	// Score is the spec's tune.score: "" or "validation" (the split), model.TuneLOO
	// (leave-one-out, no split) or model.TunePooled (the split, pooled at the last rung
	// with each fit's leave-one-out).
	Score  string
	RefitN int // training size of the final refit
	PoolN  int // the training pool (training part + validation)
	// Lag is tune.workers (0: DefaultWorkers): job i is decided on the results of jobs
	// 0..i-Lag. Workers is how many jobs this process runs at once (at most Lag).
	Lag, Workers int
	cache        *engine.FeatureCache
	configs      map[int][]float64
	sched        tune.Scheduler
	errs         map[int]string
	finished     bool
	searchWall   float64
	top          []TopInfo // the refits of the top trials (SetTop), for study.json
	base         *baseline // tune.baseline (nil when off, or in an array task)
}

// BaselineTrial is the baseline's trial number in trials.jsonl, Refit and the trials
// of a Snapshot (store.BaselineTrial).
const BaselineTrial = store.BaselineTrial

// baseline is the study's baseline (tune.baseline): the spec's own setting, scored as
// one job once the search is done, at the highest rung a trial reached, never reported
// to the scheduler or seen by TPE, so that the trials are those of a study without it.
type baseline struct {
	spec   *model.Spec
	params map[string]any
	rec    *store.TrialRecord // its journaled job, once scored
	test   *float64           // its refit's test accuracy
	dir    string             // its refit's run directory, relative to the study's
}

// scored reports whether the baseline's job was scored without error (it competes).
func (b *baseline) scored() bool { return b != nil && b.rec != nil && b.rec.Error == "" }

// SetTop records the refits of the study's top trials (tune.refit_top), with their test
// accuracies, for study.json's "top" (WriteStudy).
func (t *Study) SetTop(top []TopInfo) { t.top = top }

// Open opens the study directory dir. With a spec, it creates the directory (writing
// spec.json) or, when dir already holds a study, checks that it is of the same spec;
// with a nil spec it reads dir/spec.json (resume). The spec's defaults are filled
// (model.Spec.Defaults), and it must carry a tune block and validate; errors are
// *model.InputError when the input is at fault.
func Open(dir string, spec *model.Spec) (*Study, error) {
	specPath := filepath.Join(dir, SpecFile)
	if spec == nil {
		s, err := model.LoadSpec(specPath)
		if err != nil {
			return nil, &model.InputError{Err: fmt.Errorf("%s is not a study directory (%v): give the --out of a `gitui tune`", dir, err)}
		}
		spec = s
	}
	if spec.Tune == nil {
		return nil, &model.InputError{Err: fmt.Errorf("spec %s has no tune block: give --param KEY=DIST, or a tune block with params", spec.Name)}
	}
	spec.Defaults()
	if err := spec.Validate(); err != nil {
		return nil, &model.InputError{Err: err}
	}
	ps, err := spec.TuneSpace()
	if err != nil {
		return nil, &model.InputError{Err: err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		if store.NoSpace(err) {
			return nil, fmt.Errorf("create the study directory %s: %w", dir, err)
		}
		// As gitui run's: a directory that cannot be made is bad input (exit 2).
		return nil, &model.InputError{Err: fmt.Errorf("cannot create the study directory %s (%w): choose a writable directory with --out", dir, unwrapPath(err))}
	}
	unlock, err := store.LockStudy(dir, false)
	if err != nil {
		return nil, err
	}
	// The exclusive lock: no task of an array writes here, a temporary file is a killed
	// write's.
	gone := model.RemoveAtomicTemps(dir)
	if old, err := model.LoadSpec(specPath); err == nil {
		if SpecHash(canonical(old)) != SpecHash(canonical(spec)) {
			unlock()
			return nil, &model.InputError{Err: fmt.Errorf("%s holds a study of another spec: give a new --out, or `gitui resume %s` to continue it", dir, dir)}
		}
	} else {
		b, _ := json.MarshalIndent(spec, "", "  ")
		if err := model.WriteFileAtomic(specPath, append(b, '\n')); err != nil {
			unlock()
			return nil, fmt.Errorf("write %s: %w", specPath, err)
		}
	}
	j, err := store.OpenTrials(dir, canonical(spec))
	if err != nil {
		unlock()
		return nil, err
	}
	st := &Study{Dir: dir, Spec: spec, Params: ps, j: j, jobs: jobMap(j.Jobs), unlock: unlock, Notices: j.Notices}
	if len(gone) > 0 {
		st.Notices = append(st.Notices, fmt.Sprintf("removed %d temporary files a killed write left in %s (%s)", len(gone), dir, strings.Join(gone, ", ")))
	}
	st.Resumed = len(st.jobs)
	return st, nil
}

// Join opens the study in dir (created by Open, e.g. by gitui slurm) as one of the tasks
// of an array: it shares the study's lock with the other tasks, appends to its journal
// without repairing it, and Search then takes jobs by claiming them (store.ClaimJob) and
// waits for the jobs other tasks claimed. A task does not write study.json; the final
// job (gitui resume DIR) replays the journal, writes it and refits the best.
func Join(dir string) (*Study, error) {
	spec, err := model.LoadSpec(filepath.Join(dir, SpecFile))
	if err != nil {
		return nil, &model.InputError{Err: fmt.Errorf("%s is not a study directory (%v): give the --out of a `gitui slurm` of a study", dir, err)}
	}
	if spec.Tune == nil {
		return nil, &model.InputError{Err: fmt.Errorf("%s/%s has no tune block: it is a run, not a study", dir, SpecFile)}
	}
	ps, err := spec.TuneSpace()
	if err != nil {
		return nil, &model.InputError{Err: err}
	}
	unlock, err := store.LockStudy(dir, true)
	if err != nil {
		return nil, err
	}
	j, err := store.JoinTrials(dir, canonical(spec))
	if err != nil {
		unlock()
		return nil, err
	}
	st := &Study{Dir: dir, Spec: spec, Params: ps, j: j, jobs: jobMap(j.Jobs), unlock: unlock, worker: true}
	st.Resumed = len(st.jobs)
	return st, nil
}

// canonical returns the spec as the journal's header records it: a clone with its
// defaults filled in, so that a spec given in memory and the same spec read back from
// spec.json hash the same.
func canonical(s *model.Spec) *model.Spec {
	c := s.Clone()
	c.Defaults()
	return c
}

func jobMap(jobs []store.TrialRecord) map[[2]int]store.TrialRecord {
	m := make(map[[2]int]store.TrialRecord, len(jobs))
	for _, r := range jobs {
		m[[2]int{r.Trial, r.Rung}] = r
	}
	return m
}

// Close closes the journal and releases the directory's lock.
func (s *Study) Close() error {
	err := s.j.Close()
	s.unlock()
	return err
}

// Discard removes what Open and Search wrote (spec.json, trials.jsonl, split.json, and
// the directory when it is then empty), provided no job was ever journaled: bad input
// found when the data is loaded leaves nothing behind. It reports whether it removed them.
func (s *Study) Discard() bool {
	if len(s.jobs) > 0 || s.worker {
		return false
	}
	s.j.Close()
	for _, f := range []string{SpecFile, TrialsFile, SplitFile, LockFile} {
		os.Remove(filepath.Join(s.Dir, f))
	}
	os.Remove(s.Dir) // only when empty
	return true
}

// Options are the run-time settings of a search.
type Options struct {
	DataDir string
	// Log, if set, receives one line per scored job.
	Log func(string)
	// Estimate, if set, receives the time estimate of the whole study (its rungs ×
	// trials and the refit, engine.EstimateStudy) once the schedule is known, before
	// the first job.
	Estimate func(engine.TimeEstimate)
	// Workers, if > 0, caps the jobs run at once (below tune.workers, the memory estimate
	// and GOMAXPROCS); it changes no result.
	Workers int
}

func (t *Study) settings() (sampler, pruner string, eta int) {
	tb := t.Spec.Tune
	sampler, pruner, eta = tb.Sampler, tb.Pruner, tb.Eta
	if sampler == "" {
		sampler = "tpe"
	}
	if pruner == "" {
		pruner = "asha"
	}
	if eta == 0 {
		eta = 3
	}
	return
}

func (t *Study) space() tune.Space {
	sp := make(tune.Space, len(t.Params))
	for i, p := range t.Params {
		sp[i] = p.Dim
	}
	return sp
}

// pendingJob is a job the scheduler gave: its trial spec and parameters, and its
// journal record once it is scored (nil while another array task runs it).
type pendingJob struct {
	job    tune.Job
	spec   *model.Spec
	params map[string]any
	rec    *store.TrialRecord
	// done, when not nil, is closed once this process's goroutine scoring the job has
	// set rec or err.
	done chan struct{}
	err  error
}

// lookup returns the journaled record of job, if any.
func (t *Study) lookup(job tune.Job) (store.TrialRecord, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, ok := t.jobs[[2]int{job.Trial, job.Rung}]
	return rec, ok
}

// jobMatches reports whether the journaled rec is the job p the schedule gives: its
// training size and parameters.
func jobMatches(rec store.TrialRecord, p pendingJob) bool {
	return rec.N == p.job.N && sameParams(rec.Params, p.params)
}

// moveForeign moves the journal's lines of p's trial and rung that are not p (a line of
// another study spliced into this one) to trials.damaged.jsonl, logs it, and returns the
// line of p journaled beside them, if any (done), else false: the job is scored again.
func (t *Study) moveForeign(p pendingJob, opts Options) (store.TrialRecord, bool, error) {
	key := [2]int{p.job.Trial, p.job.Rung}
	bad := t.jobs[key]
	var match *store.TrialRecord
	for _, r := range t.j.Jobs {
		if r.Trial == key[0] && r.Rung == key[1] && jobMatches(r, p) {
			match = &r
		}
	}
	n, err := t.j.MoveJobs(func(r store.TrialRecord) bool {
		return r.Trial == key[0] && r.Rung == key[1] && !jobMatches(r, p)
	}, "a job of another study (its n or params are not this study's schedule)")
	if err != nil {
		return store.TrialRecord{}, false, err
	}
	what := "the job runs again"
	t.mu.Lock()
	if match != nil {
		t.jobs[key] = *match
		what = "this study's own line of the job is kept"
	} else {
		delete(t.jobs, key)
		t.Resumed--
	}
	t.mu.Unlock()
	if opts.Log != nil {
		opts.Log(fmt.Sprintf("notice: %s: %d line(s) of trial %d at rung %d are of another study (journaled n %d, params %s; this study's schedule gives n %d, %s): moved to %s; %s",
			store.TrialsFile, n, key[0], key[1], bad.N, fmtParams(bad.Params), p.job.N, fmtParams(p.params), store.TrialsDamagedFile, what))
	}
	if match != nil {
		return *match, true, nil
	}
	return store.TrialRecord{}, false, nil
}

// checkJob refuses a journaled job that does not match the one the schedule gives.
func checkJob(rec store.TrialRecord, done bool, p pendingJob) error {
	if done && !jobMatches(rec, p) {
		return &model.InputError{Err: fmt.Errorf("%s: trial %d at rung %d does not match this study's schedule (journaled n %d, params %v; now n %d, %v): the journal is of another gitui; start a new study", TrialsFile, p.job.Trial, p.job.Rung, rec.N, rec.Params, p.job.N, p.params)}
	}
	return nil
}

// score runs a job and journals it (durably, before the scheduler hears of it).
func (t *Study) score(ctx context.Context, p pendingJob, opts Options, loaded *engine.LoadedData) (*store.TrialRecord, error) {
	job := p.job
	t0 := time.Now()
	pooled := t.Score == model.TunePooled && job.Rung == len(t.Sizes)-1
	v, loo, err := runTrial(ctx, p.spec, job.N, opts.DataDir, loaded, t.cache, t.Score == model.TuneLOO || pooled)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	rec := store.TrialRecord{Trial: job.Trial, Rung: job.Rung, N: job.N, Params: p.params, Validation: v, Seconds: time.Since(t0).Seconds(),
		End: float64(time.Now().UnixMilli()) / 1000}
	switch {
	case err != nil:
		rec.Error, rec.Validation = oneLine(err.Error()), 0
	case t.Score == model.TuneLOO:
		rec.Validation = loo
	case pooled:
		rec.Validation, rec.LOO = PooledScore(v, loaded.Test.Len(), loo, job.N), &loo
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.j.Append(rec); err != nil {
		return nil, err
	}
	t.jobs[[2]int{job.Trial, job.Rung}] = rec
	if opts.Log != nil {
		state := fmt.Sprintf("validation %.4f", rec.Validation)
		if rec.LOO != nil {
			state = fmt.Sprintf("validation+loo %.4f (leave-one-out %.4f)", rec.Validation, *rec.LOO)
		}
		if rec.Error != "" {
			state = "failed: " + rec.Error
		}
		who := fmt.Sprintf("trial %d", job.Trial)
		if job.Trial == BaselineTrial {
			who = "baseline (your setting)"
		}
		opts.Log(fmt.Sprintf("%s rung %d (n %d): %s (%.2f s) %s", who, job.Rung, job.N, state, rec.Seconds, fmtParams(p.params)))
	}
	return &rec, nil
}

// awaitPoll is how often an array task re-reads the journal for a job another task runs.
const awaitPoll = 100 * time.Millisecond

// await waits until the job another array task claimed is in the journal (re-reading it
// every awaitPoll) and returns its record. A claim whose process on this host is gone
// is taken over and the job run here.
func (t *Study) await(ctx context.Context, p pendingJob, opts Options, loaded *engine.LoadedData) (*store.TrialRecord, error) {
	key := [2]int{p.job.Trial, p.job.Rung}
	for {
		if rec, ok := t.lookup(p.job); ok {
			if err := checkJob(rec, true, p); err != nil {
				return nil, err
			}
			return &rec, nil
		}
		j, err := store.ReadTrials(t.j.Path)
		if err != nil {
			return nil, err
		}
		t.mu.Lock()
		for _, r := range j.Trials {
			t.jobs[[2]int{r.Trial, r.Rung}] = r
		}
		_, ok := t.jobs[key]
		t.mu.Unlock()
		if ok {
			continue
		}
		if store.ClaimStale(t.Dir, p.job.Trial, p.job.Rung) {
			if ok, err := store.ClaimJob(t.Dir, p.job.Trial, p.job.Rung); err != nil {
				return nil, err
			} else if ok {
				return t.score(ctx, p, opts, loaded)
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(awaitPoll):
		}
	}
}

// SearchSeconds returns the wall time of this process's search (a resumed study: the
// part run now).
func (t *Study) SearchSeconds() float64 { return t.searchWall }

// history returns the observations TPE learns from, BOHB-style: the scores at the
// highest rung that holds at least startup of them (else rung 0), by trial.
func (t *Study) history(startup int) []tune.Observation {
	res := t.sched.Results()
	k := 0
	for r := len(res) - 1; r > 0; r-- {
		if len(res[r]) >= startup {
			k = r
			break
		}
	}
	ids := make([]int, 0, len(res[k]))
	for id := range res[k] {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	obs := make([]tune.Observation, len(ids))
	for i, id := range ids {
		obs[i] = tune.Observation{X: t.configs[id], Value: res[k][id]}
	}
	return obs
}

// PooledScore is the accuracy over two sets of held-out predictions: nv predictions of
// accuracy validation and n of accuracy loo, (nv·validation + n·loo) / (nv + n)
// (tune.score validation+loo at the last rung).
func PooledScore(validation float64, nv int, loo float64, n int) float64 {
	return (float64(nv)*validation + float64(n)*loo) / float64(nv+n)
}

// runTrial scores one configuration (spec, a plain spec with one method) trained on n
// samples of loaded.Pool: its accuracy on loaded.Test (the validation split) and, with
// loo, the leave-one-out accuracy of its RLS fit on those n samples (else 0). Pooled
// features come from cache when an earlier trial computed them (engine.FeatureCache).
func runTrial(ctx context.Context, spec *model.Spec, n int, dataDir string, loaded *engine.LoadedData, cache *engine.FeatureCache, loo bool) (validation, looAccuracy float64, err error) {
	looAcc := func() (float64, bool) { return 0, false }
	if loo {
		ctx, looAcc = engine.WithLOOScore(ctx)
	}
	s := spec.Clone()
	s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{n}, 1, false
	s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes, s.TestTransform = nil, nil, nil, nil, nil, nil
	exactAtOrBelowCentres(s, n)
	var out *eval.Outcome
	for e := range engine.Start(ctx, s, engine.RunOptions{DataDir: dataDir, Loaded: loaded, NoMatrices: true, Features: cache}) {
		if d, ok := e.(eval.Done); ok {
			out, err = d.Outcome, d.Err
		}
	}
	if err != nil {
		return 0, 0, err
	}
	if out == nil || len(out.Series) == 0 || len(out.Series[0].Points) == 0 {
		return 0, 0, errors.New("the trial produced no accuracy")
	}
	validation = out.Series[0].Points[0].Mean
	if loo {
		acc, ok := looAcc()
		if !ok {
			return 0, 0, fmt.Errorf("%s gave no leave-one-out accuracy: tune.score loo and validation+loo need an RLS fit (learner rls); use tune.score validation", s.Methods[0].DisplayName())
		}
		return validation, acc, nil
	}
	return validation, 0, nil
}

// exactAtOrBelowCentres drops solver nystrom (and its centres) from the methods of the
// one-size trial spec s whose n training samples are at most their centres: there the
// Nyström method fits exactly (leave-one-out lambda, Method.NystromAt), as a curve's cell
// at such a size does, and a spec whose only size is at most its centres is refused by
// Validate. The fit, and so the trial's score, is the one the method gives at n.
func exactAtOrBelowCentres(s *model.Spec, n int) {
	for i := range s.Methods {
		if m := &s.Methods[i]; m.Nystrom() && n <= m.Centres {
			m.Solver, m.Centres = "", 0
		}
	}
}

// Best returns the best trial: the highest validation accuracy at the highest rung
// reached (ties: the lower trial), that rung's training size n, its parameters and
// validation accuracy.
//
// The baseline (tune.baseline), scored at the highest rung a trial reached, is the
// best when its score is at least the best trial's there (ties: the baseline, the
// spec's own setting, as a lower trial wins a tie); trial is then BaselineTrial.
func (t *Study) Best() (trial, n int, params map[string]any, validation float64, ok bool) {
	id, k, v, ok := tune.Best(t.sched.Results())
	if t.baseWins(k, v, ok) {
		return BaselineTrial, t.base.rec.N, t.base.params, t.base.rec.Validation, true
	}
	if !ok {
		return 0, 0, nil, 0, false
	}
	_, params, _ = t.Spec.TrialSpec(t.Params, t.configs[id])
	return id, t.Sizes[k], params, v, true
}

// baseWins reports whether the baseline beats the best trial, of score v at rung k (ok:
// a trial was scored): see Best.
func (t *Study) baseWins(k int, v float64, ok bool) bool {
	if !t.base.scored() {
		return false
	}
	return !ok || k < t.base.rec.Rung || k == t.base.rec.Rung && t.base.rec.Validation >= v
}

// BestSpec returns the plain spec of the best configuration refit at RefitN: the
// spec's protocol becomes a sample-complexity curve at that one size with one draw (the
// tune block dropped), which `gitui run` runs as it runs any spec.
func (t *Study) BestSpec() (*model.Spec, error) {
	id, _, _, _, ok := t.Best()
	if !ok {
		return nil, errors.New("no trial was scored: nothing to refit")
	}
	return t.RefitSpec(id, "-best")
}

// RefitSpec returns the plain spec of trial id's configuration (BaselineTrial: the
// baseline's) refit at RefitN (as BestSpec), its name suffixed with suffix, with its
// defaults filled and validated.
func (t *Study) RefitSpec(id int, suffix string) (*model.Spec, error) {
	var s *model.Spec
	if id == BaselineTrial && t.base != nil {
		s = t.base.spec.Clone()
	} else {
		x, ok := t.configs[id]
		if !ok {
			return nil, fmt.Errorf("trial %d is not in the study: nothing to refit", id)
		}
		var err error
		if s, _, err = t.Spec.TrialSpec(t.Params, x); err != nil {
			return nil, err
		}
	}
	s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{t.RefitN}, 1, false
	s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes = nil, nil, nil, nil, nil
	s.Name += suffix
	s.Defaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// Top returns up to k trials in the order the study ranks them, the best first (Best):
// those scored at the highest rung by validation (ties: the lower trial), then those
// that stopped one rung lower, and so on. Failed trials are left out. The baseline,
// when scored, ranks among those of its rung (before a trial of the same score).
func (t *Study) Top(k int) []TopInfo {
	res := t.sched.Results()
	var out []TopInfo
	seen := map[int]bool{}
	addBase := func() {
		b := t.base
		out = append(out, TopInfo{Rank: len(out) + 1, Refit: Refit{Trial: BaselineTrial, Params: b.params, Validation: b.rec.Validation, ValidationN: b.rec.N, Baseline: true}})
	}
	baseLeft := t.base.scored()
	for r := len(res) - 1; r >= 0 && len(out) < k; r-- {
		for _, id := range tune.Ranked(res[r]) {
			if baseLeft && r == t.base.rec.Rung && t.base.rec.Validation >= res[r][id] && len(out) < k {
				addBase()
				baseLeft = false
			}
			if len(out) >= k {
				break
			}
			if seen[id] || t.errs[id] != "" {
				continue
			}
			seen[id] = true
			_, params, _ := t.Spec.TrialSpec(t.Params, t.configs[id])
			out = append(out, TopInfo{Rank: len(out) + 1, Refit: Refit{Trial: id, Params: params, Validation: res[r][id], ValidationN: t.Sizes[r]}})
		}
		if baseLeft && r == t.base.rec.Rung && len(out) < k {
			addBase()
			baseLeft = false
		}
	}
	return out
}

// WriteBestSpec writes best.spec.json and returns its path.
func (t *Study) WriteBestSpec(s *model.Spec) (string, error) {
	b, _ := json.MarshalIndent(s, "", "  ")
	path := filepath.Join(t.Dir, BestSpecFile)
	return path, model.WriteFileAtomic(path, append(b, '\n'))
}

// WriteStudy writes study.json from the journal's results; test is the refit's test
// accuracy (nil before the refit).
func (t *Study) WriteStudy(test *float64) error {
	return store.WriteStudy(t.Dir, t.file(test))
}

// file is study.json as WriteStudy writes it.
func (t *Study) file(test *float64) *File {
	sampler, pruner, eta := t.settings()
	f := File{Schema: StudySchema, Sampler: sampler, Pruner: pruner, Eta: eta, Rungs: t.Sizes, Workers: t.Lag, Validation: t.Validation, Pool: t.PoolN, SearchSeconds: t.searchWall}
	if t.Score == model.TuneLOO || t.Score == model.TunePooled {
		f.Score = t.Score
	}
	res := t.sched.Results()
	ids := make([]int, 0, len(t.configs))
	for id := range t.configs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		_, params, _ := t.Spec.TrialSpec(t.Params, t.configs[id])
		ti := TrialInfo{ID: id, Params: params, State: "running"}
		for k, r := range res {
			if v, ok := r[id]; ok {
				ti.Rungs = append(ti.Rungs, RungInfo{N: t.Sizes[k], Validation: v, LOO: t.jobs[[2]int{id, k}].LOO})
			}
		}
		switch {
		case t.errs[id] != "":
			ti.State, ti.Error = "failed", t.errs[id]
		case len(ti.Rungs) == len(t.Sizes):
			ti.State = "complete"
		case t.finished:
			ti.State = "pruned"
		}
		f.Trials = append(f.Trials, ti)
	}
	if id, n, params, v, ok := t.Best(); ok {
		f.Best = &BestInfo{Refit: Refit{Trial: id, Params: params, Validation: v, ValidationN: n, Test: test, Baseline: id == BaselineTrial}, N: t.RefitN, Compared: len(ids)}
	}
	f.Top = t.top
	f.Baseline = t.baselineInfo()
	return &f
}

// baselineInfo is study.json's baseline (nil when tune.baseline is off or it was not
// scored).
func (t *Study) baselineInfo() *store.BaselineInfo {
	b := t.base
	if b == nil || b.rec == nil {
		return nil
	}
	id, _, _, _, _ := t.Best()
	return &store.BaselineInfo{Params: b.params, Validation: b.rec.Validation, ValidationN: b.rec.N, Best: b.scored() && id == BaselineTrial,
		Test: b.test, Dir: b.dir, Error: b.rec.Error}
}

func sameParams(a, b map[string]any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func fmtParams(p map[string]any) string {
	b, _ := json.Marshal(p)
	return string(b)
}

func oneLine(s string) string {
	out := []rune{}
	for _, r := range s {
		if r == '\n' {
			out = append(out, ';', ' ')
			continue
		}
		out = append(out, r)
	}
	return string(out)
}

// testRows returns the test rows the refit will score, for the study's time estimate
// before the test set is loaded: data.test_size, else the official count of a data set
// of fixed size (engine.KnownDataSize) or of one whose test set is fixed by its name
// (engine.ListingDataSize: MNIST's 10,000 test digits, whichever training pool the data
// directory holds), else the validation split's size as a guess.
func (t *Study) testRows() int {
	if n := t.Spec.Data.TestSize; n > 0 {
		return n
	}
	if ds, ok := engine.KnownDataSize(t.Spec.Data); ok {
		return ds.Test
	}
	if ds, ok := engine.ListingDataSize(t.Spec); ok && ds.Test > 0 {
		return ds.Test
	}
	return max(t.Validation, 1)
}

// unwrapPath returns the cause of a *fs.PathError (its path is in the message already).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

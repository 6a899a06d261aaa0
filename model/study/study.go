package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/sys/unix"

	"gitui/core/eval"
	"gitui/core/tune"
	"gitui/model"
	"gitui/model/engine"
)

// Study is an open study directory: its spec (with the tune block), the parsed search
// space, and the journal of scored jobs.
type Study struct {
	Dir    string
	Spec   *model.Spec
	Params []model.TuneParam
	// Resumed is the number of jobs found in the journal when the study was opened.
	Resumed int

	j      *journal
	unlock func()

	// Set by Search.
	Sizes      []int // the rungs' training sizes
	Trials     int   // configurations compared
	Validation int   // validation samples
	RefitN     int   // training size of the final refit
	PoolN      int   // the training pool (training part + validation)
	configs    map[int][]float64
	sched      tune.Scheduler
	errs       map[int]string
	finished   bool
	searchWall float64
}

// Open opens the study directory dir. With a spec, it creates the directory (writing
// spec.json) or, when dir already holds a study, checks that it is of the same spec;
// with a nil spec it reads dir/spec.json (resume). The spec must carry a tune block that
// validates; errors are *model.InputError when the input is at fault.
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
	if err := spec.Validate(); err != nil {
		return nil, &model.InputError{Err: err}
	}
	ps, err := spec.TuneSpace()
	if err != nil {
		return nil, &model.InputError{Err: err}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the study directory: %w", err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	if old, err := model.LoadSpec(specPath); err == nil {
		if SpecHash(old) != SpecHash(spec) {
			unlock()
			return nil, &model.InputError{Err: fmt.Errorf("%s holds a study of another spec: give a new --out, or `gitui resume %s` to continue it", dir, dir)}
		}
	} else {
		b, _ := json.MarshalIndent(spec, "", "  ")
		if err := writeAtomic(specPath, append(b, '\n')); err != nil {
			unlock()
			return nil, err
		}
	}
	j, err := openJournal(dir, SpecHash(spec))
	if err != nil {
		unlock()
		return nil, &model.InputError{Err: err}
	}
	return &Study{Dir: dir, Spec: spec, Params: ps, j: j, Resumed: len(j.jobs), unlock: unlock}, nil
}

// lockDir takes an exclusive lock on dir/study.lock (flock: the kernel releases it when
// the process dies, even by SIGKILL), so that one process at a time writes a study.
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, &model.InputError{Err: fmt.Errorf("the study directory %s is not writable (%v): choose another --out", dir, err)}
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, &model.InputError{Err: fmt.Errorf("%s is in use by another gitui process: wait for it to finish, or choose another --out", dir)}
	}
	return func() { f.Close() }, nil
}

// Close closes the journal and releases the directory's lock.
func (s *Study) Close() error {
	err := s.j.close()
	s.unlock()
	return err
}

// Discard removes what Open and Search wrote (spec.json, trials.jsonl, split.json, and
// the directory when it is then empty), provided no job was ever journaled: bad input
// found when the data is loaded leaves nothing behind. It reports whether it removed them.
func (s *Study) Discard() bool {
	if len(s.j.jobs) > 0 {
		return false
	}
	s.j.close()
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

// Search runs (or continues) the search: it loads the training pool (never the test
// set), carves the validation split, and scores the jobs the scheduler gives, taking
// those already in the journal from it. It returns when the scheduler is finished, or
// ctx is cancelled (ctx.Err(); every scored job is in the journal).
func (t *Study) Search(ctx context.Context, opts Options) error {
	start := time.Now()
	tb := t.Spec.Tune
	samplerName, pruner, eta := t.settings()
	pool, err := engine.LoadPool(ctx, t.Spec.Data, opts.DataDir, t.Spec.Seed)
	if err != nil {
		return err
	}
	t.PoolN = pool.Len()
	t.Validation = tb.Validation
	if t.Validation == 0 {
		t.Validation = pool.Len() / 5
	}
	train, val, valIdx, err := engine.ValidationSplit(pool, t.Validation, t.Spec.Seed)
	if err != nil {
		return err
	}
	// split.json: the pool rows of the validation split (0-based, in the pool's order
	// after data.classes and data.pool), so that a peer can search on the same split.
	sb, _ := json.Marshal(map[string]any{"pool": pool.Len(), "validation": valIdx})
	if err := writeAtomic(filepath.Join(t.Dir, SplitFile), append(sb, '\n')); err != nil {
		return err
	}
	t.RefitN = tb.RefitN
	if t.RefitN == 0 {
		t.RefitN = pool.Len()
		if t.Spec.Protocol == model.ProtocolCurve && len(t.Spec.Sizes) > 0 {
			t.RefitN = min(slices.Max(t.Spec.Sizes), pool.Len())
		}
	}
	if t.RefitN > pool.Len() {
		return &model.InputError{Err: fmt.Errorf("tune.refit_n %d is larger than the pool of %d samples: use at most %d", t.RefitN, pool.Len(), pool.Len())}
	}
	maxN := tb.MaxN
	if maxN == 0 {
		maxN = min(train.Len(), t.RefitN)
	}
	if maxN > train.Len() {
		return &model.InputError{Err: fmt.Errorf("tune.max_n %d is larger than the %d training samples left beside the validation split of %d: use at most %d, or a smaller tune.validation", maxN, train.Len(), t.Validation, train.Len())}
	}
	minN := tb.MinN
	if minN == 0 {
		minN = max(2, int(math.Ceil(float64(maxN)/float64(eta*eta*eta))))
	}
	rungs, err := tune.Rungs(minN, maxN, eta)
	if err != nil {
		return &model.InputError{Err: err}
	}
	sp := t.space()
	grid := tune.Grid{Space: sp, Points: tb.GridPoints}
	t.Trials = tb.Trials
	if t.Trials == 0 {
		t.Trials = int(math.Pow(float64(eta), float64(len(rungs)-1)))
		if samplerName == "grid" {
			t.Trials = grid.Size()
		}
	}
	var sampler tune.Sampler
	switch samplerName {
	case "random":
		sampler = tune.Random{Space: sp, Seed: t.Spec.Seed}
	case "quasi":
		sampler = tune.Halton{Space: sp, Seed: t.Spec.Seed}
	case "grid":
		sampler = grid
	default:
		sampler = tune.TPE{Space: sp, Seed: t.Spec.Seed, Startup: tb.Startup}
	}
	switch pruner {
	case "sh":
		t.sched = tune.NewHalving(rungs, eta, t.Trials)
	case "hyperband":
		h := tune.NewHyperband(rungs, eta)
		t.sched, t.Trials = h, h.Trials()
	case "none":
		rungs = []int{maxN}
		t.sched = tune.NewHalving(rungs, eta, t.Trials)
	default:
		t.sched = tune.NewASHA(rungs, eta, t.Trials)
	}
	t.Sizes = rungs
	t.configs, t.errs = map[int][]float64{}, map[int]string{}
	startup := tb.Startup
	if startup == 0 {
		startup = 10
	}
	loaded := &engine.LoadedData{Pool: train, Test: val}
	for {
		job, ok := t.sched.Next()
		if !ok {
			if t.sched.Finished() {
				break
			}
			return fmt.Errorf("internal error (please report): the scheduler waits with no job running")
		}
		if job.Rung == 0 || t.configs[job.Trial] == nil {
			t.configs[job.Trial] = sampler.Sample(job.Trial, t.history(startup))
		}
		x := t.configs[job.Trial]
		spec, params, err := t.Spec.TrialSpec(t.Params, x)
		if err != nil {
			return &model.InputError{Err: err}
		}
		rec, done := t.j.jobs[[2]int{job.Trial, job.Rung}]
		if done && (rec.N != job.N || !sameParams(rec.Params, params)) {
			return &model.InputError{Err: fmt.Errorf("%s: trial %d at rung %d does not match this study's schedule (journaled n %d, params %v; now n %d, %v): the journal is of another gitui; start a new study", TrialsFile, job.Trial, job.Rung, rec.N, rec.Params, job.N, params)}
		}
		if !done {
			t0 := time.Now()
			v, err := runTrial(ctx, spec, job.N, opts.DataDir, loaded)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rec = jobRecord{Trial: job.Trial, Rung: job.Rung, N: job.N, Params: params, Validation: v, Seconds: time.Since(t0).Seconds()}
			if err != nil {
				rec.Error, rec.Validation = oneLine(err.Error()), 0
			}
			if err := t.j.append(rec); err != nil {
				return err
			}
			if opts.Log != nil {
				state := fmt.Sprintf("validation %.4f", rec.Validation)
				if rec.Error != "" {
					state = "failed: " + rec.Error
				}
				opts.Log(fmt.Sprintf("trial %d rung %d (n %d): %s (%.2f s) %s", job.Trial, job.Rung, job.N, state, rec.Seconds, fmtParams(params)))
			}
		}
		if rec.Error != "" {
			t.errs[job.Trial] = rec.Error
		}
		t.sched.Report(job, rec.Validation)
	}
	t.finished = true
	t.searchWall = time.Since(start).Seconds()
	return t.WriteStudy(nil)
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

// runTrial scores one configuration (spec, a plain spec with one method) trained on n
// samples of loaded.Pool, on loaded.Test (the validation split): its accuracy.
// (When the engine moves to model/engine, this engine.Start is engine.Start.)
func runTrial(ctx context.Context, spec *model.Spec, n int, dataDir string, loaded *engine.LoadedData) (float64, error) {
	s := spec.Clone()
	s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{n}, 1, false
	s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes, s.TestTransform = nil, nil, nil, nil, nil, nil
	var out *eval.Outcome
	var err error
	for e := range engine.Start(ctx, s, engine.RunOptions{DataDir: dataDir, Loaded: loaded, NoMatrices: true}) {
		if d, ok := e.(eval.Done); ok {
			out, err = d.Outcome, d.Err
		}
	}
	if err != nil {
		return 0, err
	}
	if out == nil || len(out.Series) == 0 || len(out.Series[0].Points) == 0 {
		return 0, errors.New("the trial produced no accuracy")
	}
	return out.Series[0].Points[0].Mean, nil
}

// Best returns the best trial: the highest validation accuracy at the highest rung
// reached (ties: the lower trial), that rung's training size n, its parameters and
// validation accuracy.
func (t *Study) Best() (trial, n int, params map[string]any, validation float64, ok bool) {
	id, k, v, ok := tune.Best(t.sched.Results())
	if !ok {
		return 0, 0, nil, 0, false
	}
	_, params, _ = t.Spec.TrialSpec(t.Params, t.configs[id])
	return id, t.Sizes[k], params, v, true
}

// BestSpec returns the plain spec of the best configuration refit at RefitN: the
// spec's protocol becomes a sample-complexity curve at that one size with one draw (the
// tune block dropped), which `gitui run` runs as it runs any spec.
func (t *Study) BestSpec() (*model.Spec, error) {
	id, _, _, ok := tune.Best(t.sched.Results())
	if !ok {
		return nil, errors.New("no trial was scored: nothing to refit")
	}
	s, _, err := t.Spec.TrialSpec(t.Params, t.configs[id])
	if err != nil {
		return nil, err
	}
	s.Protocol, s.Sizes, s.Repeats, s.Nested = model.ProtocolCurve, []int{t.RefitN}, 1, false
	s.Grid, s.Sweep, s.PD, s.Approx, s.GroupSizes = nil, nil, nil, nil, nil
	s.Name += "-best"
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// WriteBestSpec writes best.spec.json and returns its path.
func (t *Study) WriteBestSpec(s *model.Spec) (string, error) {
	b, _ := json.MarshalIndent(s, "", "  ")
	path := filepath.Join(t.Dir, BestSpecFile)
	return path, writeAtomic(path, append(b, '\n'))
}

// File is study.json (schema gitui.study/v1).
type File struct {
	Schema        string      `json:"schema"`
	Sampler       string      `json:"sampler"`
	Pruner        string      `json:"pruner"`
	Eta           int         `json:"eta"`
	Rungs         []int       `json:"rungs"`
	Validation    int         `json:"validation_size"`
	Pool          int         `json:"pool"`
	SearchSeconds float64     `json:"search_seconds,omitempty"`
	Trials        []TrialInfo `json:"trials"`
	Best          *BestInfo   `json:"best,omitempty"`
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
}

// BestInfo is the best configuration: its validation accuracy at the highest rung it
// reached (trained on ValidationN samples), the test accuracy of its refit at N samples
// (nil until the refit ran), and how many configurations were compared.
type BestInfo struct {
	Trial       int            `json:"trial"`
	Params      map[string]any `json:"params"`
	Validation  float64        `json:"validation"`
	ValidationN int            `json:"validation_n"`
	Test        *float64       `json:"test,omitempty"`
	N           int            `json:"n"`
	Compared    int            `json:"compared"`
}

// WriteStudy writes study.json from the journal's results; test is the refit's test
// accuracy (nil before the refit).
func (t *Study) WriteStudy(test *float64) error {
	sampler, pruner, eta := t.settings()
	f := File{Schema: StudySchema, Sampler: sampler, Pruner: pruner, Eta: eta, Rungs: t.Sizes, Validation: t.Validation, Pool: t.PoolN, SearchSeconds: t.searchWall}
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
				ti.Rungs = append(ti.Rungs, RungInfo{N: t.Sizes[k], Validation: v})
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
		f.Best = &BestInfo{Trial: id, Params: params, Validation: v, ValidationN: n, Test: test, N: t.RefitN, Compared: len(ids)}
	}
	b, _ := json.MarshalIndent(f, "", "  ")
	return writeAtomic(filepath.Join(t.Dir, StudyFile), append(b, '\n'))
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

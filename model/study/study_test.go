package study

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// writeBlobs writes n samples of three Gaussian blobs in 4-D (labels last) to path.
func writeBlobs(t *testing.T, path string, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	for i := 0; i < n; i++ {
		c := i % 3
		for k := 0; k < 4; k++ {
			center := 0.0
			if k == c {
				center = 1.5
			}
			fmt.Fprintf(&b, "%.6f,", center+rng.NormFloat64())
		}
		fmt.Fprintf(&b, "%d\n", c)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// blobSpec is a study of an RBF SVM's gamma and C on blobs: train.csv in dir, the test
// set in testPath (which need not exist during the search).
func blobSpec(dir, testPath string) *model.Spec {
	return &model.Spec{
		Name: "blobs", Protocol: model.ProtocolCurve, Seed: 4,
		Data:    model.DataSpec{Name: "file", Path: filepath.Join(dir, "train.csv"), TestPath: testPath},
		Methods: []model.Method{{Kernel: "rbf", Learner: "svm", Gamma: 1, C: 1}},
		Sizes:   []int{600},
		Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "log:0.001..10", "methods.0.c": "log:0.1..100"},
			Trials: 27, Validation: 150, MinN: 20, MaxN: 540},
	}
}

// The search never reads the test set: it runs to the end while the test file does not
// exist (reading it would fail), and only the refit of best.spec.json, after the file
// is written, reads it.
func TestSearchNeverReadsTheTestSet(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	testPath := filepath.Join(dir, "test.csv")
	st, err := Open(filepath.Join(dir, "study"), blobSpec(dir, testPath))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Search(context.Background(), Options{}); err != nil {
		t.Fatalf("search with no test file on disk: %v", err)
	}
	if st.Validation != 150 || st.PoolN != 750 || !reflect.DeepEqual(st.Sizes, []int{20, 60, 180, 540}) {
		t.Fatalf("validation %d of pool %d, rungs %v", st.Validation, st.PoolN, st.Sizes)
	}
	// split.json: 150 distinct pool rows, stratified (the blobs' classes are row % 3).
	var split struct {
		Pool       int   `json:"pool"`
		Validation []int `json:"validation"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "study", SplitFile))
	if err := json.Unmarshal(b, &split); err != nil {
		t.Fatal(err)
	}
	perClass, seen := make([]int, 3), map[int]bool{}
	for _, i := range split.Validation {
		if seen[i] || i < 0 || i >= 750 {
			t.Fatalf("validation row %d repeated or outside the pool", i)
		}
		seen[i] = true
		perClass[i%3]++
	}
	if split.Pool != 750 || len(seen) != 150 || !reflect.DeepEqual(perClass, []int{50, 50, 50}) {
		t.Fatalf("split.json: pool %d, %d rows, per class %v; want 750, 150, [50 50 50]", split.Pool, len(seen), perClass)
	}
	best, err := st.BestSpec()
	if err != nil {
		t.Fatal(err)
	}
	if best.Tune != nil || !reflect.DeepEqual(best.Sizes, []int{600}) || best.Repeats != 1 {
		t.Fatalf("best spec: tune %v, sizes %v, repeats %d", best.Tune, best.Sizes, best.Repeats)
	}
	// The refit fails without the test file, and runs once it is there.
	if _, err := refit(best); err == nil || !strings.Contains(err.Error(), "test.csv") {
		t.Fatalf("refit without the test file: %v, want an error naming test.csv", err)
	}
	writeBlobs(t, testPath, 300, 2)
	acc, err := refit(best)
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, val, _ := st.Best()
	if acc < 0.6 || val < 0.6 {
		t.Fatalf("blobs: validation %.3f, test %.3f, want both above 0.6", val, acc)
	}
}

func refit(s *model.Spec) (float64, error) {
	var out *eval.Outcome
	var err error
	for e := range engine.Start(context.Background(), s, engine.RunOptions{NoMatrices: true}) {
		if d, ok := e.(eval.Done); ok {
			out, err = d.Outcome, d.Err
		}
	}
	if err != nil {
		return 0, err
	}
	return out.Series[0].Points[0].Mean, nil
}

func readStudy(t *testing.T, dir string) File {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, StudyFile))
	if err != nil {
		t.Fatal(err)
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	f.SearchSeconds = 0
	return f
}

// A study interrupted after some jobs, with a torn last line in its journal (as a kill
// mid-write leaves it) and one line whose bytes changed, resumes to the same trials
// and best as an uninterrupted study of the same seed, for every pruner.
func TestResumeGivesTheSameStudy(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	for _, pruner := range []string{"asha", "sh", "hyperband"} {
		spec := blobSpec(dir, filepath.Join(dir, "absent.csv"))
		spec.Tune.Pruner = pruner
		whole := filepath.Join(dir, pruner+"-whole")
		st, err := Open(whole, spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Search(context.Background(), Options{}); err != nil {
			t.Fatal(err)
		}
		st.Close()

		cut := filepath.Join(dir, pruner+"-cut")
		st, err = Open(cut, spec)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		jobs := 0
		err = st.Search(ctx, Options{Log: func(string) {
			if jobs++; jobs == 17 {
				cancel()
			}
		}})
		cancel()
		st.Close()
		if err != context.Canceled {
			t.Fatalf("%s: interrupted search returned %v", pruner, err)
		}
		jpath := filepath.Join(cut, TrialsFile)
		b, _ := os.ReadFile(jpath)
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		lines[5] = strings.Replace(lines[5], `"validation":0.`, `"validation":1.`, 1) // a changed byte: CRC fails
		torn := lines[len(lines)-1][:20]
		os.WriteFile(jpath, []byte(strings.Join(lines, "\n")+"\n"+torn), 0o644)

		st, err = Open(cut, nil) // gitui resume: the spec from spec.json
		if err != nil {
			t.Fatal(err)
		}
		if st.Resumed != len(lines)-3 { // the header, the inputs line and the damaged line
			t.Fatalf("%s: resumed %d jobs, want %d", pruner, st.Resumed, len(lines)-3)
		}
		if err := st.Search(context.Background(), Options{}); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if d, _ := os.ReadFile(filepath.Join(cut, DamagedFile)); strings.Count(string(d), "\n") != 2 {
			t.Fatalf("%s: damaged lines kept: %q, want 2", pruner, d)
		}
		a, c := readStudy(t, whole), readStudy(t, cut)
		if !reflect.DeepEqual(a, c) {
			t.Fatalf("%s: resumed study differs:\n%+v\n%+v", pruner, a.Best, c.Best)
		}
		if a.Best == nil || a.Best.Compared != len(a.Trials) {
			t.Fatalf("%s: best %+v of %d trials", pruner, a.Best, len(a.Trials))
		}
	}
}

// A spec changed under a study is refused.
func TestOpenRefusesAnotherSpec(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 300, 1)
	spec := blobSpec(dir, "")
	st, err := Open(filepath.Join(dir, "s"), spec)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	spec.Tune.Trials = 9
	_, err = Open(filepath.Join(dir, "s"), spec)
	var ie *model.InputError
	if err == nil || !strings.Contains(err.Error(), "another spec") || !asInput(err, &ie) {
		t.Fatalf("another spec in the same directory: %v", err)
	}
}

func asInput(err error, ie **model.InputError) bool {
	e, ok := err.(*model.InputError)
	*ie = e
	return ok
}

// One process at a time: a second Open of a study in use is refused, and the lock is
// released by Close.
func TestOpenLocksTheDirectory(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 300, 1)
	spec := blobSpec(dir, "")
	st, err := Open(filepath.Join(dir, "s"), spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(dir, "s"), spec); err == nil || !strings.Contains(err.Error(), "in use by another gitui process") {
		t.Fatalf("second Open while the first holds it: %v", err)
	}
	st.Close()
	st, err = Open(filepath.Join(dir, "s"), nil)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	st.Close()
}

// The trials and best of a study depend on its seed and tune.workers, not on how many
// jobs actually run at once: for tune.workers 2 and 3 (and 1, the sequential study), a
// study run one job at a time and one run with every worker give the same study.json;
// the journal's jobs are the same set. The workers run on 4 Ps whatever the machine
// has, so that jobs do overlap and finish out of order.
func TestWorkersDoNotChangeTheStudy(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	for _, lag := range []int{1, 2, 3} {
		spec := blobSpec(dir, filepath.Join(dir, "absent.csv"))
		spec.Tune.Workers = lag
		var studies []File
		var jobs []map[string]bool
		for _, w := range []int{1, lag} {
			out := filepath.Join(dir, fmt.Sprintf("lag%d-w%d", lag, w))
			st, err := Open(out, spec)
			if err != nil {
				t.Fatal(err)
			}
			if err := st.Search(context.Background(), Options{Workers: w}); err != nil {
				t.Fatal(err)
			}
			if st.Workers != w {
				t.Fatalf("tune.workers %d, --workers %d: ran %d at once", lag, w, st.Workers)
			}
			st.Close()
			studies = append(studies, readStudy(t, out))
			set := map[string]bool{}
			j, err := store.ReadTrials(filepath.Join(out, TrialsFile))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range j.Trials {
				set[fmt.Sprintf("%d/%d/%d/%v/%s", r.Trial, r.Rung, r.N, r.Validation, fmtParams(r.Params))] = true
			}
			jobs = append(jobs, set)
		}
		if !reflect.DeepEqual(studies[0], studies[1]) {
			t.Fatalf("tune.workers %d: one worker and %d give different studies:\n%+v\n%+v", lag, lag, studies[0].Best, studies[1].Best)
		}
		if !reflect.DeepEqual(jobs[0], jobs[1]) || len(jobs[0]) == 0 {
			t.Fatalf("tune.workers %d: the journals hold different jobs (%d and %d)", lag, len(jobs[0]), len(jobs[1]))
		}
		if studies[0].Best == nil || studies[0].Workers != lag {
			t.Fatalf("tune.workers %d: study.json has workers %d, best %+v", lag, studies[0].Workers, studies[0].Best)
		}
	}
}

// A min_n just above max_n/eta^k leaves the last rung under half of max_n: the search
// says so and names the min_n that ends nearer max_n; rungs reaching near max_n say
// nothing.
func TestLastRungNotice(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 750, 1)
	for _, c := range []struct {
		minN   int
		notice string
	}{
		{61, "notice: the last rung is 183, under half of tune.max_n 540 (rungs are min_n·eta^k up to max_n): tune.min_n 60 gives 3 rungs up to 540"},
		{60, ""},
	} {
		s := blobSpec(dir, filepath.Join(dir, "test.csv"))
		s.Tune.MinN, s.Tune.Trials = c.minN, 3
		st, err := Open(filepath.Join(dir, "study", strconv.Itoa(c.minN)), s)
		if err != nil {
			t.Fatal(err)
		}
		var notices []string
		err = st.Search(context.Background(), Options{Log: func(l string) {
			if strings.HasPrefix(l, "notice:") {
				notices = append(notices, l)
			}
		}})
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		want := []string{c.notice}
		if c.notice == "" {
			want = nil
		}
		if !reflect.DeepEqual(notices, want) {
			t.Errorf("min_n %d: notices %q, want %q", c.minN, notices, want)
		}
	}
}

// Under tune.score loo a trial's score is the leave-one-out accuracy of its RLS fit on
// its own training samples: refitting without each sample in turn (the same kernel and
// regularisation sigma = n·lambda) and predicting it gives the same accuracy, for each
// configuration. No validation split is carved and the test set is not read.
func TestLOOScoreIsLeaveOneOut(t *testing.T) {
	dir := t.TempDir()
	const n, lambda = 150, 1e-3
	writeBlobs(t, filepath.Join(dir, "train.csv"), n, 5)
	spec := &model.Spec{
		Name: "blobs-loo", Protocol: model.ProtocolCurve, Seed: 2,
		Data:    model.DataSpec{Name: "file", Path: filepath.Join(dir, "train.csv"), TestPath: filepath.Join(dir, "absent.csv")},
		Methods: []model.Method{{Kernel: "rbf", Learner: "rls", Gamma: 0.5, Lambda: lambda}},
		Sizes:   []int{n},
		Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "0.05,0.5,5"},
			Sampler: "grid", Pruner: "none", Score: model.TuneLOO, Baseline: new(bool)}, // the trials alone
	}
	sdir := filepath.Join(dir, "study")
	st, err := Open(sdir, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.Search(context.Background(), Options{}); err != nil {
		t.Fatalf("search: %v", err)
	}
	if st.Score != model.TuneLOO || st.Validation != 0 || st.PoolN != n || !reflect.DeepEqual(st.Sizes, []int{n}) {
		t.Fatalf("loo %v, validation %d, pool %d, rungs %v; want loo, 0, %d, [%d]", st.Score, st.Validation, st.PoolN, st.Sizes, n, n)
	}
	if f := readStudy(t, sdir); f.Score != model.TuneLOO || f.Validation != 0 {
		t.Fatalf("study.json: score %q, validation_size %d", f.Score, f.Validation)
	}
	jobs, err := ReadJobs(sdir)
	if err != nil || len(jobs) != 3 {
		t.Fatalf("%d jobs (%v), want 3", len(jobs), err)
	}
	pool, err := engine.LoadPool(context.Background(), spec.Data, "", spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]bool{}
	for _, j := range jobs {
		if j.Error != "" {
			t.Fatalf("trial %d: %s", j.Trial, j.Error)
		}
		gamma := j.Params["methods.0.gamma"].(float64)
		right := 0
		for i := 0; i < n; i++ {
			rest := make([]int, 0, n-1)
			for k := 0; k < n; k++ {
				if k != i {
					rest = append(rest, k)
				}
			}
			s := spec.Clone()
			s.Tune, s.Sizes, s.Repeats = nil, []int{n - 1}, 1
			s.Methods[0].Gamma, s.Methods[0].Lambda = gamma, lambda*n/(n-1) // the same sigma = n·lambda
			var out *eval.Outcome
			for e := range engine.Start(context.Background(), s, engine.RunOptions{NoMatrices: true,
				Loaded: &engine.LoadedData{Pool: pool.Subset(rest), Test: pool.Subset([]int{i})}}) {
				if d, ok := e.(eval.Done); ok {
					if d.Err != nil {
						t.Fatalf("gamma %g without sample %d: %v", gamma, i, d.Err)
					}
					out = d.Outcome
				}
			}
			if out.Series[0].Points[0].Mean == 1 {
				right++
			}
		}
		brute := float64(right) / n
		if j.Validation != brute {
			t.Errorf("gamma %g: the study's leave-one-out accuracy %.4f, refitting without each sample %.4f", gamma, j.Validation, brute)
		}
		t.Logf("gamma %g: leave-one-out %.4f, by refits %.4f", gamma, j.Validation, brute)
		seen[j.Validation] = true
	}
	if len(seen) < 2 {
		t.Errorf("the three gammas scored alike (%v): the test cannot tell a score from a constant", seen)
	}
	// Every pool sample can train under leave-one-out: max_n above the pool names it.
	big := spec.Clone()
	big.Tune.MaxN = n + 1
	st2, err := Open(filepath.Join(dir, "big"), big)
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if err := st2.Search(context.Background(), Options{}); err == nil || !strings.Contains(err.Error(), "tune.max_n 151 is larger than the pool of 150 samples: use at most 150") {
		t.Errorf("max_n above the pool under leave-one-out: %v", err)
	}
}

// TestPooledScore checks tune.score validation+loo against the same study scored on the
// split alone (grid sampler, successive halving: the same jobs): below the last rung the
// records are the split's accuracies, equal to the other study's; at the last rung the
// record pools the split's accuracy with the fit's leave-one-out accuracy, weighted by
// their numbers of predictions, and journals the leave-one-out part.
func TestPooledScore(t *testing.T) {
	dir := t.TempDir()
	const n, nv = 300, 100
	writeBlobs(t, filepath.Join(dir, "train.csv"), n, 7)
	spec := func(score string) *model.Spec {
		return &model.Spec{
			Name: "blobs-pooled", Protocol: model.ProtocolCurve, Seed: 3,
			Data:    model.DataSpec{Name: "file", Path: filepath.Join(dir, "train.csv"), TestPath: filepath.Join(dir, "absent.csv")},
			Methods: []model.Method{{Kernel: "rbf", Learner: "rls", Lambda: 1e-3}},
			Sizes:   []int{n},
			Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "0.05,0.1,0.2,0.3,0.5,1,2,5,10"},
				Sampler: "grid", Pruner: "sh", MinN: 66, MaxN: 198, Validation: nv, Score: score, Baseline: new(bool)}, // the trials alone
		}
	}
	search := func(score string) []Job {
		sdir := filepath.Join(dir, "study-"+score)
		st, err := Open(sdir, spec(score))
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if err := st.Search(context.Background(), Options{}); err != nil {
			t.Fatalf("search (%s): %v", score, err)
		}
		if !reflect.DeepEqual(st.Sizes, []int{66, 198}) {
			t.Fatalf("rungs %v, want [66 198]", st.Sizes)
		}
		jobs, err := ReadJobs(sdir)
		if err != nil {
			t.Fatal(err)
		}
		return jobs
	}
	plain, pooled := search("validation"), search(model.TunePooled)
	if len(plain) != len(pooled) || len(plain) < 4 {
		t.Fatalf("%d jobs on the split, %d pooled: want the same jobs, at least 4", len(plain), len(pooled))
	}
	j, err := store.ReadTrials(filepath.Join(dir, "study-"+model.TunePooled, TrialsFile))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]float64]bool{}
	byJob := map[[2]int]int{} // the journal's lines are in the order the jobs ended
	for i, q := range pooled {
		byJob[[2]int{q.Trial, q.Rung}] = i
	}
	last := 0
	for _, p := range plain {
		i, ok := byJob[[2]int{p.Trial, p.Rung}]
		if !ok {
			t.Fatalf("trial %d rung %d was scored on the split, not pooled", p.Trial, p.Rung)
		}
		q, rec := pooled[i], j.Trials[i]
		if p.N != q.N || p.Error != "" || q.Error != "" {
			t.Fatalf("trial %d rung %d: n %d (%q) on the split, n %d (%q) pooled", p.Trial, p.Rung, p.N, p.Error, q.N, q.Error)
		}
		if p.Rung == 0 {
			if q.Validation != p.Validation || rec.LOO != nil {
				t.Errorf("trial %d below the last rung: pooled %v (loo %v), want the split's %v and no loo", p.Trial, q.Validation, rec.LOO, p.Validation)
			}
			continue
		}
		last++
		if rec.LOO == nil || *rec.LOO <= 0 || *rec.LOO > 1 {
			t.Fatalf("trial %d at the last rung: leave-one-out %v, want an accuracy in (0, 1]", p.Trial, rec.LOO)
		}
		loo := *rec.LOO
		want := (nv*p.Validation + float64(p.N)*loo) / float64(nv+p.N)
		if math.Abs(q.Validation-want) > 1e-12 {
			t.Errorf("trial %d at n %d: pooled %v, want (%d·%v + %d·%v)/%d = %v", p.Trial, p.N, q.Validation, nv, p.Validation, p.N, loo, nv+p.N, want)
		}
		t.Logf("trial %d at n %d: split %.4f, leave-one-out %.4f, pooled %.4f", p.Trial, p.N, p.Validation, loo, q.Validation)
		seen[[2]float64{p.Validation, loo}] = true
	}
	if len(seen) < 2 {
		t.Errorf("the last rung's trials pooled alike (%v): the test cannot tell the weights apart", seen)
	}
	if last != 3 {
		t.Fatalf("%d jobs at the last rung, want 3 (9 configurations, eta 3)", last)
	}
	f := readStudy(t, filepath.Join(dir, "study-"+model.TunePooled))
	if f.Score != model.TunePooled || f.Validation != nv {
		t.Errorf("study.json: score %q, validation_size %d; want %q, %d", f.Score, f.Validation, model.TunePooled, nv)
	}
	for _, tr := range f.Trials {
		for k, r := range tr.Rungs {
			if (k == len(f.Rungs)-1) != (r.LOO != nil) {
				t.Errorf("study.json trial %d rung %d: loo %v (only the last rung pools)", tr.ID, k, r.LOO)
			}
		}
	}
}

// TestTrialAtOrBelowCentresFitsExactly runs a study of a Nyström method (raw features,
// the Gaussian kernel, 60 centres) whose rungs are 20, 60 and 180 training samples: the
// jobs at 20 and 60, at most the centres, are the exact fit, as a curve's cells at those
// sizes are (a spec whose only size is at most its centres is refused), and score what
// the same study without solver nystrom scores there, to the last digit; the job at 180
// is the Nyström fit, and scored.
func TestTrialAtOrBelowCentresFitsExactly(t *testing.T) {
	dir := t.TempDir()
	writeBlobs(t, filepath.Join(dir, "train.csv"), 300, 7)
	spec := &model.Spec{
		Name: "blobs-nystrom", Protocol: model.ProtocolCurve, Seed: 3,
		Data:    model.DataSpec{Name: "file", Path: filepath.Join(dir, "train.csv"), TestPath: filepath.Join(dir, "absent.csv")},
		Methods: []model.Method{{Features: "raw", FeatureKernel: "rbf", Solver: model.SolverNystrom, Centres: 60}},
		Sizes:   []int{200},
		Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "0.1,0.5,2"},
			Sampler: "grid", Pruner: "sh", Eta: 3, Validation: 100, MinN: 20, MaxN: 180, Baseline: new(bool)},
	}
	exact := spec.Clone()
	exact.Methods[0].Solver, exact.Methods[0].Centres = "", 0
	jobs := map[string][]Job{}
	for name, s := range map[string]*model.Spec{"nystrom": spec, "exact": exact} {
		st, err := Open(filepath.Join(dir, name), s)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Search(context.Background(), Options{}); err != nil {
			t.Fatalf("%s: search: %v", name, err)
		}
		st.Close()
		if !reflect.DeepEqual(st.Sizes, []int{20, 60, 180}) {
			t.Fatalf("%s: rungs %v, want [20 60 180]", name, st.Sizes)
		}
		if jobs[name], err = ReadJobs(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	ny, ex := jobs["nystrom"], jobs["exact"]
	if len(ny) != 5 || len(ex) != 5 { // 3 trials at 20, then 1 at 60 and 1 at 180
		t.Fatalf("%d and %d jobs, want 5 each", len(ny), len(ex))
	}
	exactAt := map[[2]int]float64{}
	for _, j := range ex {
		exactAt[[2]int{j.Trial, j.N}] = j.Validation
	}
	top := 0
	for _, j := range ny {
		if j.Error != "" {
			t.Fatalf("trial %d at n %d: %s", j.Trial, j.N, j.Error)
		}
		if v, ok := exactAt[[2]int{j.Trial, j.N}]; j.N <= 60 && (!ok || j.Validation != v) {
			t.Errorf("trial %d at n %d scores %v, the exact study's %v (run: %v)", j.Trial, j.N, j.Validation, v, ok)
		}
		if j.N == 180 {
			top++
			if j.Validation < 0.6 {
				t.Errorf("trial %d at 180 (Nyström): validation %.3f, want above 0.6", j.Trial, j.Validation)
			}
		}
	}
	if top != 1 {
		t.Errorf("%d jobs at 180, want 1", top)
	}
}

package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"gitui/core/eval"
	"gitui/internal/printable"
	"gitui/model"
)

// Entry is one past run as the Runs pane lists it, read from the files of its run
// directory (or from a lone result.json).
type Entry struct {
	// ID is what tells runs apart: the run directory's folder name (time, then the
	// spec's name), or the file name of a lone result.json.
	ID string
	// Path is the run directory, or the result.json file when it was given alone.
	Path string
	// Name is the spec's name ("xperm-curve").
	Name string
	// Time is when the run started: run.json's start, else the time in the folder
	// name, else the modification time of the files.
	Time time.Time
	// Status is done, cancelled, partial, partial (failed), running (process N), interrupted or
	// empty (see Status).
	Status  string
	Data    string // data set name
	Group   string // group kind (and order), "" when none
	Methods []string
	// Acc is the headline accuracy: the best mean over series at each series' largest
	// x (NaN when there are no points).
	Acc float64
	// Params is the spec flattened to dotted keys (Flatten).
	Params map[string]string
	// Spec is the spec's JSON as stored.
	Spec json.RawMessage
	// Series are the run's curves: result.json's, or rebuilt from cells.jsonl when
	// the run has no result (interrupted or still running); for a sharded run without
	// a result, from the union of its shards' journals.
	Series []eval.Series
	// Sharded is set for a run of `gitui slurm` (DIR/slurm.json) or of shards
	// (DIR/shards/*/): its cells are journaled by array tasks elsewhere.
	Sharded bool
	// Jobs are the Slurm job ids of the array's submissions (DIR/slurm.json).
	Jobs []string
	// Label is the short name the user gave the run (run.json's label, SetLabel), "" if none.
	Label string
	// Chosen holds, for spec method i, what its fits chose themselves (result.json's
	// ChosenTableName table: "lambda" by leave-one-out, "gamma" by the median heuristic,
	// the median over the draws at the series' largest x); nil when the result has none.
	Chosen []map[string]float64
	// series names spec method i's series (Method.DisplayName), to read Chosen.
	seriesOfMethod []string
	// Seconds is the run's wall time (result.json's timing; a study's search plus its
	// refit), 0 while unknown (a run still going: its duration is the time since Time).
	Seconds float64
	// BestValidation is a study's best validation score so far (study.json's best, else the
	// best job journaled at its highest rung), NaN for runs and studies without a job.
	BestValidation float64
	// Study is set for a study directory (gitui tune: DIR/trials.jsonl): its study.json
	// (ReadStudy), or an empty Study while the search runs or was interrupted (Status
	// then counts the jobs journaled). Acc is the refit's test accuracy once it ran.
	Study *Study
}

// Live reports whether e is a sharded run still running elsewhere (no result.json
// yet): the Runs pane re-reads such rows on a tick.
func (e Entry) Live() bool { return e.Sharded && strings.HasPrefix(e.Status, StatusElsewhere) }

// StatusElsewhere starts the status of a sharded run without result.json.
const StatusElsewhere = "running elsewhere"

// Status returns the status of the run directory dir:
//
//   - "running (process N)": a live process on this host holds its lock (ProcessAlive);
//   - "done": result.json is complete;
//   - "cancelled": result.json holds the cells of a run cancelled by the user (ctrl+c,
//     SIGTERM, x in the TUI); "partial (failed)" of a failed one; "partial" of one with
//     cells missing (a shard, a merge of incomplete shards);
//   - "running on HOST (process N)": no result, and a process of another machine
//     holds its lock (it cannot be checked from here: a lock left by a crash there
//     reads the same);
//   - "interrupted": cells.jsonl holds cells (or lines that fail their check) but there
//     is no result (`gitui resume`);
//   - "empty": nothing was journaled.
//
// A study directory has a status of its own (StudyStatus).
func Status(dir string) string {
	if IsStudyDir(dir) {
		return StudyStatus(dir)
	}
	return runStatus(dir, func() (partial bool, errText string, ok bool) {
		b, err := model.ReadFileCapped(filepath.Join(dir, ResultFile))
		if err != nil {
			return false, "", false
		}
		var r struct {
			Partial bool   `json:"partial"`
			Error   string `json:"error"`
		}
		if json.Unmarshal(printable.JSON(b), &r) != nil {
			return false, "", false
		}
		return r.Partial, r.Error, true
	})
}

// runStatus is Status of the run directory dir, with result telling what its
// result.json says (ok false: there is none, or it does not parse); it is asked only
// when no live process on this host holds the run.
func runStatus(dir string, result func() (partial bool, errText string, ok bool)) string {
	pid, host := readLock(dir)
	if pid > 0 {
		me, _ := os.Hostname()
		if (host == "" || host == me) && ProcessAlive(pid) {
			return "running (process " + strconv.Itoa(pid) + ")"
		}
		if host == me {
			host = ""
		}
	}
	if partial, errText, ok := result(); ok {
		return ResultStatus(partial, errText)
	}
	if pid > 0 && host != "" {
		// another machine (a shared file system): its process cannot be checked from here
		return "running on " + host + " (process " + strconv.Itoa(pid) + ")"
	}
	if HasCells(filepath.Join(dir, CellsFile)) {
		return "interrupted"
	}
	return "empty"
}

// Load reads the runs of every source: a run directory (it holds spec.json or
// result.json), a folder of run directories (the run store), or a result.json file.
// A source that does not exist is an error unless it is the store (the first source
// when store is true: a store not created yet holds no runs). Unreadable runs are
// skipped with one error each; the others are returned, newest first.
func Load(sources []string, store bool) ([]Entry, []error) {
	var out []Entry
	var errs []error
	seen := map[string]bool{}
	add := func(e Entry, err error) {
		if err != nil {
			errs = append(errs, err)
			return
		}
		if abs, aerr := filepath.Abs(e.Path); aerr == nil {
			if seen[abs] {
				return
			}
			seen[abs] = true
		}
		out = append(out, e)
	}
	for i, src := range sources {
		fi, err := os.Stat(src)
		switch {
		case err != nil && i == 0 && store && errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("open %s: no such run directory or result.json: give a folder written by gitui run --out, the run store, or a result.json", src))
			continue
		case !fi.IsDir():
			add(loadResultFile(src))
			continue
		case isRunDir(src):
			add(loadDir(src))
			continue
		}
		ents, err := os.ReadDir(src)
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", src, err))
			continue
		}
		for _, de := range ents {
			p := filepath.Join(src, de.Name())
			if de.IsDir() && !strings.HasPrefix(de.Name(), ".") && isRunDir(p) {
				add(loadDir(p))
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.After(out[j].Time) })
	return out, errs
}

func isRunDir(dir string) bool {
	if IsStudyDir(dir) {
		return true
	}
	for _, f := range []string{SpecFile, ResultFile, SlurmFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return len(shardDirs(dir)) > 0
}

// loadDir reads the run directory dir.
func loadDir(dir string) (Entry, error) {
	if IsStudyDir(dir) {
		return loadStudyDir(dir)
	}
	e := Entry{ID: filepath.Base(dir), Path: dir, Acc: nan, BestValidation: nan, Label: ReadRunMeta(dir).Label}
	var specRaw json.RawMessage
	if b, err := model.ReadFileCapped(filepath.Join(dir, SpecFile)); err == nil {
		specRaw = printable.JSON(b) // its names reach the Runs pane
	}
	var res *model.Result
	if _, err := os.Stat(filepath.Join(dir, ResultFile)); err == nil {
		r, err := model.ReadResult(filepath.Join(dir, ResultFile))
		if err != nil {
			e.Status = Status(dir)
			return e, fmt.Errorf("run %s: %w", dir, err)
		}
		res = r
		if specRaw == nil {
			specRaw = r.Spec
		}
	}
	// The status from the result just read, not from a second read of result.json.
	e.Status = runStatus(dir, func() (bool, string, bool) {
		if res == nil {
			return false, "", false
		}
		return res.Partial, res.Error, true
	})
	shards := shardDirs(dir)
	for _, sd := range shards {
		if specRaw != nil {
			break
		}
		if b, err := model.ReadFileCapped(filepath.Join(sd, SpecFile)); err == nil {
			specRaw = printable.JSON(b)
		}
	}
	if specRaw == nil {
		return e, fmt.Errorf("run %s holds neither %s nor %s: it is not a gitui run directory", dir, SpecFile, ResultFile)
	}
	if err := e.setSpec(specRaw); err != nil {
		return e, fmt.Errorf("run %s: %s: %w", dir, SpecFile, err)
	}
	_, slurmErr := os.Stat(filepath.Join(dir, SlurmFile))
	e.Sharded = slurmErr == nil || len(shards) > 0
	switch {
	case res != nil:
		e.Series = seriesOf(res)
		e.setChosen(res)
		e.Seconds = res.Timing.WallSeconds
	case e.Sharded:
		journals := make([]string, len(shards))
		for i, sd := range shards {
			journals[i] = filepath.Join(sd, CellsFile)
		}
		s, cells, err := rebuild(journals)
		if err != nil {
			return e, fmt.Errorf("run %s: %w", dir, err)
		}
		e.Series = specOrder(s, specRaw)
		e.Status = elsewhere(dir, shards, cells, plannedCells(specRaw))
	default:
		s, err := RebuildSeries(filepath.Join(dir, CellsFile))
		if err != nil {
			return e, fmt.Errorf("run %s: %w", dir, err)
		}
		e.Series = s
	}
	if st, err := ReadSlurmState(dir); err == nil {
		for _, sub := range st.Submissions {
			if sub.ArrayID != "" {
				e.Jobs = append(e.Jobs, sub.ArrayID)
			}
		}
	}
	if e.Live() {
		if q := queueState(e.Jobs); q != "" {
			e.Status += "; " + q
		}
	}
	e.Time = runTime(dir)
	if e.Time.IsZero() || e.Sharded && res == nil {
		if t := shardsStart(shards); !t.IsZero() && (e.Time.IsZero() || t.Before(e.Time)) {
			e.Time = t
		}
	}
	e.finish()
	return e, nil
}

// squeueTimeout bounds one squeue call of the Runs pane.
const squeueTimeout = 3 * time.Second

// queueState is the state of the array jobs as squeue shows them, one count per state
// in squeue's order of first appearance ("squeue: 2 running, 1 pending"; "squeue: none
// queued" when squeue lists none of them). It is "" when there are no jobs, or squeue
// is not on PATH or fails (no error: the journals still tell the progress).
func queueState(jobs []string) string {
	if len(jobs) == 0 {
		return ""
	}
	bin, err := exec.LookPath("squeue")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), squeueTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "-h", "-r", "-j", strings.Join(jobs, ","), "-o", "%T").Output()
	if err != nil {
		return ""
	}
	counts := map[string]int{}
	var order []string
	for _, f := range strings.Fields(string(out)) {
		st := strings.ToLower(f)
		if counts[st] == 0 {
			order = append(order, st)
		}
		counts[st]++
	}
	if len(order) == 0 {
		return "squeue: none queued"
	}
	parts := make([]string, len(order))
	for i, st := range order {
		parts[i] = fmt.Sprintf("%d %s", counts[st], st)
	}
	return "squeue: " + strings.Join(parts, ", ")
}

// specOrder orders series as the spec lists its methods (by Method.DisplayName, as the
// engine names series and orders result.json; the shards' journals interleave them),
// the series of no method last in their order.
func specOrder(ss []eval.Series, raw json.RawMessage) []eval.Series {
	var sp model.Spec
	if json.Unmarshal(raw, &sp) != nil {
		return ss
	}
	rank := map[string]int{}
	for i, m := range sp.Methods {
		if n := m.DisplayName(); rank[n] == 0 {
			rank[n] = i + 1
		}
	}
	at := func(s eval.Series) int {
		if r := rank[s.Name]; r > 0 {
			return r
		}
		return len(sp.Methods) + 1
	}
	sort.SliceStable(ss, func(i, j int) bool { return at(ss[i]) < at(ss[j]) })
	return ss
}

// shardDirs returns the shard run directories DIR/shards/<i>/ of dir, by index.
func shardDirs(dir string) []string {
	ents, err := os.ReadDir(filepath.Join(dir, ShardsDir))
	if err != nil {
		return nil
	}
	type shard struct {
		i    int
		path string
	}
	var ss []shard
	for _, de := range ents {
		if i, err := strconv.Atoi(de.Name()); err == nil && de.IsDir() && i >= 0 {
			ss = append(ss, shard{i, filepath.Join(dir, ShardsDir, de.Name())})
		}
	}
	sort.Slice(ss, func(a, b int) bool { return ss[a].i < ss[b].i })
	out := make([]string, len(ss))
	for k, s := range ss {
		out[k] = s.path
	}
	return out
}

// shardsStart is the earliest start recorded in the shards' run.json (zero when none).
func shardsStart(shards []string) time.Time {
	var t time.Time
	for _, sd := range shards {
		if m := ReadRunMeta(sd); !m.Started.IsZero() && (t.IsZero() || m.Started.Before(t)) {
			t = m.Started
		}
	}
	return t
}

// elsewhere is the status of a sharded run without result.json: "running elsewhere
// (k of N shards done, c of T cells)". N is slurm.json's task count, else the N of a
// shard's "i/N", else the number of shard directories; k counts the shards marked
// complete; T is left out when the spec's cell count is not known from the spec alone.
func elsewhere(dir string, shards []string, cells, total int) string {
	n := len(shards)
	if st, err := ReadSlurmState(dir); err == nil && st.Tasks > 0 {
		n = st.Tasks
	} else {
		for _, sd := range shards {
			var i, c int
			if _, err := fmt.Sscanf(ReadRunMeta(sd).Shard, "%d/%d", &i, &c); err == nil && c > 0 {
				n = c
				break
			}
		}
	}
	done := 0
	for _, sd := range shards {
		if ShardComplete(sd) {
			done++
		}
	}
	c := plural(cells, "cell")
	if total > 0 {
		c = fmt.Sprintf("%d of %d cells", cells, total)
	}
	return fmt.Sprintf("%s (%d of %d shards done, %s)", StatusElsewhere, done, n, c)
}

// plannedCells is the number of cells of a sample-complexity spec without a grid: per
// method and size, the spec's repeats, or one when the size reaches the pool cap (the
// engine draws the whole pool once). A size reaching the whole data set without a cap
// cannot be told from the spec: it is counted with its repeats. It is 0 (unknown) for
// the other protocols, whose cells depend on more than the spec.
func plannedCells(raw json.RawMessage) int {
	var s model.Spec
	if json.Unmarshal(raw, &s) != nil || s.Protocol != model.ProtocolCurve || s.Grid != nil {
		return 0
	}
	n := 0
	for _, size := range s.Sizes {
		if s.Data.Pool > 0 && size >= s.Data.Pool {
			n++
		} else {
			n += max(s.Repeats, 1)
		}
	}
	return n * len(s.Methods)
}

// loadResultFile reads a lone result.json.
func loadResultFile(path string) (Entry, error) {
	r, err := model.ReadResult(path)
	if err != nil {
		return Entry{}, err
	}
	id := filepath.Base(path)
	if id == ResultFile {
		id = filepath.Base(filepath.Dir(path))
	}
	e := Entry{ID: id, Path: path, Status: ResultStatus(r.Partial, r.Error), Acc: nan, BestValidation: nan, Seconds: r.Timing.WallSeconds}
	if err := e.setSpec(r.Spec); err != nil {
		return e, fmt.Errorf("%s: its spec: %w", path, err)
	}
	e.Series = seriesOf(r)
	e.setChosen(r)
	if fi, err := os.Stat(path); err == nil {
		e.Time = fi.ModTime()
	}
	e.finish()
	return e, nil
}

// finish derives the headline accuracy, and names the methods as the series do (the
// papers' row names) when the run has series.
func (e *Entry) finish() {
	e.Acc = Headline(e.Series)
	if len(e.Series) > 0 {
		e.Methods = e.Methods[:0]
		for _, s := range e.Series {
			e.Methods = append(e.Methods, s.Name)
		}
	}
}

var nan = math.NaN()

// setSpec fills the spec-derived columns and the flattened parameters from raw.
func (e *Entry) setSpec(raw json.RawMessage) error {
	var s model.Spec
	if err := json.Unmarshal(raw, &s); err != nil {
		return err
	}
	p, err := Flatten(raw)
	if err != nil {
		return err
	}
	e.Params = p
	e.Spec = raw
	e.Name = s.Name
	e.Data = s.Data.Name
	e.Group = s.Group.Kind
	for _, m := range s.Methods {
		e.Methods = append(e.Methods, methodName(m))
		e.seriesOfMethod = append(e.seriesOfMethod, m.DisplayName())
	}
	return nil
}

// setChosen fills e.Chosen from r's table of chosen hyperparameters.
func (e *Entry) setChosen(r *model.Result) {
	for _, t := range r.Tables {
		if t.Name != ChosenTableName || len(t.Columns) < 5 {
			continue
		}
		by := map[string]map[string]float64{}
		for _, row := range t.Rows {
			name, ok := row[0].(string)
			if !ok || len(row) != len(t.Columns) {
				continue
			}
			for c := 4; c < len(row); c++ {
				if v, ok := row[c].(float64); ok {
					if by[name] == nil {
						by[name] = map[string]float64{}
					}
					by[name][t.Columns[c]] = v
				}
			}
		}
		e.Chosen = make([]map[string]float64, len(e.seriesOfMethod))
		for i, n := range e.seriesOfMethod {
			e.Chosen[i] = by[n]
		}
	}
}

// methodName is a method's short label: its name when set, else features/kernel and learner.
func methodName(m model.Method) string {
	if m.Name != "" {
		return m.Name
	}
	var parts []string
	for _, p := range []string{m.Features, m.Kernel, m.Learner} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return "method"
	}
	return strings.Join(parts, " ")
}

// runTime is when the run in dir started (see Entry.Time).
func runTime(dir string) time.Time {
	if m, err := readMeta(filepath.Join(dir, MetaFile)); err == nil && !m.Started.IsZero() {
		return m.Started
	}
	base := filepath.Base(dir)
	if len(base) >= 15 {
		if t, err := time.ParseInLocation("20060102-150405", base[:15], time.Local); err == nil {
			return t
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, SpecFile)); err == nil {
		return fi.ModTime()
	}
	return time.Time{}
}

func seriesOf(r *model.Result) []eval.Series {
	out := make([]eval.Series, 0, len(r.Series))
	for _, s := range r.Series {
		es := eval.Series{Name: s.Name, XLabel: s.XLabel, YLabel: s.YLabel}
		for _, p := range s.Points {
			es.Points = append(es.Points, eval.SeriesPoint{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
		}
		out = append(out, es)
	}
	return out
}

// RebuildSeries rebuilds the accuracy curves of a run from its journal cells.jsonl: per
// series (in the order they first appear) and x, the mean and sample standard
// deviation (eval.MeanStd) of the journaled draws' accuracy, in the order of their
// repeats, as the engine aggregates them. The journal is read by ReadJournal: one that
// does not exist yields no series; a torn last line (a kill in mid-write) and lines
// that fail their check are left out; a damaged header is an error.
func RebuildSeries(path string) ([]eval.Series, error) {
	s, _, err := rebuild([]string{path})
	return s, err
}

// RebuildShards rebuilds the curves of a sharded run from the union of its shards'
// journals (paths, in shard order) as RebuildSeries does for one: a cell (stage,
// series, x, repeat) journaled by several shards counts once, the first seen. It also
// returns the number of distinct cells read.
func RebuildShards(paths []string) ([]eval.Series, int, error) { return rebuild(paths) }

// rebuild is RebuildSeries over the union of the journals at paths.
func rebuild(paths []string) ([]eval.Series, int, error) {
	type key struct {
		series string
		x      float64
	}
	accs := map[key]map[int]float64{}
	cells := map[eval.CellKey]bool{}
	var order []string
	xs := map[string][]float64{}
	for _, path := range paths {
		j, err := ReadJournal(path)
		if err != nil {
			return nil, 0, err
		}
		for _, rec := range j.Cells {
			ck := rec.Key()
			if cells[ck] {
				continue
			}
			cells[ck] = true
			k := key{rec.Series, rec.X}
			if accs[k] == nil {
				accs[k] = map[int]float64{}
				if _, ok := xs[rec.Series]; !ok {
					order = append(order, rec.Series)
				}
				xs[rec.Series] = append(xs[rec.Series], rec.X)
			}
			accs[k][rec.Rep] = rec.Acc
		}
	}
	var out []eval.Series
	for _, name := range order {
		s := eval.Series{Name: name, XLabel: "training set size", YLabel: "accuracy"}
		sort.Float64s(xs[name])
		for _, x := range xs[name] {
			mean, std, runs := eval.MeanStdByRep(accs[key{name, x}])
			s.Points = append(s.Points, eval.SeriesPoint{X: x, Mean: mean, Std: std, Runs: runs})
		}
		out = append(out, s)
	}
	return out, len(cells), nil
}

// Headline returns the best mean accuracy over series, each at its largest x (NaN when
// there is no point).
func Headline(ss []eval.Series) float64 {
	best := nan
	for _, s := range ss {
		if n := len(s.Points); n > 0 {
			if m := s.Points[n-1].Mean; best != best || m > best {
				best = m
			}
		}
	}
	return best
}

// Flatten turns a spec's JSON into dotted keys and their values, HParams-style:
// objects nest with ".", arrays with the index ("methods.0.lambda"), and each leaf is
// its JSON text (strings unquoted). Empty objects and arrays are leaves too ("{}", "[]").
func Flatten(raw json.RawMessage) (map[string]string, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	out := map[string]string{}
	flatten(v, "", out)
	return out, nil
}

func flatten(v any, at string, out map[string]string) {
	join := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 && at != "" {
			out[at] = "{}"
		}
		for k, x := range v {
			flatten(x, join(k), out)
		}
	case []any:
		if len(v) == 0 {
			out[at] = "[]"
		}
		for i, x := range v {
			flatten(x, join(strconv.Itoa(i)), out)
		}
	case string:
		out[at] = v
	default:
		b, _ := json.Marshal(v)
		out[at] = string(b)
	}
}

// plural returns "n thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// ResultStatus returns the status a result.json with the given partial flag and error
// gives its run: "done" when complete; "cancelled" when the user cancelled it (the
// error model.NewResult writes for context.Canceled); "partial" when only cells are
// missing (model.MissingLine); "partial (failed)" when it failed.
func ResultStatus(partial bool, errText string) string {
	switch {
	case !partial:
		return "done"
	case errText == "cancelled":
		return "cancelled"
	case errText == "" || strings.Contains(errText, " cells missing: "):
		return "partial"
	}
	return "partial (failed)"
}

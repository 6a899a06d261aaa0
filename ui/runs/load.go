package runs

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gitui/core/eval"
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
	// Status is done, partial, partial (failed), running (process N), interrupted or
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
	// the run has no result (interrupted or still running).
	Series []eval.Series
}

// Status returns the status of the run directory dir:
//
//   - "running (process N)": a live process on this host holds its lock;
//   - "done": result.json is complete;
//   - "partial": result.json holds the cells of a cancelled run; "partial (failed)"
//     of a failed one;
//   - "running on HOST (process N)": no result, and a process of another machine
//     holds its lock (it cannot be checked from here: a lock left by a crash there
//     reads the same);
//   - "interrupted": cells.jsonl holds cells but there is no result (`gitui resume`);
//   - "empty": nothing was journaled.
func Status(dir string) string {
	var pid int
	var host string
	if b, err := os.ReadFile(filepath.Join(dir, model.LockFile)); err == nil {
		fmt.Sscan(string(b), &pid, &host)
		me, _ := os.Hostname()
		if pid > 0 && (host == "" || host == me) && syscall.Kill(pid, 0) == nil {
			return "running (process " + strconv.Itoa(pid) + ")"
		}
		if host == me {
			host = ""
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, model.ResultFile)); err == nil {
		var r struct {
			Partial bool   `json:"partial"`
			Error   string `json:"error"`
		}
		if json.Unmarshal(b, &r) == nil {
			switch {
			case !r.Partial:
				return "done"
			case r.Error != "":
				return "partial (failed)"
			}
			return "partial"
		}
	}
	if pid > 0 && host != "" {
		// another machine (a shared file system): its process cannot be checked from here
		return "running on " + host + " (process " + strconv.Itoa(pid) + ")"
	}
	if fi, err := os.Stat(filepath.Join(dir, model.CellsFile)); err == nil && fi.Size() > 0 {
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
	for _, f := range []string{model.SpecFile, model.ResultFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// loadDir reads the run directory dir.
func loadDir(dir string) (Entry, error) {
	e := Entry{ID: filepath.Base(dir), Path: dir, Status: Status(dir), Acc: nan}
	var specRaw json.RawMessage
	if b, err := os.ReadFile(filepath.Join(dir, model.SpecFile)); err == nil {
		specRaw = b
	}
	var res *model.Result
	if _, err := os.Stat(filepath.Join(dir, model.ResultFile)); err == nil {
		r, err := model.ReadResult(filepath.Join(dir, model.ResultFile))
		if err != nil {
			return e, fmt.Errorf("run %s: %w", dir, err)
		}
		res = r
		if specRaw == nil {
			specRaw = r.Spec
		}
	}
	if specRaw == nil {
		return e, fmt.Errorf("run %s holds neither %s nor %s: it is not a gitui run directory", dir, model.SpecFile, model.ResultFile)
	}
	if err := e.setSpec(specRaw); err != nil {
		return e, fmt.Errorf("run %s: %s: %w", dir, model.SpecFile, err)
	}
	if res != nil {
		e.Series = seriesOf(res)
	} else {
		s, err := RebuildSeries(filepath.Join(dir, model.CellsFile))
		if err != nil {
			return e, fmt.Errorf("run %s: %w", dir, err)
		}
		e.Series = s
	}
	e.Time = runTime(dir)
	e.finish()
	return e, nil
}

// loadResultFile reads a lone result.json.
func loadResultFile(path string) (Entry, error) {
	r, err := model.ReadResult(path)
	if err != nil {
		return Entry{}, err
	}
	id := filepath.Base(path)
	if id == model.ResultFile {
		id = filepath.Base(filepath.Dir(path))
	}
	e := Entry{ID: id, Path: path, Status: "done", Acc: nan}
	if r.Partial {
		e.Status = "partial"
	}
	if err := e.setSpec(r.Spec); err != nil {
		return e, fmt.Errorf("%s: its spec: %w", path, err)
	}
	e.Series = seriesOf(r)
	if fi, err := os.Stat(path); err == nil {
		e.Time = fi.ModTime()
	}
	e.finish()
	return e, nil
}

// finish derives the headline accuracy, and names the methods as the series do (the
// papers' row names) when the run has series.
func (e *Entry) finish() {
	e.Acc = headline(e.Series)
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
	}
	return nil
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
	if b, err := os.ReadFile(filepath.Join(dir, model.MetaFile)); err == nil {
		var m model.RunMeta
		if json.Unmarshal(b, &m) == nil && !m.Started.IsZero() {
			return m.Started
		}
	}
	base := filepath.Base(dir)
	if len(base) >= 15 {
		if t, err := time.ParseInLocation("20060102-150405", base[:15], time.Local); err == nil {
			return t
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, model.SpecFile)); err == nil {
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
// deviation (eval.MeanStd) of the journaled draws' accuracy, as the engine aggregates
// them. A journal that does not exist yields no series; a torn last line (a kill in
// mid-write) is ignored; a bad line before it is an error naming the line.
func RebuildSeries(path string) ([]eval.Series, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the journal: %w", err)
	}
	defer f.Close()
	type key struct {
		series string
		x      float64
	}
	accs := map[key]map[int]float64{}
	var order []string
	xs := map[string][]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	var bad error
	for line := 1; sc.Scan(); line++ {
		if bad != nil {
			return nil, bad // a bad line that is not the last
		}
		var rec model.CellRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil || rec.Series == "" {
			bad = fmt.Errorf("the journal %s is damaged at line %d", path, line)
			continue
		}
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
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the journal %s: %w", path, err)
	}
	var out []eval.Series
	for _, name := range order {
		s := eval.Series{Name: name, XLabel: "training set size", YLabel: "accuracy"}
		sort.Float64s(xs[name])
		for _, x := range xs[name] {
			m := accs[key{name, x}]
			reps := make([]int, 0, len(m))
			for r := range m {
				reps = append(reps, r)
			}
			sort.Ints(reps)
			v := make([]float64, len(reps))
			for i, r := range reps {
				v[i] = m[r]
			}
			mean, std := eval.MeanStd(v)
			s.Points = append(s.Points, eval.SeriesPoint{X: x, Mean: mean, Std: std, Runs: len(v)})
		}
		out = append(out, s)
	}
	return out, nil
}

// headline returns the best mean accuracy over series, each at its largest x (NaN when
// there is no point).
func headline(ss []eval.Series) float64 {
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

// Diff returns the dotted keys whose values are not the same in every one of ps
// (a key missing from some is a difference), sorted.
func Diff(ps ...map[string]string) []string {
	keys := map[string]bool{}
	for _, p := range ps {
		for k := range p {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		v0, ok0 := ps[0][k]
		for _, p := range ps[1:] {
			if v, ok := p[k]; ok != ok0 || v != v0 {
				out = append(out, k)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

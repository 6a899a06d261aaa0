package tunepane

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/model"
	"gitui/model/study"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// fixture is a finished study of 9 trials over bins and lambda, rungs 20, 60, 180
// (η = 3: 9 → 3 → 1), with a made-up validation that rises with bins and with n
// (lambda matters little), and trial 7 failed at the first rung.
func fixture(finished bool) Snapshot {
	sizes := []int{20, 60, 180}
	bins := []float64{5, 40, 12, 25, 8, 50, 30, 18, 45}
	lambda := []float64{1e-4, 3e-3, 0.02, 1e-5, 5e-4, 0.08, 2e-4, 1e-3, 7e-3}
	score := func(i, k int) float64 {
		return 0.6 + 0.006*bins[i] + 0.03*float64(k) + 0.002*math.Log10(lambda[i])
	}
	params := func(i int) map[string]any {
		return map[string]any{"methods.0.bins": bins[i], "methods.0.lambda": lambda[i]}
	}
	var s Snapshot
	add := func(i, k int) {
		j := study.Job{Trial: i, Rung: k, N: sizes[k], Params: params(i), Validation: score(i, k), Seconds: 0.2 * float64(k+1)}
		if i == 7 {
			j.Validation, j.Error = 0, "the kernel is not positive definite"
		}
		s.Jobs = append(s.Jobs, j)
	}
	for i := range 9 {
		add(i, 0)
	}
	for _, i := range []int{5, 8, 1} { // the top third by rung-0 score
		add(i, 1)
	}
	add(5, 2)
	if !finished {
		return s
	}
	f := &study.File{Schema: study.StudySchema, Sampler: "tpe", Pruner: "asha", Eta: 3, Rungs: sizes, Validation: 400, Pool: 2000}
	for i := range 9 {
		ti := study.TrialInfo{ID: i, Params: params(i), State: "pruned"}
		for _, j := range s.Jobs {
			if j.Trial == i && j.Error == "" {
				ti.Rungs = append(ti.Rungs, study.RungInfo{N: j.N, Validation: j.Validation})
			}
		}
		switch {
		case i == 7:
			ti.State, ti.Error, ti.Rungs = "failed", "the kernel is not positive definite", nil
		case len(ti.Rungs) == 3:
			ti.State = "complete"
		}
		f.Trials = append(f.Trials, ti)
	}
	f.Best = &study.BestInfo{Refit: study.Refit{Trial: 5, Params: params(5), Validation: score(5, 2), ValidationN: 180}, N: 500, Compared: 9}
	s.File, s.BestSpec = f, "/store/xperm-tune/best.spec.json"
	return s
}

func status(running bool) Status {
	return Status{Name: "xperm-tune", Dir: "/store/xperm-tune", Keys: []string{"methods.0.bins", "methods.0.lambda"}, Running: running, Elapsed: 12 * time.Second}
}

func press(s string) tea.KeyMsg {
	switch s {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// TestGoldenSections: the finished fixture at 80×24, one section at a time (tab moves
// to the next): the trials table (TestGolden), the best so far, the axes, the importance.
func TestGoldenSections(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Set(status(false), fixture(true))
	for s := SecBest; s < numSections; s++ {
		m.Key(press("tab"))
		t.Run(strings.ReplaceAll(s.String(), " ", "-"), func(t *testing.T) {
			v := m.View()
			uitest.CheckFits(t, v, 80, 24)
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// TestGolden: the finished fixture at 80×24 (one section at a time: the trials table)
// and at 120×40 (the four sections at once).
func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Set(status(false), fixture(true))
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// TestTrials checks the table's rows against the fixture: the best trial (5, the only
// one at the last rung) first and starred, the failed one last, and the states taken
// from study.json when finished, running (live) or stopped (cancelled) otherwise.
func TestTrials(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Set(status(false), fixture(true))
	rows := m.rows()
	if rows[0].ID != 5 || rows[len(rows)-1].ID != 7 {
		t.Errorf("rows %v: want trial 5 first and the failed trial 7 last", ids(rows))
	}
	if k, _ := rows[0].Top(); k != 2 {
		t.Errorf("trial 5 reached rung %d, want 2", k)
	}
	states := map[string]int{}
	for _, tr := range m.Trials() {
		states[tr.State]++
	}
	if states["complete"] != 1 || states["pruned"] != 7 || states["failed"] != 1 {
		t.Errorf("states %v: want 1 complete, 7 pruned, 1 failed", states)
	}
	if id, k, _, ok := best(m.Trials()); !ok || id != 5 || k != 2 {
		t.Errorf("best = trial %d at rung %d, want 5 at rung 2", id, k)
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "★  5") || !strings.Contains(v, "b opens its spec") {
		t.Errorf("the best trial is not starred or the open hint is missing:\n%s", v)
	}

	live := New(uitest.Styles())
	live.SetSize(80, 24)
	live.Set(status(true), fixture(false))
	for _, tr := range live.Trials() {
		if want := map[bool]string{true: "failed", false: "running"}[tr.ID == 7]; tr.State != want {
			t.Errorf("live trial %d is %s, want %s", tr.ID, tr.State, want)
		}
	}
	if got := len(live.Sizes()); got != 3 {
		t.Errorf("live rungs %v, want the 3 sizes seen", live.Sizes())
	}
	live.SetStatus(status(false)) // cancelled: no study.json
	for _, tr := range live.Trials() {
		if tr.ID != 7 && tr.State != "stopped" {
			t.Errorf("cancelled trial %d is %s, want stopped", tr.ID, tr.State)
		}
	}
}

func ids(ts []Trial) []int {
	var out []int
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

// TestCurve: the best-so-far points of each rung rise strictly, in time order, and
// end at the rung's best; the last job's time is the sum of the jobs' seconds.
func TestCurve(t *testing.T) {
	m := New(uitest.Styles())
	m.Set(status(false), fixture(true))
	pts, end := m.curvePoints()
	sum := 0.0
	for _, j := range m.Snapshot().Jobs {
		sum += j.Seconds
	}
	if math.Abs(end-sum) > 1e-12 {
		t.Errorf("end %g, want the sum of the seconds %g", end, sum)
	}
	for k, ps := range pts {
		for i := 1; i < len(ps); i++ {
			if ps[i].Y <= ps[i-1].Y || ps[i].X < ps[i-1].X {
				t.Errorf("rung %d: point %d %v does not rise after %v", k, i, ps[i], ps[i-1])
			}
		}
		bestK := math.Inf(-1)
		for _, tr := range m.Trials() {
			if k < len(tr.Scores) && !math.IsNaN(tr.Scores[k]) && tr.State != "failed" {
				bestK = math.Max(bestK, tr.Scores[k])
			}
		}
		if len(ps) == 0 || ps[len(ps)-1].Y != bestK {
			t.Errorf("rung %d ends at %v, want its best %g", k, ps, bestK)
		}
	}
}

// TestImportance: bins explains the fixture's rung-0 validation (it is built from
// bins, with lambda a small term), so it comes first.
func TestImportance(t *testing.T) {
	m := New(uitest.Styles())
	m.Set(status(false), fixture(true))
	v := ansi.Strip(m.importance(60, 10))
	bi, li := strings.Index(v, "bins"), strings.Index(v, "lambda")
	if bi < 0 || li < 0 || bi > li {
		t.Errorf("bins should rank above lambda:\n%s", v)
	}
}

// TestKeys: tab cycles the sections, b asks to open the best only when best.spec.json
// exists, x cancels only while running, r starts only when idle, esc closes.
func TestKeys(t *testing.T) {
	m := New(uitest.Styles())
	m.Set(status(true), fixture(false))
	if a := m.Key(press("b")); a != None {
		t.Errorf("b without a best spec: %v, want None", a)
	}
	if a := m.Key(press("x")); a != Cancel {
		t.Errorf("x while running: %v, want Cancel", a)
	}
	if a := m.Key(press("r")); a != None {
		t.Errorf("r while running: %v, want None", a)
	}
	m.Set(status(false), fixture(true))
	if a := m.Key(press("b")); a != OpenBest {
		t.Errorf("b after the study: %v, want OpenBest", a)
	}
	if a := m.Key(press("r")); a != Start {
		t.Errorf("r when idle: %v, want Start", a)
	}
	for i := range int(numSections) {
		if m.Focused() != Section(i) {
			t.Fatalf("focus %v, want %v", m.Focused(), Section(i))
		}
		m.Key(press("tab"))
	}
	if m.Focused() != SecTrials {
		t.Errorf("tab does not cycle back to the trials")
	}
	if a := m.Key(press("esc")); a != Close {
		t.Errorf("esc: %v, want Close", a)
	}
}

// TestLoad reads a study directory written by model/study's types: the journal gives
// the jobs while there is no study.json.
func TestLoadEmpty(t *testing.T) {
	s, err := Load(t.TempDir())
	if err != nil || len(s.Jobs) != 0 || s.File != nil || s.BestSpec != "" {
		t.Errorf("Load of an empty directory = %+v, %v; want an empty snapshot", s, err)
	}
}

// TestBrushFilters: a brush on the bins axis (its top quarter) and enter in the axes
// keep, in the table, exactly the trials whose bins lie in it; enter with no brush
// shows all again.
func TestBrushFilters(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	m.Set(status(false), fixture(true))
	m.Key(press("tab"))
	m.Key(press("tab"))
	if m.Focused() != SecAxes {
		t.Fatalf("focus %v, want the axes", m.Focused())
	}
	m.Key(press("up")) // a brush on the selected (first) axis
	brushed := m.pc.Brushed()
	if len(brushed) == 0 || len(brushed) == len(m.Trials()) {
		t.Fatalf("brush selects %v of %d trials", brushed, len(m.Trials()))
	}
	m.Key(tea.KeyMsg{Type: tea.KeyEnter})
	rows := m.rows()
	if m.Focused() != SecTrials || len(rows) != len(brushed) {
		t.Fatalf("after enter: focus %v, %d rows, want the table with the %d brushed", m.Focused(), len(rows), len(brushed))
	}
	for _, r := range rows {
		if !slices.Contains(brushed, fmt.Sprint(r.ID)) {
			t.Errorf("trial %d shown but not brushed %v", r.ID, brushed)
		}
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, fmt.Sprintf("%d of 9 trials in the axes' brush", len(brushed))) {
		t.Errorf("the table does not say it is filtered:\n%s", v)
	}
	m.Key(press("tab"))
	m.Key(press("tab"))
	m.Key(press("X")) // clear every brush
	m.Key(tea.KeyMsg{Type: tea.KeyEnter})
	if len(m.rows()) != 9 {
		t.Errorf("enter without a brush shows %d rows, want all 9", len(m.rows()))
	}
}

// A study scored by leave-one-out says so: the table's score column is "loo", the best
// line names leave-one-out and the header the pool without a validation split; Load
// reads it from the study's spec.json.
func TestLeaveOneOutStudy(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	snap := fixture(true)
	snap.Score = model.TuneLOO
	snap.File.Score, snap.File.Validation = "loo", 0
	m.Set(status(false), snap)
	v := ansi.Strip(m.View())
	for _, want := range []string{" loo  state", "best: trial 5, leave-one-out 0.", "leave-one-out, pool 2000"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "valid.") || strings.Contains(v, "validation 400") {
		t.Errorf("a leave-one-out study's view speaks of a validation split:\n%s", v)
	}

	dir := t.TempDir()
	spec := `{"name":"s","data":{"name":"xperm"},"protocol":"sample-complexity","sizes":[100],"group":{"kind":"permutation"},` +
		`"methods":[{"features":"raw"}],"tune":{"params":{"methods.0.lambda":"log:1e-6..1"},"score":"loo"}}`
	var sp model.Spec
	if err := json.Unmarshal([]byte(spec), &sp); err != nil {
		t.Fatal(err)
	}
	st, err := study.Open(dir, &sp) // writes spec.json and the journal's header
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if s, err := Load(dir); err != nil || s.Score != model.TuneLOO {
		t.Fatalf("Load of a leave-one-out study: score %q, %v; want %q", s.Score, err, model.TuneLOO)
	}
}

// A study whose last rung pools the split with leave-one-out says so: the score column
// is "v+loo", the best line names the pooled score and the header the split it pools.
func TestPooledStudy(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	snap := fixture(true)
	snap.Score = model.TunePooled
	snap.File.Score = model.TunePooled
	m.Set(status(false), snap)
	v := ansi.Strip(m.View())
	for _, want := range []string{"v+loo  state", "best: trial 5, validation+loo 0.", "validation 400 + loo at the last rung, pool 2000"} {
		if !strings.Contains(v, want) {
			t.Errorf("the view lacks %q:\n%s", want, v)
		}
	}
}

// TestBaselineOnTheAxes: the baseline (trial -1, the spec's own setting, scored at the
// top rung) is not drawn on the parallel axes as one more sampled trial: it is marked
// "your setting" (◆ on each axis, named in the legend), the nine sampled trials are
// drawn as before, and it is left out of the importance of the sampled parameters
// (here a study of one rung, where it is scored at the first).
func TestBaselineOnTheAxes(t *testing.T) {
	s := fixture(true)
	bp := map[string]any{"methods.0.bins": 20.0, "methods.0.lambda": 1e-3}
	s.Jobs = append(s.Jobs, study.Job{Trial: study.BaselineTrial, Rung: 2, N: 180, Params: bp, Validation: 0.93, Seconds: 0.5})
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Set(status(false), s)
	var marked, plain int
	for _, r := range m.pcRuns() {
		if r.Mark == "your setting" && r.ID == fmt.Sprint(study.BaselineTrial) {
			marked++
		} else if r.Mark == "" {
			plain++
		}
	}
	if marked != 1 || plain != 9 {
		t.Fatalf("the axes' runs: %d marked as your setting, %d plain; want the baseline marked and the 9 trials plain", marked, plain)
	}
	m.Key(press("tab"))
	m.Key(press("tab"))
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "◆ your setting") || strings.Count(v, "◆") < 4 {
		t.Errorf("the parallel axes do not draw the baseline apart (◆ on each of the 4 axes, the legend):\n%s", v)
	}

	one := Snapshot{}
	for i := range 6 {
		one.Jobs = append(one.Jobs, study.Job{Trial: i, N: 50, Params: map[string]any{"methods.0.bins": float64(5 * (i + 1)), "methods.0.lambda": 1e-3}, Validation: 0.6 + 0.05*float64(i)})
	}
	one.Jobs = append(one.Jobs, study.Job{Trial: study.BaselineTrial, N: 50, Params: bp, Validation: 0.9})
	m.Set(status(false), one)
	if imp := ansi.Strip(m.importance(60, 10)); !strings.Contains(imp, "over 6 trials") {
		t.Errorf("the importance counts the baseline among the sampled trials:\n%s", imp)
	}
}

package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"gitui/model"
	"gitui/model/study"
	"gitui/ui/form"
	"gitui/ui/internal/uitest"
	"gitui/ui/methodpane"
	"gitui/ui/tunepane"
)

// tuneSpec is tinySpec on a pool of 600 X_perm samples (the study's validation split
// is a fifth of it) at one size, 90: a study of 9 trials over rungs 4, 12, 36 takes
// seconds.
func tuneSpec() *model.Spec {
	s := tinySpec(true)
	s.Data.Pool, s.Data.TestSize, s.Sizes, s.Repeats = 600, 200, []int{90}, 1
	return s
}

// fieldOffset returns how many rows below the field from the field to is in the
// method pane's list for method 0 of s.
func fieldOffset(t *testing.T, s *model.Spec, from, to string) int {
	t.Helper()
	var keys []string
	for _, f := range methodpane.Fields(s, 0) {
		keys = append(keys, f.Key)
	}
	i, j := slices.Index(keys, from), slices.Index(keys, to)
	if i < 0 || j < 0 {
		t.Fatalf("fields %v lack %s or %s", keys, from, to)
	}
	return j - i
}

// TestScriptedTune drives a study from the Method pane with the real engine by key
// presses: 3 (Method pane), t on bins and on templates (marked, their distributions
// shown), T (the study starts in the run store and the Tune view opens), the rungs
// fill (n 4, then 12, then 36), the study finishes (a trial complete at 3/3), b loads
// the best spec into the panes.
// It then checks the study directory: 9 trials over rungs 4, 12, 36 in study.json, the
// best refit and tested at n 90, best.spec.json a plain spec of the method tuned at n 90 with the best's values.
func TestScriptedTune(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a study for a few seconds")
	}
	storeDir := t.TempDir()
	spec := tuneSpec()
	a := New(context.Background(), Options{Presets: testPresets(), Initial: spec, Store: storeDir}, uitest.Styles())
	if !a.method.Form().Select("methods.0.bins") {
		t.Fatal("no bins field")
	}
	down := fieldOffset(t, a.spec, "methods.0.bins", "methods.0.templates")
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40))
	scr := watch(tm.Output())
	keys := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	m := scr.mark()
	keys("3")
	scr.waitFor(t, m, runKeyHelp, 30*time.Second) // the data preview is in: r and T work
	m = scr.mark()
	keys("t")
	scr.waitFor(t, m, "● tune 2..15", 10*time.Second)
	for range down {
		tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	}
	m = scr.mark()
	keys("t")
	m = scr.waitFor(t, m, "2 marked, T tunes", 10*time.Second)
	keys("T")
	// Each frame draws the header (the status) above the table: wait for each from
	// the same mark.
	scr.waitFor(t, m, "rungs n 4", 60*time.Second)
	scr.waitFor(t, m, "rungs n 4, 12", 90*time.Second)
	scr.waitFor(t, m, "rungs n 4, 12, 36", 90*time.Second)
	scr.waitFor(t, m, "study done:", 90*time.Second)
	scr.waitFor(t, m, "3/3", 90*time.Second)
	m = scr.mark()
	keys("b")
	scr.waitFor(t, m, "loaded the study's best spec", 10*time.Second)
	keys("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(*App)

	if fm.study.err != nil || fm.study.running {
		t.Fatalf("study ended with %v (running %v)", fm.study.err, fm.study.running)
	}
	f, err := study.ReadFile(fm.study.dir)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(fm.study.dir) != storeDir {
		t.Errorf("study in %s, want a directory of the run store %s", fm.study.dir, storeDir)
	}
	if !slices.Equal(f.Rungs, []int{4, 12, 36}) || len(f.Trials) != 9 || f.Best == nil {
		t.Fatalf("study.json: rungs %v, %d trials, best %v; want rungs 4, 12, 36, 9 trials and a best", f.Rungs, len(f.Trials), f.Best)
	}
	if f.Best.Test == nil || f.Best.N != 90 {
		t.Errorf("study.json's best %+v: want the refit's test accuracy at n 90 (the study concludes as gitui tune does)", f.Best)
	}
	full := 0
	for _, tr := range f.Trials {
		if len(tr.Params) != 2 {
			t.Errorf("trial %d params %v, want bins and templates", tr.ID, tr.Params)
		}
		if len(tr.Rungs) == 3 {
			full++
		}
	}
	if full == 0 {
		t.Errorf("no trial reached the last rung: %+v", f.Trials)
	}
	best, err := model.LoadSpec(filepath.Join(fm.study.dir, study.BestSpecFile))
	if err != nil {
		t.Fatal(err)
	}
	if best.Tune != nil || len(best.Methods) != 1 || !slices.Equal(best.Sizes, []int{90}) ||
		float64(best.Methods[0].Bins) != f.Best.Params["methods.0.bins"] || float64(best.Methods[0].Templates) != f.Best.Params["methods.0.templates"] {
		t.Errorf("best spec %+v does not hold the best's values %v at n 90", best, f.Best.Params)
	}
	// b loaded it into the panes: the workbench's spec is the best spec, marks cleared.
	if fm.spec.Methods[0].Bins != best.Methods[0].Bins || len(fm.spec.Methods) != 1 || len(fm.method.Tuned()) != 0 || fm.tuneOpen {
		t.Errorf("after b: spec methods %+v, marks %v, view open %v", fm.spec.Methods, fm.method.Tuned(), fm.tuneOpen)
	}
	if len(fm.issues) > 0 {
		t.Errorf("the best spec does not validate in the panes: %v", fm.issues)
	}
}

// TestTuneMarks checks the default distributions t gives (log around the current
// value for lambda, an integer range for bins and templates, every valid choice for an
// enum), that t again unmarks, and that a protocol field is refused with a reason.
func TestTuneMarks(t *testing.T) {
	s := tuneSpec()
	s.Methods[0].Lambda = 1e-3
	s.Defaults()
	a := New(context.Background(), Options{Initial: s}, uitest.Styles())
	a.w, a.h = 120, 40
	a.relayout()
	a.setFocus(paneMethod)
	press := func(k string) {
		_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
		for cmd != nil {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				cmd = nil
				for _, c := range b {
					if c != nil {
						if mm, ok := c().(methodpane.TuneMarkedMsg); ok {
							a.Update(mm)
						}
					}
				}
				continue
			}
			_, cmd = a.Update(msg)
		}
	}
	for _, c := range []struct{ key, want string }{
		{"methods.0.lambda", "log:1e-05..0.1"},
		{"methods.0.bins", "2..15"},
		{"methods.0.templates", "2..15"},
		{"methods.0.template_kind", ""}, // every choice that validates
	} {
		if !a.method.Form().Select(c.key) {
			t.Fatalf("no field %s", c.key)
		}
		press("t")
		got, ok := a.method.Tuned()[c.key]
		if !ok {
			t.Fatalf("t on %s did not mark it (status %q)", c.key, a.status)
		}
		if c.want != "" && got != c.want {
			t.Errorf("%s ~ %s, want %s", c.key, got, c.want)
		}
		if c.want == "" && len(strings.Split(got, ",")) < 2 {
			t.Errorf("%s ~ %s, want a list of choices", c.key, got)
		}
	}
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "● tune log:1e-05..0.1") {
		t.Errorf("the marked lambda is not shown:\n%s", v)
	}
	sp, keys, err := studySpec(a.spec, a.method.Tuned())
	if err != nil || len(sp.Methods) != 1 || len(keys) != 4 || sp.Tune.Params["methods.0.bins"] != "2..15" {
		t.Errorf("studySpec: %v, keys %v, methods %d", err, keys, len(sp.Methods))
	}
	if _, err := sp.TuneSpace(); err != nil {
		t.Errorf("the study's space does not parse: %v", err)
	}
	a.method.Form().Select("methods.0.bins")
	press("t")
	if _, ok := a.method.Tuned()["methods.0.bins"]; ok {
		t.Error("t again did not unmark bins")
	}
	a.method.Form().Select("repeats")
	press("t")
	if _, ok := a.method.Tuned()["repeats"]; ok || !a.statusEr || !strings.Contains(a.status, "method's fields") {
		t.Errorf("t on repeats: marked %v, status %q", ok, a.status)
	}
}

// TestDefaultDistZeroInt: a whole number at 0 meaning "every row" (range_sample) gets a
// log range around its step, not 1..3 rows.
func TestDefaultDistZeroInt(t *testing.T) {
	s := &model.Spec{Name: "z", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"}, Seed: 1,
		Group: model.GroupSpec{Kind: "cyclic-shift"}, Sizes: []int{500},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 20, Thresholds: "range"}}}
	s.Defaults()
	for _, f := range methodpane.Fields(s, 0) {
		if f.Key != "methods.0.range_sample" {
			continue
		}
		d, err := methodpane.DefaultDist(s, f)
		if err != nil || d != "log:500..5000" {
			t.Fatalf("range_sample at 0 ~ %q, %v; want log:500..5000", d, err)
		}
		return
	}
	t.Fatal("no range_sample field on a CDF method with range thresholds")
}

// TestDefaultDistBounds: every default distribution of every numeric or choice field
// of the method families of the presets' quick specs parses and validates on its spec
// (DefaultDist checks it with TuneSpace; a refusal must name a reason).
func TestDefaultDistBounds(t *testing.T) {
	for _, p := range testPresets() {
		s := p.Build(true)
		s.Defaults()
		for i := range s.Methods {
			for _, f := range methodpane.Fields(s, i) {
				d, err := methodpane.DefaultDist(s, f)
				if err != nil {
					if err.Error() == "" {
						t.Errorf("%s %s: an empty refusal", p.Name, f.Key)
					}
					continue
				}
				if f.Kind == form.LogFloat && !strings.HasPrefix(d, "log:") {
					t.Errorf("%s %s ~ %s: want a log range", p.Name, f.Key, d)
				}
			}
		}
	}
}

// TestTuneViewGolden draws the whole workbench with the Tune view open on a finished
// study of 3 trials (rungs 4 and 12) at 80×24 and 120×40: what the user sees after T
// and a study.
func TestTuneViewGolden(t *testing.T) {
	snap := studyFixture()
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			a := newTestApp(t, sz[0], sz[1])
			a.study = studyRun{id: 1, dir: "STORE/20261123-120000-xperm-tiny-tune", name: "xperm-tiny", keys: []string{"methods.0.bins", "methods.0.templates"}, started: t0, ended: t0.Add(7 * time.Second)}
			a.tv.Set(a.studyStatus(), snap)
			a.tuneOpen = true
			a.updateKeys()
			v := a.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// studyFixture is a finished study of 3 trials over bins and templates, rungs 4 and
// 12 (η = 3), as tunepane.Load reads one.
func studyFixture() tunepane.Snapshot {
	type rec struct {
		trial, rung, n int
		bins, tmpl     float64
		v, sec         float64
	}
	recs := []rec{{0, 0, 4, 5, 3, 0.61, 0.4}, {1, 0, 4, 12, 9, 0.72, 0.5}, {2, 0, 4, 8, 14, 0.66, 0.5}, {1, 1, 12, 12, 9, 0.81, 0.9}}
	var s tunepane.Snapshot
	for _, r := range recs {
		s.Jobs = append(s.Jobs, study.Job{Trial: r.trial, Rung: r.rung, N: r.n, Params: map[string]any{"methods.0.bins": r.bins, "methods.0.templates": r.tmpl}, Validation: r.v, Seconds: r.sec})
	}
	f := &study.File{Schema: study.StudySchema, Sampler: "tpe", Pruner: "asha", Eta: 3, Rungs: []int{4, 12}, Validation: 120, Pool: 600}
	for i := range 3 {
		ti := study.TrialInfo{ID: i, State: "pruned"}
		for _, j := range s.Jobs {
			if j.Trial == i {
				ti.Params = j.Params
				ti.Rungs = append(ti.Rungs, study.RungInfo{N: j.N, Validation: j.Validation})
			}
		}
		if len(ti.Rungs) == 2 {
			ti.State = "complete"
		}
		f.Trials = append(f.Trials, ti)
	}
	f.Best = &study.BestInfo{Refit: study.Refit{Trial: 1, Params: s.Jobs[1].Params, Validation: 0.81, ValidationN: 12}, N: 90, Compared: 3}
	s.File, s.BestSpec = f, "STORE/20261123-120000-xperm-tiny-tune/best.spec.json"
	return s
}

// TestStudyCancel starts a study, asks for its cancellation as x then y do, and checks
// that it stops (context.Canceled, the status says how to continue it), that q asked
// while it ran, that the view shows it stopped, and that its directory is released (a
// resume can open it).
func TestStudyCancel(t *testing.T) {
	spec := tuneSpec()
	spec.Data.Pool = 3000 // a longer study, so that the cancel comes first
	a := New(context.Background(), Options{Initial: spec, Store: t.TempDir()}, uitest.Styles())
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	exec(t, a, a.Init())
	a.setFocus(paneMethod)
	a.method.Form().Select("methods.0.bins")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	exec(t, a, cmd)
	if len(a.method.Tuned()) != 1 {
		t.Fatalf("bins not marked: %q", a.status)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("T")}) // the pump is driven below
	if !a.study.running || !a.tuneOpen {
		t.Fatalf("T did not start the study: %q", a.status)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if a.confirm != confirmQuit || !strings.Contains(ansi.Strip(a.View()), "A study is going") {
		t.Errorf("q while the study runs does not ask (confirm %v)", a.confirm)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
	if a.confirm != confirmStudy {
		t.Fatalf("x in the Tune view does not ask (confirm %v)", a.confirm)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if !a.study.cancelling {
		t.Fatal("y did not cancel the study")
	}
	for a.study.running {
		msg := a.waitStudy()()
		a.Update(msg)
	}
	if !errors.Is(a.study.err, context.Canceled) || !strings.Contains(a.status, "gitui resume") {
		t.Errorf("cancelled study: err %v, status %q", a.study.err, a.status)
	}
	if !strings.Contains(ansi.Strip(a.tv.View()), "stopped") {
		t.Errorf("the view does not say the study stopped:\n%s", ansi.Strip(a.tv.View()))
	}
	st, err := study.Open(a.study.dir, nil)
	if err != nil {
		t.Fatalf("the cancelled study cannot be resumed: %v", err)
	}
	st.Close()
}

// TestTuneCommandLine: with fields marked, the Method pane's headless command is the
// `gitui tune` that runs the same study, and running it parses (its spec with the
// params validates as the study's does).
func TestTuneCommandLine(t *testing.T) {
	a := newTestApp(t, 120, 40) // xperm-tiny quick: CDF and raw
	a.setFocus(paneMethod)
	for _, k := range []string{"methods.0.bins", "methods.0.templates"} {
		a.method.Form().Select(k)
		_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
		exec(t, a, cmd)
	}
	got := a.method.Command()
	want := `gitui tune xperm-tiny --quick --set 'methods=[{"bins":5,"features":"cdf","learner":"rls","template_kind":"gaussian","templates":5,"thresholds":"theory"}]' --param methods.0.bins=2..15 --param methods.0.templates=2..15`
	if got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
	a.method.Form().Select("methods.0.bins")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	exec(t, a, cmd)
	a.method.Form().Select("methods.0.templates")
	_, cmd = a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	exec(t, a, cmd)
	if got := a.method.Command(); !strings.HasPrefix(got, "gitui run xperm-tiny --quick") {
		t.Errorf("unmarked: command %s, want the run command", got)
	}
}

// TestTuneKeyReopens: after a study, T reopens its view while the marks are the same,
// and starts a new study once they changed.
func TestTuneKeyReopens(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.opts.Store = t.TempDir()
	a.setFocus(paneMethod)
	a.method.Form().Select("methods.0.bins")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	exec(t, a, cmd)
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("T")})
	first := a.study.dir
	for a.study.running {
		a.Update(a.waitStudy()())
	}
	if a.study.err != nil || first == "" {
		t.Fatalf("study: %v in %q", a.study.err, first)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyEsc})
	if a.tuneOpen {
		t.Fatal("esc did not close the Tune view")
	}
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("T")})
	if !a.tuneOpen || a.study.dir != first || a.study.running {
		t.Fatalf("T with the same marks: view %v, dir %s (was %s), running %v", a.tuneOpen, a.study.dir, first, a.study.running)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyEsc})
	a.method.Form().Select("methods.0.templates")
	_, cmd = a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("t")})
	exec(t, a, cmd)
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("T")})
	if !a.study.running || a.study.dir == first {
		t.Fatalf("T with new marks did not start a new study (dir %s)", a.study.dir)
	}
	a.cancelStudy()
	for a.study.running {
		a.Update(a.waitStudy()())
	}
}

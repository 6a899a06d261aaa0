package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/bench"
	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/internal/uitest"
)

// testRates are the rates of the tests' time estimates: bench.DefaultRates of the
// pure-Go build, uncalibrated, whatever the machine and build (goldens show them).
var testRates = bench.Rates{Sgemm: 60, Pool: 4e8, Dgemm: 6, Kernel: 4e7, FFT: 5e5, Reduce: 1.5, SMO: 2e8}

func TestMain(m *testing.M) {
	uitest.Setup()
	loadRates = func() bench.Rates { return testRates }
	os.Exit(m.Run())
}

// tinySpec is a quick X_perm sample-complexity spec: it finishes in about a second.
func tinySpec(quick bool) *model.Spec {
	s := &model.Spec{
		Name: "xperm-tiny", Protocol: model.ProtocolCurve,
		Data:    model.DataSpec{Name: "xperm", TestSize: 500},
		Group:   model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}, {Features: "raw"}},
		Sizes:   []int{20, 50, 100}, Repeats: 2, Seed: 1,
	}
	if !quick {
		s.Sizes, s.Repeats = []int{20, 50, 100, 200, 500}, 5
	}
	return s
}

func testPresets() []model.Preset {
	return []model.Preset{
		{Name: "xperm-tiny", Summary: "CDF vs raw on X_perm, tiny sizes", Build: tinySpec},
		{Name: "circle-rbf", Summary: "RBF RLS on the toy circle", Build: func(bool) *model.Spec {
			return &model.Spec{Name: "circle-rbf", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "circle", Pool: 300, TestSize: 300},
				Methods: []model.Method{{Kernel: "rbf"}}, Sizes: []int{20, 50}, Repeats: 1, Seed: 2}
		}},
	}
}

var t0 = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

// newTestApp returns a sized app with a fixed clock, no ticks and its Init done.
func newTestApp(t testing.TB, w, h int) *App {
	t.Helper()
	a := New(context.Background(), Options{Presets: testPresets()}, uitest.Styles())
	a.now = func() time.Time { return t0 }
	a.tick = func(int) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	exec(t, a, a.Init())
	return a
}

// exec runs cmd and feeds its messages (recursively, batches included) to a.
func exec(t testing.TB, a *App, cmd tea.Cmd) {
	t.Helper()
	if cmd == nil {
		return
	}
	msg := cmd()
	switch m := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range m {
			exec(t, a, c)
		}
	default:
		_, next := a.Update(m)
		exec(t, a, next)
	}
}

func press(t testing.TB, a *App, keys ...string) {
	t.Helper()
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "tab":
			msg = tea.KeyMsg{Type: tea.KeyTab}
		case "shift+tab":
			msg = tea.KeyMsg{Type: tea.KeyShiftTab}
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "up":
			msg = tea.KeyMsg{Type: tea.KeyUp}
		case "right":
			msg = tea.KeyMsg{Type: tea.KeyRight}
		case "left":
			msg = tea.KeyMsg{Type: tea.KeyLeft}
		case "backspace":
			msg = tea.KeyMsg{Type: tea.KeyBackspace}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		_, cmd := a.Update(msg)
		exec(t, a, cmd)
	}
}

// fakeEvents are the events of a finished two-series run with a Gram matrix.
func fakeEvents() []eval.Event {
	var evs []eval.Event
	evs = append(evs, eval.Progress{Stage: "cells", Done: 6, Total: 6}, eval.Log{Time: t0, Line: "data xperm: pool 7500, test 500"})
	for i, n := range []float64{20, 50, 100} {
		evs = append(evs,
			eval.Point{Series: "CDF(5,5) RLS", XLabel: "training set size", YLabel: "accuracy", X: n, Mean: 0.7 + 0.1*float64(i), Std: 0.03, Runs: 2},
			eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: n, Mean: 0.6 + 0.05*float64(i), Std: 0.02, Runs: 2})
	}
	n := 12
	d := make([]float64, n*n)
	lab := make([]int, n)
	for i := range lab {
		lab[i] = i % 2
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if lab[i] == lab[j] {
				d[i*n+j] = 1
			}
		}
	}
	evs = append(evs, eval.Matrix{Name: "Haar rbf", N: n, Data: d, Labels: lab, MinEig: 1e-3})
	return evs
}

// fakeStart is an engine that sends fakeEvents then Done, honouring cancellation.
func fakeStart(ctx context.Context, spec *model.Spec, opts engine.RunOptions) <-chan eval.Event {
	ch := make(chan eval.Event, 64)
	go func() {
		defer close(ch)
		for _, e := range fakeEvents() {
			ch <- e
		}
		ch <- eval.Done{Outcome: nil, Err: nil}
	}()
	return ch
}

func TestGoldenPanes(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		a := newTestApp(t, sz[0], sz[1])
		a.start = fakeStart
		press(t, a, "r")
		if a.r.running {
			t.Fatalf("%dx%d: run did not finish: %s", sz[0], sz[1], a.run.Result())
		}
		for p := paneData; p < numPanes; p++ {
			exec(t, a, a.focusTo(p))
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], p), func(t *testing.T) {
				v := a.View()
				uitest.CheckFits(t, v, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(v)))
			})
		}
	}
}

func TestGoldenPickerHelpSmall(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(t, a, "p")
	t.Run("picker", func(t *testing.T) { golden.RequireEqual(t, []byte(ansi.Strip(a.View()))) })
	press(t, a, "esc", "?")
	t.Run("help", func(t *testing.T) {
		v := a.View()
		uitest.CheckFits(t, v, 80, 24)
		golden.RequireEqual(t, []byte(ansi.Strip(v)))
	})
	a.Update(tea.WindowSizeMsg{Width: 64, Height: 20})
	if v := ansi.Strip(a.View()); !strings.Contains(v, "terminal 64×20: gitui needs at least 80×24") {
		t.Fatalf("small terminal message missing:\n%s", v)
	}
	// Narrower than the sentence: it wraps, whole, within the window (never cut to
	// "needs at least 80×").
	a.Update(tea.WindowSizeMsg{Width: 24, Height: 8})
	v := a.View()
	uitest.CheckFits(t, v, 24, 8)
	if flat := strings.Join(strings.Fields(ansi.Strip(v)), " "); !strings.Contains(flat, "terminal 24×8: gitui needs at least 80×24") {
		t.Fatalf("small terminal message cut:\n%s", ansi.Strip(v))
	}
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	uitest.CheckFits(t, a.View(), 100, 30)
}

func TestLayout(t *testing.T) {
	for _, c := range []struct {
		w, h           int
		tooSmall, tabs bool
	}{{79, 40, true, false}, {120, 23, true, false}, {80, 24, false, true}, {119, 50, false, true}, {120, 33, false, true}, {120, 40, false, false}, {200, 60, false, false}} {
		l := layoutFor(c.w, c.h, 2)
		if l.tooSmall != c.tooSmall || (!l.tooSmall && l.tabs != c.tabs) {
			t.Errorf("%dx%d: tooSmall=%v tabs=%v, want %v %v", c.w, c.h, l.tooSmall, l.tabs, c.tooSmall, c.tabs)
			continue
		}
		if l.tooSmall || l.tabs {
			continue
		}
		// The four boxes tile the body exactly.
		if l.config.w+l.curves.w != c.w || l.config.h+l.run.h != l.body.h || l.curves.h+l.heat.h != l.body.h ||
			l.body.y+l.body.h+l.footer != c.h || l.config.w < 56 {
			t.Errorf("%dx%d: boxes do not tile the body: %+v", c.w, c.h, l)
		}
	}
}

func TestRunPendingKeysAndStaleMessages(t *testing.T) {
	a := newTestApp(t, 120, 40)
	// A fake engine that waits for cancellation, then reports one finished cell.
	a.start = func(ctx context.Context, spec *model.Spec, _ engine.RunOptions) <-chan eval.Event {
		ch := make(chan eval.Event, 4)
		go func() {
			defer close(ch)
			<-ctx.Done()
			ch <- eval.Point{Series: "raw RLS", X: 20, Mean: 0.5, Runs: 1}
			ch <- eval.Done{Outcome: &eval.Outcome{Series: []eval.Series{{Name: "raw RLS", Points: []eval.SeriesPoint{{X: 20, Mean: 0.5, Runs: 1}}}}}, Err: ctx.Err()}
		}()
		return ch
	}
	_, pump := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")}) // the first batch (no tick in tests)
	if !a.r.running || !a.keys.Cancel.Enabled() {
		t.Fatal("run not going or cancel disabled")
	}
	// r while running asks first; n keeps the run.
	press(t, a, "r")
	if a.confirm != confirmRestart || !strings.Contains(ansi.Strip(a.View()), "Cancel it and start a new one?") {
		t.Fatal("no restart question")
	}
	press(t, a, "n")
	// q asks too.
	press(t, a, "q")
	if a.confirm != confirmQuit {
		t.Fatal("q did not ask while running")
	}
	press(t, a, "esc")
	// Esc backs out of an edit and nothing more: it never cancels a run (not even r,
	// enter, esc, esc).
	a.setFocus(paneMethod)
	press(t, a, "enter", "esc", "esc", "esc")
	if a.r.cancelling || !a.r.running || a.confirm != confirmNone {
		t.Fatalf("esc cancelled the run or asked (cancelling %v, running %v, confirm %v)", a.r.cancelling, a.r.running, a.confirm)
	}
	// x asks, as q does; n (or esc) keeps the run.
	press(t, a, "x")
	if a.confirm != confirmCancel || a.r.cancelling || !strings.Contains(ansi.Strip(a.View()), "Cancel the run?") {
		t.Fatal("x did not ask before cancelling")
	}
	press(t, a, "n")
	if a.r.cancelling {
		t.Fatal("n cancelled the run")
	}
	// Cancel: the pump keeps going until Done and the finished cell is kept.
	press(t, a, "x", "y")
	if !a.r.cancelling {
		t.Fatal("x, y did not cancel")
	}
	exec(t, a, pump)
	if a.r.running {
		t.Fatal("run still going after cancel")
	}
	if p, ok := a.curves.Current().Point("raw RLS", 20); !ok || p.Mean != 0.5 {
		t.Fatal("finished cell was not kept after cancel")
	}
	if !strings.HasPrefix(a.run.Result(), "cancelled") {
		t.Fatalf("run result %q, want cancelled", a.run.Result())
	}
	// Messages of an old run id are dropped.
	before := a.curves.Current()
	a.Update(runEventsMsg{id: a.r.id - 1, events: []eval.Event{eval.Point{Series: "ghost", X: 1, Mean: 1}}})
	if !reflect.DeepEqual(before, a.curves.Current()) {
		t.Fatal("a stale batch changed the curves")
	}
}

func TestBadInputNeverRuns(t *testing.T) {
	a := newTestApp(t, 120, 40)
	started := 0
	a.start = func(ctx context.Context, spec *model.Spec, o engine.RunOptions) <-chan eval.Event {
		started++
		return fakeStart(ctx, spec, o)
	}
	a.setFocus(paneMethod)
	if !a.method.Form().Select("methods.0.bins") {
		t.Fatal("no bins field")
	}
	// A letter in a number field: inline message, the spec keeps its value.
	press(t, a, "enter", "backspace", "x", "enter")
	if e := a.method.Form().FieldError("methods.0.bins"); !strings.Contains(e, "not a whole number") {
		t.Fatalf("inline error %q", e)
	}
	if a.spec.Methods[0].Bins != 5 {
		t.Fatalf("bad text reached the spec: bins = %d", a.spec.Methods[0].Bins)
	}
	if !strings.Contains(ansi.Strip(a.View()), "not a whole number") {
		t.Fatal("inline message not shown")
	}
	press(t, a, "esc")
	// Out of range: refused inline as well.
	press(t, a, "enter", "backspace", "5", "0", "0", "0", "enter")
	if e := a.method.Form().FieldError("methods.0.bins"); !strings.Contains(e, "out of range") || a.spec.Methods[0].Bins != 5 {
		t.Fatalf("out-of-range value: error %q, bins %d", e, a.spec.Methods[0].Bins)
	}
	press(t, a, "esc")
	// A spec-level problem (empty training file path) blocks r.
	a.setFocus(paneData)
	a.data.Form().Select("data.name")
	for i := 0; i < len(model.DataNames) && a.spec.Data.Name != "file"; i++ {
		press(t, a, "right")
	}
	if a.spec.Data.Name != "file" || a.keys.Run.Enabled() {
		t.Fatalf("data.name %q, run enabled %v", a.spec.Data.Name, a.keys.Run.Enabled())
	}
	press(t, a, "r")
	// A file that does not parse: inline error in the data pane, run stays disabled.
	bad := t.TempDir() + "/bad.csv"
	os.WriteFile(bad, []byte("label,a,b\n1,2\nx,y,z\n"), 0o644)
	a.data.Form().Select("data.path")
	press(t, a, "enter")
	for _, r := range bad {
		press(t, a, string(r))
	}
	press(t, a, "enter")
	if a.spec.Data.Path != bad || a.data.Err() == nil {
		t.Fatalf("path %q, load error %v", a.spec.Data.Path, a.data.Err())
	}
	press(t, a, "r")
	if started != 0 || a.r.running {
		t.Fatal("a run started with bad input")
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "✗") || !strings.Contains(v, "cannot run") {
		t.Fatalf("no inline data error or status:\n%s", v)
	}
}

func TestCommandLineRoundTrip(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.setFocus(paneMethod)
	a.method.Form().Select("methods.0.lambda")
	press(t, a, "right", "right") // 0 -> 1e-12 -> 1e-11 (log steps)
	a.method.Form().Select("repeats")
	press(t, a, "right")
	if a.spec.Methods[0].Lambda != 1e-11 || a.spec.Repeats != 3 {
		t.Fatalf("lambda %g repeats %d", a.spec.Methods[0].Lambda, a.spec.Repeats)
	}
	cmd := a.method.Command()
	want := "gitui run xperm-tiny --quick --set methods.0.lambda=1e-11 --set repeats=3"
	if cmd != want {
		t.Fatalf("command\n %s\nwant\n %s", cmd, want)
	}
}

func TestRunesTypedTogetherAreSplit(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "3", "jjj")                                                 // one message holding three j's, as a fast terminal sends them
	if f, _ := a.method.Form().Selected(); f.Key != "methods.0.templates" { // features, kernel, bins, templates
		t.Fatalf("selected %s after jjj, want methods.0.templates", f.Key)
	}
}

// longError is a failure of several joined lines, each longer than a pane is wide.
var longError = errors.New("methods.0.kernel_norm applies to kernels rbf, poly and linear with a base kernel, not to raw features with the RLS learner: remove it or choose a kernel\n" +
	"data.path: /a/very/long/directory/name/that/does/not/fit/in/one/line/of/the/run/pane/train.csv does not exist: give an existing file")

// TestLongErrorsWrapAndMarkTabs makes a run fail with a long two-line error and the spec
// hold problems, at 120x40 (grid) and 80x24 (tabs), and checks that every word of the
// error is on screen in the run pane (wrapped, not cut), that no line is wider than
// the window, and that the tabs and titles of the panes holding an error carry a "!".
func TestLongErrorsWrapAndMarkTabs(t *testing.T) {
	for _, sz := range [][2]int{{120, 40}, {80, 24}} {
		a := newTestApp(t, sz[0], sz[1])
		a.start = func(ctx context.Context, _ *model.Spec, _ engine.RunOptions) <-chan eval.Event {
			ch := make(chan eval.Event, 2)
			ch <- eval.Done{Err: longError}
			close(ch)
			return ch
		}
		press(t, a, "r")
		if !a.run.Failed() || !a.hasError(paneRun) {
			t.Fatalf("%dx%d: run did not fail: %q", sz[0], sz[1], a.run.Result())
		}
		a.setFocus(paneRun)
		v := ansi.Strip(a.View())
		uitest.CheckFits(t, a.View(), sz[0], sz[1])
		// Wrapping only turns spaces into line breaks and indents: without white
		// space, each line of the error is in the pane whole.
		squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
		runPane := squeeze(ansi.Strip(a.run.View()))
		for _, line := range strings.Split(longError.Error(), "\n") {
			if !strings.Contains(runPane, squeeze(line)) {
				t.Errorf("%dx%d: the error line %q is not whole in the run pane:\n%s", sz[0], sz[1], line, a.run.View())
			}
		}
		if !strings.Contains(v, "4 Run!") {
			t.Errorf("%dx%d: the Run tab is not marked:\n%s", sz[0], sz[1], v)
		}
		t.Run(fmt.Sprintf("%dx%d-run-failed", sz[0], sz[1]), func(t *testing.T) { golden.RequireEqual(t, []byte(v)) })

		// Spec problems: the tabs of the panes that hold them are marked, the problems
		// are wrapped in their forms.
		a.spec.Methods[0].Bins = -3
		a.spec.Methods[0].Templates = -2
		a.spec.Data.TestSize = -5
		a.revalidate()
		if len(a.issues) < 2 || !a.hasError(paneMethod) {
			t.Fatalf("%dx%d: no spec problem for negative bins: %q", sz[0], sz[1], a.issues)
		}
		a.setFocus(paneMethod)
		v = ansi.Strip(a.View())
		uitest.CheckFits(t, a.View(), sz[0], sz[1])
		if !strings.Contains(v, "3 Method!") || !strings.Contains(v, "1 Data!") || strings.Contains(v, "5 Curves!") || strings.Contains(v, "2 Group!") {
			t.Errorf("%dx%d: tabs marked wrongly:\n%s", sz[0], sz[1], v)
		}
		press(t, a, "r")
		log := strings.Join(a.run.LogLines(), "\n")
		for _, is := range a.issues {
			if !strings.Contains(log, is) {
				t.Errorf("%dx%d: refused r does not list %q in the run log", sz[0], sz[1], is)
			}
		}
		t.Run(fmt.Sprintf("%dx%d-spec-problems", sz[0], sz[1]), func(t *testing.T) { golden.RequireEqual(t, []byte(ansi.Strip(a.View()))) })
	}
}

// TestCommandLineNamesDataDir: the headless command carries --data when `gitui run`
// would not find the workbench's data directory by itself (neither $GITUI_DATA nor the
// user cache directory), so that pasting it loads the same data; it leaves it out when
// $GITUI_DATA names that directory.
func TestCommandLineNamesDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my data")
	t.Setenv("GITUI_DATA", "")
	a := New(context.Background(), Options{Presets: testPresets(), DataDir: dir}, uitest.Styles())
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	exec(t, a, a.Init())
	want := "gitui run xperm-tiny --quick --data '" + dir + "'"
	if got := a.method.Command(); got != want {
		t.Fatalf("command\n %s\nwant\n %s", got, want)
	}
	t.Setenv("GITUI_DATA", dir)
	a.revalidate()
	if got := a.method.Command(); strings.Contains(got, "--data") {
		t.Fatalf("with GITUI_DATA=%s the command still names it: %s", dir, got)
	}
}

// TestLongRunAsks: r on a spec whose time estimate is above Options.AskAbove asks
// first ("r again to start, esc to edit"); esc backs out without starting, r again
// starts. Below the threshold (the default 10 minutes for the tiny test spec) r starts
// at once.
func TestLongRunAsks(t *testing.T) {
	a := newTestApp(t, 120, 40)
	started := 0
	a.start = func(ctx context.Context, spec *model.Spec, _ engine.RunOptions) <-chan eval.Event {
		started++
		ch := make(chan eval.Event)
		close(ch)
		return ch
	}
	a.opts.AskAbove = time.Nanosecond
	press(t, a, "r")
	if a.confirm != confirmLong || started != 0 {
		t.Fatalf("r on a long run: confirm %v, started %d: want the question and no run", a.confirm, started)
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "This run takes about") || !strings.Contains(v, "r again to start, esc to edit") {
		t.Fatalf("no time question in the footer:\n%s", v)
	}
	// At 80 columns the question keeps its keys whole: the estimate's largest part goes.
	a.longWhy = "about 35 min (TI-SVM (average fit): 10 min)"
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if lines := strings.Split(ansi.Strip(a.View()), "\n"); !strings.HasSuffix(lines[len(lines)-1], "This run takes about 35 min: r again to start, esc to edit") {
		t.Fatalf("the question at 80 columns: %q", lines[len(lines)-1])
	}
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if v := ansi.Strip(a.View()); !strings.Contains(v, "This run takes about 35 min (TI-SVM (average fit): 10 min): r again to start, esc to edit") {
		t.Fatalf("the question at 120 columns lost its largest part:\n%s", v)
	}
	press(t, a, "esc")
	if a.confirm != confirmNone || started != 0 {
		t.Fatalf("esc: confirm %v, started %d", a.confirm, started)
	}
	press(t, a, "r", "r")
	if started != 1 {
		t.Fatalf("r, r started %d runs, want 1", started)
	}
	b := newTestApp(t, 120, 40)
	b.start = a.start
	press(t, b, "r")
	if b.confirm != confirmNone || started != 2 {
		t.Fatalf("a run under 10 minutes asked (confirm %v) or did not start (%d)", b.confirm, started)
	}
}

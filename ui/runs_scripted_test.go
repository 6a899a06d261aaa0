package ui

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/internal/uitest"
	"gitui/ui/methodpane"
)

// TestScriptedCompareTwoLambdas is the acceptance session of the Runs pane, typed key
// by key with the real engine at 120×40: set λ of the first method to 0.01 and run;
// while that run is still running, focus the heatmap (6) and zoom it (z): the zoomed
// pane must show a Gram matrix (its eigenvalue line) with its colour scale (the shade
// bar) before the run's Done event is delivered; then step λ to 0.1 (→) and run again;
// open the Runs pane (7), filter (/xperm-tiny), mark both runs (space space) and
// compare (c). The compare view must list methods.0.lambda with both values as the one
// differing field, and the chart's legend must hold the first method's curve of both
// runs, "· A " and "· B ".
//
// "Before Done" holds by construction, not by timing: the engine is the real one, but
// its Done event of the first run is held back (gate) until the zoomed heatmap has been
// seen, so the check cannot be outrun on a fast machine nor time out on a loaded one
// (the waits are for output, with generous limits).
func TestScriptedCompareTwoLambdas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine twice for a few seconds")
	}
	spec := tinySpec(true)
	store := t.TempDir()
	a := New(context.Background(), Options{Presets: testPresets(), Initial: spec, Store: store, OutDir: t.TempDir()}, uitest.Styles())
	gate := make(chan struct{})
	var matrices, held atomic.Int32
	startEngine, runs := a.start, 0
	a.start = func(ctx context.Context, spec *model.Spec, opts engine.RunOptions) <-chan eval.Event {
		in := startEngine(ctx, spec, opts)
		runs++
		if runs > 1 {
			return in
		}
		out := make(chan eval.Event)
		go func() { // the first run's events, its Done held until gate closes
			defer close(out)
			for e := range in {
				switch e.(type) {
				case eval.Matrix:
					matrices.Add(1)
				case eval.Done:
					held.Store(1)
					select {
					case <-gate:
					case <-ctx.Done():
					}
				}
				select {
				case out <- e:
				case <-ctx.Done():
					return
				}
			}
		}()
		return out
	}
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40))
	scr := watch(tm.Output())
	keys := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	m := scr.mark()
	scr.waitFor(t, m, runKeyHelp, 30*time.Second)

	// Method pane, down to the lambda field of method 1, type 0.01.
	s := spec.Clone()
	s.Defaults()
	lam := -1
	for i, f := range methodpane.Fields(s, 0) {
		if f.Key == "methods.0.lambda" {
			lam = i
		}
	}
	if lam < 0 {
		t.Fatal("method 1 has no lambda field")
	}
	keys("3")
	for range lam {
		keys("j")
	}
	m = scr.mark()
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	keys("0.01")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	scr.waitFor(t, m, "methods.0.lambda=0.01", 10*time.Second) // the command line under the form
	m = scr.mark()
	keys("r")
	start := m
	// The run is going (its Done is held); zoom the heatmap as soon as a matrix is in it.
	scr.waitFor(t, m, "λmin=", 90*time.Second)
	m = scr.mark()
	keys("6")
	keys("z")
	scr.waitFor(t, m, "(zoomed: z restores)", 10*time.Second)
	for _, want := range []string{"kernel Gram matrices", "λmin=", "▒▓"} { // a matrix and its shade scale
		scr.waitFor(t, m, want, 10*time.Second)
	}
	if scr.contains(start, "✓ done:") {
		t.Fatal("the run was reported done before its Done event was let through")
	}
	if matrices.Load() == 0 {
		t.Fatal("the zoomed heatmap has content but the engine sent no Matrix event")
	}
	t.Logf("zoomed heatmap during the run: %d Matrix events delivered, Done held: %v", matrices.Load(), held.Load() == 1)
	m = scr.mark()
	close(gate)
	keys("z") // the grid again, where the Run pane says when the run is done
	keys("3") // back to the method form, its cursor still on λ
	scr.waitFor(t, m, "✓ done:", 90*time.Second)
	m = scr.mark()
	keys("l") // ×10: λ = 0.1
	scr.waitFor(t, m, "methods.0.lambda=0.1", 10*time.Second)
	m = scr.mark()
	keys("r")
	scr.waitFor(t, m, "✓ done:", 90*time.Second)

	m = scr.mark()
	keys("7")
	scr.waitFor(t, m, "2 runs", 10*time.Second)
	m = scr.mark()
	keys("/xperm-tiny")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	scr.waitFor(t, m, "2 of 2 runs · filter: xperm-tiny", 10*time.Second)
	m = scr.mark()
	keys(" ")
	keys(" ")
	scr.waitFor(t, m, "2 marked", 10*time.Second)
	m = scr.mark()
	keys("c")
	scr.waitFor(t, m, "parameters that differ", 10*time.Second)
	keys("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*App)

	c := fm.runs.Compare()
	if c == nil {
		t.Fatal("no compare view open")
	}
	if d := c.DiffKeys(); len(d) != 1 || d[0] != "methods.0.lambda" {
		t.Errorf("differing spec fields %v, want [methods.0.lambda]", d)
	}
	v := ansi.Strip(fm.View())
	t.Logf("compare view:\n%s", v)
	first := fm.curves.Current().Series[0].Name
	for _, want := range []string{"methods.0.lambda", "0.01", "0.1", first + " · A ", first + " · B "} {
		if !strings.Contains(v, want) {
			t.Errorf("compare view lacks %q", want)
		}
	}
}

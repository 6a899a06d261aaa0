package ui

import (
	"context"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
)

// TestLoadPresetClearsOldRun: loading a preset after a run clears that run's
// curves and heatmaps (they belong to the old spec), keeps the pinned curves, and s no
// longer exports the old run as the current one. While a run is still going, its curves
// and matrices stay (points keep arriving) and both panes say they are the run's, not the
// spec in the panes'.
func TestLoadPresetClearsOldRun(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.start = fakeStart
	press(t, a, "r")
	if len(a.curves.Current().Series) != 2 || len(a.heat.Matrices()) == 0 {
		t.Fatalf("the fake run left %d series and %d matrices", len(a.curves.Current().Series), len(a.heat.Matrices()))
	}
	press(t, a, "P") // pin it
	press(t, a, "r") // a second run, not pinned
	press(t, a, "p", "down", "enter")
	if a.preset != "circle-rbf" {
		t.Fatalf("loaded %q, want circle-rbf", a.preset)
	}
	if n := len(a.curves.Current().Series); n != 0 {
		t.Errorf("after loading a preset the old run's %d series are still the current curves", n)
	}
	if n := len(a.heat.Matrices()); n != 0 {
		t.Errorf("after loading a preset the heatmap still holds the old run's %d matrices", n)
	}
	if ps := a.curves.Pinned(); len(ps) != 1 || len(ps[0].Series) != 2 {
		t.Fatalf("the pinned run was not kept: %+v", ps)
	}
	press(t, a, "5")
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "CDF(5,5) RLS") {
		t.Errorf("the pinned curves are not drawn:\n%s", v)
	}
	if !strings.Contains(strings.Join(a.run.LogLines(), "\n"), "cleared") {
		t.Errorf("the run log does not say the old curves were cleared:\n%s", strings.Join(a.run.LogLines(), "\n"))
	}

	// A run still going keeps its curves, marked as its own.
	b := newTestApp(t, 120, 40)
	b.start = func(ctx context.Context, _ *model.Spec, _ engine.RunOptions) <-chan eval.Event {
		ch := make(chan eval.Event, 4)
		go func() {
			defer close(ch)
			<-ctx.Done()
			ch <- eval.Done{Err: ctx.Err()}
		}()
		return ch
	}
	b.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if !b.r.running {
		t.Fatal("run not going")
	}
	b.Update(runEventsMsg{id: b.r.id, events: fakeEvents()[:4]})
	press(t, b, "p", "down", "enter")
	if len(b.curves.Current().Series) == 0 {
		t.Fatal("loading a preset during a run dropped the running run's curves")
	}
	press(t, b, "5")
	v = ansi.Strip(b.View())
	if !strings.Contains(v, "run 1 xperm-tiny") || !strings.Contains(v, "not the spec in the panes") {
		t.Errorf("the running run's curves are not marked as its own:\n%s", v)
	}
}

package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// TestParcoordsInRunsPane drives the parallel-coordinates view through the workbench:
// three stored runs with λ = 0.01, 0.1, 1 (accuracy 0.7, 0.8, 0.9). In the Runs pane p
// opens the view (not the preset picker, which the footer no longer offers there) with λ and the accuracy as axes; ↑ brushes the
// top quarter of λ (only λ = 1); x clears it without touching the run; enter after a new
// brush marks exactly that run and returns to the table; p then esc closes the view; the
// full help (at 80×24) lists p.
func TestParcoordsInRunsPane(t *testing.T) {
	storeDir := t.TempDir()
	for i, lambda := range []float64{0.01, 0.1, 1} {
		s := tinySpec(true)
		s.Methods[0].Lambda = lambda
		raw, _ := json.Marshal(s)
		d := filepath.Join(storeDir, fmt.Sprintf("20261126-0%d0000-xperm-tiny", i+1))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644)
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", YLabel: "accuracy",
			Points: []model.Point{{X: 100, Mean: 0.7 + 0.1*float64(i), Std: 0.01, Runs: 2}}}}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	a := newTestApp(t, 80, 24)
	a.opts.Store = storeDir
	press(t, a, "7")
	if s := ansi.Strip(a.View()); strings.Contains(s, "p presets") {
		t.Fatalf("the footer offers p for the presets in the Runs pane:\n%s", s)
	}
	press(t, a, "p")
	pc := a.runs.Parcoords()
	if pc == nil || a.picker.open {
		t.Fatalf("p in the Runs pane: view %v, picker open %v", pc != nil, a.picker.open)
	}
	v := a.View()
	uitest.CheckFits(t, v, 80, 24)
	if s := ansi.Strip(v); !strings.Contains(s, "3 of 3 runs in brush") || !strings.Contains(s, "▸lambda") || !strings.Contains(s, "acc") {
		t.Fatalf("the view lacks its count or axes:\n%s", s)
	}
	press(t, a, "up")
	if got := pc.Brushed(); len(got) != 1 || !strings.Contains(got[0], "030000") {
		t.Fatalf("top quarter of λ brushes %v, want the λ=1 run", got)
	}
	if s := ansi.Strip(a.View()); !strings.Contains(s, "1 of 3 runs in brush") || !strings.Contains(s, "brush: lambda∈[0.752,1]") {
		t.Fatalf("brush not shown:\n%s", s)
	}
	press(t, a, "x")
	if len(pc.Brushes()) != 0 || a.runs.Parcoords() == nil {
		t.Fatal("x did not clear the brush, or left the view")
	}
	press(t, a, "up", "enter")
	if a.runs.Parcoords() != nil {
		t.Fatal("enter did not return to the table")
	}
	mk := a.runs.Marked()
	if len(mk) != 1 || mk[0].Params["methods.0.lambda"] != "1" {
		t.Fatalf("marked %d runs, want the λ=1 run", len(mk))
	}
	if s := ansi.Strip(a.View()); !strings.Contains(s, "1 marked") {
		t.Fatalf("the table does not show the mark:\n%s", s)
	}
	press(t, a, "p", "esc")
	if a.runs.Parcoords() != nil || a.focus != paneRuns {
		t.Fatal("esc did not close the view")
	}
	press(t, a, "?") // at 80×24: the help's first page holds the pane's keys, none cut
	uitest.CheckFits(t, a.View(), 80, 24)
	if s := ansi.Strip(a.View()); !strings.Contains(s, "parallel axes") {
		t.Fatalf("the help lacks p:\n%s", s)
	}
}

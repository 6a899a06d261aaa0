package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/form"
	"gitui/ui/internal/uitest"
)

// TestZoomFillsTheBody: at 120×40 (grid), z makes the focused pane fill the body (its
// title says so and no other pane's title is drawn), follows tab, and z again restores
// the grid.
func TestZoomFillsTheBody(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "5") // curves
	if v := ansi.Strip(a.View()); !strings.Contains(v, "Heatmap") || !strings.Contains(v, "▸ Curves") {
		t.Fatalf("grid lacks its panes:\n%s", v)
	}
	press(t, a, "z")
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "▸ Curves (zoomed: z restores)") || strings.Contains(v, "│Heatmap") || strings.Contains(v, "[Data]") {
		t.Fatalf("z did not zoom the curves pane:\n%s", v)
	}
	if w, h := a.curves.Dims(); w != 120-2 || h != 40-1-a.lay.footer-3 {
		t.Errorf("zoomed curves are %d×%d", w, h)
	}
	press(t, a, "tab")
	if v := ansi.Strip(a.View()); !strings.Contains(v, "▸ Heatmap (zoomed") {
		t.Fatalf("zoom does not follow the focus:\n%s", v)
	}
	press(t, a, "z")
	if v := ansi.Strip(a.View()); !strings.Contains(v, "Curves") || !strings.Contains(v, "▸ Heatmap") || strings.Contains(v, "zoomed") {
		t.Fatalf("second z did not restore the grid:\n%s", v)
	}
}

// TestDeleteMethodAsks: D in the method pane asks first; n keeps both methods, y
// deletes the selected one.
func TestDeleteMethodAsks(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(t, a, "3", "D")
	if a.confirm != confirmDelete || len(a.spec.Methods) != 2 {
		t.Fatalf("D deleted without asking (confirm %v, %d methods)", a.confirm, len(a.spec.Methods))
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "Delete method 1 of 2? y/n") {
		t.Fatalf("no question on screen:\n%s", v)
	}
	press(t, a, "n")
	if a.confirm != confirmNone || len(a.spec.Methods) != 2 {
		t.Fatal("n did not keep the method")
	}
	first := a.spec.Methods[1]
	press(t, a, "D", "y")
	if len(a.spec.Methods) != 1 || a.spec.Methods[0].Features != first.Features {
		t.Fatalf("y did not delete method 1: %+v", a.spec.Methods)
	}
}

// TestPickerFilter: / in the preset picker narrows it to the presets matching the
// typed words; enter loads the one shown; esc clears the filter.
func TestPickerFilter(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(t, a, "p", "/circle", "enter")
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "filter: circle  (1 of 2 presets)") || strings.Contains(v, "xperm-tiny ") {
		t.Fatalf("picker not filtered:\n%s", v)
	}
	press(t, a, "esc")
	if len(a.pickerShown()) != 2 || !a.picker.open {
		t.Fatal("esc did not clear the filter")
	}
	press(t, a, "/rbf", "enter", "enter")
	if a.picker.open || a.preset != "circle-rbf" {
		t.Fatalf("enter loaded %q", a.preset)
	}
}

// TestPickerModeOnlyByF: the picker's quick/full mode changes only when f is pressed,
// not when a full spec (a study's best.spec.json after b) was loaded in between.
func TestPickerModeOnlyByF(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.quick = false // what b (openBest) leaves: a full spec in the panes
	press(t, a, "p")
	if !a.picker.quick {
		t.Fatal("the picker opened in full mode after a full spec was loaded; only f changes it")
	}
	press(t, a, "f", "esc", "p")
	if a.picker.quick {
		t.Fatal("f's full mode was not kept when the picker opened again")
	}
}

// TestMouseFocusAndSuspend: a left click on a grid pane or a header tab focuses it;
// ctrl+z returns Bubble Tea's suspend command.
func TestMouseFocusAndSuspend(t *testing.T) {
	a := newTestApp(t, 120, 40)
	c := a.lay.curves
	a.Update(tea.MouseMsg{X: c.x + 3, Y: c.y + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if a.focus != paneCurves {
		t.Fatalf("click on the curves focused %v", a.focus)
	}
	// "gitui " then tabs " 1 Data " " 2 Group " …: x=8 is inside the "1 Data" tab.
	a.Update(tea.MouseMsg{X: 8, Y: 0, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if a.focus != paneData {
		t.Fatalf("click on tab 1 focused %v", a.focus)
	}
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlZ})
	if cmd == nil {
		t.Fatal("ctrl+z returned no command")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Fatal("ctrl+z does not suspend")
	}
}

// TestOpenRunPinsItsCurves: Enter on a run of the store pins its curves in the Curves
// pane under its name and time, and the Runs pane lists the store when entered with 7.
func TestOpenRunPinsItsCurves(t *testing.T) {
	storeDir := t.TempDir()
	d := filepath.Join(storeDir, "20261126-010203-xperm-tiny")
	os.MkdirAll(d, 0o755)
	raw, _ := json.Marshal(tinySpec(true))
	os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644)
	r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", YLabel: "accuracy",
		Points: []model.Point{{X: 20, Mean: 0.6, Std: 0.01, Runs: 2}, {X: 100, Mean: 0.8, Std: 0.01, Runs: 2}}}}}
	if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
		t.Fatal(err)
	}
	a := newTestApp(t, 120, 40)
	a.opts.Store = storeDir
	press(t, a, "7")
	if v := ansi.Strip(a.View()); !strings.Contains(v, "1 run ·") || !strings.Contains(v, "xperm-tiny") || !strings.Contains(v, "0.800") {
		t.Fatalf("Runs pane does not list the store:\n%s", v)
	}
	press(t, a, "enter")
	if a.focus != paneCurves || len(a.curves.Pinned()) != 1 || len(a.pins) != 1 {
		t.Fatalf("enter did not pin the run (focus %v, %d pinned)", a.focus, len(a.curves.Pinned()))
	}
	// exports name the run as the TUI does (export.Label takes the preset)
	if r := a.pins[0]; r.Preset != "xperm-tiny 11-26 01:02:03" || r.Seed != 1 || r.Partial {
		t.Errorf("pinned result: preset %q seed %d partial %v", r.Preset, r.Seed, r.Partial)
	}
	if p, ok := a.curves.Pinned()[0].Point("raw RLS", 100); !ok || p.Mean != 0.8 {
		t.Fatalf("pinned run lacks its point: %+v", p)
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "raw RLS") {
		t.Fatalf("curves pane lacks the opened run:\n%s", v)
	}
}

// TestRunsPaneListsARunWhenItEnds: with the Runs pane open, a run of the workbench is
// listed (done) as soon as it ends, without leaving the pane. (r in the Runs pane
// re-reads the runs and never starts one: the run is started as r does in
// the other panes.)
func TestRunsPaneListsARunWhenItEnds(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.opts.Store = t.TempDir()
	a.start = fakeStart
	press(t, a, "7")
	if len(a.runs.Entries()) != 0 {
		t.Fatal("empty store lists runs")
	}
	exec(t, a, a.startRun())
	if a.r.running {
		t.Fatal("the fake run did not end")
	}
	es := a.runs.Entries()
	if len(es) != 1 || es[0].Status != "done" || es[0].Name != "xperm-tiny" {
		t.Fatalf("after the run the Runs pane lists %+v", es)
	}
}

// TestRunsHelpFits: the full help with the Runs pane focused fits 80×24 and lists the
// pane's keys.
func TestRunsHelpFits(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(t, a, "7", "?")
	v := a.View()
	uitest.CheckFits(t, v, 80, 24)
	for _, want := range []string{"/ ", "filter", "z ", "zoom pane", "ctrl+z", "suspend"} {
		if !strings.Contains(ansi.Strip(v), want) {
			t.Errorf("help lacks %q:\n%s", want, ansi.Strip(v))
		}
	}
}

// TestRunsMouse: in the Runs pane a click on the second run's row moves the cursor
// there, and the wheel moves it back up.
func TestRunsMouse(t *testing.T) {
	storeDir := t.TempDir()
	raw, _ := json.Marshal(tinySpec(true))
	for _, name := range []string{"20261126-010000-xperm-tiny", "20261126-020000-xperm-tiny"} {
		os.MkdirAll(filepath.Join(storeDir, name), 0o755)
		os.WriteFile(filepath.Join(storeDir, name, store.SpecFile), raw, 0o644)
	}
	a := newTestApp(t, 120, 40)
	a.opts.Store = storeDir
	press(t, a, "7")
	lines := strings.Split(ansi.Strip(a.View()), "\n")
	row := -1
	for y, l := range lines {
		if strings.Contains(l, "2026-11-26 01:00") {
			row = y
		}
	}
	if row < 0 {
		t.Fatalf("no row for the older run:\n%s", strings.Join(lines, "\n"))
	}
	a.Update(tea.MouseMsg{X: 10, Y: row, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if a.runs.Cursor() != 1 {
		t.Fatalf("click on screen line %d put the cursor on row %d", row, a.runs.Cursor())
	}
	a.Update(tea.MouseMsg{X: 10, Y: row, Button: tea.MouseButtonWheelUp})
	if a.runs.Cursor() != 0 {
		t.Fatalf("wheel up left the cursor on row %d", a.runs.Cursor())
	}
}

// TestRunsGroupAndImportanceKeys: in the workbench, g groups the Runs pane by the
// field that differs (the seed here) and esc leaves the groups without leaving the
// pane; i opens the importance view (three runs whose accuracy varies) and esc closes it.
func TestRunsGroupAndImportanceKeys(t *testing.T) {
	storeDir := t.TempDir()
	for i, acc := range []float64{0.8, 0.7, 0.72} {
		s := tinySpec(true)
		s.Seed = uint64(i + 1)
		raw, _ := json.Marshal(s)
		d := filepath.Join(storeDir, fmt.Sprintf("20261126-01000%d-xperm-tiny", i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644)
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", YLabel: "accuracy",
			Points: []model.Point{{X: 20, Mean: acc - 0.1, Runs: 2}, {X: 100, Mean: acc, Runs: 2}}}}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	a := newTestApp(t, 80, 24)
	a.opts.Store = storeDir
	press(t, a, "7", "g")
	v := ansi.Strip(a.View())
	uitest.CheckFits(t, a.View(), 80, 24)
	if a.runs.GroupedBy() != "seed" || !strings.Contains(v, "grouped by seed (1/1, g: next) · 3 values · 3 runs") {
		t.Fatalf("g in the Runs pane:\n%s", v)
	}
	press(t, a, "esc")
	if a.focus != paneRuns || a.runs.GroupedBy() != "" {
		t.Fatalf("esc: focus %v, grouped by %q", a.focus, a.runs.GroupedBy())
	}
	press(t, a, "i")
	if v := ansi.Strip(a.View()); !a.runs.ShowingImportance() || !strings.Contains(v, "seed ") || !strings.Contains(v, "1.00") || !strings.Contains(v, "one run per value") {
		t.Fatalf("i in the Runs pane:\n%s", v)
	}
	press(t, a, "esc")
	if a.runs.ShowingImportance() || a.focus != paneRuns {
		t.Fatal("esc did not close the importance view")
	}
}

// TestHeatmapGrowsWhenFocused checks that in the default 120×40 grid, the focused
// heatmap takes the larger share of the right column (its Gram matrices get about twice
// the cells), and gives it back when the focus leaves.
func TestHeatmapGrowsWhenFocused(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "5")
	small := a.lay.heat.h
	if small >= a.lay.curves.h {
		t.Fatalf("unfocused heatmap %d rows, curves %d: want the curves larger", small, a.lay.curves.h)
	}
	press(t, a, "6")
	if a.lay.heat.h <= a.lay.curves.h || a.lay.heat.h < small*3/2 {
		t.Fatalf("focused heatmap %d rows (was %d), curves %d", a.lay.heat.h, small, a.lay.curves.h)
	}
	v := ansi.Strip(a.View())
	uitest.CheckFits(t, v, 120, 40)
	if !strings.Contains(v, "▸ Heatmap") {
		t.Fatalf("no focused heatmap box:\n%s", v)
	}
	press(t, a, "1")
	if a.lay.heat.h != small {
		t.Errorf("the heatmap kept %d rows after the focus left, want %d", a.lay.heat.h, small)
	}
}

// TestTabsAbbreviateDuringARun checks that at 80×24 during a run (its name on the
// right of the header), the focused tab keeps its name and the others abbreviate
// ("5 Crv"), the run's name cut with … if need be, instead of collapsing to bare numbers ("1 Data  2  3  4").
func TestTabsAbbreviateDuringARun(t *testing.T) {
	a := newTestApp(t, 80, 24)
	press(t, a, "6")
	a.r.running, a.r.label = true, "run 1 xperm-tiny"
	head := strings.SplitN(ansi.Strip(a.View()), "\n", 2)[0]
	// Eight tabs abbreviated, one column apart, leave the run's name whole at 80: not cut,
	// and the tabs not reduced to bare numbers.
	if ansi.StringWidth(head) > 80 || !strings.HasSuffix(head, " running run 1 xperm-tiny") {
		t.Fatalf("header %q", head)
	}
	for _, want := range []string{"6 Heatmap", "1 Dat", "2 Grp", "3 Mth", "4 Run", "5 Crv", "7 Rns", "8 Prv"} {
		if !strings.Contains(head, want) {
			t.Errorf("header %q lacks %q", head, want)
		}
	}
	// A name longer than the abbreviated tabs leave is cut with …, the tabs kept.
	a.r.label = "run 12 a-rather-long-preset-name"
	head = strings.SplitN(ansi.Strip(a.View()), "\n", 2)[0]
	if ansi.StringWidth(head) > 80 || !strings.HasSuffix(head, "…") || !strings.Contains(head, "running run 12 a-") || !strings.Contains(head, "7 Rns") {
		t.Fatalf("header with a long name %q", head)
	}
	a.r.running = false
}

// TestExportLogged checks that s's message, cut in the title bar, is written whole to
// the run log, with where each file went.
func TestExportLogged(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.opts.OutDir = filepath.Join(t.TempDir(), "a-rather-long-directory-name-for-the-exports")
	a.apply(fakeEvents())
	a.updateKeys() // Update does this after each message
	press(t, a, "s")
	if !logHas(a, "saved ") || !logHas(a, " files to "+a.opts.OutDir) {
		t.Fatalf("the run log does not say where the export went: %q", a.run.LogLines())
	}
	n := 0
	for _, l := range a.run.LogLines() {
		if i := strings.Index(l, a.opts.OutDir+string(filepath.Separator)); i >= 0 && !strings.Contains(l, "saved ") {
			p := strings.TrimSpace(l[i:])
			if _, err := os.Stat(p); err != nil {
				t.Errorf("logged file %s: %v", p, err)
			}
			n++
		}
	}
	if n < 3 { // spec.json, result.json, curves.csv at least
		t.Errorf("%d files logged: %q", n, a.run.LogLines())
	}
}

// TestSaveFolderNamedAfterTheRun: s writes into a folder named as the run store names
// the run (time, then the run's name made safe), never after a spec file's path, as
// after b opened a study's best.spec.json.
func TestSaveFolderNamedAfterTheRun(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.opts.OutDir = t.TempDir()
	a.preset = "/home/someone/.local/share/gitui/studies/s1/best.spec.json"
	a.apply(fakeEvents())
	a.updateKeys()
	press(t, a, "s")
	ents, err := os.ReadDir(a.opts.OutDir)
	if err != nil || len(ents) != 1 {
		t.Fatalf("%s holds %v (%v), want one folder", a.opts.OutDir, ents, err)
	}
	want := regexp.MustCompile(`^\d{8}-\d{6}-` + regexp.QuoteMeta(store.SafeName(form.RunName(a.base, a.spec))) + `$`)
	if name := ents[0].Name(); !want.MatchString(name) || strings.Contains(name, "home") || strings.Contains(name, "json") {
		t.Errorf("saved into %q, want %v", name, want)
	}
}

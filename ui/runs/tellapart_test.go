package runs

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// TestRowsTellRunsApart checks that the Runs pane tells runs apart: runs of one name
// that differ only in λ show the differing keys in their rows (not identical rows); n
// names the run under the cursor, the label is written into its run.json and shown in
// the row; and the filter box takes ctrl+w (delete a word) and ctrl+u (delete all).
func TestRowsTellRunsApart(t *testing.T) {
	dir := runStore(t)
	for _, d := range []string{"20261126-010000-xperm-tiny", "20261126-020000-xperm-tiny"} {
		writeJSON(t, filepath.Join(dir, d, store.MetaFile), store.RunMeta{Version: "test"})
	}
	es, _ := store.Load([]string{dir}, true)
	m := New(uitest.Styles())
	m.SetSize(120, 20)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	v := ansi.Strip(m.View())
	for _, want := range []string{"lambda=0.01 ", "lambda=0.1 ", "lambda=1 "} {
		if !strings.Contains(v, want) {
			t.Errorf("rows do not show %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "methods.0.lambda") {
		t.Errorf("lambda, equal in both methods of a run, is not said once:\n%s", v)
	}
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	// Name the run under the cursor (the newest: λ=1 has no run.json, so go down one).
	m, _ = m.Update(runes("j"))
	at := m.Entries()[m.Cursor()].Path
	m, _ = m.Update(runes("n"))
	if !m.Editing() {
		t.Fatal("n opened no name box")
	}
	for _, k := range []tea.KeyMsg{runes("wide"), runes(" "), runes("λ"), {Type: tea.KeyCtrlW}, runes("lambda")} {
		m, _ = m.Update(k)
	}
	var cmd tea.Cmd
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter saved nothing")
	}
	msg := cmd().(LabelledMsg)
	if msg.Err != nil || msg.Label != "wide lambda" || msg.Path != at {
		t.Fatalf("label message %+v", msg)
	}
	m, _ = m.Update(msg)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "“wide lambda”") {
		t.Errorf("the row does not show its label:\n%s", v)
	}
	b, _ := os.ReadFile(filepath.Join(at, store.MetaFile))
	var meta store.RunMeta
	if json.Unmarshal(b, &meta) != nil || meta.Label != "wide lambda" || meta.Version != "test" {
		t.Errorf("run.json %s: want the label and the other fields kept", b)
	}
	if es2, _ := store.Load([]string{dir}, true); func() string {
		for _, e := range es2 {
			if e.Path == at {
				return e.Label
			}
		}
		return ""
	}() != "wide lambda" {
		t.Error("the label is not read back by store.Load")
	}
	// A run without run.json refuses a label, in the pane.
	m, _ = m.Update(runes("k"))
	m, _ = m.Update(runes("n"))
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	m, _ = m.Update(cmd())
	if v := ansi.Strip(m.View()); !strings.Contains(v, "✗ name not saved:") {
		t.Errorf("no refusal shown for a run without run.json:\n%s", v)
	}
	// ctrl+w and ctrl+u in the filter box.
	m, _ = m.Update(runes("/"))
	m, _ = m.Update(runes("lambda=0.1 acc>0.5"))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlW})
	if m.filter != "lambda=0.1 " {
		t.Errorf("ctrl+w left %q", m.filter)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	if m.filter != "" || !m.Editing() {
		t.Errorf("ctrl+u left %q (editing %v)", m.filter, m.Editing())
	}
}

// TestCompareShowsChosenLambda checks that a run whose λ was left to leave-one-out
// shows in the compare view what its fits chose (result.json's chosen table), "LOO:
// 2.5e-07", not "(unset)", beside the other run's fixed λ.
func TestCompareShowsChosenLambda(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, lambda float64, chosen bool) {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		sp := spec(lambda)
		writeJSON(t, filepath.Join(d, store.SpecFile), sp)
		raw, _ := json.Marshal(sp)
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{
			{Name: "CDF(5,5) RLS", Points: []model.Point{{X: 50, Mean: 0.8, Runs: 2}}},
			{Name: "raw RLS", Points: []model.Point{{X: 50, Mean: 0.6, Runs: 2}}},
		}}
		if chosen {
			r.Tables = []model.Table{{Name: store.ChosenTableName, Columns: []string{"series", "x", "size", "draws", "lambda"},
				Rows: [][]any{{"CDF(5,5) RLS", 50.0, 50, 2, 2.5e-7}, {"raw RLS", 50.0, 50, 2, 3e-4}}}}
		}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	mk("20261126-010000-xperm-tiny", 0, true)
	mk("20261126-020000-xperm-tiny", 0.1, false)
	es, errs := store.Load([]string{dir}, true)
	if len(errs) > 0 || len(es) != 2 {
		t.Fatal(errs, len(es))
	}
	m := New(uitest.Styles())
	m.SetSize(120, 30)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	for _, k := range []string{" ", " ", "c"} {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "LOO: 2.5e-07") || !strings.Contains(v, "LOO: 0.0003") || strings.Contains(v, "(unset)") {
		t.Errorf("compare does not show the chosen λ:\n%s", v)
	}
}

// TestParcoordsChosenAxis checks that what the fits chose (a leave-one-out λ) is a
// field of the parallel-coordinates view, so it can be an axis.
func TestParcoordsChosenAxis(t *testing.T) {
	es := []Entry{
		{Path: "a", Name: "x", Params: map[string]string{"seed": "1"}, Chosen: []map[string]float64{{"lambda": 2.5e-7}}, Acc: 0.8},
		{Path: "b", Name: "x", Params: map[string]string{"seed": "2"}, Chosen: []map[string]float64{{"lambda": 1e-3}}, Acc: 0.9},
		{Path: "c", Name: "x", Params: map[string]string{"seed": "2"}, Chosen: []map[string]float64{{"lambda": 1e-5}}, Acc: 0.7},
	}
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	if m.Parcoords() == nil {
		t.Fatal("p opened no view")
	}
	fields, _ := m.Parcoords().Fields()
	found := false
	for _, f := range fields {
		found = found || f == "methods.0.lambda (chosen)"
	}
	if !found {
		t.Errorf("fields %v lack the chosen lambda", fields)
	}
	if es[0].Params["methods.0.lambda (chosen)"] != "" {
		t.Error("the chosen value leaked into the run's own parameters (the table's filter)")
	}
}

package runs

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

func spec(lambda float64) *model.Spec {
	return &model.Spec{Name: "xperm-tiny", Protocol: model.ProtocolCurve,
		Data:    model.DataSpec{Name: "xperm", TestSize: 500},
		Group:   model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5, Lambda: lambda}, {Features: "raw", Lambda: lambda}},
		Sizes:   []int{20, 50}, Repeats: 2, Seed: 1}
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runStore writes three run directories: a done run (λ=0.01), a partial run (λ=0.1), and
// an interrupted one (λ=1) with a journal only; and returns the store.
func runStore(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	mk := func(name string, lambda float64) string {
		d := filepath.Join(dir, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		writeJSON(t, filepath.Join(d, store.SpecFile), spec(lambda))
		return d
	}
	res := func(d string, lambda float64, partial bool, m0 float64) {
		raw, _ := json.Marshal(spec(lambda))
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Partial: partial, Series: []model.Series{
			{Name: "CDF(5,5) RLS", XLabel: "training set size", YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: m0, Std: 0.02, Runs: 2}, {X: 50, Mean: m0 + 0.1, Std: 0.01, Runs: 2}}},
			{Name: "raw RLS", XLabel: "training set size", YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: 0.5, Std: 0.03, Runs: 2}, {X: 50, Mean: 0.55, Std: 0.03, Runs: 2}}},
		}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	res(mk("20261126-010000-xperm-tiny", 0.01), 0.01, false, 0.7)
	res(mk("20261126-020000-xperm-tiny", 0.1), 0.1, true, 0.75)
	d := mk("20261126-030000-xperm-tiny", 1)
	var lines []string
	for _, c := range []store.CellRecord{
		{Series: "raw RLS", X: 20, Rep: 0, Acc: 0.5}, {Series: "raw RLS", X: 20, Rep: 1, Acc: 0.7},
		{Series: "raw RLS", X: 50, Rep: 1, Acc: 0.9},
	} {
		b, _ := json.Marshal(c)
		lines = append(lines, string(b))
	}
	// a torn last line (a kill in mid-write) is ignored
	if err := os.WriteFile(filepath.Join(d, store.CellsFile), []byte(strings.Join(lines, "\n")+"\n{\"series\":\"raw"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "not-a-run"), 0o755) // no spec.json nor result.json: skipped
	return dir
}

// TestFlattenDiff: two specs that differ only in λ differ in exactly the λ of each method.
func TestFlattenDiff(t *testing.T) {
	a, _ := json.Marshal(spec(0.01))
	b, _ := json.Marshal(spec(0.1))
	pa, err := store.Flatten(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := store.Flatten(b)
	if pa["data.name"] != "xperm" || pa["sizes.1"] != "50" || pa["methods.0.features"] != "cdf" {
		t.Fatalf("flatten: %v", pa)
	}
	if got, want := Diff(pa, pb), []string{"methods.0.lambda", "methods.1.lambda"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("diff %v, want %v", got, want)
	}
	if d := Diff(pa, pa); len(d) != 0 {
		t.Fatalf("a spec differs from itself: %v", d)
	}
	delete(pb, "seed")
	if d := Diff(pa, pb); !reflect.DeepEqual(d, []string{"methods.0.lambda", "methods.1.lambda", "seed"}) {
		t.Fatalf("a missing key is not a difference: %v", d)
	}
}

// TestRowsSpread: Δ and the spread test on hand values: 0.85−0.80 = 0.05 exceeds
// √(0.01²+0.01²) ≈ 0.0141; 0.82−0.80 = 0.02 does not exceed √(0.05²+0.05²) ≈ 0.0707; a
// point only one run has gives no Δ.
func TestRowsSpread(t *testing.T) {
	mk := func(pts ...eval.SeriesPoint) Entry {
		return Entry{Series: []eval.Series{{Name: "m", Points: pts}}}
	}
	a := mk(eval.SeriesPoint{X: 10, Mean: 0.80, Std: 0.01}, eval.SeriesPoint{X: 20, Mean: 0.80, Std: 0.05}, eval.SeriesPoint{X: 40, Mean: 0.9})
	b := mk(eval.SeriesPoint{X: 10, Mean: 0.85, Std: 0.01}, eval.SeriesPoint{X: 20, Mean: 0.82, Std: 0.05})
	rows := Rows([]Entry{a, b})
	if len(rows) != 3 {
		t.Fatalf("%d rows, want 3", len(rows))
	}
	if r := rows[0]; math.Abs(r.Diff[1]-0.05) > 1e-12 || !r.Exceeds[1] {
		t.Errorf("x=10: %+v", r)
	}
	if r := rows[1]; math.Abs(r.Diff[1]-0.02) > 1e-12 || r.Exceeds[1] {
		t.Errorf("x=20: %+v", r)
	}
	if r := rows[2]; !math.IsNaN(r.Diff[1]) || r.Has[1] {
		t.Errorf("x=40: %+v", r)
	}
}

// TestFilterSortMarkCompare drives the pane by keys: "/lambda=0.1" keeps only the λ=0.1
// run; esc clears; o sorts by the next column; space marks two runs and c opens a
// compare view whose diff lists the λ of both methods and whose chart legend holds
// both runs' series; enter there asks to open both runs.
func TestFilterSortMarkCompare(t *testing.T) {
	es, _ := store.Load([]string{runStore(t)}, true)
	m := New(uitest.Styles())
	m.SetSize(120, 38)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	send := func(keys ...tea.KeyMsg) {
		for _, k := range keys {
			m, _ = m.Update(k)
		}
	}
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	send(runes("/"))
	for _, r := range "lambda=0.1" {
		send(runes(string(r)))
	}
	send(tea.KeyMsg{Type: tea.KeyEnter})
	if got := m.Entries(); len(got) != 1 || got[0].Params["methods.0.lambda"] != "0.1" {
		t.Fatalf("filter lambda=0.1 shows %d runs", len(got))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "1 of 3 runs · filter: lambda=0.1") {
		t.Fatalf("filter not shown:\n%s", v)
	}
	send(tea.KeyMsg{Type: tea.KeyEsc})
	if len(m.Entries()) != 3 {
		t.Fatal("esc did not clear the filter")
	}
	send(runes("o"), runes("o"), runes("o"), runes("o"), runes("o"), runes("o")) // time → status → took → data → group → methods → acc
	if m.sortCol != colAcc {
		t.Fatalf("sort column %v", m.sortCol)
	}
	accs := m.Entries()
	if !(accs[0].Acc >= accs[1].Acc && accs[1].Acc >= accs[2].Acc) {
		t.Fatalf("not sorted by accuracy, descending: %g %g %g", accs[0].Acc, accs[1].Acc, accs[2].Acc)
	}
	send(runes(" "), runes(" "), runes("c"))
	c := m.Compare()
	if c == nil {
		t.Fatal("c with two marked runs opened no compare view")
	}
	if !reflect.DeepEqual(c.DiffKeys(), []string{"methods.0.lambda", "methods.1.lambda"}) {
		t.Fatalf("diff keys %v", c.DiffKeys())
	}
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 120, 38)
	// sorted by accuracy: A is the interrupted λ=1 run (raw RLS only), B the λ=0.1 one
	for _, want := range []string{"methods.0.lambda  1  0.1", "raw RLS · A ", "CDF(5,5) RLS · B ", "raw RLS · B "} {
		if !strings.Contains(v, want) {
			t.Errorf("compare view lacks %q:\n%s", want, v)
		}
	}
	var cmd tea.Cmd
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter in the compare view asks for nothing")
	}
	if om, ok := cmd().(OpenMsg); !ok || len(om.Entries) != 2 || om.Entries[0].Path != c.Runs()[0].Path {
		t.Fatalf("enter in the compare view: %#v, want OpenMsg of both runs", cmd())
	}
	send(tea.KeyMsg{Type: tea.KeyEsc})
	if m.Comparing() {
		t.Fatal("esc did not close the compare view")
	}
}

// fixed returns entries with fixed times for goldens.
func fixed(t *testing.T) []Entry {
	es, errs := store.Load([]string{runStore(t)}, true)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for i := range es {
		es[i].Time = time.Date(2026, 11, 26, 3-i, 0, 0, 0, time.UTC)
	}
	return es
}

func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, view := range []string{"table", "compare", "compare-chart"} {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], view), func(t *testing.T) {
				m := New(uitest.Styles())
				m.SetSize(sz[0], sz[1])
				m.Focus(true)
				m, _ = m.Update(LoadedMsg{Entries: fixed(t)})
				if view != "table" {
					m.marked[m.Entries()[1].Path] = true
					m.marked[m.Entries()[2].Path] = true
					m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
				}
				if view == "compare-chart" {
					m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("v")})
				}
				v := m.View()
				uitest.CheckFits(t, v, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(v)))
			})
		}
	}
}

// TestTookAndStudyScore: the took column gives a run's wall time, a running run's time
// since it started, and a study without its test yet shows its best validation (v…)
// where a run shows its accuracy.
func TestTookAndStudyScore(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		e    Entry
		want string
	}{
		{Entry{Seconds: 456.2}, "7m36s"},
		{Entry{Seconds: 0.3}, "1s"},
		{Entry{Seconds: 3*3600 + 600}, "3h10m"},
		{Entry{Status: "running (process 7)", Time: now.Add(-90 * time.Second)}, "1m30s"},
		{Entry{Status: "interrupted"}, ""},
	} {
		if got := took(c.e, now); got != c.want {
			t.Errorf("took(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
	m := New(uitest.Styles())
	m.now = func() time.Time { return now }
	m.SetSize(120, 10)
	st := Entry{ID: "s", Path: "/s", Name: "svc (tune)", Status: "running (process 9)", Time: now.Add(-125 * time.Second),
		Acc: math.NaN(), BestValidation: 0.97194, Study: &store.Study{}}
	m, _ = m.Update(LoadedMsg{Entries: []Entry{st}})
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "v0.972") || !strings.Contains(v, "2m05s") {
		t.Errorf("the study's row lacks its best validation v0.972 or its 2m05s:\n%s", v)
	}
}

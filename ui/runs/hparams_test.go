package runs

import (
	"encoding/json"
	"fmt"
	"math"
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

// hpNow is the clock of the HParams tests.
var hpNow = time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)

// hpEntry is a run of spec s as store.Load reads it (its flattened spec), with series
// ss and what the fits of each method chose.
func hpEntry(t testing.TB, id string, s *model.Spec, status string, secs float64, chosen []map[string]float64, ss ...eval.Series) Entry {
	t.Helper()
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := store.Flatten(raw)
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{ID: id, Path: "/runs/" + id, Name: s.Name, Status: status, Data: s.Data.Name, Group: s.Group.Kind,
		Params: p, Spec: raw, Series: ss, Chosen: chosen, Seconds: secs, Acc: math.NaN(), BestValidation: math.NaN(),
		Time: hpNow.Add(-time.Hour)}
	for _, m := range s.Methods {
		e.Methods = append(e.Methods, m.DisplayName())
	}
	e.Acc = store.Headline(ss)
	return e
}

func curve(name string, pts ...float64) eval.Series {
	s := eval.Series{Name: name, XLabel: "training set size", YLabel: "accuracy"}
	for i := 0; i+1 < len(pts); i += 2 {
		s.Points = append(s.Points, eval.SeriesPoint{X: pts[i], Mean: pts[i+1], Std: 0.01, Runs: 3})
	}
	return s
}

func hpSpec(name, data string, lambda float64, bins int, sizes ...int) *model.Spec {
	return &model.Spec{Name: name, Protocol: model.ProtocolCurve,
		Data:    model.DataSpec{Name: data, TestSize: 500},
		Group:   model.GroupSpec{Kind: "permutation"},
		Methods: []model.Method{{Features: "cdf", Bins: bins, Templates: 5}, {Features: "raw", Lambda: lambda}},
		Sizes:   sizes, Repeats: 3, Seed: 1}
}

// hpFixture is five runs whose settings differ: the raw method's λ (0.1, 1), the CDF
// method's bins (5, 9), the data set (xperm, usps) and the sizes; one failed after its
// first size, one still running with no point yet, and a study without its refit; a
// series name holds an escape sequence, as a result.json from elsewhere might.
func hpFixture(t testing.TB) []Entry {
	chosen := []map[string]float64{{"lambda": 2.5e-07}, nil}
	a := hpEntry(t, "20261203-010000-xperm-tiny", hpSpec("xperm-tiny", "xperm", 0.1, 5, 100, 500), "done", 12.3, chosen,
		curve("CDF(5,5) RLS", 100, 0.81, 500, 0.93), curve("raw RLS", 100, 0.52, 500, 0.61))
	b := hpEntry(t, "20261203-020000-xperm-tiny", hpSpec("xperm-tiny", "xperm", 1, 9, 100, 500), "done", 95, []map[string]float64{{"lambda": 1e-05}, nil},
		curve("CDF(9,5) RLS", 100, 0.84, 500, 0.95), curve("raw RLS", 100, 0.55, 500, 0.58))
	b.Label = "more bins"
	c := hpEntry(t, "20261203-030000-usps", hpSpec("usps-cdf", "usps", 0.1, 5, 100, 500, 1000), "partial (failed)", 40, nil,
		curve("CDF(5,5) RLS", 100, 0.77), curve("raw RLS\x1b[31m", 100, 0.71))
	d := hpEntry(t, "20261203-040000-xperm-tiny", hpSpec("xperm-tiny", "xperm", 0.1, 5, 100, 500), "running (process 4242)", 0, nil)
	d.Time = hpNow.Add(-90 * time.Second)
	st := hpSpec("svc-halving (tune)", "xperm", 0.1, 5, 100, 500)
	st.Tune = &model.TuneSpec{Trials: 4}
	e := hpEntry(t, "20261203-050000-svc-halving", st, "searching (3 jobs, 2 trials)", 0, nil)
	e.Study, e.BestValidation = &store.Study{}, 0.9719
	return []Entry{a, b, c, d, e}
}

func hpModel(t testing.TB, w, h int, es []Entry) Model {
	m := New(uitest.Styles())
	m.now = func() time.Time { return hpNow }
	m.SetSize(w, h)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	return m
}

func hpPress(m Model, keys ...string) Model {
	for _, k := range keys {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		m, _ = m.Update(msg)
	}
	return m
}

// TestHParamsColumns: the table of the fixture has a row per run and series (one for a
// run without series), a column for each setting that differs (data, sizes, the study's
// tune block left out; bins and lambda from each row's own method), one per x, the
// chosen λ and took; a row reads its own method's values.
func TestHParamsColumns(t *testing.T) {
	tbl := HParams(hpFixture(t), hpNow)
	var names []string
	for _, c := range tbl.Columns {
		names = append(names, c.Name)
	}
	want := []string{"run", "series", "status", "data", "sizes", "bins", "lambda", "@100", "@500", "final", "λ chosen", "took"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("columns %q, want %q", names, want)
	}
	if len(tbl.Rows) != 8 {
		t.Fatalf("%d rows, want 8 (2+2+2 series, one row each for the running run and the study)", len(tbl.Rows))
	}
	cells := func(i int, keys ...string) []string {
		var out []string
		for _, k := range keys {
			out = append(out, tbl.Rows[i].Cells[tbl.Column(k)])
		}
		return out
	}
	for i, want := range [][]string{
		{"xperm-tiny", "CDF(5,5) RLS", "done", "xperm", "5", "—", "81.00±1.00", "93.00±1.00", "2.5e-07", "12s"},
		{"xperm-tiny", "raw RLS", "done", "xperm", "—", "0.1", "52.00±1.00", "61.00±1.00", "—", "12s"},
		{"“more bins”", "CDF(9,5) RLS", "done", "xperm", "9", "—", "84.00±1.00", "95.00±1.00", "1e-05", "1m35s"},
		{"“more bins”", "raw RLS", "done", "xperm", "—", "1", "55.00±1.00", "58.00±1.00", "—", "1m35s"},
		{"usps-cdf", "CDF(5,5) RLS", "failed", "usps", "5", "—", "77.00±1.00", "—", "—", "40s"},
		{"usps-cdf", `raw RLS\x1b[31m`, "failed", "usps", "—", "0.1", "71.00±1.00", "—", "—", "40s"},
		{"xperm-tiny", "—", "running", "xperm", "—", "—", "—", "—", "—", "1m30s"},
		{"svc-halving (tune)", "best validation 0.972", "searching", "xperm", "—", "—", "—", "—", "—", "—"},
	} {
		got := cells(i, "run", "series", "status", "data.name", "methods.*.bins", "methods.*.lambda", "@100", "@500", "chosen.lambda", "took")
		last := want[7] // @500, else @100: the row's largest x
		if last == "—" {
			last = want[6]
		}
		if f := tbl.Rows[i].Cells[tbl.Column("final")]; f != last {
			t.Errorf("row %d: final %q, want %q, the mean at its largest x", i, f, last)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("row %d: %q, want %q", i, got, want)
		}
	}
	if f := tbl.Rows[4].Final; f != "training set size 100" {
		t.Errorf("the failed run's final is at %q, want its largest x, training set size 100", f)
	}
	if s := tbl.Rows[4].Cells[tbl.Column("sizes")]; s != "100,500,1000" {
		t.Errorf("sizes of the usps run %q, want one list cell", s)
	}
	for _, r := range tbl.Rows {
		for _, c := range r.Cells {
			if strings.ContainsRune(c, '\x1b') {
				t.Errorf("cell %q holds an escape", c)
			}
		}
	}
	// One run alone: nothing differs between runs, its methods' fields differ by family only.
	one := HParams(hpFixture(t)[:1], hpNow)
	if got := len(one.Columns); got != 7 { // run series @100 @500 final λ chosen took
		t.Errorf("one run: %d columns %v", got, one.Columns)
	}
	if len(HParams(nil, hpNow).Rows) != 0 {
		t.Error("no runs: rows")
	}
}

// TestHParamsSortAndFilter: h opens the view sorted by final (the mean at each series'
// largest x), best first, missing last; o moves the sort to the next column (cycling
// from took to run), O reverses it with missing still last; the pane's filter applies
// to the table; esc clears the filter, then closes the view.
func TestHParamsSortAndFilter(t *testing.T) {
	m := hpModel(t, 120, 40, hpFixture(t))
	m = hpPress(m, "h")
	if !m.HParamsOpen() {
		t.Fatal("h did not open the HParams view")
	}
	col := func() []string {
		tbl := m.HParamsTable()
		k, _ := m.HParamsSort()
		c := tbl.Column(k)
		var out []string
		for _, r := range tbl.Rows {
			out = append(out, r.Cells[c])
		}
		return out
	}
	if k, desc := m.HParamsSort(); k != "final" || !desc {
		t.Fatalf("sorted by %s desc=%v, want final decreasing", k, desc)
	}
	if got, want := col(), []string{"95.00±1.00", "93.00±1.00", "77.00±1.00", "71.00±1.00", "61.00±1.00", "58.00±1.00", "—", "—"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("final decreasing: %q, want %q", got, want)
	}
	m = hpPress(m, "o", "o") // final → λ chosen → took
	if k, _ := m.HParamsSort(); k != "took" {
		t.Fatalf("o o sorts by %s, want took", k)
	}
	if got, want := col(), []string{"1m35s", "1m35s", "1m30s", "40s", "40s", "12s", "12s", "—"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("took decreasing: %q, want %q", got, want)
	}
	m = hpPress(m, "O")
	if got, want := col(), []string{"12s", "12s", "40s", "40s", "1m30s", "1m35s", "1m35s", "—"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("took increasing: %q, want %q (missing last)", got, want)
	}
	m = hpPress(m, "O")
	for range 8 { // took → run → series → status → data → sizes → bins → lambda → @100
		m = hpPress(m, "o")
	}
	if k, _ := m.HParamsSort(); k != "@100" {
		t.Fatalf("sorted by %s, want @100", k)
	}
	if got, want := col(), []string{"84.00±1.00", "81.00±1.00", "77.00±1.00", "71.00±1.00", "55.00±1.00", "52.00±1.00", "—", "—"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("@100 decreasing: %q, want %q", got, want)
	}
	m = hpPress(m, "/")
	for _, r := range "data=usps" {
		m = hpPress(m, string(r))
	}
	m = hpPress(m, "enter")
	tbl := m.HParamsTable()
	if len(tbl.Rows) != 2 || tbl.Rows[0].Run.Data != "usps" {
		t.Fatalf("filter data=usps: %d rows", len(tbl.Rows))
	}
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "filter: data=usps") {
		t.Errorf("the view does not show the filter:\n%s", v)
	}
	// One run listed: nothing differs between runs, so data is no column any more.
	if tbl.Column("data.name") >= 0 {
		t.Errorf("data is a column of one run's table")
	}
	m = hpPress(m, "esc")
	if !m.HParamsOpen() || len(m.HParamsTable().Rows) != 8 {
		t.Fatalf("esc did not clear the filter in the view (open %v, %d rows)", m.HParamsOpen(), len(m.HParamsTable().Rows))
	}
	var cmd tea.Cmd
	m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter on a row asks for nothing")
	}
	if om, ok := cmd().(OpenMsg); !ok || len(om.Entries) != 1 || om.Entries[0].Path != m.HParamsTable().Rows[m.hp.cur].Run.Path {
		t.Fatalf("enter: %#v, want OpenMsg of the row's run", cmd())
	}
	m = hpPress(m, "esc")
	if m.HParamsOpen() {
		t.Fatal("esc did not close the view")
	}
}

// TestHParamsFits: at 80×24, 120×40 and narrower, the view fits; at 80 columns the run,
// series and final stay, the settings and the mean at each x scroll with → and ←,
// and a line says so; rows scroll with the cursor.
func TestHParamsFits(t *testing.T) {
	es := hpFixture(t)
	for i := range 12 { // more rows than 24 lines hold
		e := es[0]
		e.ID, e.Path = fmt.Sprintf("copy-%d", i), fmt.Sprintf("/runs/copy-%d", i)
		es = append(es, e)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {60, 12}, {40, 8}} {
		m := hpModel(t, sz[0], sz[1], es)
		m = hpPress(m, "h")
		v := m.View()
		uitest.CheckFits(t, v, sz[0], sz[1])
		s := ansi.Strip(v)
		if sz[0] >= 80 && (!strings.Contains(s, "run") || !strings.Contains(s, "series") || !strings.Contains(s, "final▼")) {
			t.Errorf("%dx%d: run, series or the largest x missing:\n%s", sz[0], sz[1], s)
		}
		if sz[0] == 80 && !strings.Contains(s, "columns 1–3 of 6 scroll with ←/→") {
			t.Errorf("80 columns: no line names the hidden columns:\n%s", s)
		}
		if sz[0] == 80 {
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRight})
			if s := ansi.Strip(m.View()); !strings.Contains(s, "columns 2–4 of 6") || !strings.Contains(s, "lambda") || strings.Contains(s, " data ") {
				t.Errorf("→ did not scroll the settings:\n%s", s)
			}
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyLeft})
		}
		for range 30 {
			m = hpPress(m, "down")
		}
		v = m.View()
		uitest.CheckFits(t, v, sz[0], sz[1])
		if sz[1] >= 24 && !strings.Contains(ansi.Strip(v), "rows ") {
			t.Errorf("%dx%d: no rows line after scrolling:\n%s", sz[0], sz[1], ansi.Strip(v))
		}
		if !strings.Contains(ansi.Strip(v), "▸ ") {
			t.Errorf("%dx%d: the cursor scrolled out of view:\n%s", sz[0], sz[1], ansi.Strip(v))
		}
	}
}

// TestHParamsOddData: runs without a spec, series or points, and a partial spec, give a
// table and a view, no panic.
func TestHParamsOddData(t *testing.T) {
	odd := []Entry{
		{ID: "a", Path: "/a", Status: "empty", Acc: math.NaN(), BestValidation: math.NaN()},
		{ID: "b", Path: "/b", Status: "done", Params: map[string]string{"data.name": "x", "sizes.0": "1", "sizes": "9"}, Spec: json.RawMessage(`{"methods":[{}]}`),
			Series: []eval.Series{{Name: "s"}, {Name: "t", Points: []eval.SeriesPoint{{X: math.NaN(), Mean: math.NaN()}, {X: 5, Mean: 0.5}}}}, Chosen: []map[string]float64{{"lambda": 1}, {"odd": 2}}},
		{ID: "c", Path: "/c", Status: "interrupted", Spec: json.RawMessage(`not json`), Time: hpNow},
	}
	for _, sz := range [][2]int{{80, 24}, {30, 6}} {
		m := hpModel(t, sz[0], sz[1], odd)
		m = hpPress(m, "h", "o", "o", "o", "O", "down", "down", "down")
		uitest.CheckFits(t, m.View(), sz[0], sz[1])
	}
}

// TestGoldenHParams: the view of the fixture at 80×24 and 120×40.
func TestGoldenHParams(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := hpModel(t, sz[0], sz[1], hpFixture(t))
			m = hpPress(m, "h")
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// TestHParamsSortMixed: numbers sort as numbers and before text (unset), a missing
// cell last in both directions; decreasing is the reverse of increasing otherwise.
func TestHParamsSortMixed(t *testing.T) {
	mk := func(cells ...string) HPTable {
		tbl := HPTable{Columns: []HPColumn{{Name: "v", Key: "v", Kind: HPParam}}}
		for _, c := range cells {
			n, ok := parseNum(c)
			if !ok {
				n = math.NaN()
			}
			tbl.Rows = append(tbl.Rows, HPRow{Cells: []string{c}, Nums: []float64{n}, Missing: []bool{c == none}})
		}
		return tbl
	}
	got := func(tbl HPTable) []string {
		var out []string
		for _, r := range tbl.Rows {
			out = append(out, r.Cells[0])
		}
		return out
	}
	tbl := mk("10", none, "unset", "9", "0.1")
	tbl.Sort(0, false)
	if g, want := got(tbl), []string{"0.1", "9", "10", "unset", none}; !reflect.DeepEqual(g, want) {
		t.Errorf("increasing: %q, want %q", g, want)
	}
	tbl.Sort(0, true)
	if g, want := got(tbl), []string{"unset", "10", "9", "0.1", none}; !reflect.DeepEqual(g, want) {
		t.Errorf("decreasing: %q, want %q", g, want)
	}
	tbl.Sort(5, true) // out of range: unchanged
}

// BenchmarkHParamsView draws the view of 1,000 runs of two series at 120×40: the frame
// time of the view while it is open (the table is built once, on a change).
func BenchmarkHParamsView(b *testing.B) {
	base := hpFixture(b)[:2]
	var es []Entry
	for i := range 500 {
		for _, e := range base {
			e.ID, e.Path = fmt.Sprintf("%s-%d", e.ID, i), fmt.Sprintf("%s-%d", e.Path, i)
			es = append(es, e)
		}
	}
	m := hpModel(b, 120, 40, es)
	m = hpPress(m, "h")
	for b.Loop() {
		_ = m.View()
	}
}

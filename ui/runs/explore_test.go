package runs

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// pane returns a focused Runs pane of size w×h listing es.
func pane(es []Entry, w, h int) Model {
	m := New(uitest.Styles())
	m.SetSize(w, h)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	return m
}

// typeKeys sends each key of keys: a rune each, except "enter" and "esc".
func typeKeys(m Model, keys ...string) Model {
	for _, k := range keys {
		switch k {
		case "enter":
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		default:
			for _, r := range k {
				m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
	return m
}

// TestPaneFilterExpression: typed into the pane's /, an unfinished expression shows one
// line naming the problem and its column, lists no run, and draws the grammar at the
// pane's foot; finished, it keeps the run worked out by hand (λ 0.1 is the only run
// with λ < 0.5 and a headline above 0.82: 0.85); esc clears it.
func TestPaneFilterExpression(t *testing.T) {
	es, _ := store.Load([]string{runStore(t)}, true)
	m := pane(es, 80, 24)
	m = typeKeys(m, "/", "lambda<0.5 && acc>")
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 80, 24)
	if len(m.Entries()) != 0 || !strings.Contains(v, "✗ filter column 19: expected a value after >") {
		t.Fatalf("unfinished filter: %d runs shown\n%s", len(m.Entries()), v)
	}
	if !strings.Contains(v, FilterSyntax[1]) {
		t.Errorf("no grammar while typing the filter:\n%s", v)
	}
	m = typeKeys(m, "0.82", "enter")
	v = ansi.Strip(m.View())
	if got := m.Entries(); len(got) != 1 || got[0].Params["methods.0.lambda"] != "0.1" || strings.Contains(v, "✗") || strings.Contains(v, FilterSyntax[1]) {
		t.Fatalf("lambda<0.5 && acc>0.82 shows %d runs:\n%s", len(got), v)
	}
	m = typeKeys(m, "esc")
	if len(m.Entries()) != 3 {
		t.Fatal("esc did not clear the filter")
	}
}

// sweep returns 9 runs of a λ sweep over 3 seeds (λ 0.01, 0.1, 1; seeds 1–3), with
// 5 or 8 bins alternating: the headline (CDF at x=1000) is 0.80, 0.90, 0.85 by λ plus
// 0.01·(seed−2), so λ explains nearly all its variance; times are fixed.
func sweep() []Entry {
	var out []Entry
	base := map[string]float64{"0.01": 0.80, "0.1": 0.90, "1": 0.85}
	i := 0
	for _, l := range []string{"0.01", "0.1", "1"} {
		for seed := 1; seed <= 3; seed++ {
			acc := base[l] + 0.01*float64(seed-2)
			bins := []string{"5", "8"}[i%2]
			pt := func(x, m float64) eval.SeriesPoint { return eval.SeriesPoint{X: x, Mean: m, Std: 0.01, Runs: 5} }
			e := Entry{ID: fmt.Sprintf("run%d", i), Path: fmt.Sprintf("/store/run%d", i), Name: "xperm-sweep", Status: "done",
				Data: "xperm", Group: "permutation", Methods: []string{"CDF RLS", "raw RLS"},
				Time: time.Date(2026, 11, 26, 1, i, 0, 0, time.UTC),
				Params: map[string]string{"name": "xperm-sweep", "data.name": "xperm", "methods.0.lambda": l, "methods.1.lambda": l,
					"methods.0.bins": bins, "seed": fmt.Sprint(seed), "sizes.0": "100", "sizes.1": "1000"},
				Series: []eval.Series{{Name: "CDF(" + bins + ",100) RLS", Points: []eval.SeriesPoint{pt(100, acc-0.2), pt(1000, acc)}},
					{Name: "raw RLS", Points: []eval.SeriesPoint{pt(100, 0.5), pt(1000, 0.6)}}}}
			e.Acc = store.Headline(e.Series)
			out = append(out, e)
			i++
		}
	}
	return out
}

// TestGroupKeys drives grouping by keys on the sweep: g groups by the first varying
// field (bins), g again by λ: three groups of 3 seeds with the hand means 0.80, 0.90,
// 0.85 ± 0.01; o twice sorts by the mean, O reverses; enter lists the runs of the
// group under the cursor, esc returns to the groups; a filter narrows the groups; G
// ungroups.
func TestGroupKeys(t *testing.T) {
	m := pane(sweep(), 80, 24)
	m = typeKeys(m, "g")
	if m.GroupedBy() != "methods.0.bins" || len(m.Groups()) != 2 {
		t.Fatalf("g grouped by %q into %d groups", m.GroupedBy(), len(m.Groups()))
	}
	m = typeKeys(m, "g")
	gs := m.Groups()
	if m.GroupedBy() != "methods.0.lambda" || len(gs) != 3 {
		t.Fatalf("second g grouped by %q into %d groups", m.GroupedBy(), len(gs))
	}
	for _, g := range gs {
		want := map[string]float64{"0.01": 0.80, "0.1": 0.90, "1": 0.85}[g.Value]
		if len(g.Runs) != 3 || math.Abs(g.Acc.Mean-want) > 1e-12 || math.Abs(g.Acc.Std-0.01) > 1e-12 {
			t.Errorf("group %s: %d runs, %+v; want 3 runs, %.2f ± 0.01", g.Value, len(g.Runs), g.Acc, want)
		}
	}
	if m = typeKeys(m, " ", "c"); len(m.Marked()) != 0 || m.Comparing() {
		t.Fatal("space or c in the groups acted on a hidden run")
	}
	m = typeKeys(m, "o", "o")
	if gs := m.Groups(); gs[0].Value != "0.01" || gs[1].Value != "1" || gs[2].Value != "0.1" {
		t.Fatalf("sorted by mean: %s %s %s", gs[0].Value, gs[1].Value, gs[2].Value)
	}
	m = typeKeys(m, "O")
	if gs := m.Groups(); gs[0].Value != "0.1" {
		t.Fatalf("O did not reverse: %s first", gs[0].Value)
	}
	m = typeKeys(m, "j", "enter") // the second group: λ=1
	if es := m.Entries(); len(es) != 3 || es[0].Params["methods.0.lambda"] != "1" || !m.Nested() {
		t.Fatalf("enter on λ=1 lists %d runs", len(es))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "group methods.0.lambda = 1 (3 runs) · esc: back to the groups") {
		t.Fatalf("the group's runs do not say which group:\n%s", v)
	}
	m = typeKeys(m, "esc")
	if len(m.Groups()) != 3 || !strings.Contains(ansi.Strip(m.View()), "grouped by methods.0.lambda") {
		t.Fatal("esc did not return to the groups")
	}
	m = typeKeys(m, "/", "seed!=2", "enter")
	for _, g := range m.Groups() {
		if len(g.Runs) != 2 {
			t.Errorf("filtered group %s has %d runs, want 2", g.Value, len(g.Runs))
		}
	}
	m = typeKeys(m, "esc", "G")
	if m.GroupedBy() != "" || m.Nested() || len(m.Entries()) != 9 {
		t.Fatalf("G left grouping %q, %d runs", m.GroupedBy(), len(m.Entries()))
	}
	one := pane(sweep()[:1], 80, 24)
	if one = typeKeys(one, "g"); one.GroupedBy() != "" || !strings.Contains(ansi.Strip(one.View()), "nothing to group on") {
		t.Fatal("g with one run did not say why nothing was grouped")
	}
}

// TestImportanceKeys: i shows λ first with η² 0.96 (by hand: group means 0.80, 0.90,
// 0.85 around 0.85 give SS_between = 3·(0.05² + 0.05²) = 0.015; SS_within = 3·2·0.01² =
// 0.0006; 0.015/0.0156 = 0.9615), the seed last; a filter leaving 2 runs shows the
// reason instead of bars; m measures the CDF series (λ still first), then the raw
// series, whose constant 0.6 has nothing to explain, then the best again; esc clears
// the filter, i returns to the table.
func TestImportanceKeys(t *testing.T) {
	m := pane(sweep(), 80, 24)
	m = typeKeys(m, "i")
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 80, 24)
	lines := strings.Split(v, "\n")
	if !m.ShowingImportance() || len(lines) < 7 || !strings.HasPrefix(lines[3], "methods.0.lambda █") || !strings.Contains(lines[3], " 0.96 ") || !strings.HasPrefix(lines[6], "seed ") {
		t.Fatalf("importance view:\n%s", v)
	}
	if m = typeKeys(m, "m"); m.Kind() != "CDF RLS" || !strings.HasPrefix(strings.Split(ansi.Strip(m.View()), "\n")[3], "methods.0.lambda █") {
		t.Fatalf("m: kind %q\n%s", m.Kind(), ansi.Strip(m.View()))
	}
	if m = typeKeys(m, "m"); m.Kind() != "raw RLS" || !strings.Contains(ansi.Strip(m.View()), "the accuracy is 0.6000 in all 9 runs: nothing to explain") {
		t.Fatalf("m on the constant raw RLS: kind %q\n%s", m.Kind(), ansi.Strip(m.View()))
	}
	if m = typeKeys(m, "m"); m.Kind() != "" {
		t.Fatalf("m after the last kind: %q", m.Kind())
	}
	m = typeKeys(m, "/", "seed==1 && lambda<0.5", "enter")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "needs at least 3 runs with an accuracy; 2 shown have one") || strings.Contains(v, "█") {
		t.Fatalf("2 runs drew bars:\n%s", v)
	}
	m = typeKeys(m, "esc", "i")
	if m.ShowingImportance() || m.Nested() {
		t.Fatal("i did not return to the table")
	}
}

// TestGoldenExplore: the grouped view (by λ), a group's runs and the importance view
// of the sweep at 80×24 and 120×40, without colour.
func TestGoldenExplore(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, view := range []struct{ name, keys string }{{"groups", "gg"}, {"group-runs", "ggj\r"}, {"importance", "i"}} {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], view.name), func(t *testing.T) {
				m := pane(sweep(), sz[0], sz[1])
				for _, r := range view.keys {
					if r == '\r' {
						m = typeKeys(m, "enter")
					} else {
						m = typeKeys(m, string(r))
					}
				}
				v := m.View()
				uitest.CheckFits(t, v, sz[0], sz[1])
				golden.RequireEqual(t, []byte(ansi.Strip(v)))
			})
		}
	}
}

// manyRuns returns n runs of sweep's shape with λ, templates and seed varying and a
// filter-friendly accuracy, for the benchmarks.
func manyRuns(n int) []Entry {
	base := sweep()
	out := make([]Entry, n)
	for i := range out {
		e := base[i%len(base)]
		p := map[string]string{}
		for k, v := range e.Params {
			p[k] = v
		}
		p["seed"] = fmt.Sprint(i)
		p["methods.0.templates"] = fmt.Sprint(10 * (1 + i%7))
		e.Params, e.ID, e.Path = p, fmt.Sprintf("run%d", i), fmt.Sprintf("/store/run%d", i)
		out[i] = e
	}
	return out
}

// BenchmarkExploreView: one key and redraw of the groups (g) and the importance view
// (m, which recomputes η² of every field) over 500 runs with an expression filter.
func BenchmarkExploreView(b *testing.B) {
	for _, view := range []string{"groups", "importance"} {
		b.Run(view, func(b *testing.B) {
			m := pane(manyRuns(500), 120, 40)
			m = typeKeys(m, "/", "templates>=20 && acc@1000>0.5", "enter", "g")
			if view == "importance" {
				m = typeKeys(m, "i")
			}
			b.ResetTimer()
			for range b.N {
				m = typeKeys(m, map[string]string{"groups": "o", "importance": "m"}[view])
				_ = m.View()
			}
		})
	}
}

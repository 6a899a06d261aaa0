package curves

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// fixture returns two series over sizes 10..1000 with a known shape (rising accuracy).
func fixture() []eval.Point {
	var ps []eval.Point
	for i, n := range []float64{10, 30, 100, 300, 1000} {
		ps = append(ps,
			eval.Point{Series: "CDF(5,25) RLS", XLabel: "training set size", YLabel: "accuracy", X: n, Mean: 0.6 + 0.08*float64(i), Std: 0.05 - 0.008*float64(i), Runs: 5},
			eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: n, Mean: 0.55 + 0.05*float64(i), Std: 0.04, Runs: 5})
	}
	return ps
}

func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Reset("run 1")
			m.Add(fixture()...)
			m.Pin()
			m.Reset("run 2")
			m.Add(eval.Point{Series: "raw 1-NN", X: 100, Mean: 0.7, Std: 0.02, Runs: 3}, eval.Point{Series: "raw 1-NN", X: 1000, Mean: 0.8, Std: 0.01, Runs: 3})
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

func TestGoldenEmptyAndBand(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "no points yet") {
		t.Fatalf("empty pane does not say so:\n%s", v)
	}
	m.Add(fixture()...)
	m.Focus(true)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b")})
	v := m.View()
	uitest.CheckFits(t, v, 80, 24)
	golden.RequireEqual(t, []byte(ansi.Strip(v)))
}

func TestAddReplacesAndSorts(t *testing.T) {
	m := New(uitest.Styles())
	m.Add(eval.Point{Series: "a", X: 300, Mean: 0.5, Runs: 1},
		eval.Point{Series: "a", X: 100, Mean: 0.4, Runs: 1},
		eval.Point{Series: "a", X: 300, Mean: 0.6, Std: 0.1, Runs: 2}) // repeat 2 of cell 300
	r := m.Current()
	if len(r.Series) != 1 || len(r.Series[0].Points) != 2 {
		t.Fatalf("want 1 series of 2 points, got %+v", r.Series)
	}
	if p := r.Series[0].Points; p[0].X != 100 || p[1].X != 300 || p[1].Mean != 0.6 || p[1].Runs != 2 {
		t.Fatalf("points not sorted or not replaced: %+v", p)
	}
}

func TestPinUnpinAndLegend(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(100, 30)
	if m.Pin() {
		t.Fatal("pinned an empty run")
	}
	m.Add(fixture()...)
	if !m.Pin() || len(m.Pinned()) != 1 {
		t.Fatal("pin failed")
	}
	m.Reset("next")
	m.Add(eval.Point{Series: "raw RLS", X: 10, Mean: 0.3, Runs: 1})
	// The pinned copy must not alias the current run.
	if p, _ := m.Pinned()[0].Point("raw RLS", 10); p.Mean != 0.55 {
		t.Fatalf("pinned run changed with the current one: %+v", p)
	}
	v := ansi.Strip(m.View())
	for _, want := range []string{"raw RLS · pin 1: ", "CDF(5,25) RLS · pin 1: ", "raw RLS · next", "accuracy vs training set size (log)"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	if !m.Unpin() || m.Unpin() {
		t.Fatal("unpin should succeed once")
	}
}

func TestRangesNeverEmpty(t *testing.T) {
	// One point with zero std: the ranges must still have positive width (no division by zero).
	es := []entry{{s: eval.Series{Points: []eval.SeriesPoint{{X: 100, Mean: 1}}}}}
	for _, logX := range []bool{false, true} {
		for _, acc := range []bool{false, true} {
			x0, x1, y0, y1 := ranges(es, logX, acc)
			if !(x1 > x0) || !(y1 > y0) || math.IsNaN(x0+x1+y0+y1) {
				t.Fatalf("logX=%v acc=%v: degenerate ranges %g %g %g %g", logX, acc, x0, x1, y0, y1)
			}
			if acc && (y1 > 1 || y0 < 0) {
				t.Fatalf("accuracy range [%g, %g] leaves [0, 1]", y0, y1)
			}
		}
	}
}

// TestAccuracyAxisStopsAtOne: a mean of 0.99 ± 0.05 would pad the y axis past 1; the
// top tick label of an accuracy chart must be at most 1.00.
func TestAccuracyAxisStopsAtOne(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Add(eval.Point{Series: "a", YLabel: "accuracy", X: 10, Mean: 0.9, Std: 0.05, Runs: 3},
		eval.Point{Series: "a", YLabel: "accuracy", X: 100, Mean: 0.99, Std: 0.05, Runs: 3})
	v := ansi.Strip(m.View())
	top := -1.0
	for _, l := range strings.Split(v, "\n") {
		var y float64
		if _, err := fmt.Sscanf(strings.TrimSpace(l), "%f", &y); err == nil && strings.Contains(l, "│") {
			top = math.Max(top, y)
		}
	}
	if top < 0.9 || top > 1 {
		t.Fatalf("top y label is %g, want in [0.9, 1]:\n%s", top, v)
	}
}

// TestLegendKeepsEveryPinnedSeries: 12 pinned series at 80×24 do not fit; the legend
// says which are shown and scrolling with { and } reaches every one of them, and no
// series is ever folded into a "not listed" line.
func TestLegendKeepsEveryPinnedSeries(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Focus(true)
	for r := 0; r < 4; r++ {
		var ss []eval.Series
		for k := 0; k < 3; k++ {
			ss = append(ss, eval.Series{Name: fmt.Sprintf("m%d", k), YLabel: "accuracy",
				Points: []eval.SeriesPoint{{X: 10, Mean: 0.5 + 0.1*float64(k), Runs: 1}, {X: 100, Mean: 0.6 + 0.1*float64(r), Runs: 1}}})
		}
		m.AddRun(Run{Label: fmt.Sprintf("run%d", r), Series: ss})
	}
	seen := map[string]bool{}
	collect := func() string {
		v := ansi.Strip(m.View())
		uitest.CheckFits(t, v, 80, 24)
		for r := 0; r < 4; r++ {
			for k := 0; k < 3; k++ {
				if l := fmt.Sprintf("m%d · run%d", k, r); strings.Contains(v, l) {
					seen[l] = true
				}
			}
		}
		return v
	}
	v := collect()
	if strings.Contains(v, "not listed") || !strings.Contains(v, "of 12 series") {
		t.Fatalf("legend folds series or does not say what it shows:\n%s", v)
	}
	for i := 0; i < 12; i++ {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("{")})
		collect()
	}
	if len(seen) != 12 {
		t.Fatalf("scrolling the legend showed %d of 12 series: %v", len(seen), seen)
	}
}

// TestProgressBeforePoints: while the run has no points, the pane says how many cells
// are done instead of "press r to run"; the first point replaces it with the chart.
func TestProgressBeforePoints(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Reset("run 1")
	m.SetProgress(3, 12)
	v := ansi.Strip(m.View())
	if !strings.Contains(v, "running: 3 of 12 cells done") || strings.Contains(v, "press r") {
		t.Fatalf("no progress line:\n%s", v)
	}
	m.Add(fixture()...)
	if v := ansi.Strip(m.View()); strings.Contains(v, "cells done") {
		t.Fatalf("progress line stays after points arrived:\n%s", v)
	}
}

func TestFitsManySizes(t *testing.T) {
	for _, sz := range [][2]int{{20, 6}, {40, 10}, {80, 24}, {200, 60}, {7, 3}} {
		m := New(uitest.ColorStyles())
		m.SetSize(sz[0], sz[1])
		m.Add(fixture()...)
		uitest.CheckFits(t, m.View(), sz[0], sz[1])
	}
}

// TestColourPerSeriesGlyphPerLine: the same method in two runs is drawn in one colour
// (its name's) and with two glyphs, so runs stay apart without colour and a method is
// recognised across runs with it.
func TestColourPerSeriesGlyphPerLine(t *testing.T) {
	m := New(uitest.Styles())
	m.Add(fixture()...)
	m.Pin()
	m.Reset("run 2")
	m.Add(fixture()...)
	es := m.entries()
	if len(es) != 4 {
		t.Fatalf("%d entries", len(es))
	}
	glyphs, dashes := map[rune]bool{}, map[int]bool{}
	for _, e := range es {
		glyphs[e.look.Glyph()] = true
		dashes[e.look.Dash] = true
	}
	if len(glyphs) != 4 || len(dashes) != 4 {
		t.Errorf("glyphs %v, dashes %v: not 4 distinct", glyphs, dashes)
	}
	if es[0].s.Name != es[2].s.Name || es[0].look.Color != es[2].look.Color || es[1].look.Color != es[3].look.Color || es[0].look.Color == es[1].look.Color {
		t.Errorf("colours: %s %d, %s %d, %s %d, %s %d", es[0].s.Name, es[0].look.Color, es[1].s.Name, es[1].look.Color, es[2].s.Name, es[2].look.Color, es[3].s.Name, es[3].look.Color)
	}
}

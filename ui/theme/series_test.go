package theme

import (
	"strings"
	"testing"
)

// TestLooks: a name keeps its colour and shape across runs (filled in run 0, hollow in
// run 1), names get distinct colours and, up to 8 names, distinct glyphs within a run,
// and every series its own dash pattern.
func TestLooks(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e"}
	var keys []SeriesKey
	for run := 0; run < 2; run++ {
		for _, n := range names {
			keys = append(keys, SeriesKey{Name: n, Run: run})
		}
	}
	ls := Looks(keys)
	glyphs := map[int]map[rune]bool{0: {}, 1: {}}
	dashes := map[int]bool{}
	for i, l := range ls {
		j := i % len(names)
		if l.Color != j || l.Shape != j%len(Shapes) {
			t.Errorf("%v: colour %d shape %d, want %d and %d", keys[i], l.Color, l.Shape, j, j%len(Shapes))
		}
		if j < len(Shapes) && l.Hollow != (keys[i].Run == 1) {
			t.Errorf("%v: hollow %v", keys[i], l.Hollow)
		}
		glyphs[keys[i].Run][l.Glyph()] = true
		dashes[l.Dash] = true
	}
	if len(glyphs[0]) != 5 || len(glyphs[1]) != 5 || len(dashes) != len(Dashes) {
		t.Errorf("glyphs per run %v, dashes %v", glyphs, dashes)
	}
	if ls[0].Glyph() != '●' || ls[5].Glyph() != '○' || ls[4].Glyph() != '○' || ls[9].Glyph() != '●' {
		t.Errorf("glyphs %c %c %c %c", ls[0].Glyph(), ls[5].Glyph(), ls[4].Glyph(), ls[9].Glyph())
	}
	if h := ls[1].Hex(Default()); h != "#e0884e" {
		t.Errorf("colour of the second name %q", h)
	}
}

// TestDashSamples: the legend samples of the dash patterns are DashCells wide and all
// different (so the legend tells the lines apart without colour); the solid line's is
// a full bar; On follows a pattern's on and off lengths.
func TestDashSamples(t *testing.T) {
	seen := map[string]int{}
	for i := range Dashes {
		s := Look{Dash: i}.DashSample(DashCells)
		if n := len([]rune(s)); n != DashCells {
			t.Errorf("dash %d: sample %q has %d cells", i, s, n)
		}
		if j, ok := seen[s]; ok {
			t.Errorf("dashes %d and %d share the sample %q", j, i, s)
		}
		seen[s] = i
	}
	if s := (Look{}).DashSample(DashCells); s != strings.Repeat("━", DashCells) {
		t.Errorf("solid sample %q", s)
	}
	d := []float64{6, 2}
	for _, c := range []struct {
		s  float64
		on bool
	}{{0, true}, {5.9, true}, {6.1, false}, {7.9, false}, {8.1, true}, {14.5, false}} {
		if On(d, c.s) != c.on {
			t.Errorf("On({6,2}, %g) = %v", c.s, !c.on)
		}
	}
}

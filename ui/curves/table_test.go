package curves

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/ui/internal/uitest"
)

func press(m Model, k string) Model {
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)})
	return m
}

// liuLike is 14 series over two x values, as liu-table2: the learning curve nobody
// reads as curves. Series i scores 0.80 + 0.01·((i·5) mod 14) at x = 1 and the reverse
// order at x = 2, so the best differs by column (series 11 at x = 1, series 0 at x = 2).
func liuLike() []eval.Point {
	var ps []eval.Point
	for i := range 14 {
		a := 0.80 + 0.01*float64((i*5)%14)
		b := 0.80 + 0.01*float64(13-(i*5)%14)
		name := fmt.Sprintf("series %02d with a long kernel name", i)
		ps = append(ps,
			eval.Point{Series: name, XLabel: "shift", YLabel: "accuracy", X: 1, Mean: a, Std: 0.01, Runs: 5},
			eval.Point{Series: name, XLabel: "shift", YLabel: "accuracy", X: 2, Mean: b, Std: 0.02, Runs: 5})
	}
	return ps
}

// TestTableView: v shows every series as a row and every x as a column, "mean±std" in
// percent, the best of each column marked (★) and only it; the table fits 80x24 and
// 120x40, scrolls its rows with { and }, and v goes back to the curves.
func TestTableView(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Focus(true)
			m.Reset("run 1")
			m.Add(liuLike()...)
			m = press(m, "v")
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			plain := ansi.Strip(v)
			if sz[1] == 24 {
				golden.RequireEqual(t, []byte(plain))
			}
			rows := 0
			for _, l := range strings.Split(plain, "\n") {
				if !strings.Contains(l, "series ") || strings.Contains(l, "series \\") {
					continue
				}
				rows++
				marks := strings.Count(l, "★")
				switch {
				case strings.Contains(l, "series 11"): // best at x = 1 (0.93)
					if marks != 1 || !strings.Contains(l, "★ 93.00±1.00") {
						t.Errorf("series 11 is best at x=1 (93.00±1.00), row %q", l)
					}
				case strings.Contains(l, "series 00"): // 0·5 mod 14 = 0: best at x = 2 (0.93)
					if marks != 1 || !strings.Contains(l, "★ 93.00±2.00") {
						t.Errorf("series 00 is best at x=2 (93.00±2.00), row %q", l)
					}
				case marks != 0:
					t.Errorf("row %q is marked but is best in no column", l)
				}
			}
			want := min(14, sz[1]-3)
			if rows != want {
				t.Errorf("%d series rows shown, want %d:\n%s", rows, want, plain)
			}
			if sz[1] == 24 {
				if !strings.Contains(plain, "rows 1–14 of 14") && rows < 14 {
					t.Errorf("a table cut short does not say so:\n%s", plain)
				}
			}
			m = press(m, "v")
			if v := ansi.Strip(m.View()); strings.Contains(v, "★") || !strings.Contains(v, "vs shift") {
				t.Errorf("v did not go back to the curves:\n%s", v)
			}
		})
	}
}

// TestTableNarrowKeepsLastColumns: when the x columns do not fit, the table keeps the
// largest x (the end of the curve) and says how many it shows.
func TestTableNarrowKeepsLastColumns(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(40, 12)
	m.Focus(true)
	m.Add(fixture()...)
	m = press(m, "v")
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 40, 12)
	if !strings.Contains(v, "1000") || strings.Contains(v, " 10 ") || !strings.Contains(v, "of 5 x shown") {
		t.Errorf("narrow table should keep x=1000, drop x=10 and say so:\n%s", v)
	}
	// Scrolling rows: { and } move the window, clamped at both ends.
	m = New(uitest.Styles())
	m.SetSize(60, 8) // room for 5 of the 14 rows
	m.Focus(true)
	m.Add(liuLike()...)
	m = press(m, "v")
	if v := ansi.Strip(m.View()); !strings.Contains(v, "rows 1–5 of 14") || strings.Contains(v, "series 13") {
		t.Errorf("the first window should show rows 1–5 and say so:\n%s", v)
	}
	for range 20 {
		m = press(m, "}")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "series 13") || !strings.Contains(v, "rows 10–14 of 14") {
		t.Errorf("after scrolling down the last series shows:\n%s", v)
	}
	for range 20 {
		m = press(m, "{")
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "series 00") {
		t.Errorf("after scrolling up the first series shows:\n%s", v)
	}
}

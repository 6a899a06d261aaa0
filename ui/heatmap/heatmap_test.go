package heatmap

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
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

// blockMatrix returns an n×n matrix with entry 1 within a class and 0.2 across classes
// (+ a small diagonal bump), labels cycling 0,1,2,... (so NOT sorted by class).
func blockMatrix(name string, n, classes int, minEig float64) eval.Matrix {
	lab := make([]int, n)
	for i := range lab {
		lab[i] = i % classes
	}
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := 0.2
			if lab[i] == lab[j] {
				v = 1
			}
			if i == j {
				v = 1.5
			}
			d[i*n+j] = v
		}
	}
	return eval.Matrix{Name: name, N: n, Data: d, Labels: lab, MinEig: minEig}
}

func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Set(blockMatrix("base rbf", 60, 3, 0.012))
			m.Set(blockMatrix("invariant Haar", 60, 3, -0.03))
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

func TestSortByClass(t *testing.T) {
	m := New(uitest.Styles())
	m.Set(blockMatrix("k", 30, 3, 0))
	got := m.Matrices()[0]
	if !sort.IntsAreSorted(got.Labels) {
		t.Fatalf("labels not sorted: %v", got.Labels)
	}
	// After sorting, the matrix is block diagonal: 10×10 blocks of 1 (1.5 on the
	// diagonal) and 0.2 elsewhere, exactly (a permutation moves values, never mixes them).
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			want := 0.2
			if i/10 == j/10 {
				want = 1
			}
			if i == j {
				want = 1.5
			}
			if v := got.Data[i*30+j]; v != want {
				t.Fatalf("K[%d][%d] = %g, want %g", i, j, v, want)
			}
		}
	}
}

func TestResample(t *testing.T) {
	// 4×4 → 2×2 block averages, computed by hand: [[1 2 3 4][5 6 7 8][9 10 11 12][13 14 15 16]]
	// top-left (1+2+5+6)/4 = 3.5, top-right 5.5, bottom-left 11.5, bottom-right 13.5.
	d := make([]float64, 16)
	for i := range d {
		d[i] = float64(i + 1)
	}
	px, lo, hi := Resample(eval.Matrix{N: 4, Data: d}, 2)
	want := []float64{3.5, 5.5, 11.5, 13.5}
	for i := range want {
		if math.Abs(px[i]-want[i]) > 1e-15 {
			t.Fatalf("pixel %d = %g, want %g", i, px[i], want[i])
		}
	}
	if lo != 3.5 || hi != 13.5 {
		t.Fatalf("range [%g, %g], want [3.5, 13.5]", lo, hi)
	}
	// Upsampling (N < p) repeats entries: the mean is preserved exactly.
	px, _, _ = Resample(eval.Matrix{N: 4, Data: d}, 8)
	s := 0.0
	for _, v := range px {
		s += v
	}
	if math.Abs(s/64-8.5) > 1e-12 {
		t.Fatalf("upsampled mean %g, want 8.5", s/64)
	}
}

func TestConstantMatrixAndColour(t *testing.T) {
	// max == min must not divide by zero; colour mode must fit the pane too.
	n := 10
	d := make([]float64, n*n)
	for i := range d {
		d[i] = 0.7
	}
	for _, st := range []bool{false, true} {
		m := New(uitest.Styles())
		if st {
			m = New(uitest.ColorStyles())
		}
		m.SetSize(60, 20)
		m.Set(eval.Matrix{Name: "flat", N: n, Data: d, MinEig: 0})
		v := m.View()
		uitest.CheckFits(t, v, 60, 20)
		if !strings.Contains(ansi.Strip(v), "PSD") {
			t.Fatalf("no PD verdict:\n%s", ansi.Strip(v))
		}
	}
	if level(5, 1, 1, 8) != 4 {
		t.Fatal("level with hi == lo should be the middle level")
	}
}

func TestSetPanicsOnBadShape(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "heatmap: ") {
			t.Fatalf("want a heatmap: panic, got %v", r)
		}
	}()
	m := New(uitest.Styles())
	m.Set(eval.Matrix{Name: "bad", N: 3, Data: make([]float64, 8)})
}

func TestVerdict(t *testing.T) {
	id := eval.Matrix{N: 2, Data: []float64{1, 0, 0, 1}}
	for _, c := range []struct {
		eig  float64
		want string
	}{{0.5, "PD"}, {0, "PSD"}, {-1e-12, "PSD"}, {-1e-3, "not PD"}} {
		id.MinEig = c.eig
		if v := Verdict(id); v != c.want {
			t.Errorf("λmin=%g: %q, want %q", c.eig, v, c.want)
		}
	}
}

// TestRange checks the three colour ranges on a 3×3 matrix computed by hand:
//
//	K = [[2 0 1] [0 4 1] [1 1 3]], entries sorted 0 0 1 1 1 1 2 3 4.
//
// min–max [0, 4]; the diagonal mean d = 3, r = max |K_ij - d| = 3: [0, 6]; quantiles
// at positions 0.02·8 = 0.16 and 0.98·8 = 7.84: 0 and 3 + 0.84·(4-3) = 3.84.
func TestRange(t *testing.T) {
	m := eval.Matrix{N: 3, Data: []float64{2, 0, 1, 0, 4, 1, 1, 1, 3}}
	for _, c := range []struct {
		s      Scale
		lo, hi float64
	}{{MinMax, 0, 4}, {DiagCentred, 0, 6}, {Quantile, 0, 3.84}} {
		lo, hi := Range(m, c.s)
		if math.Abs(lo-c.lo) > 1e-12 || math.Abs(hi-c.hi) > 1e-12 {
			t.Errorf("%v: [%g, %g], want [%g, %g]", c.s, lo, hi, c.lo, c.hi)
		}
	}
}

// barRange returns the numbers at both ends of the first colour bar in view.
func barRange(t *testing.T, view string) (string, string) {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		f := strings.Fields(l)
		if len(f) >= 3 && strings.ContainsAny(f[1], "░▒▓█ ") && !strings.HasPrefix(l, "n=") {
			if _, err := strconv.ParseFloat(f[0], 64); err == nil {
				return f[0], f[len(f)-1]
			}
		}
	}
	t.Fatalf("no colour bar in\n%s", ansi.Strip(view))
	return "", ""
}

// TestRangeIsTheMatrixOwn checks that the colour range does not depend on the pane's
// size: the 1.5 of the diagonal, which block averaging dilutes at every size here, is
// the top of the bar at 80×24 and at 120×40, and 0.2 the bottom.
func TestRangeIsTheMatrixOwn(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}, {50, 16}} {
		m := New(uitest.Styles())
		m.SetSize(sz[0], sz[1])
		mat := blockMatrix("k", 200, 4, 0.1)
		m.Set(mat)
		if _, plo, phi := Resample(SortByClass(mat), 30); phi >= 1.5 || math.Abs(plo-0.2) > 1e-9 {
			t.Fatalf("test premise: resampled range [%g, %g] should lose the diagonal's 1.5", plo, phi)
		}
		if lo, hi := barRange(t, m.View()); lo != "0.2" || hi != "1.5" {
			t.Errorf("%dx%d: bar %s..%s, want 0.2..1.5", sz[0], sz[1], lo, hi)
		}
	}
}

// TestScaleKey checks that c cycles min–max → centred on the diagonal mean → quantiles
// → min–max, the title naming the scale and the bar showing its range.
func TestScaleKey(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.Focus(true)
	m.Set(blockMatrix("k", 60, 3, 0.1))
	// Entries: 60 of 1.5 (diagonal), 1140 of 1 (within class), 2400 of 0.2. Diagonal
	// mean 1.5, r = 1.3: [0.2, 2.8]. The quantiles at positions 0.02·3599 = 71.98 and
	// 0.98·3599 = 3527.02 of the sorted entries (0.2 up to 2399, 1 up to 3539) are 0.2
	// and 1: the dominant diagonal is clipped.
	want := []struct{ name, lo, hi string }{
		{"min–max", "0.2", "1.5"}, {"centred on diagonal mean", "0.2", "2.8"}, {"quantiles 2–98%", "0.2", "1"}, {"min–max", "0.2", "1.5"},
	}
	for i, w := range want {
		v := m.View()
		if !strings.Contains(ansi.Strip(v), "c "+w.name) {
			t.Errorf("step %d: title lacks %q:\n%s", i, w.name, firstLine(ansi.Strip(v)))
		}
		if lo, hi := barRange(t, v); lo != w.lo || hi != w.hi {
			t.Errorf("step %d (%s): bar %s..%s, want %s..%s", i, w.name, lo, hi, w.lo, w.hi)
		}
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestPaging checks "a–b of N" in the title and ←/→ moving one matrix at a time,
// wrapping at both ends.
func TestPaging(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	m.Focus(true)
	for i := range 5 {
		m.Set(blockMatrix(fmt.Sprintf("m%d", i), 20, 2, 0.1))
	}
	m.first = 0
	m.dirty = true
	press := func(k tea.KeyType) { m, _ = m.Update(tea.KeyMsg{Type: k}) }
	check := func(want, left, right string) {
		t.Helper()
		v := ansi.Strip(m.View())
		if !strings.Contains(firstLine(v), want+" of 5") {
			t.Errorf("title %q, want %q of 5", firstLine(v), want)
		}
		names := strings.Fields(strings.Split(v, "\n")[1])
		if len(names) != 2 || names[0] != left || names[1] != right {
			t.Errorf("shown %v, want %s and %s", names, left, right)
		}
	}
	check("1–2", "m0", "m1")
	press(tea.KeyRight)
	check("2–3", "m1", "m2")
	press(tea.KeyLeft)
	press(tea.KeyLeft)
	check("5–1", "m4", "m0")
}

// TestClassBoundaries checks the class lines and labels: without colour, 3 classes
// give one '┼' per pair of inner boundaries (2×2) and the labels 0 1 2 above the
// columns; with colour the boundary cells are drawn in the text colour.
func TestClassBoundaries(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(40, 24)
	m.Set(blockMatrix("k", 60, 3, 0.1))
	v := ansi.Strip(m.View())
	if n := strings.Count(v, "┼"); n != 4 {
		t.Errorf("%d crossings, want 4:\n%s", n, v)
	}
	if f := strings.Fields(strings.Split(v, "\n")[2]); strings.Join(f, " ") != "0 1 2" {
		t.Errorf("column labels %q, want 0 1 2", f)
	}
	c := New(uitest.ColorStyles())
	c.SetSize(40, 24)
	c.Set(blockMatrix("k", 60, 3, 0.1))
	cv := c.View()
	uitest.CheckFits(t, cv, 40, 24)
	if !strings.Contains(cv, c.bound.both) || !strings.Contains(cv, c.bound.top[0]) {
		t.Error("colour view draws no boundary cells")
	}
}

// TestGoldenTenClasses is the pane as a run on digits shows it: 200 samples of 10
// classes (a labels column wide enough for each), three matrices (so "1–2 of 3"), the
// second under the quantile scale after two presses of c.
func TestGoldenTenClasses(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Focus(true)
			m.Set(blockMatrix("linear (input)", 200, 10, 0.02))
			m.Set(blockMatrix("TI-SVM", 200, 10, -0.4))
			m.Set(blockMatrix("TI-RI-SVM", 200, 10, -0.7))
			press := func(k tea.KeyMsg) { m, _ = m.Update(k) }
			press(tea.KeyMsg{Type: tea.KeyLeft}) // back to the first pair
			press(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
			press(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// TestLongNamesAbbreviated checks cut titles (not "CDF(10,30) RBF RLS (range thr"): a
// matrix name wider than its block ends with … there, and the pane's footer
// gives it whole; a name that fits is not repeated.
func TestLongNamesAbbreviated(t *testing.T) {
	long := "CDF(10,30) RBF RLS (range threshold, standardized)"
	m := New(uitest.Styles())
	m.SetSize(62, 16) // the default 120×40 layout's heatmap box, inside its frame
	m.Set(blockMatrix(long, 60, 3, 0.01))
	m.Set(blockMatrix("raw RLS", 60, 3, 0.01))
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 62, 16)
	if !strings.Contains(v, "…") || !strings.Contains(strings.ReplaceAll(v, "\n", " "), "full name: CDF(10,30) RBF RLS (range") ||
		!strings.Contains(v, "standardized)") {
		t.Errorf("the long name is not abbreviated with its whole form in the footer:\n%s", v)
	}
	if strings.Contains(v, "full name: raw RLS") || strings.Contains(v, "· raw RLS") {
		t.Errorf("a name that fits is repeated:\n%s", v)
	}
}

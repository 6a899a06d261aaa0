package parcoords

import (
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// synthetic returns 12 runs of a fixed sweep: λ over five decades (also set on the
// second method), three feature kinds, templates, bins, group, seed, training size, a
// gamma missing from some runs, a kernel, a name per run, a constant data set; the
// accuracy grows with the templates and for cdf; run 11 has no accuracy.
func synthetic() []Run {
	lambdas := []string{"0.0001", "0.001", "0.01", "0.1", "1"}
	feats := []string{"cdf", "raw", "moments"}
	var out []Run
	for i := range 12 {
		p := map[string]string{
			"data.name":           "mnist",
			"name":                fmt.Sprintf("sweep-%02d", i),
			"methods.0.lambda":    lambdas[i%5],
			"methods.1.lambda":    lambdas[i%5],
			"methods.0.features":  feats[i%3],
			"methods.0.templates": []string{"5", "25", "100"}[i/4],
			"methods.0.bins":      []string{"5", "10", "25", "50"}[i%4],
			"group.kind":          []string{"permutation", "rotation"}[i%2],
			"seed":                fmt.Sprint(i%6 + 1),
			"data.train_size":     []string{"100", "500", "2000"}[(i+1)%3],
			"methods.0.kernel":    map[bool]string{true: "rbf", false: "linear"}[i < 6],
		}
		if i%4 != 3 {
			p["methods.0.gamma"] = []string{"0.5", "1", "2"}[i%3]
		}
		acc := 0.6 + 0.08*float64(i/4) + 0.02*float64(i%5)
		if i%3 == 0 {
			acc += 0.1
		}
		if i == 11 {
			acc = math.NaN()
		}
		out = append(out, Run{ID: fmt.Sprintf("run%02d", i), Params: p, Acc: acc})
	}
	return out
}

// TestAxisScales: a linear axis places 1, 2, 3 at 0, ½, 1; five decades of λ are a log
// axis placing 1e-2 at ½ (and two decades exactly are not); non-numbers make a
// categorical axis with its sorted values evenly spaced; a missing value or an unknown
// category has no position; one value sits at ½; Value inverts Pos (1e-12).
func TestAxisScales(t *testing.T) {
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	lin := NewAxis("bins", []string{"3", "1", "", "2"})
	if lin.Kind != Linear || lin.Min != 1 || lin.Max != 3 {
		t.Fatalf("linear axis %+v", lin)
	}
	for v, want := range map[string]float64{"1": 0, "2": 0.5, "3": 1, "1.5": 0.25, "7": 1, "-1": 0} {
		p, ok := lin.Pos(v)
		if !ok {
			t.Fatalf("no position for %s", v)
		}
		near("linear Pos("+v+")", p, want)
	}
	near("linear Value(0.25)", lin.Value(0.25), 1.5)
	if _, ok := lin.Pos(""); ok {
		t.Error("a missing value has a position")
	}
	if _, ok := lin.Pos("abc"); ok {
		t.Error("a word has a position on a numeric axis")
	}

	lg := NewAxis("methods.0.lambda", []string{"0.0001", "0.001", "0.01", "1"})
	if lg.Kind != Log {
		t.Fatalf("four decades of λ: kind %v, want Log", lg.Kind)
	}
	p, _ := lg.Pos("0.01")
	near("log Pos(0.01)", p, 0.5)
	p, _ = lg.Pos("0.001")
	near("log Pos(0.001)", p, 0.25)
	near("log Value(0.75)", lg.Value(0.75), 0.1)
	for _, v := range []float64{2e-4, 0.37, 0.9} {
		q, _ := lg.Pos(fmt.Sprint(v))
		if r := lg.Value(q); math.Abs(r-v) > 1e-12*v {
			t.Errorf("log Value(Pos(%g)) = %g", v, r)
		}
	}
	if k := NewAxis("x", []string{"1", "100"}).Kind; k != Linear {
		t.Errorf("exactly two decades: kind %v, want Linear", k)
	}
	if k := NewAxis("x", []string{"1", "101"}).Kind; k != Log {
		t.Errorf("just over two decades: kind %v, want Log", k)
	}
	if k := NewAxis("x", []string{"-1", "1000"}).Kind; k != Linear {
		t.Errorf("a negative value: kind %v, want Linear", k)
	}

	cat := NewAxis("methods.0.features", []string{"raw", "cdf", "", "moments", "cdf", "3"})
	if cat.Kind != Categorical || !reflect.DeepEqual(cat.Cats, []string{"3", "cdf", "moments", "raw"}) {
		t.Fatalf("categorical axis %+v", cat)
	}
	for v, want := range map[string]float64{"3": 0, "cdf": 1.0 / 3, "moments": 2.0 / 3, "raw": 1} {
		p, ok := cat.Pos(v)
		if !ok {
			t.Fatalf("no position for %s", v)
		}
		near("categorical Pos("+v+")", p, want)
	}
	if _, ok := cat.Pos("haar"); ok {
		t.Error("an unknown category has a position")
	}
	near("categorical step", cat.Step(), 1.0/3)
	one, _ := NewAxis("k", []string{"rbf", "rbf"}).Pos("rbf")
	same, _ := NewAxis("k", []string{"2", "2"}).Pos("2")
	near("single category", one, 0.5)
	near("constant number", same, 0.5)
}

func TestFmt(t *testing.T) {
	for v, want := range map[float64]string{
		0.001: "1e-3", 0.00025: "2.5e-4", 1e-4: "1e-4", 0.1: "0.1", 1: "1", 0.9375: "0.938",
		2000: "2000", 100: "100", 25000: "2.5e4", 0: "0", -0.003: "-3e-3", 123456: "1.23e5",
	} {
		if got := Fmt(v); got != want {
			t.Errorf("Fmt(%g) = %q, want %q", v, got, want)
		}
	}
}

// TestGridLine: known segments light the expected braille dots: a horizontal line on the
// top dot row of two cells is ⠉⠉; the diagonal (0,0)–(3,3) lights (0,0),(1,1) in the
// first cell (⠑) and (2,2),(3,3) in the second (⢄); a vertical line down the right
// column of two rows is ⢸ twice; every=2 keeps every other dot; dots outside are
// ignored.
func TestGridLine(t *testing.T) {
	row := func(g *Grid, y int) string {
		var b strings.Builder
		for x := range g.W {
			b.WriteRune(g.Rune(x, y))
		}
		return b.String()
	}
	g := NewGrid(2, 1)
	g.Line(0, 0, 3, 0, 1)
	if got := row(g, 0); got != "⠉⠉" {
		t.Errorf("horizontal: %q, want ⠉⠉", got)
	}
	g = NewGrid(2, 1)
	g.Line(3, 3, 0, 0, 1) // drawn backwards: the same dots
	if g.Bits(0, 0) != 0x11 || g.Bits(1, 0) != 0x84 || row(g, 0) != "⠑⢄" {
		t.Errorf("diagonal: %q (bits %#x %#x), want ⠑⢄", row(g, 0), g.Bits(0, 0), g.Bits(1, 0))
	}
	g = NewGrid(1, 2)
	g.Line(1, 0, 1, 7, 1)
	if row(g, 0) != "⢸" || row(g, 1) != "⢸" {
		t.Errorf("vertical: %q %q, want ⢸ ⢸", row(g, 0), row(g, 1))
	}
	g = NewGrid(2, 1)
	g.Line(0, 0, 3, 0, 2)
	if row(g, 0) != "⠁⠁" {
		t.Errorf("every other dot: %q, want ⠁⠁", row(g, 0))
	}
	g = NewGrid(1, 1)
	g.Line(-3, 1, 5, 1, 1) // crosses the grid: only its 2 dots inside
	g.Set(9, 9)
	if g.Bits(0, 0) != 0x12 {
		t.Errorf("clipped line: bits %#x, want 0x12", g.Bits(0, 0))
	}
}

// TestFields: of the fixture's keys, the constant data set is left out, methods.1.lambda
// (equal run by run to methods.0.lambda) is counted in same, the rest come by distinct
// values (gamma's missing runs count as a value), seed and the per-run name last.
func TestFields(t *testing.T) {
	got, same := Fields(synthetic())
	want := []string{"methods.0.lambda", "methods.0.bins", "methods.0.gamma", "data.train_size",
		"methods.0.features", "methods.0.templates", "group.kind", "methods.0.kernel", "name", "seed"}
	if !reflect.DeepEqual(got, want) || same != 1 {
		t.Fatalf("fields %v (same %d),\nwant %v (same 1)", got, same, want)
	}
	sn := ShortNames([]string{"methods.0.lambda", "methods.1.lambda", "methods.0.bins", "seed"})
	if sn["methods.0.lambda"] != "0.lambda" || sn["methods.1.lambda"] != "1.lambda" || sn["methods.0.bins"] != "bins" || sn["seed"] != "seed" {
		t.Errorf("short names %v", sn)
	}
}

// TestBrushSelects: brushes select exactly the runs whose values fall in every interval,
// checked against the fixture's values read independently: λ ≥ 0.01 (log positions ½..1),
// then also features cdf, then gamma over its whole axis (the runs without gamma drop
// out), then accuracy ≥ 0.8 (the run without accuracy drops out).
func TestBrushSelects(t *testing.T) {
	runs := synthetic()
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	m.SetRuns(runs)
	want := func(keep func(r Run) bool) []string {
		var ids []string
		for _, r := range runs {
			if keep(r) {
				ids = append(ids, r.ID)
			}
		}
		return ids
	}
	num := func(r Run, k string) float64 {
		f, err := strconv.ParseFloat(r.Params[k], 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	check := func(what string, keep func(r Run) bool) {
		t.Helper()
		got, w := m.Brushed(), want(keep)
		if !reflect.DeepEqual(got, w) || len(w) == 0 || len(w) == len(runs) {
			t.Fatalf("%s: brushed %v, want %v (a proper subset)", what, got, w)
		}
	}
	if len(m.Brushed()) != len(runs) {
		t.Fatal("without a brush not every run is in")
	}
	m.SetBrush("methods.0.lambda", 0.5, 1)
	lam := func(r Run) bool { return num(r, "methods.0.lambda") >= 0.01 }
	check("λ ≥ 0.01", lam)
	cp, _ := m.axes["methods.0.features"].Pos("cdf")
	m.SetBrush("methods.0.features", cp, cp)
	cdf := func(r Run) bool { return lam(r) && r.Params["methods.0.features"] == "cdf" }
	check("λ ≥ 0.01 and cdf", cdf)
	m.SetBrush("methods.0.features", 0, 1)
	m.SetBrush("methods.0.gamma", 0, 1)
	gam := func(r Run) bool { return lam(r) && r.Params["methods.0.gamma"] != "" }
	check("λ ≥ 0.01 with a gamma", gam)
	a := m.axes[AccKey]
	m.SetBrush(AccKey, (0.8-a.Min)/(a.Max-a.Min), 1)
	check("… and acc ≥ 0.8", func(r Run) bool { return gam(r) && !math.IsNaN(r.Acc) && r.Acc >= 0.8 })
	if v := ansi.Strip(m.View()); !strings.Contains(v, fmt.Sprintf("%d of 12 runs in brush", len(m.Brushed()))) {
		t.Errorf("the count is not shown:\n%s", v)
	}
}

func keyMsg(s string) tea.KeyMsg {
	switch s {
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "shift+up":
		return tea.KeyMsg{Type: tea.KeyShiftUp}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

// TestBrushKeys drives the brushes by keys on the fixture at 80 columns: the first ↑ on
// λ brushes its top quarter (0.1..1 on the log axis); ↓ moves it one sixteenth and stops
// at the bottom; K/shift+↑ widen and J narrows (down to one value); on the categorical
// features axis ↑ brushes the top value and ↓ moves one value; x clears one brush, X all;
// enter asks to mark the brushed runs, esc and p to close.
func TestBrushKeys(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.SetRuns(synthetic())
	press := func(keys ...string) Action {
		var a Action
		for _, k := range keys {
			a = m.Key(keyMsg(k))
		}
		return a
	}
	iv := func(k string) Interval { return m.Brushes()[k] }
	if m.Selected() != "methods.0.lambda" {
		t.Fatalf("first axis %q", m.Selected())
	}
	press("up")
	if iv("methods.0.lambda") != (Interval{0.75, 1}) || m.BrushText() != "lambda∈[0.1,1]" {
		t.Fatalf("first ↑: %v %q", iv("methods.0.lambda"), m.BrushText())
	}
	press("down")
	if got := iv("methods.0.lambda"); math.Abs(got.Lo-0.6875) > 1e-12 || math.Abs(got.Hi-0.9375) > 1e-12 {
		t.Fatalf("↓ moved the brush to %v", got)
	}
	press("down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down", "down")
	if got := iv("methods.0.lambda"); got != (Interval{0, 0.25}) {
		t.Fatalf("many ↓: %v, want [0, 0.25]", got)
	}
	press("K", "shift+up")
	if got := iv("methods.0.lambda"); math.Abs(got.Hi-0.375) > 1e-12 || got.Lo != 0 {
		t.Fatalf("widened at the bottom: %v, want [0, 0.375]", got)
	}
	press("J", "J", "J", "J", "J", "J", "J", "J")
	if got := iv("methods.0.lambda"); math.Abs(got.Lo-got.Hi) > 1e-12 {
		t.Fatalf("narrowed: %v, want one point", got)
	}
	press("x")
	if len(m.Brushes()) != 0 {
		t.Fatalf("x left %v", m.Brushes())
	}
	for m.Selected() != "methods.0.features" {
		press("right")
	}
	press("up")
	if m.BrushText() != "features∈{raw}" {
		t.Fatalf("first ↑ on features: %q", m.BrushText())
	}
	press("down")
	if m.BrushText() != "features∈{moments}" {
		t.Fatalf("↓ on features: %q", m.BrushText())
	}
	press("K")
	if m.BrushText() != "features∈{cdf,moments}" {
		t.Fatalf("K on features: %q", m.BrushText())
	}
	for _, r := range synthetic() {
		in := r.Params["methods.0.features"] != "raw"
		if m.In(r) != in {
			t.Errorf("run %s (%s): in=%v", r.ID, r.Params["methods.0.features"], m.In(r))
		}
	}
	if a := press("enter"); a != Mark {
		t.Errorf("enter: action %v, want Mark", a)
	}
	if a := press("esc"); a != Close {
		t.Errorf("esc: action %v, want Close", a)
	}
	if a := press("p"); a != Close {
		t.Errorf("p: action %v, want Close", a)
	}
	press("left", "up", "X")
	if len(m.Brushes()) != 0 {
		t.Fatalf("X left %v", m.Brushes())
	}
}

// TestPaging: at 80 columns 7 axes fit (6 fields and the accuracy, last); . shows the
// next fields (the last page full: fields 5–10), , goes back; at 120 columns 8 fit.
func TestPaging(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.SetRuns(synthetic())
	f, _ := m.Fields()
	v := m.Visible()
	if len(v) != 7 || !reflect.DeepEqual(v[:6], f[:6]) || v[6] != AccKey {
		t.Fatalf("visible at 80: %v", v)
	}
	if s := ansi.Strip(m.View()); !strings.Contains(s, "fields 1–6 of 10 (, . page)") {
		t.Fatalf("no paging hint:\n%s", s)
	}
	m.Key(keyMsg("."))
	if v := m.Visible(); !reflect.DeepEqual(v[:6], f[4:10]) {
		t.Fatalf("after .: %v", v)
	}
	m.Key(keyMsg(","))
	if v := m.Visible(); !reflect.DeepEqual(v[:6], f[:6]) {
		t.Fatalf("after ,: %v", v)
	}
	m.SetSize(120, 40)
	if v := m.Visible(); len(v) != MaxAxes {
		t.Fatalf("visible at 120: %v", v)
	}
}

// brailleDots counts the lit braille dots of a view.
func brailleDots(v string) int {
	n := 0
	for _, r := range v {
		if r > 0x2800 && r <= 0x28ff {
			for b := r - 0x2800; b > 0; b >>= 1 {
				n += int(b & 1)
			}
		}
	}
	return n
}

// TestDimmedSparse: runs outside the brush are drawn with about a third of the dots
// (so they stay apart from the brushed runs without colour): a brush that keeps no run
// leaves fewer than half the dots of the view without a brush; in colour, brushed runs
// take the accuracy palette's top colour (#fde725, 253;231;3x after the renderer's rounding) and
// bottom one (#365c8d).
func TestDimmedSparse(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(120, 40)
	m.SetRuns(synthetic())
	all := brailleDots(m.View())
	m.SetBrush("methods.0.lambda", 0.1, 0.2) // between 1e-4 and 1e-3: no run
	if len(m.Brushed()) != 0 {
		t.Fatalf("brush keeps %v", m.Brushed())
	}
	out := brailleDots(m.View())
	if all < 500 || out*2 > all || out*5 < all {
		t.Fatalf("dots without brush %d, all brushed out %d: want about a third", all, out)
	}
	c := New(uitest.ColorStyles())
	c.SetSize(120, 40)
	c.SetRuns(synthetic())
	v := c.View()
	for _, sgr := range []string{"38;2;253;231;3", "38;2;54;92;14"} {
		if !strings.Contains(v, sgr) {
			t.Errorf("the colour view lacks %s", sgr)
		}
	}
}

// TestGolden: the fixture at 80×24 without brush, and at 120×40 with λ and features
// brushed and the features axis selected.
func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.SetRuns(synthetic())
			if sz[0] == 120 {
				for _, k := range []string{"up", "right", "right", "right", "right", "up", "K"} {
					m.Key(keyMsg(k))
				}
			}
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// manyRuns returns n runs of a sweep over six fields with a made-up accuracy.
func manyRuns(n int) []Run {
	out := make([]Run, n)
	for i := range out {
		out[i] = Run{ID: fmt.Sprint(i), Acc: 0.5 + 0.5*float64(i%97)/96, Params: map[string]string{
			"methods.0.lambda":    fmt.Sprint(math.Pow(10, -float64(i%6))),
			"methods.0.bins":      fmt.Sprint(5 + i%7*5),
			"methods.0.templates": fmt.Sprint(5 + i%11*10),
			"methods.0.features":  []string{"cdf", "raw", "moments"}[i%3],
			"group.kind":          []string{"permutation", "rotation"}[i%2],
			"data.train_size":     fmt.Sprint(100 * (1 + i%5)),
		}}
	}
	return out
}

// BenchmarkView: one redraw of the view (a key's cost) at 120×40, with a brush, for
// 100 and 1000 runs.
func BenchmarkView(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			m := New(uitest.ColorStyles())
			m.SetSize(120, 40)
			m.SetRuns(manyRuns(n))
			m.SetBrush("methods.0.lambda", 0.5, 1)
			b.ResetTimer()
			for range b.N {
				_ = m.View()
			}
		})
	}
}

// TestHideRestore: - hides the selected field (its brush goes with it) and the next
// field takes its place on the page; - does not hide the accuracy; + shows every field
// again.
func TestHideRestore(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.SetRuns(synthetic())
	all, _ := m.Fields()
	m.Key(keyMsg("right"))
	m.Key(keyMsg("up"))
	if m.Selected() != "methods.0.bins" || len(m.Brushes()) != 1 {
		t.Fatalf("selected %q, brushes %v", m.Selected(), m.Brushes())
	}
	m.Key(keyMsg("-"))
	f, _ := m.Fields()
	if len(f) != len(all)-1 || slices.Contains(f, "methods.0.bins") || len(m.Brushes()) != 0 {
		t.Fatalf("after -: fields %v, brushes %v", f, m.Brushes())
	}
	if v := m.Visible(); v[5] != all[6] || v[6] != AccKey {
		t.Fatalf("the page is not refilled: %v", v)
	}
	if s := ansi.Strip(m.View()); !strings.Contains(s, "1 hidden (+ shows)") {
		t.Fatalf("hidden count not shown:\n%s", s)
	}
	for m.Selected() != AccKey {
		m.Key(keyMsg("right"))
	}
	m.Key(keyMsg("-"))
	if f2, _ := m.Fields(); len(f2) != len(f) || m.Visible()[len(m.Visible())-1] != AccKey {
		t.Fatal("- hid something on the accuracy axis")
	}
	m.SetRuns(synthetic()) // a re-read keeps the field hidden
	if f2, _ := m.Fields(); len(f2) != len(f) {
		t.Fatal("a re-read showed the hidden field")
	}
	m.Key(keyMsg("+"))
	if f2, _ := m.Fields(); !reflect.DeepEqual(f2, all) {
		t.Fatalf("after +: %v", f2)
	}
}

// TestTooFew: runs that differ in nothing but their accuracy, no runs, and a pane too
// small each give one line saying so instead of a plot.
func TestTooFew(t *testing.T) {
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	same := map[string]string{"seed": "1", "methods.0.lambda": "0.1"}
	m.SetRuns([]Run{{ID: "a", Params: same, Acc: 0.5}, {ID: "b", Params: same, Acc: 0.6}})
	if v := ansi.Strip(m.View()); !strings.Contains(v, "nothing to draw: 0 varying fields and the accuracy (two axes needed)") {
		t.Errorf("no varying field:\n%s", v)
	}
	m.SetRuns(nil)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "no runs to draw") {
		t.Errorf("no runs:\n%s", v)
	}
	m.SetRuns(synthetic())
	m.SetSize(40, 8)
	v := m.View()
	uitest.CheckFits(t, v, 40, 8)
	if !strings.Contains(ansi.Strip(v), "too small to draw") {
		t.Errorf("small pane:\n%s", ansi.Strip(v))
	}
	for _, k := range []string{"up", "down", "left", "K", "J", "x", "-", "+", ",", "."} {
		m.Key(keyMsg(k)) // keys on a view too small to draw still work (no panic)
	}
}

// TestFieldsVaryGrammar checks that one varying field is said in the singular ("1 field
// varies", not "1 field vary"), several in the plural.
func TestFieldsVaryGrammar(t *testing.T) {
	two := func(extra map[string]string) []Run {
		a := map[string]string{"methods.0.lambda": "0.1"}
		b := map[string]string{"methods.0.lambda": "1"}
		for k, v := range extra {
			a[k] = v
			b[k] = v + "0"
		}
		return []Run{{ID: "a", Params: a, Acc: 0.8}, {ID: "b", Params: b, Acc: 0.9}}
	}
	for _, c := range []struct {
		runs []Run
		want string
	}{{two(nil), "1 field varies"}, {two(map[string]string{"seed": "1"}), "2 fields vary"}} {
		m := New(uitest.Styles())
		m.SetSize(120, 40)
		m.SetRuns(c.runs)
		if v := ansi.Strip(m.View()); !strings.Contains(v, c.want) {
			t.Errorf("want %q in:\n%s", c.want, v)
		}
	}
}

// TestMarkedRun: a marked run (a study's baseline, "your setting") is drawn apart from
// the others: ◆ where it crosses each axis, at its position there, its label in the
// header's legend and, with its value, in the selected axis's description, and its line
// in its own colour (the theme's Warn, #ffd75f on a dark background); without a mark
// none of it is drawn.
func TestMarkedRun(t *testing.T) {
	runs := []Run{
		{ID: "0", Params: map[string]string{"a": "1", "b": "10"}, Acc: 0.5},
		{ID: "1", Params: map[string]string{"a": "2", "b": "20"}, Acc: 0.6},
		{ID: "2", Params: map[string]string{"a": "3", "b": "30"}, Acc: 0.7},
		{ID: "-1", Params: map[string]string{"a": "2", "b": "30"}, Acc: 0.65, Mark: "your setting"},
	}
	m := New(uitest.Styles())
	m.SetSize(80, 24)
	m.SetRuns(runs)
	lines := strings.Split(ansi.Strip(m.View()), "\n")
	if !strings.Contains(lines[0], "◆ your setting") {
		t.Errorf("header %q: want the legend ◆ your setting", lines[0])
	}
	if last := lines[len(lines)-1]; !strings.HasSuffix(last, "▸ a: 1..3 · ◆ your setting 2") {
		t.Errorf("description %q: want the marked run's value on the selected axis", last)
	}
	// The plot has 24 - 2 - 4 = 18 rows from line 4 (under the names and the maxima): the
	// glyph sits on row round((1-p)·71)/4 of position p, so a (p ½) on line 13, b (p 1) on
	// line 4 and acc (p ¾) on line 8, left to right.
	type at struct{ line, col int }
	var got []at
	for i, l := range lines[2 : len(lines)-1] {
		for c, r := range []rune(l) {
			if r == '◆' {
				got = append(got, at{i + 2, c})
			}
		}
	}
	slices.SortFunc(got, func(x, y at) int { return x.col - y.col })
	if len(got) != 3 || got[0].line != 13 || got[1].line != 4 || got[2].line != 8 {
		t.Fatalf("◆ at %v, want one per axis on lines 13, 4 and 8:\n%s", got, strings.Join(lines, "\n"))
	}
	c := New(uitest.ColorStyles())
	c.SetSize(80, 24)
	c.SetRuns(runs)
	const warn = "38;2;255;215;95"
	if !strings.Contains(c.View(), warn) {
		t.Errorf("the colour view draws the marked run without its colour %s", warn)
	}
	runs[3].Mark = ""
	c.SetRuns(runs)
	if v := c.View(); strings.Contains(v, warn) || strings.Contains(v, "◆") {
		t.Errorf("without a mark the view still draws one:\n%s", ansi.Strip(v))
	}
}

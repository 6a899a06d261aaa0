package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"gonum.org/v1/plot/vg/draw"
	"image"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"gitui/model"
	"gitui/ui/theme"
)

// withSpec returns r with a spec holding one method of the given lambda.
func withSpec(r *model.Result, lambda float64) *model.Result {
	spec := map[string]any{"name": r.Preset, "protocol": "curve", "sizes": []int{10, 1000},
		"methods": []any{map[string]any{"name": "CDF(25,25) RLS", "features": "cdf", "lambda": lambda}}}
	r.Spec, _ = json.Marshal(spec)
	return r
}

// TestRunLabels checks the parameter-diff labels of runs: the differing field names
// the run, the preset comes first when presets differ, identical specs fall back to
// the preset with " #k", a partial run is marked, and one result is its Label.
func TestRunLabels(t *testing.T) {
	a, b := withSpec(sampleResult("xperm-curve", 0), 1e-6), withSpec(sampleResult("xperm-curve", 0), 1e-3)
	if got := RunLabels([]*model.Result{a, b}); got[0] != "lambda=1e-06" || got[1] != "lambda=0.001" {
		t.Errorf("labels of two λ: %q", got)
	}
	a2, b2 := withSpec(sampleResult("xperm-curve", 0), 1e-6), withSpec(sampleResult("xperm-curve", 0), 1e-3)
	for _, r := range []*model.Result{a2, b2} { // two methods, each with the run's λ: one field
		var m map[string]any
		json.Unmarshal(r.Spec, &m)
		ms := m["methods"].([]any)
		m["methods"] = append(ms, map[string]any{"name": "raw RLS", "features": "raw", "lambda": ms[0].(map[string]any)["lambda"]})
		r.Spec, _ = json.Marshal(m)
	}
	if got := RunLabels([]*model.Result{a2, b2}); got[0] != "lambda=1e-06" || got[1] != "lambda=0.001" {
		t.Errorf("labels of two λ set on every method: %q", got)
	}
	b.Partial = true
	if got := RunLabels([]*model.Result{a, b}); got[1] != "lambda=0.001 (partial)" {
		t.Errorf("partial run labelled %q", got[1])
	}
	c := withSpec(sampleResult("other", 0), 1e-6)
	if got := RunLabels([]*model.Result{a, c}); got[0] != "xperm-curve" || got[1] != "other" {
		t.Errorf("labels of two presets with the same λ: %q", got)
	}
	d := withSpec(sampleResult("xperm-curve", 0), 1e-6)
	if got := RunLabels([]*model.Result{a, d}); got[0] != "xperm-curve" || got[1] != "xperm-curve #2" {
		t.Errorf("labels of equal specs: %q", got)
	}
	d.Seed = 7
	if got := RunLabels([]*model.Result{a, d}); got[0] != "seed=1" || got[1] != "seed=7" {
		t.Errorf("labels of two seeds: %q", got)
	}
	if got := RunLabels([]*model.Result{a}); got[0] != "xperm-curve" {
		t.Errorf("one result labelled %q", got[0])
	}
}

// TestPaperStyle checks the figure's rules on the panel of two runs of three series:
// every line has its own dash pattern, a series keeps its colour and marker shape
// across runs (hollow in the second), the x ticks are exactly the measured sizes, the
// accuracy axis stops at 1 and error bars stay inside [0, 1].
func TestPaperStyle(t *testing.T) {
	a, b := sampleResult("run-a", 0.02), sampleResult("run-b", 0)
	a.Series[0].Points[6].Mean, a.Series[0].Points[6].Std = 0.995, 0.02 // a bar that would pass 1
	rs := []*model.Result{a, b}
	groups := collect(rs, SeriesLabels(rs))
	cs := groups[0]
	p, leg, ds, err := panel(cs)
	if err != nil {
		t.Fatal(err)
	}
	var lines []*plotter.Line
	var scatters []*plotter.Scatter
	var bars []*plotter.YErrorBars
	for _, d := range ds {
		lines, scatters, bars = append(lines, d.line), append(scatters, d.scatter), append(bars, d.bars)
	}
	if len(lines) != 4 || len(scatters) != 4 || len(bars) != 4 {
		t.Fatalf("%d lines, %d scatters, %d bar sets; want 4 each", len(lines), len(scatters), len(bars))
	}
	dashes := map[string]bool{}
	for _, l := range lines {
		dashes[dashKey(l.Dashes)] = true
	}
	if len(dashes) != 4 {
		t.Errorf("%d distinct dash patterns among 4 lines", len(dashes))
	}
	// cs: a/CDF, a/raw, b/CDF, b/raw.
	for k := 0; k < 2; k++ {
		m0, m1 := scatters[k].Shape.(marker), scatters[k+2].Shape.(marker)
		if m0.shape != m1.shape || m0.hollow || !m1.hollow || !sameColor(scatters[k].Color, scatters[k+2].Color) {
			t.Errorf("series %d: markers %+v and %+v, colours %v %v; want one shape and colour, filled then hollow", k, m0, m1, scatters[k].Color, scatters[k+2].Color)
		}
	}
	// Dodged: at each measured size the 4 curves stand apart, within 2% of the axis.
	for j := range cs[0].pts {
		seen := map[float64]bool{}
		for k, bs := range bars {
			x := bs.XYs[j].X
			seen[x] = true
			if d := math.Abs(math.Log10(x / cs[k].pts[j].X)); d > 0.02*math.Log10(100) {
				t.Errorf("curve %d drawn %.3g decades away from its size %g", k, d, cs[k].pts[j].X)
			}
		}
		if len(seen) != 4 {
			t.Errorf("at size %g the error bars share abscissae: %v", cs[0].pts[j].X, seen)
		}
	}
	if scatters[0].Shape.(marker).shape == scatters[1].Shape.(marker).shape {
		t.Error("two series share a marker shape")
	}
	ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
	var vals []float64
	for _, tk := range ticks {
		vals = append(vals, tk.Value)
	}
	if want := []float64{10, 20, 50, 100, 200, 500, 1000}; !equalFloats(vals, want) {
		t.Errorf("x ticks at %v, want the measured sizes %v", vals, want)
	}
	if _, ok := p.X.Scale.(plot.LogScale); !ok {
		t.Error("x axis is not logarithmic over two decades")
	}
	// The frame leaves room round the data (a marker at the top or the last size is drawn
	// whole), an accuracy axis passes 1 by that room alone and labels no tick above 1,
	// and the y ticks are round: at least 5 labelled, evenly spaced.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, bs := range bars {
		for i, xy := range bs.XYs {
			lo, hi = min(lo, xy.Y-bs.YErrors[i].Low), max(hi, xy.Y+bs.YErrors[i].High)
			if xy.X <= p.X.Min || xy.X >= p.X.Max {
				t.Errorf("point at x = %g on or outside the frame [%g, %g]", xy.X, p.X.Min, p.X.Max)
			}
		}
	}
	if pad := 0.02 * (hi - lo); p.Y.Max < hi+pad || p.Y.Min > lo-pad || p.Y.Max > 1+0.1*(hi-lo) {
		t.Errorf("y axis [%g, %g] around data [%g, %g]: want room of at least %g, and no more than a pad above 1", p.Y.Min, p.Y.Max, lo, hi, pad)
	}
	var labelled []float64
	for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
		if tk.Label != "" {
			labelled = append(labelled, tk.Value)
			if tk.Value > 1+1e-12 {
				t.Errorf("accuracy tick %q above 1", tk.Label)
			}
		}
	}
	if len(labelled) < 5 {
		t.Errorf("y ticks %v: want at least 5 labelled", labelled)
	}
	for i := 2; i < len(labelled); i++ {
		if d0, d1 := labelled[1]-labelled[0], labelled[i]-labelled[i-1]; math.Abs(d0-d1) > 1e-9 {
			t.Errorf("y ticks %v unevenly spaced", labelled)
		}
	}
	for _, bs := range bars {
		for i, xy := range bs.XYs {
			if xy.Y+bs.YErrors[i].High > 1+1e-12 || xy.Y-bs.YErrors[i].Low < -1e-12 {
				t.Errorf("error bar %g ± (%g, %g) leaves [0, 1]", xy.Y, bs.YErrors[i].Low, bs.YErrors[i].High)
			}
		}
	}
	if r := leg.Rectangle(drawCanvas()); r.Max.Y-r.Min.Y <= 0 {
		t.Error("empty legend")
	}
	// A linear axis with few sizes gets them as ticks too.
	lin := measuredTicks([]curve{{pts: []model.Point{{X: 5}, {X: 10}, {X: 20}, {X: 40}}}}, false)
	if len(lin) != 4 || lin[0].Label != "5" || lin[3].Label != "40" {
		t.Errorf("linear ticks %v", lin)
	}
	// Labels that would collide are dropped, ticks kept.
	dense := measuredTicks([]curve{{pts: []model.Point{{X: 100}, {X: 105}, {X: 110}, {X: 1000}}}}, true)
	if len(dense) != 4 || dense[1].Label != "" || dense[0].Label != "100" || dense[3].Label != "1000" {
		t.Errorf("dense ticks %v", dense)
	}
}

// TestLegendBelowData checks that the legend is drawn outside the data: the PNG of two
// runs grows by the legend's height, and the first series' colour appears in the strip
// below the axes (the legend's line and marker samples).
func TestLegendBelowData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.png")
	a, b := withSpec(sampleResult("xperm-curve", 0), 1e-6), withSpec(sampleResult("xperm-curve", -0.03), 1e-3)
	if err := Curves([]*model.Result{a, b}, path); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, path)
	h := img.Bounds().Dy()
	legendPx := h - int(math.Round(float64(panelHeight/vg.Inch)*pngDPI))
	if legendPx < 40 {
		t.Fatalf("legend strip of %d px, want room for 4 entries", legendPx)
	}
	strip := subImage(img, h-legendPx, h)
	if n := countNear(strip, SeriesColor(0), 10); n < 20 {
		t.Errorf("%d pixels of the first colour below the axes: no legend there", n)
	}
}

func dashKey(d []vg.Length) string {
	var sb strings.Builder
	for _, v := range d {
		fmt.Fprintf(&sb, "%g,", float64(v))
	}
	return sb.String()
}

func sameColor(a, b color.Color) bool {
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func drawCanvas() draw.Canvas { return draw.Canvas{} }

// subImage returns rows y0..y1 of img.
func subImage(img image.Image, y0, y1 int) image.Image {
	b := img.Bounds()
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(image.Rect(b.Min.X, b.Min.Y+y0, b.Max.X, b.Min.Y+y1))
}

// TestSeriesColorsAreTheTheme checks that the figure's series colours are the
// workbench's palette: series i of a file has the true colour of theme series i.
func TestSeriesColorsAreTheTheme(t *testing.T) {
	for i, c := range theme.Default().Series {
		r, g, b, _ := SeriesColor(i).RGBA()
		if got := fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8); got != c.Dark.TrueColor {
			t.Errorf("series %d: %s, theme %s", i, got, c.Dark.TrueColor)
		}
	}
}

// TestRoundTicks checks the y ticks' steps (1, 2, 2.5 or 5 times a power of ten, the
// largest giving 5 labelled ticks), their labels' decimals, and that accuracies get no
// tick outside [0, 1].
func TestRoundTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		acc    bool
		want   []string
	}{
		{0.23, 0.96, true, []string{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}},
		{0.9, 0.99, true, []string{"0.90", "0.92", "0.94", "0.96", "0.98"}},
		{0.95, 1.03, true, []string{"0.95", "0.96", "0.97", "0.98", "0.99", "1.00"}},
		{0, 100, false, []string{"0", "25", "50", "75", "100"}},
		{-3, 7, false, []string{"-2", "0", "2", "4", "6"}},
	}
	for _, c := range cases {
		var got []string
		for _, tk := range roundTicks(c.lo, c.hi, c.acc) {
			if tk.Value < c.lo || tk.Value > c.hi {
				t.Errorf("[%g, %g]: tick %g outside the range", c.lo, c.hi, tk.Value)
			}
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("[%g, %g] acc %v: labels %q, want %q", c.lo, c.hi, c.acc, got, c.want)
		}
	}
	if roundTicks(1, 1, false) != nil || roundTicks(0, math.Inf(1), false) != nil || roundTicks(1e17, 1e17+64, false) != nil {
		t.Error("ticks for an empty or infinite range")
	}
}

// TestFigureCaption checks the caption under a figure: what the points and bars are, with
// the number of draws, and that the written SVG holds it.
func TestFigureCaption(t *testing.T) {
	pts := func(runs ...int) curve {
		var c curve
		for i, r := range runs {
			c.pts = append(c.pts, model.Point{X: float64(10 * (i + 1)), Mean: 0.5, Runs: r})
		}
		return c
	}
	for _, c := range []struct {
		groups [][]curve
		want   string
	}{
		{[][]curve{{pts(5, 5)}, {pts(5)}}, "points: mean over 5 draws; bars: ± 1 std"},
		{[][]curve{{pts(3, 5)}}, "points: mean over 3–5 draws; bars: ± 1 std"},
		{[][]curve{{pts(1, 1)}}, "one draw per point: no error bars"},
		{nil, ""},
	} {
		if got := barsCaption(c.groups); got != c.want {
			t.Errorf("%v: caption %q, want %q", c.groups, got, c.want)
		}
	}
	var b bytes.Buffer
	r := sampleResult("run-a", 0.02)
	if err := (Overlay{Results: []*model.Result{r}}).Write(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	want := barsCaption(collect([]*model.Result{r}, SeriesLabels([]*model.Result{r})))
	if want == "" || !strings.Contains(b.String(), want) {
		t.Errorf("the SVG lacks its caption %q", want)
	}
}

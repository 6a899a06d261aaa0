package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"gitui/core/eval"
	"gitui/model"
)

// sampleResult is a result with two curves over training-set sizes (a span of two
// decades, so a log axis) and one over the number of templates (a second panel).
func sampleResult(preset string, shift float64) *model.Result {
	sizes := []float64{10, 20, 50, 100, 200, 500, 1000}
	curve := func(name string, top float64) model.Series {
		s := model.Series{Name: name, XLabel: "training set size", YLabel: "accuracy"}
		for i, x := range sizes {
			m := top - 0.4/math.Sqrt(x) + shift
			s.Points = append(s.Points, model.Point{X: x, Mean: m, Std: 0.05 / float64(i+1), Runs: 10})
		}
		return s
	}
	tm := model.Series{Name: "CDF(5,m) RLS", XLabel: "templates m", YLabel: "accuracy"}
	for _, m := range []float64{5, 10, 20, 40} {
		tm.Points = append(tm.Points, model.Point{X: m, Mean: 0.8 + m/400 + shift, Std: 0.01, Runs: 5})
	}
	return &model.Result{Schema: model.ResultSchema, Preset: preset, Seed: 1,
		Series: []model.Series{curve("CDF(25,25) RLS", 0.97), curve("raw RLS", 0.9), tm}}
}

func decodePNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", path, err)
	}
	return img
}

// countNear counts pixels within tol (per 8-bit channel) of c.
func countNear(img image.Image, c color.Color, tol int) int {
	cr, cg, cb, _ := c.RGBA()
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if abs(int(r>>8)-int(cr>>8)) <= tol && abs(int(g>>8)-int(cg>>8)) <= tol && abs(int(bb>>8)-int(cb>>8)) <= tol {
				n++
			}
		}
	}
	return n
}

func abs(v int) int { return max(v, -v) }

func TestPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curves.png")
	if err := PNG(sampleResult("xperm-curve", 0), path); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, path)
	// Two panels side by side, each 6.4 in wide and 4.4 in tall plus the legend below
	// (two entries in the taller legend), at 150 dpi.
	if b := img.Bounds(); b.Dx() != 1920 || b.Dy() <= 660 || b.Dy() > 660+150 {
		t.Errorf("PNG is %dx%d, want 1920 wide and 660 + at most one inch of legend tall", b.Dx(), b.Dy())
	}
	// The first series is drawn in plotutil's first colour: its line, points and
	// error bars cover many pixels.
	if n := countNear(img, SeriesColor(0), 10); n < 300 {
		t.Errorf("%d pixels in the first series' colour, want at least 300", n)
	}
}

func TestSVGIsXML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "curves.svg")
	if err := SVG(sampleResult("xperm-curve", 0), path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("<svg")) {
		t.Fatal("no <svg element")
	}
	dec := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestCurvesFormatsAndOverlay(t *testing.T) {
	dir := t.TempDir()
	cur, pinned := sampleResult("xperm-curve", 0), sampleResult("xperm-curve", -0.05)
	pdf := filepath.Join(dir, "both.pdf")
	if err := Curves([]*model.Result{cur, pinned}, pdf); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(pdf); !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("%s does not start with %%PDF-", pdf)
	}
	var svg bytes.Buffer
	if err := WriteCurves(&svg, []*model.Result{cur, pinned}, "svg"); err != nil {
		t.Fatal(err)
	}
	// Legends name the run: the second result of the same preset is told apart.
	for _, want := range []string{"CDF(25,25) RLS · xperm-curve", "raw RLS · xperm-curve #2", "training set size", "templates m"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("overlay SVG lacks %q", want)
		}
	}
	if err := Curves([]*model.Result{cur}, filepath.Join(dir, "x.gif")); err == nil || !strings.Contains(err.Error(), ".png, .svg or .pdf") {
		t.Errorf("gif: error %v, want one naming the accepted extensions", err)
	}
}

func TestNothingToPlot(t *testing.T) {
	r := &model.Result{Schema: model.ResultSchema, Preset: "p",
		Series: []model.Series{{Name: "a", Points: []model.Point{{X: 1, Mean: math.NaN()}}}, {Name: "b"}}}
	err := PNG(r, filepath.Join(t.TempDir(), "x.png"))
	if !errors.Is(err, ErrNothingToPlot) {
		t.Fatalf("error %v, want ErrNothingToPlot", err)
	}
}

func TestUseLogX(t *testing.T) {
	mk := func(xs ...float64) []curve {
		c := curve{}
		for _, x := range xs {
			c.pts = append(c.pts, model.Point{X: x})
		}
		return []curve{c}
	}
	for _, c := range []struct {
		xs   []float64
		want bool
	}{
		{[]float64{10, 100}, false}, // exactly a decade: linear
		{[]float64{10, 101}, true},
		{[]float64{100, 200, 5000}, true},
		{[]float64{0, 10, 1000}, false}, // zero cannot go on a log axis
		{[]float64{1, 2, 3}, false},
	} {
		if got := useLogX(mk(c.xs...)); got != c.want {
			t.Errorf("useLogX(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}

func TestCSVRoundTrip(t *testing.T) {
	r := sampleResult("xperm-curve", 0)
	// Values that only survive a shortest-round-trip format.
	r.Series[0].Points[0].Mean = 0.1 + 0.2
	r.Series[0].Points[1].Std = 1e-300
	r.Series[1].Name = `quoted "name", with comma`
	path := filepath.Join(t.TempDir(), "points.csv")
	if err := CSV(r, path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rows[0], ","); got != "result,series,x,mean,std,runs,x_label,y_label" {
		t.Errorf("header %q", got)
	}
	rows = rows[1:]
	k := 0
	for _, s := range r.Series {
		for _, p := range s.Points {
			row := rows[k]
			k++
			num := func(i int) float64 {
				v, err := strconv.ParseFloat(row[i], 64)
				if err != nil {
					t.Fatalf("row %d column %d: %v", k, i, err)
				}
				return v
			}
			runs, _ := strconv.Atoi(row[5])
			if row[0] != "xperm-curve" || row[1] != s.Name || num(2) != p.X || num(3) != p.Mean || num(4) != p.Std ||
				runs != p.Runs || row[6] != s.XLabel || row[7] != s.YLabel {
				t.Errorf("row %d = %q, want %s %s %v", k, row, s.Name, s.XLabel, p)
			}
		}
	}
	if k != len(rows) {
		t.Errorf("%d data rows, want %d", len(rows), k)
	}
}

func TestBadPathNamed(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "no-such-dir", "out")
	r := sampleResult("p", 0)
	m := blockMatrix(6, 2)
	for name, err := range map[string]error{
		"PNG":        PNG(r, bad+".png"),
		"SVG":        SVG(r, bad+".svg"),
		"CSV":        CSV(r, bad+".csv"),
		"Curves":     Curves([]*model.Result{r}, bad+".pdf"),
		"HeatmapPNG": HeatmapPNG(m, bad+".png"),
		"HeatmapSVG": HeatmapSVG(m, bad+".svg"),
	} {
		if err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: error %v, want one naming %s", name, err, bad)
		}
	}
}

// blockMatrix is a Gram-like matrix of k classes of n/k rows: 1 within a class, 0.2
// across, 1.5 on the diagonal.
func blockMatrix(n, k int) eval.Matrix {
	m := eval.Matrix{Name: "test Gram", N: n, Data: make([]float64, n*n), Labels: make([]int, n), MinEig: 0.5}
	for i := range n {
		m.Labels[i] = i * k / n
	}
	for i := range n {
		for j := range n {
			v := 0.2
			if m.Labels[i] == m.Labels[j] {
				v = 1
			}
			if i == j {
				v = 1.5
			}
			m.Data[i*n+j] = v
		}
	}
	return m
}

func TestHeatmapPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gram.png")
	m := blockMatrix(30, 3)
	if err := HeatmapPNG(m, path); err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, path)
	if b := img.Bounds(); b.Dx() != 1080 || b.Dy() != 930 { // 7.2 in × 6.2 in at 150 dpi
		t.Errorf("PNG is %dx%d, want 1080x930", b.Dx(), b.Dy())
	}
	// Moreland's map runs from blue (min, 0.2 across classes) to red (max, 1.5 on the
	// diagonal); the within-class value 1 lies in the reddish half. Both ends must show.
	blue := countPix(img, func(r, g, b int) bool { return b > r+60 })
	red := countPix(img, func(r, g, b int) bool { return r > b+60 })
	if blue < 10000 || red < 10000 {
		t.Errorf("%d bluish and %d reddish pixels, want both ≥ 10000", blue, red)
	}
}

func countPix(img image.Image, f func(r, g, b int) bool) int {
	n := 0
	bd := img.Bounds()
	for y := bd.Min.Y; y < bd.Max.Y; y++ {
		for x := bd.Min.X; x < bd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if f(int(r>>8), int(g>>8), int(b>>8)) {
				n++
			}
		}
	}
	return n
}

// TestHeatmapSVGRasterized: with HeatMap.Rasterized the cells become one embedded
// image, so a 300×300 matrix (90,000 cells, about 9 MB as SVG rectangles) stays small.
func TestHeatmapSVGRasterized(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gram.svg")
	if err := HeatmapSVG(blockMatrix(300, 10), path); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("<image")) {
		t.Error("SVG lacks <svg or the rasterized <image")
	}
	if len(b) > 1<<20 {
		t.Errorf("SVG is %d bytes, want under 1 MiB (rasterized)", len(b))
	}
}

func TestHeatmapErrors(t *testing.T) {
	if err := WriteHeatmap(io.Discard, eval.Matrix{Name: "K"}, "png"); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty matrix: error %v", err)
	}
	// A constant matrix or one without labels still draws.
	m := eval.Matrix{Name: "flat", N: 4, Data: make([]float64, 16), MinEig: math.NaN()}
	if err := WriteHeatmap(io.Discard, m, "svg"); err != nil {
		t.Errorf("constant matrix: %v", err)
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "export: ") {
			t.Errorf("recover() = %v, want an export: panic", r)
		}
	}()
	WriteHeatmap(io.Discard, eval.Matrix{Name: "bad", N: 3, Data: make([]float64, 8)}, "png")
}

func TestClassBoundsAndTicks(t *testing.T) {
	labels := []int{0, 0, 0, 1, 1, 2}
	if got := classBounds(labels); len(got) != 2 || got[0] != 3 || got[1] != 5 {
		t.Errorf("classBounds = %v, want [3 5]", got)
	}
	// Block centres: rows 0..2 → 1, rows 3..4 → 3.5, row 5 → 5; flipped: n-1-v.
	ts := classTicks(labels, true).Ticks(0, 0)
	want := []float64{4, 1.5, 0}
	for i, tk := range ts {
		if tk.Value != want[i] || tk.Label != strconv.Itoa(i) {
			t.Errorf("tick %d = %+v, want value %v label %d", i, tk, want[i], i)
		}
	}
}

func BenchmarkHeatmapPNG1000(b *testing.B) {
	m := blockMatrix(1000, 10)
	for b.Loop() {
		if err := WriteHeatmap(io.Discard, m, "png"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "cells/s")
}

func BenchmarkCurvesPNG(b *testing.B) {
	rs := []*model.Result{sampleResult("a", 0), sampleResult("b", -0.05)}
	for b.Loop() {
		if err := WriteCurves(io.Discard, rs, "png"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "figures/s")
}

func TestOverlayColoursBySeries(t *testing.T) {
	rs := []*model.Result{sampleResult("a", 0), sampleResult("b", 0)}
	groups := collect(rs, SeriesLabels(rs))
	if len(groups) != 2 || len(groups[0]) != 4 || len(groups[1]) != 2 {
		t.Fatalf("groups of sizes %d, want panels of 4 and 2 curves", len(groups))
	}
	byName := map[string]int{}
	for _, g := range groups {
		for _, c := range g {
			name := c.name[:strings.Index(c.name, " · ")]
			if col, ok := byName[name]; ok && col != c.look.Color {
				t.Errorf("%s has colours %d and %d", name, col, c.look.Color)
			}
			byName[name] = c.look.Color
		}
	}
	if len(byName) != 3 || groups[0][0].look.Hollow || !groups[0][2].look.Hollow {
		t.Errorf("colours %v; hollow %v %v, want filled then hollow", byName, groups[0][0].look.Hollow, groups[0][2].look.Hollow)
	}
}

// TestSeriesLabelsOwnMethod checks the PNG legend: with two runs where only raw
// RLS had λ set, the raw RLS curves are labelled lambda=0.1 and lambda=unset, the CDF
// curves (the same method in both runs) carry no λ but their preset (#2 for the second), and a
// spec-level difference (the seed) labels every series.
func TestSeriesLabelsOwnMethod(t *testing.T) {
	mk := func(spec string, seed uint64) *model.Result {
		r := sampleResult("xperm-curve", 0)
		r.Spec, r.Seed = json.RawMessage(spec), seed
		return r
	}
	a := mk(`{"name":"xperm-curve","methods":[{"features":"cdf","bins":25,"templates":25},{"features":"raw","lambda":0.1}]}`, 1)
	b := mk(`{"name":"xperm-curve","methods":[{"features":"cdf","bins":25,"templates":25},{"features":"raw"}]}`, 1)
	got := SeriesLabels([]*model.Result{a, b})
	// The third series, CDF(5,m) RLS, is no spec method's: it keeps the run's label.
	want := [][]string{{"xperm-curve", "lambda=0.1", "lambda=0.1"}, {"xperm-curve #2", "lambda=unset", "lambda=unset"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SeriesLabels = %q, want %q", got, want)
	}
	c := mk(`{"name":"xperm-curve","methods":[{"features":"cdf","bins":25,"templates":25},{"features":"raw"}]}`, 7)
	got = SeriesLabels([]*model.Result{b, c})
	if got[0][0] != "seed=1" || got[1][1] != "seed=7" {
		t.Errorf("a seed difference does not label every series: %q", got)
	}
}

// TestLegendRowsSpaced checks that the legend's entries are padded apart, not touching.
func TestLegendRowsSpaced(t *testing.T) {
	rs := []*model.Result{sampleResult("a", 0), sampleResult("b", 0)}
	_, leg, _, err := panel(collect(rs, SeriesLabels(rs))[0])
	if err != nil {
		t.Fatal(err)
	}
	if leg.Padding < vg.Millimeter {
		t.Errorf("legend padding %v, want at least 1 mm between rows", leg.Padding)
	}
}

// TestCSVResultColumnKeepsFullLabels: the points CSV of two runs that differ in more
// fields than a legend names holds every differing field in its result column, never
// text cut with "…" (the legend's RunLabels does cut it).
func TestCSVResultColumnKeepsFullLabels(t *testing.T) {
	mk := func(v float64) *model.Result {
		spec := fmt.Sprintf(`{"name":"x","repeats":3,"seed":%g,"data":{"name":"mnist","test_size":%g},"methods":[{"features":"raw","lambda":%g,"bins":%g}]}`, v, 100*v, v, v)
		return &model.Result{Schema: model.ResultSchema, Preset: "x", Spec: []byte(spec), Seed: uint64(v),
			Series: []model.Series{{Name: "raw RLS", XLabel: "n", YLabel: "accuracy", Points: []model.Point{{X: 1, Mean: 0.5, Runs: 1}}}}}
	}
	rs := []*model.Result{mk(1), mk(2)}
	if l := RunLabels(rs); !strings.Contains(l[0], "…") {
		t.Fatalf("the legend labels %q are not cut: the test needs more differing fields", l)
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, rs...); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows[1:] {
		if strings.Contains(row[0], "…") {
			t.Errorf("result column %q is cut", row[0])
		}
		for _, key := range []string{"bins=", "lambda=", "test_size=", "seed="} {
			if !strings.Contains(row[0], key) {
				t.Errorf("result column %q lacks %s", row[0], key)
			}
		}
	}
}

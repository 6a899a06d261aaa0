package export

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"gitui/core/eval"
)

// Heatmap figure size: the matrix panel and the colour bar strip to its right.
const (
	heatWidth  = 7.2 * vg.Inch
	heatHeight = 6.2 * vg.Inch
	barStrip   = 1.25 * vg.Inch
	// rasterTarget is the least number of raster pixels per axis (see grid).
	rasterTarget = 600
)

// HeatmapPNG writes m to path as a PNG heatmap (150 dpi); see WriteHeatmap.
func HeatmapPNG(m eval.Matrix, path string) error {
	return writeFile(path, "png", func(w io.Writer, f string) error { return WriteHeatmap(w, m, f) })
}

// HeatmapSVG writes m to path as an SVG heatmap; see WriteHeatmap.
func HeatmapSVG(m eval.Matrix, path string) error {
	return writeFile(path, "svg", func(w io.Writer, f string) error { return WriteHeatmap(w, m, f) })
}

// WriteHeatmap draws the n×n matrix m to w in format "png", "svg" or "pdf": entry
//
//	K_ij = m.Data[i*n + j]
//
// is the cell in row i from the top and column j from the left, coloured on Moreland's
// smooth blue-red map from the smallest to the largest finite entry (NaN cells grey),
// with a colour bar at the right. When m.Labels is given (rows sorted by class), thin
// lines mark the class boundaries and the axes are ticked with the class of each block.
// The cells are rasterized, so an SVG of a 1000×1000 matrix stays small. It returns an
// error for an empty matrix and panics (programmer error) if len(m.Data) != n*n or
// Labels is neither nil nor of length n.
func WriteHeatmap(w io.Writer, m eval.Matrix, format string) error {
	n := m.N
	if n < 0 || len(m.Data) != n*n {
		panic(fmt.Sprintf("export: matrix %q has N = %d but %d entries", m.Name, n, len(m.Data)))
	}
	if m.Labels != nil && len(m.Labels) != n {
		panic(fmt.Sprintf("export: matrix %q has N = %d but %d labels", m.Name, n, len(m.Labels)))
	}
	if n == 0 {
		return fmt.Errorf("matrix %q is empty: nothing to draw; export a matrix snapshot of a run", m.Name)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range m.Data {
		if finite(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi { // no finite entry
		lo, hi = 0, 1
	}
	if hi == lo { // a constant matrix still needs a colour range
		lo, hi = lo-0.5, hi+0.5
	}
	cm := moreland.SmoothBlueRed()
	cm.SetMin(lo)
	cm.SetMax(hi)

	p := plot.New()
	p.Title.Text = m.Name
	if finite(m.MinEig) {
		p.Title.Text += fmt.Sprintf("  (n = %d, smallest eigenvalue %.3g)", n, m.MinEig)
	} else {
		p.Title.Text += fmt.Sprintf("  (n = %d)", n)
	}
	// Rasterizing scales one pixel per grid cell to the panel with interpolation; repeat
	// each entry k times per axis so the cells of a small matrix keep sharp edges.
	k := max(1, (rasterTarget+n-1)/n)
	hm := plotter.NewHeatMap(grid{m: m, k: k}, cm.Palette(256))
	hm.Min, hm.Max = lo, hi
	hm.Rasterized = true
	hm.NaN = color.Gray{Y: 0x80}
	p.Add(hm)
	p.X.Label.Text = "column j"
	p.Y.Label.Text = "row i"
	p.X.Padding, p.Y.Padding = 0, 0
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	if bounds := classBounds(m.Labels); len(bounds) > 0 {
		for _, b := range bounds {
			x := float64(b) - 0.5
			y := float64(n-b) - 0.5
			for _, seg := range []plotter.XYs{{{X: x, Y: -0.5}, {X: x, Y: float64(n) - 0.5}}, {{X: -0.5, Y: y}, {X: float64(n) - 0.5, Y: y}}} {
				l, err := plotter.NewLine(seg)
				if err != nil {
					return err
				}
				l.Color = color.Black
				l.Width = vg.Points(0.6)
				p.Add(l)
			}
		}
		p.X.Label.Text, p.Y.Label.Text = "class (columns)", "class (rows)"
		p.X.Tick.Marker = classTicks(m.Labels, false)
		p.Y.Tick.Marker = classTicks(m.Labels, true)
	} else {
		p.Y.Tick.Marker = rowTicks(n)
	}

	bar := plot.New()
	bar.Title.Text = "value"
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Padding = 0

	c, err := newCanvas(heatWidth, heatHeight, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	// Keep the matrix panel roughly square: its width is the height (minus the axes).
	side := min(heatWidth-barStrip, heatHeight)
	p.Draw(draw.Crop(dc, 0, side-heatWidth, heatHeight-side, 0))
	bar.Draw(draw.Crop(dc, heatWidth-barStrip+vg.Millimeter*3, -vg.Millimeter*4, vg.Millimeter*13, -vg.Millimeter*8))
	_, err = c.WriteTo(w)
	return err
}

// grid adapts an eval.Matrix to plotter.GridXYZ with row 0 at the top, each entry
// repeated k×k times: grid cell (c, r) shows entry (n-1-r/k, c/k) and is centred at
// ((c+0.5)/k - 0.5, (r+0.5)/k - 0.5), so entry (i, j) still covers
// [j-0.5, j+0.5] × [n-1-i-0.5, n-1-i+0.5].
type grid struct {
	m eval.Matrix
	k int
}

func (g grid) Dims() (c, r int)   { return g.m.N * g.k, g.m.N * g.k }
func (g grid) Z(c, r int) float64 { return g.m.Data[(g.m.N-1-r/g.k)*g.m.N+c/g.k] }
func (g grid) X(c int) float64    { return (float64(c)+0.5)/float64(g.k) - 0.5 }
func (g grid) Y(r int) float64    { return (float64(r)+0.5)/float64(g.k) - 0.5 }

// classBounds returns the indices i > 0 where labels[i] != labels[i-1].
func classBounds(labels []int) []int {
	var b []int
	for i := 1; i < len(labels); i++ {
		if labels[i] != labels[i-1] {
			b = append(b, i)
		}
	}
	return b
}

// classTicks labels the centre of each run of equal labels with the label; flip maps
// row i to y = n-1-i.
func classTicks(labels []int, flip bool) plot.Ticker {
	n := len(labels)
	return plot.TickerFunc(func(_, _ float64) []plot.Tick {
		var ts []plot.Tick
		start := 0
		for i := 1; i <= n; i++ {
			if i == n || labels[i] != labels[start] {
				v := float64(start+i-1) / 2
				if flip {
					v = float64(n-1) - v
				}
				ts = append(ts, plot.Tick{Value: v, Label: strconv.Itoa(labels[start])})
				start = i
			}
		}
		return ts
	})
}

// rowTicks puts default ticks on row indices 0..n-1 (row 0 at the top).
func rowTicks(n int) plot.Ticker {
	return plot.TickerFunc(func(_, _ float64) []plot.Tick {
		ts := plot.DefaultTicks{}.Ticks(0, float64(n-1))
		for i := range ts {
			ts[i].Value = float64(n-1) - ts[i].Value
		}
		return ts
	})
}

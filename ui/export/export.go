package export

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"

	"gitui/model"
)

// Panel sizes of the curve figures, and the resolution of PNG files.
const (
	panelWidth  = 6.4 * vg.Inch
	panelHeight = 4.4 * vg.Inch
	pngDPI      = 150
)

// ErrNothingToPlot is returned (wrapped) when the results hold no finite point.
var ErrNothingToPlot = errors.New("no series with finite points: nothing to plot; export a result that finished at least one cell")

// PNG writes the curves of r to path as a PNG image (150 dpi); see Curves.
func PNG(r *model.Result, path string) error {
	return writeFile(path, "png", curvesTo([]*model.Result{r}))
}

// SVG writes the curves of r to path as an SVG document; see Curves.
func SVG(r *model.Result, path string) error {
	return writeFile(path, "svg", curvesTo([]*model.Result{r}))
}

// PDF writes the curves of r to path as a PDF document; see Curves.
func PDF(r *model.Result, path string) error {
	return writeFile(path, "pdf", curvesTo([]*model.Result{r}))
}

// Curves draws the series of all results in one figure and writes it to path, in the
// format its extension names (.png, .svg or .pdf). The figure has one panel per distinct
// x_label (in order of first appearance, at most two panels per row); in a panel each
// series is a line through its points with a shaded band
//
//	mean(x) - std(x) .. mean(x) + std(x)
//
// and error bars of the same height. A series name keeps one colour across results;
// series of result k are dashed with pattern k (the first result solid) and marked
// with glyph k, and each legend entry reads "Label(result): series" when
// there are several results, the bare series name otherwise. The x axis is logarithmic
// when every x is positive and max x > 10 min x. Axes are labelled from x_label and
// y_label. Results must not hold nil (it panics); it returns an error wrapping
// ErrNothingToPlot if no series has a finite point, and an error naming path if it
// cannot be written.
func Curves(results []*model.Result, path string) error {
	format, err := formatOf(path)
	if err != nil {
		return err
	}
	return writeFile(path, format, curvesTo(results))
}

// WriteCurves is Curves writing to w in format "png", "svg" or "pdf".
func WriteCurves(w io.Writer, results []*model.Result, format string) error {
	return curvesTo(results)(w, format)
}

// formatOf maps a file name's extension to a canvas format.
func formatOf(path string) (string, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png", ".svg", ".pdf":
		return ext[1:], nil
	default:
		return "", fmt.Errorf("export %s: unknown image format %q: name the file .png, .svg or .pdf", path, ext)
	}
}

// newCanvas returns a canvas of size w×h for format.
func newCanvas(w, h vg.Length, format string) (vg.CanvasWriterTo, error) {
	switch format {
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}, nil
	case "svg":
		return vgsvg.New(w, h), nil
	case "pdf":
		return vgpdf.New(w, h), nil
	default:
		return nil, fmt.Errorf("unknown image format %q: use png, svg or pdf", format)
	}
}

// writeFile writes what render produces to path atomically: a temporary file in the same
// directory, then a rename.
func writeFile(path, format string, render func(io.Writer, string) error) error {
	var buf bytes.Buffer
	if err := render(&buf, format); err != nil {
		return fmt.Errorf("export %s: %w", path, err)
	}
	if err := model.WriteFileAtomic(path, buf.Bytes()); err != nil {
		return fmt.Errorf("export: %w: check that the directory exists and is writable", err)
	}
	return nil
}

// Label returns the name of a result in legends and CSV files: its preset, else
// "seed N", with " (partial)" appended when the run did not finish.
func Label(r *model.Result) string {
	l := r.Preset
	if l == "" {
		l = "seed " + strconv.FormatUint(r.Seed, 10)
	}
	if r.Partial {
		l += " (partial)"
	}
	return l
}

// labels returns distinct labels for results: duplicates get " #k" appended.
func labels(results []*model.Result) []string {
	out := make([]string, len(results))
	count := map[string]int{}
	for i, r := range results {
		l := Label(r)
		count[l]++
		if count[l] > 1 {
			l += " #" + strconv.Itoa(count[l])
		}
		out[i] = l
	}
	return out
}

// curve is one series to draw: finite points sorted by x.
type curve struct {
	name       string // legend text
	xLabel     string
	yLabel     string
	pts        []model.Point
	run, color int // result index (dash pattern, glyph), series-name index (colour)
}

// collect groups the drawable series by x label, in order of first appearance.
func collect(results []*model.Result) (groups [][]curve) {
	labs := labels(results)
	at := map[string]int{}
	colors := map[string]int{} // the same series keeps its colour across results
	for k, r := range results {
		for _, s := range r.Series {
			pts := make([]model.Point, 0, len(s.Points))
			for _, p := range s.Points {
				if finite(p.X) && finite(p.Mean) {
					if !finite(p.Std) || p.Std < 0 {
						p.Std = 0
					}
					pts = append(pts, p)
				}
			}
			if len(pts) == 0 {
				continue
			}
			slices.SortStableFunc(pts, func(a, b model.Point) int { return compare(a.X, b.X) })
			name := s.Name
			if len(results) > 1 {
				name = labs[k] + ": " + s.Name
			}
			g, ok := at[s.XLabel]
			if !ok {
				g = len(groups)
				at[s.XLabel] = g
				groups = append(groups, nil)
			}
			col, ok := colors[s.Name]
			if !ok {
				col = len(colors)
				colors[s.Name] = col
			}
			groups[g] = append(groups[g], curve{name: name, xLabel: s.XLabel, yLabel: s.YLabel, pts: pts, run: k, color: col})
		}
	}
	return groups
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func compare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// useLogX reports whether the abscissae of cs are all positive and span more than a decade.
func useLogX(cs []curve) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cs {
		for _, p := range c.pts {
			lo, hi = min(lo, p.X), max(hi, p.X)
		}
	}
	return lo > 0 && hi > 10*lo
}

// curvesTo returns a renderer of the overlay figure of results.
func curvesTo(results []*model.Result) func(io.Writer, string) error {
	return func(w io.Writer, format string) error {
		for i, r := range results {
			if r == nil {
				panic(fmt.Sprintf("export: result %d is nil", i))
			}
		}
		groups := collect(results)
		if len(groups) == 0 {
			return ErrNothingToPlot
		}
		cols := min(len(groups), 2)
		rows := (len(groups) + cols - 1) / cols
		plots := make([][]*plot.Plot, rows)
		for i := range plots {
			plots[i] = make([]*plot.Plot, cols)
		}
		for g, cs := range groups {
			p, err := panel(cs)
			if err != nil {
				return err
			}
			plots[g/cols][g%cols] = p
		}
		c, err := newCanvas(vg.Length(cols)*panelWidth, vg.Length(rows)*panelHeight, format)
		if err != nil {
			return err
		}
		dc := draw.New(c)
		if rows == 1 && cols == 1 {
			plots[0][0].Draw(dc)
		} else {
			tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
				PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
			canvases := plot.Align(plots, tiles, dc)
			for i := range plots {
				for j, p := range plots[i] {
					if p != nil {
						p.Draw(canvases[i][j])
					}
				}
			}
		}
		_, err = c.WriteTo(w)
		return err
	}
}

// panel draws the curves sharing one x label.
func panel(cs []curve) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = cs[0].xLabel
	p.Y.Label.Text = cs[0].yLabel
	for _, c := range cs[1:] {
		if c.yLabel != p.Y.Label.Text {
			p.Y.Label.Text = "value" // series of one panel disagree on the quantity
		}
	}
	p.X.Label.TextStyle.Font.Size = 12
	p.Y.Label.TextStyle.Font.Size = 12
	p.Add(plotter.NewGrid())
	if useLogX(cs) {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.Legend.XOffs = -vg.Millimeter * 2
	p.Legend.YOffs = vg.Millimeter * 2
	p.Legend.TextStyle.Font.Size = font.Length(9)
	p.Legend.ThumbnailWidth = vg.Millimeter * 8
	for _, c := range cs {
		col := plotutil.Color(c.color)
		xys := make(plotter.XYs, len(c.pts))
		errs := make(plotter.YErrors, len(c.pts))
		for i, pt := range c.pts {
			xys[i] = plotter.XY{X: pt.X, Y: pt.Mean}
			errs[i].Low, errs[i].High = pt.Std, pt.Std
		}
		if band := bandPolygon(c.pts, col); band != nil {
			p.Add(band)
		}
		line, scatter, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("series %q: %w", c.name, err)
		}
		line.Color = col
		line.Width = vg.Points(1.6)
		line.Dashes = plotutil.Dashes(c.run)
		scatter.Color = col
		scatter.Shape = plotutil.Shape(c.run)
		scatter.Radius = vg.Points(2.8)
		bars := &plotter.YErrorBars{XYs: xys, YErrors: errs,
			LineStyle: draw.LineStyle{Color: col, Width: vg.Points(0.9)}, CapWidth: vg.Points(5)}
		p.Add(bars, line, scatter)
		p.Legend.Add(c.name, line, scatter)
	}
	return p, nil
}

// bandPolygon returns the shaded region between mean-std and mean+std, or nil when every
// std is zero or there is a single point.
func bandPolygon(pts []model.Point, col color.Color) *plotter.Polygon {
	if len(pts) < 2 || !slices.ContainsFunc(pts, func(p model.Point) bool { return p.Std > 0 }) {
		return nil
	}
	ring := make(plotter.XYs, 0, 2*len(pts))
	for _, p := range pts {
		ring = append(ring, plotter.XY{X: p.X, Y: p.Mean + p.Std})
	}
	for i := len(pts) - 1; i >= 0; i-- {
		ring = append(ring, plotter.XY{X: pts[i].X, Y: pts[i].Mean - pts[i].Std})
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil
	}
	r, g, b, _ := col.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x38}
	poly.LineStyle.Width = 0
	return poly
}

// CSV writes the points of r to path as CSV; see WriteCSV.
func CSV(r *model.Result, path string) error {
	return writeFile(path, "csv", func(w io.Writer, _ string) error { return WriteCSV(w, r) })
}

// WriteCSV writes one line per point of every series of every result, after the header
//
//	result,series,x,mean,std,runs,x_label,y_label
//
// where result is Label (made distinct with " #k" for repeats). Numbers are written in
// the shortest form that parses back to the same float64, so the file round-trips.
func WriteCSV(w io.Writer, results ...*model.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"result", "series", "x", "mean", "std", "runs", "x_label", "y_label"})
	labs := labels(results)
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for k, r := range results {
		for _, s := range r.Series {
			for _, p := range s.Points {
				cw.Write([]string{labs[k], s.Name, g(p.X), g(p.Mean), g(p.Std), strconv.Itoa(p.Runs), s.XLabel, s.YLabel})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

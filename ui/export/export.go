package export

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"sort"
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
	"gitui/ui/theme"
)

// Panel sizes of the curve figures, and the resolution of PNG files.
const (
	panelWidth  = 6.4 * vg.Inch
	panelHeight = 4.4 * vg.Inch
	pngDPI      = 150
)

// ErrNothingToPlot is returned (wrapped) when the results hold no finite point.
var ErrNothingToPlot = errors.New("no series with finite points: nothing to plot; export a result that finished at least one cell")

// PNG writes the curves of r to path as a PNG image (150 dpi); see Overlay.
func PNG(r *model.Result, path string) error {
	return writeFile(path, "png", Overlay{Results: []*model.Result{r}}.Write)
}

// SVG writes the curves of r to path as an SVG document; see Overlay.
func SVG(r *model.Result, path string) error {
	return writeFile(path, "svg", Overlay{Results: []*model.Result{r}}.Write)
}

// PDF writes the curves of r to path as a PDF document; see Overlay.
func PDF(r *model.Result, path string) error {
	return writeFile(path, "pdf", Overlay{Results: []*model.Result{r}}.Write)
}

// Curves draws the series of all results in one figure and writes it to path, in the
// format its extension names (.png, .svg or .pdf): Overlay{Results: results}.WriteFile.
func Curves(results []*model.Result, path string) error {
	return Overlay{Results: results}.WriteFile(path)
}

// WriteCurves is Curves writing to w in format "png", "svg" or "pdf".
func WriteCurves(w io.Writer, results []*model.Result, format string) error {
	return Overlay{Results: results}.Write(w, format)
}

// Overlay is a figure of the curves of several results, drawn for a paper draft:
//
//   - one panel per distinct x_label (in order of first appearance, two per row);
//   - each series a line through its points (mean) with error bars of ± std, the bars
//     of an accuracy kept inside [0, 1]; the curves of a panel are drawn side by side,
//     each shifted by a small step (dodger), so that bars at the same x do not overlap;
//   - every series looks as the TUI draws it (theme.Looks over SeriesKeys): a series
//     name keeps one colour and one marker shape across results (filled for the first
//     result, hollow for the second: ● ■ ▲ ◆ / ○ □ △ ◇ as in the workbench), and every
//     line has its own dash pattern, so the figure reads in grey too;
//   - the x axis is logarithmic when every x is positive and max x > 10 min x, and its
//     ticks are the measured abscissae (thinned where labels would collide);
//   - an accuracy axis never goes above 1 (markers at 1 are not clipped: the data area
//     is padded for them);
//   - the legend sits below the axes, outside the data, one entry per line: the bare
//     series name for one result, "series · label" for several, label being Labels[k]
//     or SeriesLabels; entries are 1.5 mm apart.
type Overlay struct {
	Results []*model.Result
	// Labels names the run of each result in legends; nil names each series by the
	// differences that apply to its own method (SeriesLabels).
	// A non-nil Labels must have one entry per result (else the call panics).
	Labels []string
}

// WriteFile writes the figure to path atomically, in the format its extension names
// (.png, .svg or .pdf; any other is an error naming the accepted ones). It returns an
// error wrapping ErrNothingToPlot if no series has a finite point, and an error naming
// path if it cannot be written. A nil result panics.
func (o Overlay) WriteFile(path string) error {
	format, err := FormatOf(path)
	if err != nil {
		return err
	}
	return writeFile(path, format, o.Write)
}

// Write writes the figure to w in format "png", "svg" or "pdf"; see WriteFile.
func (o Overlay) Write(w io.Writer, format string) error {
	for i, r := range o.Results {
		if r == nil {
			panic(fmt.Sprintf("export: result %d is nil", i))
		}
	}
	var labs [][]string
	if o.Labels == nil {
		labs = SeriesLabels(o.Results)
	} else {
		if len(o.Labels) != len(o.Results) {
			panic(fmt.Sprintf("export: %d labels for %d results", len(o.Labels), len(o.Results)))
		}
		labs = make([][]string, len(o.Results))
		for k, r := range o.Results {
			for range r.Series {
				labs[k] = append(labs[k], o.Labels[k])
			}
		}
	}
	groups := collect(o.Results, labs)
	if len(groups) == 0 {
		return ErrNothingToPlot
	}
	cols := min(len(groups), 2)
	rows := (len(groups) + cols - 1) / cols
	plots := make([]*plot.Plot, len(groups))
	legends := make([]plot.Legend, len(groups))
	legH := vg.Length(0)
	for g, cs := range groups {
		p, leg, _, err := panel(cs)
		if err != nil {
			return err
		}
		plots[g], legends[g] = p, leg
		legH = max(legH, legendHeight(&leg))
	}
	capText := barsCaption(groups)
	capH := vg.Length(0)
	if capText != "" {
		capH = captionHeight
	}
	tileH := panelHeight + legH
	c, err := newCanvas(vg.Length(cols)*panelWidth, vg.Length(rows)*tileH+capH, format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	if capText != "" { // under the panels, aligned with the first one's legend
		sty := plot.NewLegend().TextStyle
		sty.Font.Size = font.Length(10)
		sty.YAlign = draw.YBottom
		dc.FillText(sty, vg.Point{X: vg.Millimeter*2 + legendIndent, Y: vg.Millimeter * 2}, capText)
	}
	for g, p := range plots {
		r, col := g/cols, g%cols
		x0, y0 := vg.Length(col)*panelWidth, capH+vg.Length(rows-1-r)*tileH
		area := func(ymin, ymax vg.Length) draw.Canvas {
			return draw.Canvas{Canvas: dc.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x0 + vg.Millimeter*2, Y: ymin},
				Max: vg.Point{X: x0 + panelWidth - vg.Millimeter*4, Y: ymax}}}
		}
		p.Draw(area(y0+legH, y0+tileH-vg.Millimeter*2))
		if legH > 0 {
			leg := legends[g]
			la := area(y0+vg.Millimeter*2, y0+legH)
			la.Min.X += legendIndent
			leg.Draw(la)
		}
	}
	_, err = c.WriteTo(w)
	return err
}

// captionHeight is the room of the caption line under the panels.
const captionHeight = 6 * vg.Millimeter

// legendIndent aligns the legend below the panel with the data area (about the width
// of the y axis's labels).
const legendIndent = 16 * vg.Millimeter

// legendHeight is the room the legend takes below the axes: its entries and a margin.
func legendHeight(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	h := r.Max.Y - r.Min.Y
	if h <= 0 {
		return 0
	}
	return h + 5*vg.Millimeter
}

// FormatOf maps a file name's extension to a figure format: "png", "svg" or "pdf", or
// an error naming the file and the accepted extensions.
func FormatOf(path string) (string, error) {
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

// Label returns the name of a result in CSV files: its preset, else "seed N", with
// " (partial)" appended when the run did not finish.
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

// distinct appends " #k" to the k-th repeat (k >= 2) of a label.
func distinct(labs []string) []string {
	out := make([]string, len(labs))
	count := map[string]int{}
	for i, l := range labs {
		count[l]++
		if count[l] > 1 {
			l += " #" + strconv.Itoa(count[l])
		}
		out[i] = l
	}
	return out
}

// maxLabelFields is how many differing spec fields RunLabels names before "…".
const maxLabelFields = 3

// RunLabels names each result for a legend by what tells it apart from the others, in
// the manner of a parameter diff: the preset when presets differ, then up to three spec
// fields whose values differ, as "key=value" (the last part of the dotted path, the
// whole path when two differing fields share it), "…" when more differ. Results whose
// specs are equal fall back to Label. " (partial)" marks an unfinished run, and repeated
// labels get " #k". For a single result it is Label.
func RunLabels(results []*model.Result) []string { return runLabels(results, maxLabelFields) }

// FullRunLabels is RunLabels naming every differing spec field, never cut with "…":
// the labels of files a program reads (the CSV's result column).
func FullRunLabels(results []*model.Result) []string { return runLabels(results, 0) }

// runLabels is RunLabels naming at most limit differing fields before "…" (0: all).
func runLabels(results []*model.Result, limit int) []string {
	out := make([]string, len(results))
	if len(results) < 2 {
		for i, r := range results {
			out[i] = Label(r)
		}
		return out
	}
	_, fields, presetsDiffer := labelDiff(results)
	short := map[string]int{}
	for _, f := range fields {
		short[f.key[strings.LastIndex(f.key, ".")+1:]]++
	}
	for i, r := range results {
		var parts []string
		if presetsDiffer {
			parts = append(parts, Label(r))
		}
		for j, f := range fields {
			if limit > 0 && j == limit {
				parts = append(parts, "…")
				break
			}
			name := f.key[strings.LastIndex(f.key, ".")+1:]
			if short[name] > 1 {
				name = f.key
			}
			parts = append(parts, name+"="+f.vals[i])
		}
		l := strings.Join(parts, " ")
		switch {
		case l == "":
			l = Label(r)
		case r.Partial && !presetsDiffer:
			l += " (partial)"
		}
		out[i] = l
	}
	return distinct(out)
}

// labelDiff returns each result's spec flattened to dotted keys (with its seed), the
// fields whose values differ between the results (collapseMethods), and whether their
// presets differ.
func labelDiff(results []*model.Result) ([]map[string]string, []labelField, bool) {
	flat := make([]map[string]string, len(results))
	keys := map[string]bool{}
	for i, r := range results {
		flat[i] = map[string]string{}
		var tree any
		if json.Unmarshal(r.Spec, &tree) == nil {
			flatten(tree, "", flat[i])
		}
		flat[i]["seed"] = strconv.FormatUint(r.Seed, 10)
		for k := range flat[i] {
			keys[k] = true
		}
	}
	var diff []string
	presetsDiffer := false
	for _, r := range results[1:] {
		presetsDiffer = presetsDiffer || r.Preset != results[0].Preset
	}
	for k := range keys {
		if k == "name" || k == "description" || strings.HasSuffix(k, ".name") && strings.HasPrefix(k, "methods.") {
			continue
		}
		for _, f := range flat[1:] {
			if f[k] != flat[0][k] {
				diff = append(diff, k)
				break
			}
		}
	}
	sort.Strings(diff)
	return flat, collapseMethods(diff, flat), presetsDiffer
}

// SeriesLabels names each series of each result for a legend of several results (out[k][j]
// for series j of result k): by the differences between the results that apply to that
// series' own method (the spec method whose name the series carries). A spec-level
// field (data, group, protocol, seed) applies to every series; methods.N.KEY only to
// the series of method N; methods.*.KEY (every method alike) to each series with its
// own method's value. So when only raw RLS had λ set, the raw RLS curves read
// "lambda=0.1" and "lambda=unset" while CDF(25,25) RLS, the same in both runs, is named
// by its run's preset, told apart by " #k" (Label). A series whose name is no spec
// method's keeps its run's label (RunLabels). The preset leads when presets differ; at most
// three fields, then "…"; " (partial)" marks an unfinished run.
func SeriesLabels(results []*model.Result) [][]string {
	out := make([][]string, len(results))
	flat, fields, presetsDiffer := labelDiff(results)
	plain := make([]string, len(results)) // the preset, told apart by " #k"
	for k, r := range results {
		plain[k] = Label(r)
	}
	plain = distinct(plain)
	runLabs := RunLabels(results)
	val := func(k int, key string) string {
		v, ok := flat[k][key]
		if !ok {
			return "unset"
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return v
	}
	for k, r := range results {
		idx := methodIndex(r)
		out[k] = make([]string, len(r.Series))
		for j, s := range r.Series {
			mi, own := idx(s.Name)
			var parts []string
			if presetsDiffer {
				parts = append(parts, Label(r))
			}
			n := 0
			for _, f := range fields {
				name, v := f.key, ""
				switch p := strings.SplitN(f.key, ".", 3); {
				case len(p) == 3 && p[0] == "methods" && p[1] == "*":
					if !own {
						continue
					}
					name, v = p[2], val(k, fmt.Sprintf("methods.%d.%s", mi, p[2]))
				case len(p) == 3 && p[0] == "methods":
					if !own || p[1] != strconv.Itoa(mi) {
						continue
					}
					name, v = p[2], f.vals[k]
				default:
					name, v = name[strings.LastIndex(name, ".")+1:], f.vals[k]
				}
				if n == maxLabelFields {
					parts = append(parts, "…")
					break
				}
				parts = append(parts, name+"="+v)
				n++
			}
			l := strings.Join(parts, " ")
			switch {
			case !own: // a series of no spec method (a synthetic result): the run's label
				l = runLabs[k]
			case n == 0 && !presetsDiffer: // nothing of this series differs: its run's preset
				l = plain[k]
			case r.Partial && !presetsDiffer:
				l += " (partial)"
			}
			out[k][j] = l
		}
	}
	return out
}

// methodIndex returns a function giving the spec method of r that a series name
// belongs to: the method whose display name is the longest prefix of it ("raw RLS",
// "raw RLS (transformed test)"), and false when none is.
func methodIndex(r *model.Result) func(series string) (int, bool) {
	var sp model.Spec
	_ = json.Unmarshal(r.Spec, &sp)
	names := make([]string, len(sp.Methods))
	for i, m := range sp.Methods {
		names[i] = m.DisplayName()
	}
	return func(series string) (int, bool) {
		best, at := -1, 0
		for i, n := range names {
			if n != "" && strings.HasPrefix(series, n) && len(n) > at {
				best, at = i, len(n)
			}
		}
		return best, best >= 0
	}
}

// labelField is one differing spec field of RunLabels with its value in each result.
type labelField struct {
	key  string
	vals []string
}

// collapseMethods turns the differing keys into label fields. A method field that
// differs between results but has one value across every method of each result (as
// after --set 'methods.*.lambda=…') becomes the single field "methods.*.KEY". Numbers
// are written in their shortest form (1e-06, 0.1); a field a spec lacks is "unset".
func collapseMethods(diff []string, flat []map[string]string) []labelField {
	val := func(i int, k string) string {
		v, ok := flat[i][k]
		if !ok {
			return "unset"
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return v
	}
	var out []labelField
	done := map[string]bool{}
	for _, k := range diff {
		if done[k] {
			continue
		}
		parts := strings.SplitN(k, ".", 3)
		if len(parts) == 3 && parts[0] == "methods" {
			rest := parts[2]
			var same []string
			for _, k2 := range diff {
				if p2 := strings.SplitN(k2, ".", 3); len(p2) == 3 && p2[0] == "methods" && p2[2] == rest {
					same = append(same, k2)
				}
			}
			if len(same) > 1 {
				f := labelField{key: "methods.*." + rest, vals: make([]string, len(flat))}
				uniform := true
				for i := range flat {
					f.vals[i] = val(i, same[0])
					for _, k2 := range same[1:] {
						uniform = uniform && val(i, k2) == f.vals[i]
					}
				}
				if uniform {
					out = append(out, f)
					for _, k2 := range same {
						done[k2] = true
					}
					continue
				}
			}
		}
		f := labelField{key: k, vals: make([]string, len(flat))}
		for i := range flat {
			f.vals[i] = val(i, k)
		}
		out = append(out, f)
		done[k] = true
	}
	return out
}

// flatten stores the leaves of a decoded JSON tree under their dotted paths (array
// elements by index), each as compact JSON (strings unquoted).
func flatten(v any, prefix string, out map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		for k, c := range t {
			flatten(c, prefix+k+".", out)
		}
	case []any:
		if len(t) > 0 {
			if _, ok := t[0].(map[string]any); ok {
				for i, c := range t {
					flatten(c, prefix+strconv.Itoa(i)+".", out)
				}
				return
			}
		}
		b, _ := json.Marshal(t)
		out[strings.TrimSuffix(prefix, ".")] = string(b)
	case string:
		out[strings.TrimSuffix(prefix, ".")] = t
	default:
		b, _ := json.Marshal(t)
		out[strings.TrimSuffix(prefix, ".")] = string(b)
	}
}

// maxLegendRunes bounds a legend entry so that it fits the panel's width at 9 pt.
const maxLegendRunes = 90

// curve is one series to draw: finite points sorted by x.
type curve struct {
	name   string // legend text
	xLabel string
	yLabel string
	pts    []model.Point
	look   theme.Look // colour, marker and dash: theme.Looks over every series of every result
}

// collect groups the drawable series by x label, in order of first appearance;
// labs[k][j] names series j of result k after its name when there are several results. Each curve's look is theme.Looks of every series of
// every result in order (drawable or not), as the TUI assigns it to the same runs.
func collect(results []*model.Result, labs [][]string) (groups [][]curve) {
	at := map[string]int{}
	looks := theme.Looks(SeriesKeys(results))
	n := -1
	for k, r := range results {
		for j, s := range r.Series {
			n++
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
				name = s.Name + " · " + labs[k][j]
			}
			if r := []rune(name); len(r) > maxLegendRunes {
				name = string(r[:maxLegendRunes-1]) + "…"
			}
			g, ok := at[s.XLabel]
			if !ok {
				g = len(groups)
				at[s.XLabel] = g
				groups = append(groups, nil)
			}
			groups[g] = append(groups[g], curve{name: name, xLabel: s.XLabel, yLabel: s.YLabel, pts: pts, look: looks[n]})
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

// isAccuracy reports whether the panel plots accuracies (a y label naming accuracy and
// every mean in [0, 1]): its axis and error bars are then kept inside [0, 1].
func isAccuracy(cs []curve) bool {
	for _, c := range cs {
		if !strings.Contains(strings.ToLower(c.yLabel), "accuracy") {
			return false
		}
		for _, p := range c.pts {
			if p.Mean < 0 || p.Mean > 1 {
				return false
			}
		}
	}
	return true
}

// maxMeasuredTicks is the largest number of distinct abscissae that get a tick each;
// beyond it the axis has the default ticks.
const maxMeasuredTicks = 16

// measuredTicks returns a tick at each distinct x of cs, labelled with the shortest
// decimal form; a label that would sit closer than 1/10 of the axis (in log units on a
// log axis) to the previous labelled one is left out (its tick stays). It returns nil
// when there are more than maxMeasuredTicks distinct x.
func measuredTicks(cs []curve, logX bool) plot.ConstantTicks {
	seen := map[float64]bool{}
	var xs []float64
	for _, c := range cs {
		for _, p := range c.pts {
			if !seen[p.X] {
				seen[p.X] = true
				xs = append(xs, p.X)
			}
		}
	}
	if len(xs) > maxMeasuredTicks {
		return nil
	}
	sort.Float64s(xs)
	pos := func(x float64) float64 {
		if logX {
			return math.Log10(x)
		}
		return x
	}
	span := pos(xs[len(xs)-1]) - pos(xs[0])
	ticks := make(plot.ConstantTicks, len(xs))
	last := math.Inf(-1)
	for i, x := range xs {
		ticks[i].Value = x
		if pos(x)-last >= span/10 || i == 0 {
			ticks[i].Label = strconv.FormatFloat(x, 'g', -1, 64)
			last = pos(x)
		}
	}
	return ticks
}

// dodgeStep is the horizontal offset between neighbouring curves of a panel, as a
// fraction of the x axis's span (in log units on a log axis), so that the error bars of
// curves measured at the same x stand side by side instead of on top of each other.
const dodgeStep = 0.005

// dodger returns the abscissa at which curve i of cs draws a point measured at x:
//
//	x + (i - (K-1)/2) · dodgeStep · span        (linear axis)
//	x · 10^((i - (K-1)/2) · dodgeStep · span)   (log axis, span in decades)
//
// for K curves; the axis ticks stay at the measured x.
func dodger(cs []curve, logX bool) func(i int, x float64) float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range cs {
		for _, p := range c.pts {
			lo, hi = min(lo, p.X), max(hi, p.X)
		}
	}
	span := hi - lo
	if logX {
		span = math.Log10(hi / lo)
	}
	k := float64(len(cs))
	return func(i int, x float64) float64 {
		off := (float64(i) - (k-1)/2) * dodgeStep * span
		if logX {
			return x * math.Pow(10, off)
		}
		return x + off
	}
}

// drawn is what panel added for one curve.
type drawn struct {
	line    *plotter.Line
	scatter *plotter.Scatter
	bars    *plotter.YErrorBars
}

// panel draws the curves sharing one x label and returns the plot, its legend (drawn
// by the caller below the axes) and the plotters of each curve, in the order of cs.
func panel(cs []curve) (*plot.Plot, plot.Legend, []drawn, error) {
	p := plot.New()
	leg := plot.NewLegend()
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
	logX := useLogX(cs)
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	if t := measuredTicks(cs, logX); t != nil {
		p.X.Tick.Marker = t
	}
	acc := isAccuracy(cs)
	leg.Top, leg.Left = true, true
	leg.TextStyle.Font.Size = font.Length(9)
	leg.ThumbnailWidth = vg.Millimeter * 10
	leg.Padding = vg.Millimeter * 1.5 // rows apart: their markers and text never touch
	out := make([]drawn, 0, len(cs))
	dodge := dodger(cs, logX)
	for i, c := range cs {
		col := lookColor(c.look)
		xys := make(plotter.XYs, len(c.pts))
		errs := make(plotter.YErrors, len(c.pts))
		for j, pt := range c.pts {
			xys[j] = plotter.XY{X: dodge(i, pt.X), Y: pt.Mean}
			errs[j].Low, errs[j].High = pt.Std, pt.Std
			if acc {
				errs[j].Low, errs[j].High = min(pt.Std, pt.Mean), min(pt.Std, 1-pt.Mean)
			}
		}
		line, scatter, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, leg, nil, fmt.Errorf("series %q: %w", c.name, err)
		}
		line.Color = col
		line.Width = vg.Points(1.4)
		for _, d := range c.look.DashPattern() {
			line.Dashes = append(line.Dashes, vg.Points(d))
		}
		scatter.Color = col
		scatter.Shape = marker{shape: c.look.Shape, hollow: c.look.Hollow}
		scatter.Radius = vg.Points(3.6)
		bars := &plotter.YErrorBars{XYs: xys, YErrors: errs,
			LineStyle: draw.LineStyle{Color: col, Width: vg.Points(0.8)}, CapWidth: vg.Points(4)}
		p.Add(bars, line, scatter)
		leg.Add(c.name, line, scatter)
		out = append(out, drawn{line, scatter, bars})
	}
	if acc {
		p.Y.Max = math.Min(p.Y.Max, 1)
		p.Y.Min = math.Max(p.Y.Min, 0)
	}
	frame(p, logX)
	if ticks := roundTicks(p.Y.Min, p.Y.Max, acc); ticks != nil {
		p.Y.Tick.Marker = ticks
	}
	return p, leg, out, nil
}

// framePad is the room left between the data (points and error bars) and the frame, as
// a fraction of each axis's span (in decades on a log axis): a marker at the highest or
// last point is drawn whole, never cut by the frame.
const framePad = 0.04

// frame widens p's axes by framePad of their span on each side (by 0.05 around a single
// value), after the data set them.
func frame(p *plot.Plot, logX bool) {
	pad := func(lo, hi float64) (float64, float64) {
		d := (hi - lo) * framePad
		if d <= 0 {
			d = 0.05 * max(math.Abs(lo), 1)
		}
		return lo - d, hi + d
	}
	if logX && p.X.Min > 0 {
		lo, hi := pad(math.Log10(p.X.Min), math.Log10(p.X.Max))
		p.X.Min, p.X.Max = math.Pow(10, lo), math.Pow(10, hi)
	} else {
		p.X.Min, p.X.Max = pad(p.X.Min, p.X.Max)
	}
	p.Y.Min, p.Y.Max = pad(p.Y.Min, p.Y.Max)
}

// roundTicks returns labelled y ticks at the multiples of a round step (1, 2, 2.5 or 5
// times a power of ten) in [lo, hi], the largest step that gives at least 5 of them,
// each labelled with the decimals the step needs; for accuracies (acc) none above 1 or
// below 0. Between two labelled ticks sits an unlabelled one. nil for an empty or
// non-finite range.
func roundTicks(lo, hi float64, acc bool) plot.ConstantTicks {
	if !(hi > lo) || math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) {
		return nil
	}
	top, bottom := hi, lo
	if acc {
		top, bottom = min(hi, 1), max(lo, 0)
	}
	var step float64
	for e := math.Floor(math.Log10(hi - lo)); step == 0; e-- {
		if e < math.Floor(math.Log10(hi-lo))-2 {
			return nil // a span lost in the values' precision (1e15 + 0.25): the default ticks
		}
		for _, m := range []float64{5, 2.5, 2, 1} {
			st := m * math.Pow(10, e)
			if math.Floor(top/st+1e-9)-math.Ceil(bottom/st-1e-9)+1 >= 5 {
				step = st
				break
			}
		}
	}
	if max(math.Abs(top), math.Abs(bottom))/step > 1e12 {
		return nil // the tick count past float precision (1e17 + 64): the default ticks
	}
	decimals := 0 // as many as the step has: 25 → 0, 0.25 → 2, 0.02 → 2
	if st := strconv.FormatFloat(step, 'f', -1, 64); strings.Contains(st, ".") {
		decimals = len(st) - strings.Index(st, ".") - 1
	}
	var ticks plot.ConstantTicks
	for k := math.Ceil(bottom/step - 1e-9); k*step <= top+1e-9*step; k++ {
		v := k * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		if half := v + step/2; half <= top {
			ticks = append(ticks, plot.Tick{Value: half})
		}
	}
	if first := math.Ceil(bottom/step-1e-9)*step - step/2; first >= bottom {
		ticks = append(plot.ConstantTicks{{Value: first}}, ticks...)
	}
	return ticks
}

// barsCaption says what a figure's points and error bars are: "points: mean over 5 draws;
// bars: ± 1 std" (or "over 3–5 draws" when the points have different counts), "one draw
// per point: no error bars" when no point has two; "" for no points.
func barsCaption(groups [][]curve) string {
	lo, hi := math.MaxInt, 0
	for _, cs := range groups {
		for _, c := range cs {
			for _, p := range c.pts {
				lo, hi = min(lo, p.Runs), max(hi, p.Runs)
			}
		}
	}
	switch {
	case hi == 0:
		return ""
	case hi < 2:
		return "one draw per point: no error bars"
	case lo == hi:
		return fmt.Sprintf("points: mean over %d draws; bars: ± 1 std", hi)
	}
	return fmt.Sprintf("points: mean over %d–%d draws; bars: ± 1 std", max(lo, 1), hi)
}

// SeriesKeys lists the series of results in drawing order, each with the index of its
// result as its run: the keys theme.Looks assigns colours, markers and dashes to.
func SeriesKeys(results []*model.Result) []theme.SeriesKey {
	var keys []theme.SeriesKey
	for k, r := range results {
		for _, s := range r.Series {
			keys = append(keys, theme.SeriesKey{Name: s.Name, Run: k})
		}
	}
	return keys
}

// SeriesColor returns the colour of the i-th series name of a figure: the workbench
// theme's series palette (theme.Default().Series, its true-colour values, cycling), so
// that a series drawn with palette index i has one colour in the TUI and in files. A
// colour that does not parse falls back to gonum's palette.
func SeriesColor(i int) color.Color {
	return lookColor(theme.Look{Color: i})
}

// lookColor is the colour of l in the default theme (gonum's palette if it does not parse).
func lookColor(l theme.Look) color.Color {
	if c, ok := l.RGB(theme.Default()); ok {
		return c
	}
	return plotutil.Color(l.Color)
}

// marker draws series marker shapes: filled, or hollow (an outline around a white
// interior, for results after the first).
type marker struct {
	shape  int // index into theme.Shapes
	hollow bool
}

// DrawGlyph implements draw.GlyphDrawer.
func (m marker) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius // every shape stays inside the radius: the data area is padded by it
	var path vg.Path
	poly := func(pts ...vg.Point) {
		path.Move(pts[0])
		for _, q := range pts[1:] {
			path.Line(q)
		}
		path.Close()
	}
	switch theme.Shapes[m.shape%len(theme.Shapes)] {
	case "circle":
		path.Move(vg.Point{X: pt.X + r*0.85, Y: pt.Y})
		path.Arc(pt, r*0.85, 0, 2*math.Pi)
		path.Close()
	case "square":
		s := r * 0.75
		poly(vg.Point{X: pt.X - s, Y: pt.Y - s}, vg.Point{X: pt.X - s, Y: pt.Y + s}, vg.Point{X: pt.X + s, Y: pt.Y + s}, vg.Point{X: pt.X + s, Y: pt.Y - s})
	case "triangle":
		s := r
		poly(vg.Point{X: pt.X, Y: pt.Y + s}, vg.Point{X: pt.X - s*0.866, Y: pt.Y - s*0.5}, vg.Point{X: pt.X + s*0.866, Y: pt.Y - s*0.5})
	case "diamond":
		s := r
		poly(vg.Point{X: pt.X, Y: pt.Y + s}, vg.Point{X: pt.X - s, Y: pt.Y}, vg.Point{X: pt.X, Y: pt.Y - s}, vg.Point{X: pt.X + s, Y: pt.Y})
	}
	if m.hollow {
		c.SetColor(color.White)
		c.Fill(path)
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.1)})
		c.Stroke(path)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(path)
}

// CSV writes the points of r to path as CSV; see WriteCSV.
func CSV(r *model.Result, path string) error { return CSVAll(path, r) }

// CSVAll writes the points of every result to path as one CSV file (atomically); see
// WriteCSV.
func CSVAll(path string, results ...*model.Result) error {
	return writeFile(path, "csv", func(w io.Writer, _ string) error { return WriteCSV(w, results...) })
}

// WriteCSV writes one line per point of every series of every result, after the header
//
//	result,series,x,mean,std,runs,x_label,y_label
//
// where result is the run's label of FullRunLabels (its preset, or every spec field
// that tells the runs apart when there are several, never cut). Numbers are written in
// the shortest form that parses back to the same float64, so the file round-trips.
func WriteCSV(w io.Writer, results ...*model.Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"result", "series", "x", "mean", "std", "runs", "x_label", "y_label"})
	labs := FullRunLabels(results)
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

package theme

import (
	"image/color"
	"strconv"
	"strings"
)

// SeriesKey identifies one series of a chart or figure: the series (method) name and
// the index of its run among the runs drawn together (0 for the first run drawn).
type SeriesKey struct {
	Name string
	Run  int
}

// Look is how one series is drawn: the same colour, marker and dash pattern in the TUI's
// Curves pane and compare view and in the PNG, SVG and PDF files of ui/export. Looks
// assigns it; nothing else chooses a series' appearance.
type Look struct {
	// Color indexes Theme.Series (cycling): one colour per series name.
	Color int
	// Shape indexes Shapes; Hollow draws the marker's outline only.
	Shape  int
	Hollow bool
	// Dash indexes Dashes (cycling): one pattern per drawn line.
	Dash int
}

// Shapes are the marker shapes, in the order series names take them. Filled they are
// the runes ● ■ ▲ ◆, hollow ○ □ △ ◇ (Glyphs).
var Shapes = []string{"circle", "square", "triangle", "diamond"}

// Dashes are the line dash patterns, alternating on and off lengths in points (1/72 in);
// the TUI draws one braille dot per point. The first is a solid line; each of the others
// repeats every 8 points, so a legend's DashSample of 4 cells shows one whole period and
// no two patterns give the same sample.
var Dashes = [][]float64{
	{},
	{6, 2},
	{2, 2},
	{1, 1},
	{4, 1, 1, 2},
	{3, 1, 1, 1, 1, 1},
	{4, 4},
	{5, 1, 1, 1},
}

// DashCells is the width of a legend's dash sample (DashSample): one period of Dashes.
const DashCells = 4

// Looks returns the look of each of keys, which list every series drawn together in
// drawing order (the runs in order, each run's series in order). With k the index of
// the key's name among the distinct names in order of first appearance, and i the key's
// position in keys:
//
//	Color  = k                      (a method has one colour in every run)
//	Shape  = k mod len(Shapes)
//	Hollow = (k div len(Shapes) + Run) is odd   (filled in run 0, hollow in run 1, …)
//	Dash   = i mod len(Dashes)      (every line its own pattern, so it reads in grey)
func Looks(keys []SeriesKey) []Look {
	names := map[string]int{}
	out := make([]Look, len(keys))
	for i, key := range keys {
		k, ok := names[key.Name]
		if !ok {
			k = len(names)
			names[key.Name] = k
		}
		run := max(key.Run, 0)
		out[i] = Look{Color: k, Shape: k % len(Shapes), Hollow: (k/len(Shapes)+run)%2 == 1, Dash: i % len(Dashes)}
	}
	return out
}

// Glyph returns the marker rune of l: Glyphs[Shape] filled, Glyphs[Shape+4] hollow.
func (l Look) Glyph() rune {
	if l.Hollow {
		return Glyphs[len(Shapes)+l.Shape%len(Shapes)]
	}
	return Glyphs[l.Shape%len(Shapes)]
}

// Hex returns the true colour of l in t as "#rrggbb" (t.Series[Color mod len], its dark
// variant; the palette's series colours are the same on light and dark backgrounds).
// It is "" when t has no series palette.
func (l Look) Hex(t Theme) string {
	if len(t.Series) == 0 {
		return ""
	}
	return strings.ToLower(t.Series[l.Color%len(t.Series)].Dark.TrueColor)
}

// RGB returns the colour of l in t (Hex) as an opaque NRGBA; ok is false when the
// palette is empty or its entry is not "#rrggbb".
func (l Look) RGB(t Theme) (c color.NRGBA, ok bool) {
	hex := strings.TrimPrefix(l.Hex(t), "#")
	v, err := strconv.ParseUint(hex, 16, 32)
	if err != nil || len(hex) != 6 {
		return color.NRGBA{}, false
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}, true
}

// DashPattern returns l's dash pattern: Dashes[Dash mod len(Dashes)] (nil is solid).
func (l Look) DashPattern() []float64 {
	d := Dashes[l.Dash%len(Dashes)]
	if len(d) == 0 {
		return nil
	}
	return d
}

// On reports whether the dash pattern d is drawing (not in a gap) at distance s ≥ 0
// along the line, in points; a solid (empty) pattern is always on.
func On(d []float64, s float64) bool {
	total := 0.0
	for _, v := range d {
		total += v
	}
	if total <= 0 {
		return true
	}
	s -= total * float64(int(s/total))
	for i, v := range d {
		if s < v {
			return i%2 == 0
		}
		s -= v
	}
	return true
}

// DashSample draws l's dash pattern over w terminal cells for a legend: each cell is two
// points, its left and right half drawn ('━' both, '╸' left, '╺' right, ' ' neither)
// where the pattern is on at the half's middle.
func (l Look) DashSample(w int) string {
	d := l.DashPattern()
	var sb strings.Builder
	for c := 0; c < w; c++ {
		left, right := On(d, float64(2*c)+0.5), On(d, float64(2*c)+1.5)
		switch {
		case left && right:
			sb.WriteRune('━')
		case left:
			sb.WriteRune('╸')
		case right:
			sb.WriteRune('╺')
		default:
			sb.WriteRune(' ')
		}
	}
	return sb.String()
}

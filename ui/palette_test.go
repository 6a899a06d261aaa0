package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/store"
	"gitui/ui/curves"
	"gitui/ui/export"
	"gitui/ui/internal/uitest"
	"gitui/ui/runs"
	"gitui/ui/theme"
)

// drawnLook is how one legend entry is drawn: its label, colour ("#rrggbb"), marker
// glyph and dash sample (the TUI's legend cells after the glyph).
type drawnLook struct {
	label, hex  string
	glyph, dash string
}

var (
	ansiRGB   = regexp.MustCompile(`38;2;(\d+);(\d+);(\d+)m`)
	svgText   = regexp.MustCompile(`<text[^>]*font-size:9px">([^<]*)</text>`)
	svgPath   = regexp.MustCompile(`<path d="([^"]*)" style="([^"]*)"`)
	svgStroke = regexp.MustCompile(`stroke:(#[0-9A-Fa-f]{6})`)
	svgDash   = regexp.MustCompile(`stroke-dasharray:([0-9.,]+)`)
)

// tuiLegend reads the legend of a Curves view drawn in true colour: each line that
// starts with a marker glyph, its colour being the first 24-bit foreground of the line.
func tuiLegend(t *testing.T, view string) []drawnLook {
	t.Helper()
	var out []drawnLook
	for _, raw := range strings.Split(view, "\n") {
		plain := []rune(ansi.Strip(raw))
		w := theme.DashCells
		if len(plain) < w+3 || !strings.ContainsRune(string(theme.Glyphs), plain[0]) || plain[w+1] != ' ' {
			continue
		}
		label := string(plain[w+2:])
		if i := strings.Index(label, "  x="); i >= 0 {
			label = label[:i]
		}
		m := ansiRGB.FindStringSubmatch(raw)
		if m == nil {
			t.Fatalf("legend line %q has no 24-bit colour", string(plain))
		}
		var r, g, b int
		fmt.Sscan(m[1]+" "+m[2]+" "+m[3], &r, &g, &b)
		out = append(out, drawnLook{label: label, hex: fmt.Sprintf("#%02x%02x%02x", r, g, b), glyph: string(plain[0]), dash: string(plain[1 : w+1])})
	}
	return out
}

// svgLegend reads the legend of an exported SVG figure: for each entry's text, the
// thumbnail line drawn before it (stroke colour and dash array) and the marker after
// that line (its shape from the path, hollow when it is filled white and stroked). The
// marker and dash are given as the TUI would draw them (theme.Look's Glyph and
// DashSample), so that the two can be compared.
func svgLegend(t *testing.T, svg string) []drawnLook {
	t.Helper()
	var out []drawnLook
	prev := 0
	for _, loc := range svgText.FindAllStringSubmatchIndex(svg, -1) {
		chunk := svg[prev:loc[0]]
		label := svg[loc[2]:loc[3]]
		prev = loc[1]
		paths := svgPath.FindAllStringSubmatch(chunk, -1)
		line := -1
		for i, p := range paths {
			if strings.Contains(p[2], "stroke-width:1.4") {
				line = i
			}
		}
		if line < 0 || line == len(paths)-1 {
			t.Fatalf("svg legend entry %q: no thumbnail line and marker before it", label)
		}
		var look theme.Look
		dash := ""
		if m := svgDash.FindStringSubmatch(paths[line][2]); m != nil {
			dash = m[1]
		}
		look.Dash = -1
		for i, d := range theme.Dashes {
			var parts []string
			for _, v := range d {
				parts = append(parts, fmt.Sprint(v))
			}
			if strings.Join(parts, ",") == dash {
				look.Dash = i
			}
		}
		if look.Dash < 0 {
			t.Fatalf("svg legend entry %q: dash array %q is none of theme.Dashes", label, dash)
		}
		marker := paths[line+1:]
		look.Hollow = strings.Contains(marker[0][2], "fill:#FFFFFF")
		d := marker[0][1]
		var x0, x1 float64
		fmt.Sscanf(d, "M%g,", &x0)
		if i := strings.Index(d, "L"); i >= 0 {
			fmt.Sscanf(d[i:], "L%g,", &x1)
		}
		switch n := strings.Count(d, "L"); {
		case strings.Contains(d, "A"):
			look.Shape = 0
		case n == 3 && x0 == x1:
			look.Shape = 1
		case n == 2:
			look.Shape = 2
		case n == 3:
			look.Shape = 3
		default:
			t.Fatalf("svg legend entry %q: marker path %q is no known shape", label, d)
		}
		out = append(out, drawnLook{label: label, hex: strings.ToLower(svgStroke.FindStringSubmatch(paths[line][2])[1]),
			glyph: string(look.Glyph()), dash: look.DashSample(theme.DashCells)})
	}
	return out
}

// sameLooks checks that the TUI's legend and the SVG's draw the same series (in order)
// with the same colour, marker and dash; the same series names ("name · run" up to the
// dot), and with byLabel the same whole labels.
func sameLooks(t *testing.T, tui, svg []drawnLook, n int, byLabel bool) {
	t.Helper()
	if len(tui) != n || len(svg) != n {
		t.Fatalf("%d legend entries in the TUI, %d in the SVG; want %d:\nTUI %+v\nSVG %+v", len(tui), len(svg), n, tui, svg)
	}
	colours := map[string]bool{}
	for i := range tui {
		a, b := tui[i], svg[i]
		name := func(l string) string { return strings.Split(l, " · ")[0] }
		if byLabel && a.label != b.label || name(a.label) != name(b.label) {
			t.Errorf("entry %d: TUI %q, SVG %q", i, a.label, b.label)
		}
		if a.hex != b.hex || a.glyph != b.glyph || a.dash != b.dash {
			t.Errorf("entry %d (%s): TUI colour %s marker %s dash %q; SVG colour %s marker %s dash %q", i, a.label, a.hex, a.glyph, a.dash, b.hex, b.glyph, b.dash)
		}
		colours[a.hex] = true
	}
	if len(colours) < 2 {
		t.Errorf("all series drawn in %v", colours)
	}
}

// compareStore writes two runs whose method lists differ (the older: raw RLS only; the
// newer: a CDF method, then raw RLS), so that palettes assigned by position would not
// agree; Load lists the newer first.
func compareStore(t *testing.T) []runs.Entry {
	t.Helper()
	storeDir := t.TempDir()
	mk := func(name string, lambda float64, series ...model.Series) {
		sp := tinySpec(true)
		for i := range sp.Methods {
			sp.Methods[i].Lambda = lambda
		}
		raw, _ := json.Marshal(sp)
		d := filepath.Join(storeDir, name)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644)
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: series}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	s := func(name string, m0 float64) model.Series {
		return model.Series{Name: name, XLabel: "training set size", YLabel: "accuracy",
			Points: []model.Point{{X: 20, Mean: m0, Std: 0.02, Runs: 2}, {X: 100, Mean: m0 + 0.1, Std: 0.01, Runs: 2}}}
	}
	mk("20261126-010000-xperm-tiny", 0.01, s("raw RLS", 0.6))
	mk("20261126-020000-xperm-tiny", 0.1, s("CDF(5,5) RLS", 0.7), s("raw RLS", 0.65))
	es, errs := store.Load([]string{storeDir}, true)
	if len(errs) > 0 || len(es) != 2 {
		t.Fatalf("load: %d runs, %v", len(es), errs)
	}
	return es
}

// TestCompareLooksMatchExport: for two compared runs, each series of the compare view's
// chart has the same colour (as 24-bit RGB in the rendered TUI style and as the SVG's
// stroke), the same marker (shape, filled or hollow) and the same dash pattern as in
// the SVG export of the same runs, under the same "series · run" label.
func TestCompareLooksMatchExport(t *testing.T) {
	es := compareStore(t)
	c := runs.NewCompare(uitest.ColorStyles(), es)
	c.SetSize(120, 40)
	tui := tuiLegend(t, c.Chart().View())
	var rs []*model.Result
	var labels []string
	for k, e := range es {
		labels = append(labels, runs.RunLabel(k, e))
		rs = append(rs, resultOf(e, labels[k]))
	}
	var buf bytes.Buffer
	if err := (export.Overlay{Results: rs, Labels: labels}).Write(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	sameLooks(t, tui, svgLegend(t, buf.String()), 3, true)
	// the method in both runs (the second name met: A is the newer run, CDF then raw)
	// keeps its colour and shape, filled in A, hollow in B
	var raw []drawnLook
	for _, l := range tui {
		if strings.HasPrefix(l.label, "raw RLS") {
			raw = append(raw, l)
		}
	}
	if len(raw) != 2 || raw[0].hex != raw[1].hex || raw[0].glyph != "■" || raw[1].glyph != "□" {
		t.Errorf("raw RLS across runs: %+v", raw)
	}
}

// TestSavedFigureLooksAsTheCurvesPane: a run opened from the store (pinned) and a
// current run with other methods, saved with s (writeAll), give a curves.svg whose
// series look as the Curves pane draws them, in the pane's order.
func TestSavedFigureLooksAsTheCurvesPane(t *testing.T) {
	es := compareStore(t)
	m := curves.New(uitest.ColorStyles())
	m.SetSize(120, 30)
	pin := es[0] // the newer run: CDF, then raw
	m.AddRun(curves.Run{Label: "opened", Series: pin.Series})
	m.Reset("run 1")
	for _, x := range []float64{20, 100} {
		m.Add(eval.Point{Series: "raw 1-NN", XLabel: "training set size", YLabel: "accuracy", X: x, Mean: 0.5, Std: 0.01, Runs: 2},
			eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: x, Mean: 0.55, Std: 0.01, Runs: 2})
	}
	cur := &model.Result{Schema: model.ResultSchema, Preset: "run 1"}
	for _, s := range m.Current().Series {
		ms := model.Series{Name: s.Name, XLabel: s.XLabel, YLabel: s.YLabel}
		for _, p := range s.Points {
			ms.Points = append(ms.Points, model.Point{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
		}
		cur.Series = append(cur.Series, ms)
	}
	dir := t.TempDir()
	if _, err := writeAll(dir, cur, []*model.Result{resultOf(pin, "opened")}, nil, tinySpec(true)); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "curves.svg"))
	if err != nil {
		t.Fatal(err)
	}
	sameLooks(t, tuiLegend(t, m.View()), svgLegend(t, string(svg)), 4, false)
}

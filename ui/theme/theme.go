package theme

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

// Theme names the semantic colour roles of the workbench. Each role is an adaptive colour
// (light and dark background variants, each with a true-colour, 256-colour and 16-colour
// value) so that colours degrade explicitly with the terminal's profile.
type Theme struct {
	Text, Muted, Accent, Error, Warn, OK lipgloss.CompleteAdaptiveColor
	Border, BorderFocused, Selected      lipgloss.CompleteAdaptiveColor
	// Series is the palette of curve colours, in the order series appear.
	Series []lipgloss.CompleteAdaptiveColor
	// Scale is the heatmap colour scale, from the smallest to the largest value.
	Scale []lipgloss.CompleteAdaptiveColor
}

func c(tc, a256, a16 string) lipgloss.CompleteColor {
	return lipgloss.CompleteColor{TrueColor: tc, ANSI256: a256, ANSI: a16}
}

func same(tc, a256, a16 string) lipgloss.CompleteAdaptiveColor {
	return lipgloss.CompleteAdaptiveColor{Light: c(tc, a256, a16), Dark: c(tc, a256, a16)}
}

func adapt(light, dark lipgloss.CompleteColor) lipgloss.CompleteAdaptiveColor {
	return lipgloss.CompleteAdaptiveColor{Light: light, Dark: dark}
}

// Default returns the default theme: a blue accent, muted greys, and the viridis-like
// heatmap scale (dark blue to yellow) that stays readable in 256 and 16 colours.
func Default() Theme {
	return Theme{
		Text:          adapt(c("#1c1c1c", "234", "0"), c("#e4e4e4", "254", "15")),
		Muted:         adapt(c("#6c6c6c", "242", "8"), c("#8a8a8a", "245", "8")),
		Accent:        adapt(c("#005fd7", "26", "4"), c("#5fafff", "75", "12")),
		Error:         adapt(c("#d70000", "160", "1"), c("#ff5f5f", "203", "9")),
		Warn:          adapt(c("#af8700", "136", "3"), c("#ffd75f", "221", "11")),
		OK:            adapt(c("#008700", "28", "2"), c("#87d787", "114", "10")),
		Border:        adapt(c("#bcbcbc", "250", "7"), c("#4e4e4e", "239", "8")),
		BorderFocused: adapt(c("#005fd7", "26", "4"), c("#5fafff", "75", "12")),
		Selected:      adapt(c("#d7e7ff", "189", "7"), c("#303a4a", "237", "4")),
		Series: []lipgloss.CompleteAdaptiveColor{
			same("#4e9de0", "74", "12"),
			same("#e0884e", "173", "11"),
			same("#5fbf5f", "71", "10"),
			same("#d75f87", "168", "13"),
			same("#af87d7", "140", "5"),
			same("#5fd7d7", "80", "14"),
			same("#d7d75f", "185", "3"),
			same("#bcbcbc", "250", "7"),
		},
		Scale: []lipgloss.CompleteAdaptiveColor{
			same("#440154", "53", "0"),
			same("#46327e", "61", "4"),
			same("#365c8d", "25", "4"),
			same("#277f8e", "30", "6"),
			same("#1fa187", "36", "6"),
			same("#4ac16d", "71", "2"),
			same("#a0da39", "149", "10"),
			same("#fde725", "226", "11"),
		},
	}
}

// Styles are every lipgloss style the workbench draws with, built once per output
// (renderer) by NewStyles and passed down to the panes; panes never build styles in View.
type Styles struct {
	Renderer *lipgloss.Renderer
	// Color is false under the Ascii profile (NO_COLOR, TERM=dumb, tests): the heatmap
	// then draws shade runes and curves are told apart by their glyphs.
	Color bool

	Text, Muted, Accent, Error, Warn, OK, Bold lipgloss.Style
	Title, TitleFocused                        lipgloss.Style
	Pane, PaneFocused                          lipgloss.Style
	// Frame and FrameFocused draw the rounded border glyphs of Pane and PaneFocused
	// (Box uses them to frame pre-padded content without re-measuring it).
	Frame, FrameFocused                     lipgloss.Style
	Tab, TabActive                          lipgloss.Style
	Selected, Label, Value, Editing, Cursor lipgloss.Style
	Axis                                    lipgloss.Style
	Series                                  []lipgloss.Style
	// Cells[i][j] draws '▀' with foreground Scale[i] and background Scale[j].
	Cells [][]lipgloss.Style
	// CellStr[i][j] is Cells[i][j].Render("▀"), rendered once: the heatmap concatenates them.
	CellStr [][]string
	// ScaleFg[i] is a style whose foreground is Scale[i] (for the colour bar).
	ScaleFg []lipgloss.Style
}

// Shades are the runes used for a heatmap without colour, from low to high.
var Shades = []rune{' ', '░', '▒', '▓', '█'}

// NewStyles builds the styles of t for the renderer r (nil means lipgloss's default
// renderer). It is called once per output; its cost is a few hundred style values.
func NewStyles(r *lipgloss.Renderer, t Theme) Styles {
	if r == nil {
		r = lipgloss.DefaultRenderer()
	}
	fg := func(col lipgloss.CompleteAdaptiveColor) lipgloss.Style { return r.NewStyle().Foreground(col) }
	s := Styles{Renderer: r, Color: r.ColorProfile() != termenv.Ascii}
	s.Text = fg(t.Text)
	s.Muted = fg(t.Muted)
	s.Accent = fg(t.Accent)
	s.Error = fg(t.Error)
	s.Warn = fg(t.Warn)
	s.OK = fg(t.OK)
	s.Bold = r.NewStyle().Bold(true)
	s.Title = fg(t.Muted).Bold(true)
	s.TitleFocused = fg(t.Accent).Bold(true)
	s.Pane = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(t.Border)
	s.PaneFocused = r.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(t.BorderFocused)
	s.Frame = fg(t.Border)
	s.FrameFocused = fg(t.BorderFocused)
	s.Tab = fg(t.Muted).Padding(0, 1)
	s.TabActive = fg(t.Accent).Bold(true).Padding(0, 1).Underline(true)
	s.Selected = r.NewStyle().Background(t.Selected).Foreground(t.Text)
	s.Label = fg(t.Muted)
	s.Value = fg(t.Text)
	s.Editing = fg(t.Accent).Underline(true)
	s.Cursor = r.NewStyle().Reverse(true)
	s.Axis = fg(t.Muted)
	for _, col := range t.Series {
		s.Series = append(s.Series, fg(col))
	}
	s.Cells = make([][]lipgloss.Style, len(t.Scale))
	s.CellStr = make([][]string, len(t.Scale))
	for i, a := range t.Scale {
		s.Cells[i] = make([]lipgloss.Style, len(t.Scale))
		for j, b := range t.Scale {
			s.Cells[i][j] = r.NewStyle().Foreground(a).Background(b)
			s.CellStr[i] = append(s.CellStr[i], s.Cells[i][j].Render("▀"))
		}
		s.ScaleFg = append(s.ScaleFg, fg(a))
	}
	return s
}

// SeriesStyle returns the style of the i-th series (the palette repeats).
func (s Styles) SeriesStyle(i int) lipgloss.Style {
	if len(s.Series) == 0 {
		return lipgloss.Style{}
	}
	return s.Series[i%len(s.Series)]
}

// Glyphs mark the points of successive series so that curves stay distinguishable
// without colour.
var Glyphs = []rune{'●', '■', '▲', '◆', '○', '□', '△', '◇'}

// Glyph returns the point marker of the i-th series.
func Glyph(i int) rune { return Glyphs[i%len(Glyphs)] }

// Clip cuts s to at most w columns per line and h lines, keeping escape sequences
// intact. Panes call it last so that no frame exceeds its box.
func Clip(s string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	return strings.Join(lines, "\n")
}

// Wrap breaks every line of the plain text s (no escape sequences: wrap first, then
// style) into lines of at most w columns: at a space (dropped) or after '/', ',' or
// '-' when it can, so paths and lists break where they read well, and inside a word
// only when no such break leaves text on the line. Panes wrap error messages with it
// instead of cutting them (Clip). w <= 0 returns s.
func Wrap(s string, w int) string {
	if w <= 0 {
		return s
	}
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for ansi.StringWidth(l) > w {
			head := ansi.Truncate(l, w, "")
			k := len(head)
			if k == 0 { // one rune wider than w: it gets a line of its own
				_, k = utf8.DecodeRuneInString(l)
			} else if l[k] != ' ' {
				if i := lastBreak(head); i > 0 && strings.TrimSpace(head[:i]) != "" {
					k = i
					if head[i] != ' ' {
						k++
					}
				}
			}
			out = append(out, strings.TrimRight(l[:k], " "))
			l = strings.TrimLeft(l[k:], " ")
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// lastBreak returns the index of the last place in head where a line may break: a space,
// or after '/' or ',', or after the hyphen of a hyphenated word ("zero-fill"), never
// after a minus sign or the dashes of a flag ("-3", "--set"); -1 if there is none.
func lastBreak(head string) int {
	word := func(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' }
	for i := len(head) - 1; i > 0; i-- {
		switch head[i] {
		case ' ', '/', ',':
			return i
		case '-':
			if word(head[i-1]) && i+1 < len(head) && word(head[i+1]) {
				return i
			}
		}
	}
	return -1
}

// WrapLines wraps the plain text s (lines joined by \n) to w columns (Wrap) and returns
// the lines rendered one by one with render (so each carries the whole style), all but
// the first indented by indent columns (within w).
func WrapLines(render func(...string) string, s string, w, indent int) []string {
	if indent >= w {
		indent = 0
	}
	pad := strings.Repeat(" ", indent)
	var out []string
	for i, l := range strings.Split(Wrap(s, w-indent), "\n") {
		if i > 0 {
			out = append(out, pad+render(l))
		} else {
			out = append(out, render(l))
		}
	}
	return out
}

// Pad makes s exactly w columns wide and h lines tall (clipping or filling with spaces).
func Pad(s string, w, h int) string {
	s = Clip(s, w, h)
	lines := strings.Split(s, "\n")
	for len(lines) < h {
		lines = append(lines, "")
	}
	for i, l := range lines {
		if d := w - ansi.StringWidth(l); d > 0 {
			lines[i] = l + strings.Repeat(" ", d)
		}
	}
	return strings.Join(lines, "\n")
}

// Box frames content, which must already be exactly w columns by h lines (Pad), with
// a rounded border drawn in frame's colour; the result is (w+2)×(h+2). Unlike
// lipgloss's border it does not measure the content again, so it costs one pass of
// string concatenation.
func Box(frame lipgloss.Style, content string, w, h int) string {
	bar := frame.Render("│")
	var sb strings.Builder
	sb.Grow(len(content) + (h+2)*(len(bar)*2+2) + 2*(w+2)*3)
	sb.WriteString(frame.Render("╭" + strings.Repeat("─", w) + "╮"))
	lines := strings.Split(content, "\n")
	for i := 0; i < h; i++ {
		sb.WriteByte('\n')
		sb.WriteString(bar)
		if i < len(lines) {
			sb.WriteString(lines[i])
		}
		sb.WriteString(bar)
	}
	sb.WriteByte('\n')
	sb.WriteString(frame.Render("╰" + strings.Repeat("─", w) + "╯"))
	return sb.String()
}

// JoinColumns puts blocks side by side line by line; each block's lines must already
// have the block's full width, and all blocks the same number of lines.
func JoinColumns(blocks ...string) string {
	split := make([][]string, len(blocks))
	n := 0
	for i, b := range blocks {
		split[i] = strings.Split(b, "\n")
		n = max(n, len(split[i]))
	}
	var sb strings.Builder
	for l := 0; l < n; l++ {
		if l > 0 {
			sb.WriteByte('\n')
		}
		for _, s := range split {
			if l < len(s) {
				sb.WriteString(s[l])
			}
		}
	}
	return sb.String()
}

package theme

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
)

func TestClipAndPad(t *testing.T) {
	s := "héllo world\nsecond line\nthird"
	c := Clip(s, 5, 2)
	if c != "héllo\nsecon" {
		t.Fatalf("Clip = %q", c)
	}
	p := Pad("ab\nc", 3, 3)
	if p != "ab \nc  \n   " {
		t.Fatalf("Pad = %q", p)
	}
	if Clip(s, 0, 3) != "" {
		t.Fatal("Clip to width 0 should be empty")
	}
}

func TestProfiles(t *testing.T) {
	// Under Ascii no escape codes are written and Color is false; under 16 colours
	// the scale degrades to ANSI colours (SGR 30-37/90-97 or 40-47/100-107).
	for _, tc := range []struct {
		p     termenv.Profile
		color bool
	}{{termenv.Ascii, false}, {termenv.ANSI, true}, {termenv.ANSI256, true}, {termenv.TrueColor, true}} {
		r := lipgloss.NewRenderer(nil)
		r.SetColorProfile(tc.p)
		s := NewStyles(r, Default())
		if s.Color != tc.color {
			t.Fatalf("profile %v: Color = %v", tc.p, s.Color)
		}
		cell := s.CellStr[0][len(s.CellStr)-1]
		if ansi.Strip(cell) != "▀" {
			t.Fatalf("profile %v: cell %q does not draw ▀", tc.p, cell)
		}
		hasEsc := strings.Contains(cell, "\x1b[")
		if hasEsc != tc.color {
			t.Fatalf("profile %v: escape codes present = %v", tc.p, hasEsc)
		}
		if tc.p == termenv.ANSI && strings.Contains(cell, "38;5") {
			t.Fatalf("16-colour profile used 256 colours: %q", cell)
		}
	}
}

func TestWrap(t *testing.T) {
	s := "data.path: /very/long/directory/name/file.csv does not exist: give an existing file"
	for _, w := range []int{1, 7, 20, 33, 80, 200} {
		got := Wrap(s, w)
		lines := strings.Split(got, "\n")
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("w=%d: line %q is wider", w, l)
			}
		}
		// Nothing is lost: the lines hold every non-space character, in order.
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(s, " ", "") {
			t.Fatalf("w=%d: wrapped text %q lost characters", w, got)
		}
		if w >= len(s) && got != s {
			t.Fatalf("w=%d: a line that fits was changed: %q", w, got)
		}
	}
	// Words break at spaces and after '/', not inside, when they fit.
	if got := Wrap("open /a/bb/ccc now", 8); got != "open /a/\nbb/ccc\nnow" {
		t.Fatalf("Wrap = %q", got)
	}
	ls := WrapLines(func(s ...string) string { return "[" + strings.Join(s, "") + "]" }, "one two three four\nfive", 10, 2)
	want := []string{"[one two]", "  [three]", "  [four]", "  [five]"}
	if strings.Join(ls, "|") != strings.Join(want, "|") {
		t.Fatalf("WrapLines = %q, want %q", ls, want)
	}
}

// Package uitest holds helpers shared by the ui packages' tests: deterministic styles
// (Ascii profile, dark background) and frame-size checks.
package uitest

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"gitui/ui/theme"
)

// Setup fixes the colour profile to Ascii and the background to dark so that goldens
// do not depend on the terminal running the tests. Call it from TestMain.
func Setup() {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
}

// Styles returns the default styles for the default renderer (after Setup: no colour).
func Styles() theme.Styles { return theme.NewStyles(nil, theme.Default()) }

// ColorStyles returns the default styles for a renderer forced to true colour.
func ColorStyles() theme.Styles {
	r := lipgloss.NewRenderer(nil)
	r.SetColorProfile(termenv.TrueColor)
	r.SetHasDarkBackground(true)
	return theme.NewStyles(r, theme.Default())
}

// CheckFits fails the test if any line of view is wider than w or there are more than h lines.
func CheckFits(t testing.TB, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("view has %d lines, want <= %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d columns wide, want <= %d: %q", i, lw, w, ansi.Strip(l))
		}
	}
}

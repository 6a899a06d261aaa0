package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/ui/pane"
	"gitui/ui/theme"
)

// The full help (?) fills the body with every key of the workbench and of the focused
// pane, laid out in columns that fit the window and cut into pages when they do not fit
// its height. It is modal: ←/→, pgup/pgdn turn the pages, tab, shift+tab and the pane keys move
// the focus (the help then shows that pane's keys), esc, ? and q close it.

// helpTexter is a pane whose full help has a page of text besides its keys (the Runs
// pane: the grammar of its filter).
type helpTexter interface {
	HelpText() (title string, lines []string)
}

// helpSection is one titled block of the full help: key bindings (the columns of a
// FullHelp, listed one after another; a disabled binding is marked "(not now)") or
// lines of plain text.
type helpSection struct {
	title string
	keys  [][]key.Binding
	text  []string
}

// helpColGap is the number of spaces between two columns of the help.
const helpColGap = 3

// helpPageKeys are the keys of the open help.
var helpPageKeys = struct{ Next, Prev, Close key.Binding }{
	Next:  key.NewBinding(key.WithKeys("right", "l", "pgdown", " ", "n"), key.WithHelp("→/pgdn", "next page")),
	Prev:  key.NewBinding(key.WithKeys("left", "h", "pgup", "b", "N"), key.WithHelp("←/pgup", "previous page")),
	Close: key.NewBinding(key.WithKeys("esc", "?", "q"), key.WithHelp("esc/?", "close")),
}

// helpSections returns the sections of the full help: the workbench's keys, the
// focused pane's keys, and the focused pane's text page when it has one.
func (a *App) helpSections() []helpSection {
	ph := a.focusedHelp()
	g := globalHelp{k: a.keys, pane: ph}
	all := g.FullHelp()
	nGlobal := len(all) - len(ph.FullHelp())
	secs := []helpSection{
		{title: "Workbench", keys: all[:nGlobal]},
		{title: a.focus.String() + " pane", keys: all[nGlobal:]},
	}
	if t, ok := pane.As[helpTexter](a.focused()); ok {
		title, lines := t.HelpText()
		secs = append(secs, helpSection{title: title, text: lines})
	}
	return secs
}

// helpSize is the size of the help's text: the body's box less its frame and title.
func (a *App) helpSize() (int, int) {
	fw, fh := a.st.Pane.GetHorizontalFrameSize(), a.st.Pane.GetVerticalFrameSize()
	return max(1, a.lay.body.w-fw), max(1, a.lay.body.h-fh-1)
}

// helpPages returns the pages of the full help for the window as it is now.
func (a *App) helpPages() []string {
	w, h := a.helpSize()
	return layoutHelp(a.helpSections(), w, h, a.st)
}

// helpTitle is the title of the help's box: what it lists and which page this is.
func (a *App) helpTitle(n int) string {
	t := "Help: " + a.focus.String() + " pane"
	if n > 1 {
		t += fmt.Sprintf(" · page %d/%d", a.helpPage+1, n)
	}
	return t
}

// helpFooter is the footer while the help is open: how to turn its pages and close it.
func (a *App) helpFooter(n int) string {
	s := a.st.Muted
	jump, _ := jumpHelp()
	if n <= 1 {
		return s.Render("help · ") + a.st.Accent.Render("esc/?/q") + s.Render(" close · ") + a.st.Accent.Render("tab/"+jump) + s.Render(" another pane's keys")
	}
	return s.Render(fmt.Sprintf("help %d/%d · ", a.helpPage+1, n)) + a.st.Accent.Render("←/→") + s.Render(" or ") +
		a.st.Accent.Render("pgup/pgdn") + s.Render(" page · ") + a.st.Accent.Render("esc/?/q") + s.Render(" close · ") +
		a.st.Accent.Render("tab/"+jump) + s.Render(" pane")
}

// openHelp shows the full help from its first page.
func (a *App) openHelp() {
	a.helpOpen, a.helpPage = true, 0
	a.relayout()
}

// handleHelp handles a key while the help is open: pages, focus moves, close; other
// keys do nothing (the help covers the panes they would act on).
func (a *App) handleHelp(k tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(k, helpPageKeys.Close):
		a.helpOpen = false
		a.relayout()
	case key.Matches(k, helpPageKeys.Next):
		a.helpPage = min(a.helpPage+1, len(a.helpPages())-1)
	case key.Matches(k, helpPageKeys.Prev):
		a.helpPage = max(a.helpPage-1, 0)
	case key.Matches(k, a.keys.NextPane):
		a.helpPage = 0
		return a.focusTo((a.focus + 1) % numPanes)
	case key.Matches(k, a.keys.PrevPane):
		a.helpPage = 0
		return a.focusTo((a.focus + numPanes - 1) % numPanes)
	case key.Matches(k, a.keys.Jump):
		a.helpPage = 0
		p, _ := paneWithKey(k.String())
		return a.focusTo(p)
	}
	return nil
}

// layoutHelp lays the sections out in pages of at most w columns and h lines (h >= 2).
// A section is its title and its lines: a binding is its key, padded to the widest key
// of the section, then its description (with notNow when it is disabled); text and
// descriptions too wide for w are wrapped, never cut. A section taller than h is split
// into pieces of h lines, the title repeated with "(cont.)". Each piece goes, in order:
// in a new column at the right of the page when the page still fits in w (columns are
// as wide as their widest line, helpColGap apart); else under the last column that has
// the lines free and stays within w (a blank line between); else on a new page. There
// is always one page.
func layoutHelp(secs []helpSection, w, h int, st theme.Styles) []string {
	type column struct {
		lines []string
		width int
	}
	type piece struct {
		lines []string
		width int
	}
	var pieces []piece
	for _, sec := range secs {
		body := helpLines(sec, w, st)
		title := sec.title
		for len(body) > 0 {
			n := min(len(body), max(1, h-1))
			t := ansi.Truncate(title, w, "…")
			p := piece{lines: []string{st.Bold.Render(t)}, width: ansi.StringWidth(t)}
			for _, l := range body[:n] {
				p.lines = append(p.lines, l)
				p.width = max(p.width, ansi.StringWidth(l))
			}
			pieces = append(pieces, p)
			body, title = body[n:], sec.title+" (cont.)"
		}
	}
	var pages [][]column
	pageWidth := func(cols []column) int {
		n := 0
		for _, c := range cols {
			n += c.width
		}
		return n + helpColGap*max(0, len(cols)-1)
	}
	for _, p := range pieces {
		if len(pages) > 0 {
			cols := pages[len(pages)-1]
			if pageWidth(cols)+helpColGap+p.width <= w {
				pages[len(pages)-1] = append(cols, column{p.lines, p.width})
				continue
			}
			placed := false
			for i := len(cols) - 1; i >= 0 && !placed; i-- {
				c := cols[i]
				grown := pageWidth(cols) - c.width + max(c.width, p.width)
				if len(c.lines)+1+len(p.lines) <= h && grown <= w {
					cols[i].lines = append(append(c.lines, ""), p.lines...)
					cols[i].width = max(c.width, p.width)
					placed = true
				}
			}
			if placed {
				continue
			}
		}
		pages = append(pages, []column{{p.lines, p.width}})
	}
	if len(pages) == 0 {
		return []string{st.Muted.Render("no keys")}
	}
	out := make([]string, len(pages))
	for k, cols := range pages {
		rows := 0
		for _, c := range cols {
			rows = max(rows, len(c.lines))
		}
		lines := make([]string, rows)
		for r := range lines {
			var sb strings.Builder
			for i, c := range cols {
				l := ""
				if r < len(c.lines) {
					l = c.lines[r]
				}
				sb.WriteString(l)
				if i < len(cols)-1 {
					sb.WriteString(strings.Repeat(" ", c.width-ansi.StringWidth(l)+helpColGap))
				}
			}
			lines[r] = strings.TrimRight(sb.String(), " ")
		}
		out[k] = strings.Join(lines, "\n")
	}
	return out
}

// notNow follows the description of a key that does nothing in the present state.
const notNow = " (not now)"

// helpLines returns the styled lines of a section's body (its title excluded), each at
// most w columns wide: its text, then one line per binding with a key (a binding
// that is disabled now says so with notNow, so the full help lists every key).
func helpLines(sec helpSection, w int, st theme.Styles) []string {
	var out []string
	for _, t := range sec.text {
		out = append(out, theme.WrapLines(st.Text.Render, t, w, 2)...)
	}
	kw := 0
	for _, col := range sec.keys {
		for _, b := range col {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
	}
	kw = min(kw, w/2)
	for _, col := range sec.keys {
		for _, b := range col {
			hk, d := b.Help().Key, b.Help().Desc
			if hk == "" {
				continue
			}
			if !b.Enabled() {
				d += notNow
			}
			pad := strings.Repeat(" ", max(0, kw-ansi.StringWidth(hk)))
			desc := theme.Wrap(d, max(1, w-kw-1))
			if ansi.StringWidth(hk) > kw { // a key wider than half the page: its description goes below
				out = append(out, st.Accent.Render(ansi.Truncate(hk, w, "…")))
				hk, pad = "", strings.Repeat(" ", kw)
			}
			for i, d := range strings.Split(desc, "\n") {
				if i == 0 {
					out = append(out, st.Accent.Render(hk)+pad+" "+st.Muted.Render(d))
				} else {
					out = append(out, strings.Repeat(" ", kw+1)+st.Muted.Render(d))
				}
			}
		}
	}
	return out
}

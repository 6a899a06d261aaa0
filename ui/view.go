package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"gitui/ui/pane"
	"gitui/ui/theme"
)

// View joins the header, the panes (cached frames where the pane keeps one) and the
// footer. Below 80×24 it shows one centred line saying so.
func (a *App) View() string {
	if a.w == 0 {
		return ""
	}
	if a.lay.tooSmall {
		msg := fmt.Sprintf("terminal %d×%d: gitui needs at least %d×%d", a.w, a.h, minW, minH)
		// Wrapped to the window (a 30-column terminal gets the whole sentence), centred.
		return lipgloss.Place(a.w, a.h, lipgloss.Center, lipgloss.Center, theme.Clip(theme.Wrap(msg, a.w), a.w, a.h))
	}
	var body string
	switch {
	case a.picker.open:
		body = a.box(a.lay.body, "Presets", true, a.pickerView)
	case a.slurm.open:
		body = a.box(a.lay.body, "Send to Slurm", true, a.slurmView)
	case a.helpOpen:
		pages := a.helpPages()
		a.helpPage = min(a.helpPage, len(pages)-1)
		body = a.box(a.lay.body, a.helpTitle(len(pages)), true, func(w, h int) string { return theme.Clip(pages[a.helpPage], w, h) })
	case a.tuneOpen:
		body = a.box(a.lay.body, "Tune", true, func(int, int) string { return a.tv.View() })
	case a.fullBody():
		title := a.focus.String() + a.errMark(a.focus)
		if a.zoom && !a.lay.tabs {
			title += a.st.Muted.Render(" (zoomed: z restores)")
		}
		body = a.box(a.lay.body, title, true, func(int, int) string { return a.paneView(a.focus) })
	default:
		body = a.gridView()
	}
	// Every box is exactly its rectangle, so only the header and footer need clipping.
	return theme.Clip(a.header(), a.w, 1) + "\n" + body + "\n" + theme.Clip(a.footerView(), a.w, a.lay.footer)
}

// gridView draws the grid: one box per slot of gridSlots (the left column, then the
// right), each showing its pane (slotPane), focused when the focus is in that slot.
func (a *App) gridView() string {
	var boxes [len(gridSlots)]string
	for i, s := range gridSlots {
		p := a.slotPane(s)
		title := p.String() + a.errMark(p)
		if s == slotConfig {
			title = a.configTitle()
		}
		boxes[i] = a.box(a.lay.rectOfSlot(s), title, a.focus.decl().slot == s, func(int, int) string { return a.paneView(p) })
	}
	return theme.JoinColumns(boxes[0]+"\n"+boxes[1], boxes[2]+"\n"+boxes[3])
}

// slotPane returns the pane the grid shows in slot s: the focused (or last) configuration
// pane in slotConfig, else the slot's pane.
func (a *App) slotPane(s slot) paneID {
	if s == slotConfig {
		return a.config
	}
	return panesIn(s)[0]
}

// configTitle names the configuration panes, the one shown in brackets.
func (a *App) configTitle() string {
	var parts []string
	for _, p := range panesIn(slotConfig) {
		if p == a.config {
			parts = append(parts, "["+p.String()+"]"+a.errMark(p))
		} else {
			parts = append(parts, p.String()+a.errMark(p))
		}
	}
	return strings.Join(parts, " ")
}

// hasError reports whether pane p shows an error (pane.Component.Problem): a spec
// problem of its fields, a data set or group that does not load, a failed run or Gram
// computation.
func (a *App) hasError(p paneID) bool { return a.panes[p].Problem() != nil }

// errMark is the mark on the tab and title of a pane that holds an error ("" when none).
func (a *App) errMark(p paneID) string {
	if a.hasError(p) {
		return a.st.Error.Render("!")
	}
	return ""
}

// paneView returns the content of pane p. A chart (pane.Cacher) that is due for a
// redraw shows its cached frame while the charts are held (the redraw throttle), and
// notes the time when it draws.
func (a *App) paneView(p paneID) string {
	c := a.panes[p]
	if ch, ok := pane.As[pane.Cacher](c); ok && ch.Dirty() {
		if a.holdCharts {
			return ch.Cached()
		}
		a.lastDraw = time.Now()
	}
	return c.View()
}

// box draws a bordered pane of outer size r with a title line and content. The framed
// result is cached per slot and reused while title, focus, size and content are the
// same (the charts return the same cached frame until they are redrawn).
func (a *App) box(r rect, title string, focused bool, content func(w, h int) string) string {
	fw, fh := a.st.Pane.GetHorizontalFrameSize(), a.st.Pane.GetVerticalFrameSize()
	iw, ih := max(1, r.w-fw), max(1, r.h-fh)
	body := content(iw, ih-1)
	slot := a.boxes[r]
	if slot.out != "" && slot.title == title && slot.focused == focused && slot.body == body {
		return slot.out
	}
	frame, ts := a.st.Frame, a.st.Title
	if focused {
		frame, ts = a.st.FrameFocused, a.st.TitleFocused
		title = "▸ " + title // focus shows without colour too (NO_COLOR)
	}
	out := theme.Box(frame, theme.Pad(ts.Render(title)+"\n"+body, iw, ih), iw, ih)
	a.boxes[r] = boxCache{title: title, focused: focused, body: body, out: out}
	return out
}

// boxCache is the last framed output of one screen rectangle.
type boxCache struct {
	title   string
	focused bool
	body    string
	out     string
}

// header is the tab bar (with pane numbers, and a red ! on the tabs of panes that
// hold an error) and the status on the right, shortened with … when it does not fit
// (an error's whole text is in the run log).
func (a *App) header() string {
	// Every pane's name and the run's name when they fit; else without "gitui "; else
	// (a run's name at 80 columns) the focused tab and those marked with an error keep
	// their name, the others an abbreviation ("2 Grp", one column apart); else only their number (the
	// key that reaches them). A longer message is cut as before.
	need := ansi.StringWidth(a.runLabel()) + 1
	left := a.headerTabs(true, tabsFull)
	for i, alt := range []tabRow{a.headerTabs(false, tabsFull), a.headerTabs(false, tabsShort), a.headerTabs(false, tabsNumbers)} {
		if i == 2 {
			need = min(need, 16) // abbreviated tabs before bare numbers: a long run name is cut with … (to 26 columns at 80 with 8 tabs)
		}
		if ansi.StringWidth(left.text)+need <= a.w {
			break
		}
		left = alt
	}
	a.tabSpans = left.spans
	right := a.statusText(a.w - ansi.StringWidth(left.text) - 1)
	gap := a.w - ansi.StringWidth(left.text) - ansi.StringWidth(right)
	if gap < 1 {
		return theme.Clip(left.text+" "+right, a.w, 1)
	}
	return left.text + strings.Repeat(" ", gap) + right
}

// tabRow is the left part of the header: "gitui " and the pane tabs, and the columns
// each tab takes (for mouse clicks).
type tabRow struct {
	text  string
	spans []tabSpan
}

// tabSpan is the columns [x0, x1) of the header taken by pane p's tab.
type tabSpan struct {
	p      paneID
	x0, x1 int
}

// How the tabs other than the focused one and those marked with an error are named.
const (
	tabsFull    = iota // "2 Group"
	tabsShort          // "2 Grp" (paneDecl.short)
	tabsNumbers        // "2"
)

// headerTabs draws "gitui " (when brand) and the tabs: "N Name" each; at level tabsShort
// or tabsNumbers only the focused one and those marked with an error have their full
// name, the others "N Abbr" or their number.
func (a *App) headerTabs(brand bool, level int) tabRow {
	var row tabRow
	if brand {
		row.text = a.st.Bold.Render("gitui ")
	}
	x := ansi.StringWidth(row.text)
	for p := paneID(0); p < numPanes; p++ {
		d := p.decl()
		label := d.key + " " + d.name
		if level > tabsFull && p != a.focus && !a.hasError(p) {
			label = d.key + " " + d.short
			if level == tabsNumbers {
				label = d.key
			}
		}
		style := a.st.Tab
		if p == a.focus {
			style = a.st.TabActive
		} else if level > tabsFull && !a.hasError(p) {
			style = style.PaddingRight(0) // one column between short tabs, not two
		}
		var tab string
		if a.hasError(p) { // the ! takes the tab's right padding
			tab = style.PaddingRight(0).Render(label) + a.st.Error.Render("!")
		} else {
			tab = style.Render(label)
		}
		w := ansi.StringWidth(tab)
		row.spans = append(row.spans, tabSpan{p: p, x0: x, x1: x + w})
		row.text += tab
		x += w
	}
	return row
}

// runLabel is what the header says when there is no message: the running (or
// cancelling) run, else the preset.
func (a *App) runLabel() string {
	switch {
	case a.r.running && a.r.cancelling:
		return "cancelling " + a.r.label
	case a.r.running:
		return "running " + a.r.label
	}
	return a.preset
}

// statusText is the status in at most w columns.
func (a *App) statusText(w int) string {
	fit := func(s string) string {
		if ansi.StringWidth(s) > w && w > 1 {
			return ansi.Truncate(s, w, "…")
		}
		return s
	}
	switch {
	case a.status != "" && a.statusEr:
		return a.st.Error.Render(fit(a.status))
	case a.status != "":
		return a.st.Muted.Render(fit(a.status))
	case a.r.running && a.r.cancelling:
		return a.st.Warn.Render(fit(a.runLabel()))
	case a.r.running:
		return a.st.Accent.Render(fit(a.runLabel()))
	}
	return a.st.Muted.Render(fit(a.runLabel()))
}

// footerView is the confirmation question when one is pending, else one line of help
// (the full help, ?, fills the body: helpview.go).
func (a *App) footerView() string {
	switch a.confirm {
	case confirmQuit:
		if !a.r.running && a.study.running {
			return a.st.Warn.Render("A study is going. Cancel it and quit? ") + a.st.Bold.Render("y/n")
		}
		return a.st.Warn.Render("A run is going. Cancel it and quit? ") + a.st.Bold.Render("y/n")
	case confirmStudy:
		return a.st.Warn.Render("Cancel the study? Its scored trials stay in its journal. ") + a.st.Bold.Render("y/n")
	case confirmRestart:
		return a.st.Warn.Render("A run is going. Cancel it and start a new one? ") + a.st.Bold.Render("y/n")
	case confirmCancel:
		return a.st.Warn.Render("Cancel the run? Its finished cells are kept. ") + a.st.Bold.Render("y/n")
	case confirmLong:
		why, keys := a.longWhy, "r again to start, esc to edit"
		if ansi.StringWidth("This run takes "+why+": "+keys) > a.w { // the total without its largest part
			why, _, _ = strings.Cut(why, " (")
		}
		return a.st.Warn.Render("This run takes "+why+": ") + a.st.Bold.Render(keys)
	case confirmDelete:
		return a.st.Warn.Render(fmt.Sprintf("Delete method %d of %d? ", a.method.Method()+1, len(a.spec.Methods))) + a.st.Bold.Render("y/n")
	}
	if a.slurm.open {
		return a.slurmHelp()
	}
	if a.helpOpen {
		return a.helpFooter(len(a.helpPages()))
	}
	if a.tuneOpen {
		return a.tuneHelp()
	}
	if a.picker.open {
		if a.picker.filtering {
			return a.help.ShortHelpView([]key.Binding{
				key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
				key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter"))})
		}
		return a.help.ShortHelpView([]key.Binding{a.keys.Up, a.keys.Down, a.keys.Load, a.keys.Filter, a.keys.Toggle, a.keys.Close})
	}
	if a.editing() { // a text edit or a choice list takes every key: only its keys work
		return a.help.ShortHelpView(a.focusedHelp().ShortHelp())
	}
	return a.help.ShortHelpView(globalHelp{k: a.keys, pane: a.focusedHelp()}.ShortHelp())
}

// pickerView lists the presets with the selected one highlighted.
func (a *App) pickerView(w, h int) string {
	mode := "quick"
	if !a.picker.quick {
		mode = "full"
	}
	lines := []string{a.st.Muted.Render("enter loads the preset into the panes · f toggles quick/full · now: ") + a.st.Bold.Render(mode), ""}
	if a.picker.filter != "" || a.picker.filtering {
		cursor := ""
		if a.picker.filtering {
			cursor = "▏"
		}
		lines[1] = a.st.Bold.Render("filter: "+a.picker.filter+cursor) + a.st.Muted.Render(fmt.Sprintf("  (%d of %d presets)", len(a.pickerShown()), len(a.opts.Presets)))
	}
	if len(a.opts.Presets) == 0 {
		lines = append(lines, a.st.Muted.Render("no presets were given"))
	}
	nw := 0
	for _, p := range a.opts.Presets {
		nw = max(nw, len(p.Name))
	}
	shown := a.pickerShown()
	if len(shown) == 0 && len(a.opts.Presets) > 0 {
		lines = append(lines, a.st.Muted.Render("no preset matches the filter (esc clears it)"))
	}
	ew := 0 // the estimates' column
	for _, e := range a.picker.est {
		ew = max(ew, ansi.StringWidth(e))
	}
	for i, k := range shown {
		p := a.opts.Presets[k]
		name := p.Name + strings.Repeat(" ", nw-len(p.Name))
		est := ""
		if ew > 0 {
			if k < len(a.picker.est) {
				est = a.picker.est[k]
			}
			est = strings.Repeat(" ", ew-ansi.StringWidth(est)) + est + " "
		}
		if i == a.picker.cur {
			lines = append(lines, a.st.Accent.Render("▸ ")+a.st.Selected.Render(name)+" "+est+p.Summary)
		} else {
			lines = append(lines, "  "+name+" "+est+a.st.Muted.Render(p.Summary))
		}
	}
	return theme.Clip(strings.Join(lines, "\n"), w, h)
}

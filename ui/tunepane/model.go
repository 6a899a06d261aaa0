package tunepane

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/NimbleMarkets/ntcharts/canvas"
	"github.com/NimbleMarkets/ntcharts/linechart"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/study"
	"gitui/ui/parcoords"
	"gitui/ui/runs"
	"gitui/ui/theme"
)

// Section is one part of the view.
type Section int

// The view's sections, in the order tab visits them.
const (
	SecTrials Section = iota
	SecBest
	SecAxes
	SecImportance
	numSections
)

var sectionNames = [numSections]string{"trials", "best so far", "parallel axes", "importance"}

// sectionTitles are the titles drawn over the sections in the wide layout.
var sectionTitles = [numSections]string{"trials", "best so far by rung (x: trial seconds)", "parallel axes", "importance"}

func (s Section) String() string { return sectionNames[s] }

// Action is what a key asks of the workbench that holds the view.
type Action int

const (
	// None: the key was handled here (or ignored).
	None Action = iota
	// Close (esc): back to the panes; the study goes on.
	Close
	// OpenBest (b): load best.spec.json into the panes.
	OpenBest
	// Cancel (x): cancel the running study (the workbench asks first).
	Cancel
	// Start (r): start a new study of the marked fields.
	Start
)

// KeyMap lists the view's keys.
type KeyMap struct {
	Next, Prev, Up, Down, Sort, Best, Cancel, Start, Close key.Binding
}

// DefaultKeyMap returns the view's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Next:   key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next section")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous section")),
		Up:     key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:   key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Sort:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "sort: best/trial")),
		Best:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "open best spec")),
		Cancel: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel study")),
		Start:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "new study")),
		Close:  key.NewBinding(key.WithKeys("esc", "T"), key.WithHelp("esc", "back to panes")),
	}
}

// Status is the workbench's side of the study: what the directory cannot say.
type Status struct {
	Name    string   // the spec's name
	Dir     string   // the study directory
	Keys    []string // the tuned keys, in order
	Running bool
	// Cancelling: cancel was asked; the trial in flight is stopping.
	Cancelling bool
	Elapsed    time.Duration
	// Err is why the study stopped with an error ("" when it did not).
	Err string
}

// Model is the Tune view: the trials table live rung by rung (parameters, rung, n,
// validation, state), the best validation so far of each rung against the trials'
// cumulative seconds (ntcharts), and the parallel coordinates and parameter importance
// the Runs pane draws (ui/parcoords, runs.Importances), computed over the trials.
// Wide (at least 110×28) it shows the four sections at once, the focused one marked;
// narrower, the focused one alone under a section bar. tab moves between them.
type Model struct {
	st     theme.Styles
	keys   KeyMap
	w, h   int
	status Status
	snap   Snapshot
	trials []Trial
	sizes  []int
	focus  Section
	cur    int  // cursor in the trials table (index into the rows as sorted)
	top    int  // first row shown
	byID   bool // sort the table by trial id (else best first)
	pc     *parcoords.Model
	// brushed: the table shows only the trials in the axes' brushes (enter there with a
	// brush; enter without one shows all again).
	brushed bool
}

// New returns an empty view drawing with st.
func New(st theme.Styles) Model {
	return Model{st: st, keys: DefaultKeyMap(), pc: parcoords.New(st)}
}

// SetSize sets the size of the view's content area.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Set shows the study s in state st.
func (m *Model) Set(st Status, s Snapshot) {
	m.status, m.snap = st, s
	m.trials, m.sizes = trials(s, st.Running)
	m.pc.SetRuns(m.pcRuns())
}

// SetStatus updates the workbench's side of the study (running, elapsed, error).
func (m *Model) SetStatus(st Status) {
	was := m.status.Running
	m.status = st
	if was != st.Running {
		m.trials, m.sizes = trials(m.snap, st.Running)
	}
}

// Status returns the study's state as last set.
func (m *Model) Status() Status { return m.status }

// Snapshot returns the study as last read.
func (m *Model) Snapshot() Snapshot { return m.snap }

// Trials returns the trials in id order.
func (m *Model) Trials() []Trial { return m.trials }

// Sizes returns the training size of each rung (so far).
func (m *Model) Sizes() []int { return m.sizes }

// Focused returns the focused section.
func (m *Model) Focused() Section { return m.focus }

// ShortHelp returns the keys that work now.
func (m *Model) ShortHelp() []key.Binding {
	k := m.keys
	k.Best.SetEnabled(m.snap.BestSpec != "")
	k.Cancel.SetEnabled(m.status.Running && !m.status.Cancelling)
	k.Start.SetEnabled(!m.status.Running)
	k.Sort.SetEnabled(m.focus == SecTrials)
	out := []key.Binding{k.Next}
	if m.focus == SecAxes {
		out = append(out, m.pc.ShortHelp()...)
	} else {
		out = append(out, k.Up, k.Down, k.Sort)
	}
	return append(out, k.Best, k.Cancel, k.Start, k.Close)
}

// FullHelp returns the keys that work now, in columns.
func (m *Model) FullHelp() [][]key.Binding {
	return [][]key.Binding{m.ShortHelp()}
}

// Key handles k and returns what the workbench must do.
func (m *Model) Key(k tea.KeyMsg) Action {
	switch {
	case key.Matches(k, m.keys.Next):
		m.focus = (m.focus + 1) % numSections
		return None
	case key.Matches(k, m.keys.Prev):
		m.focus = (m.focus + numSections - 1) % numSections
		return None
	}
	if m.focus == SecAxes && m.pc.Handles(k) {
		switch m.pc.Key(k) {
		case parcoords.Mark: // enter: the table keeps the brushed trials
			m.brushed = len(m.pc.Brushes()) > 0
			m.focus, m.cur, m.top = SecTrials, 0, 0
		case parcoords.Close:
			m.focus = SecTrials
		}
		return None
	}
	switch {
	case key.Matches(k, m.keys.Close):
		return Close
	case key.Matches(k, m.keys.Best) && m.snap.BestSpec != "":
		return OpenBest
	case key.Matches(k, m.keys.Cancel) && m.status.Running && !m.status.Cancelling:
		return Cancel
	case key.Matches(k, m.keys.Start) && !m.status.Running:
		return Start
	case key.Matches(k, m.keys.Up):
		m.cur = max(0, m.cur-1)
	case key.Matches(k, m.keys.Down):
		m.cur = max(0, min(len(m.rows())-1, m.cur+1))
	case key.Matches(k, m.keys.Sort):
		m.byID = !m.byID
	}
	return None
}

// rows returns the trials in the table's order: best first (highest rung reached, then
// validation, then id; failed last), or by id.
func (m *Model) rows() []Trial {
	var out []Trial
	in := map[string]bool{}
	if m.brushed {
		for _, id := range m.pc.Brushed() {
			in[id] = true
		}
	}
	for _, t := range m.trials {
		if !m.brushed || in[fmt.Sprint(t.ID)] {
			out = append(out, t)
		}
	}
	if m.byID {
		return out
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		fa, fb := a.State == "failed", b.State == "failed"
		if fa != fb {
			return fb
		}
		ka, va := a.Top()
		kb, vb := b.Top()
		if ka != kb {
			return ka > kb
		}
		if va != vb {
			return va > vb || math.IsNaN(vb)
		}
		return a.ID < b.ID
	})
	return out
}

// View draws the view into the size set.
func (m *Model) View() string {
	if m.w < 20 || m.h < 6 {
		return theme.Clip("the Tune view needs at least 20×6", m.w, m.h)
	}
	head := m.header()
	h := m.h - len(head)
	var body string
	if m.w >= 110 && h >= 26 {
		lw := m.w * 55 / 100
		th := h * 55 / 100
		top := theme.JoinColumns(m.section(SecTrials, lw-1, th), pad(m.section(SecBest, m.w-lw-1, th), m.w-lw, th))
		lw2 := m.w * 64 / 100
		bot := theme.JoinColumns(m.section(SecAxes, lw2-1, h-th), pad(m.section(SecImportance, m.w-lw2-1, h-th), m.w-lw2, h-th))
		body = top + "\n" + bot
	} else {
		var tabs []string
		for s := Section(0); s < numSections; s++ {
			if s == m.focus {
				tabs = append(tabs, m.st.TabActive.Render(fmt.Sprintf("%d %s", s+1, s)))
			} else {
				tabs = append(tabs, m.st.Tab.Render(fmt.Sprintf("%d %s", s+1, s)))
			}
		}
		body = strings.Join(tabs, "") + "\n" + m.sectionBody(m.focus, m.w, h-1)
	}
	return theme.Clip(strings.Join(head, "\n")+"\n"+body, m.w, m.h)
}

// pad makes s exactly w×h and puts one column of space before it.
func pad(s string, w, h int) string {
	return theme.Pad(indent(s, 1), w, h)
}

func indent(s string, n int) string {
	sp := strings.Repeat(" ", n)
	return sp + strings.ReplaceAll(s, "\n", "\n"+sp)
}

// section draws a titled section of w×h (title line included).
func (m *Model) section(s Section, w, h int) string {
	title := m.st.Title.Render("  " + sectionTitles[s])
	if s == m.focus {
		title = m.st.TitleFocused.Render("▸ " + sectionTitles[s])
	}
	return theme.Pad(title+"\n"+m.sectionBody(s, w, h-1), w, h)
}

func (m *Model) sectionBody(s Section, w, h int) string {
	if h < 1 || w < 4 {
		return ""
	}
	switch s {
	case SecTrials:
		return m.table(w, h)
	case SecBest:
		return m.curve(w, h)
	case SecAxes:
		if len(m.trials) < 2 {
			return theme.Clip(m.st.Muted.Render("parallel axes need two trials"), w, h)
		}
		m.pc.SetSize(w, h)
		return m.pc.View()
	}
	return m.importance(w, h)
}

// header is the summary: the study, its settings, progress and best, then the error
// or the hint to open the best.
func (m *Model) header() []string {
	st := m.status
	if st.Dir == "" && len(m.snap.Jobs) == 0 {
		return []string{m.st.Muted.Render("no study yet: mark fields with t in the Method pane, then T (or r here) starts one")}
	}
	state := "finished"
	switch {
	case st.Cancelling:
		state = "cancelling…"
	case st.Running:
		state = "running"
	case st.Err != "":
		state = "stopped"
	case m.snap.File == nil:
		state = "stopped (gitui resume DIR continues it)"
	}
	line := m.st.Bold.Render(st.Name) + " " + m.st.Muted.Render(fmt.Sprintf("· %s · %s", strings.Join(m.shortKeys(), ", "), state))
	if st.Elapsed > 0 {
		line += m.st.Muted.Render(" · " + st.Elapsed.Round(time.Second).String())
	}
	var sizes []string
	for _, n := range m.sizes {
		sizes = append(sizes, fmt.Sprint(n))
	}
	info := fmt.Sprintf("%d trials, %d jobs scored · rungs n %s", len(m.trials), len(m.snap.Jobs), strings.Join(sizes, ", "))
	if f := m.snap.File; f != nil {
		info = fmt.Sprintf("%s/%s η=%d · ", f.Sampler, f.Pruner, f.Eta) + info + scoredOn(f)
	}
	lines := []string{line, m.st.Muted.Render(info)}
	if id, k, v, ok := best(m.trials); ok {
		who := fmt.Sprintf("trial %d", id)
		if id == study.BaselineTrial {
			who = "your setting (the baseline)"
		}
		b := fmt.Sprintf("best: %s, %s %.4f at n %d", who, model.TuneScoreName(m.snap.Score), v, m.sizes[k])
		if f := m.snap.File; f != nil && f.Best != nil && f.Best.Test != nil {
			b += fmt.Sprintf(", test %.4f at n %d", *f.Best.Test, f.Best.N)
		}
		if m.snap.BestSpec != "" {
			b += " · b opens its spec as a run"
		}
		lines = append(lines, m.st.Accent.Render(b))
	}
	if c := study.Comparison(m.snap.File); c != "" {
		if study.BaselineTestedHigher(m.snap.File) {
			lines = append(lines, m.st.Warn.Render("! "+c))
		} else {
			lines = append(lines, m.st.Muted.Render(c))
		}
	}
	if st.Err != "" {
		lines = append(lines, m.st.Error.Render("✗ "+st.Err))
	}
	return lines
}

// shortKeys returns the tuned keys' short names (parcoords.ShortNames).
func (m *Model) shortKeys() []string {
	keys := m.tunedKeys()
	sn := parcoords.ShortNames(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = sn[k]
	}
	return out
}

// tunedKeys returns the tuned keys: the status's, else those of the trials' parameters.
func (m *Model) tunedKeys() []string {
	if len(m.status.Keys) > 0 {
		return m.status.Keys
	}
	set := map[string]bool{}
	for _, t := range m.trials {
		for k := range t.Params {
			set[k] = true
		}
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// table draws the trials table in w×h.
func (m *Model) table(w, h int) string {
	if len(m.trials) == 0 {
		msg := "no trial scored yet"
		if m.status.Running {
			msg = "loading the pool and scoring the first trials…"
		}
		return theme.Clip(m.st.Muted.Render(msg), w, h)
	}
	keys := m.tunedKeys()
	sn := parcoords.ShortNames(keys)
	rows := m.rows()
	cw := make([]int, len(keys))
	for i, k := range keys {
		cw[i] = max(6, ansi.StringWidth(sn[k]))
		for _, t := range rows {
			cw[i] = max(cw[i], min(14, ansi.StringWidth(paramText(t.Params[k]))))
		}
	}
	var hdr strings.Builder
	hdr.WriteString(fmt.Sprintf("  %3s ", "#"))
	for i, k := range keys {
		hdr.WriteString(cellText(sn[k], cw[i], false) + " ")
	}
	score := "valid."
	switch m.snap.Score {
	case model.TuneLOO:
		score = "loo"
	case model.TunePooled:
		score = "v+loo"
	}
	hdr.WriteString(fmt.Sprintf("%4s %6s %6s  %s", "rung", "n", score, "state"))
	out := []string{m.st.Muted.Render(ansi.Truncate(hdr.String(), w, "…"))}
	if m.brushed {
		out = append([]string{m.st.Accent.Render(ansi.Truncate(fmt.Sprintf("%d of %d trials in the axes' brush (enter there without a brush shows all)", len(rows), len(m.trials)), w, "…"))}, out...)
	}
	if len(rows) == 0 {
		return theme.Clip(strings.Join(out, "\n"), w, h)
	}
	n := max(1, h-len(out))
	m.cur = min(max(0, m.cur), len(rows)-1)
	if m.cur < m.top {
		m.top = m.cur
	}
	if m.cur >= m.top+n {
		m.top = m.cur - n + 1
	}
	m.top = min(m.top, max(0, len(rows)-n))
	bestID, _, _, hasBest := best(m.trials)
	for i := m.top; i < min(len(rows), m.top+n); i++ {
		t := rows[i]
		var b strings.Builder
		mark := "  "
		if i == m.cur && m.focus == SecTrials {
			mark = "▸ "
		}
		if hasBest && t.ID == bestID {
			mark = mark[:len(mark)-1] + "★"
			if i != m.cur || m.focus != SecTrials {
				mark = " ★"
			}
		}
		if t.ID == study.BaselineTrial {
			b.WriteString(mark + "you ") // the baseline: the spec's own setting
		} else {
			b.WriteString(mark + fmt.Sprintf("%3d ", t.ID))
		}
		for j, k := range keys {
			b.WriteString(cellText(paramText(t.Params[k]), cw[j], true) + " ")
		}
		k, v := t.Top()
		rung, nn, val := "—", "—", "—"
		if k >= 0 {
			rung = fmt.Sprint(k + 1) // live: how many rungs there will be is not known yet
			if m.snap.File != nil {
				rung = fmt.Sprintf("%d/%d", k+1, len(m.sizes))
			}
			nn = fmt.Sprint(m.sizes[k])
			val = fmt.Sprintf("%.4f", v)
		}
		b.WriteString(fmt.Sprintf("%4s %6s %6s  ", rung, nn, val))
		state := t.State
		line := b.String()
		switch state {
		case "failed":
			line += m.st.Error.Render(state + ": " + t.Error)
		case "complete":
			line += m.st.OK.Render(state)
		case "pruned", "stopped":
			line += m.st.Muted.Render(state)
		default:
			line += m.st.Accent.Render(state)
		}
		line = ansi.Truncate(line, w, "…")
		if i == m.cur && m.focus == SecTrials {
			line = m.st.Selected.Render(theme.Pad(line, w, 1))
		}
		out = append(out, line)
	}
	return theme.Clip(strings.Join(out, "\n"), w, h)
}

// cellText fits s into w columns, right-aligned when right.
func cellText(s string, w int, right bool) string {
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	p := strings.Repeat(" ", w-ansi.StringWidth(s))
	if right {
		return p + s
	}
	return s + p
}

// curvePoints returns, for each rung (by index into sizes), the best validation so far
// against the cumulative seconds of the jobs in journal order: one point where it
// rises (the curve is the step function through them), and the last job's time.
func (m *Model) curvePoints() (pts [][]canvas.Float64Point, tEnd float64) {
	pts = make([][]canvas.Float64Point, len(m.sizes))
	bestAt := make([]float64, len(m.sizes))
	for k := range bestAt {
		bestAt[k] = math.Inf(-1)
	}
	t := 0.0
	for _, j := range m.snap.Jobs {
		t += j.Seconds
		if j.Error != "" {
			continue
		}
		k := -1
		for i, n := range m.sizes {
			if n == j.N {
				k = i
			}
		}
		if k < 0 || j.Validation <= bestAt[k] {
			continue
		}
		bestAt[k] = j.Validation
		pts[k] = append(pts[k], canvas.Float64Point{X: t, Y: j.Validation})
	}
	return pts, t
}

// curve draws the best validation so far of each rung against the trials' cumulative
// seconds (the search's compute time), with a legend line.
func (m *Model) curve(w, h int) string {
	pts, tEnd := m.curvePoints()
	y0, y1 := math.Inf(1), math.Inf(-1)
	for _, ps := range pts {
		for _, p := range ps {
			y0, y1 = math.Min(y0, p.Y), math.Max(y1, p.Y)
		}
	}
	if math.IsInf(y0, 1) || h < 5 || w < 16 {
		return theme.Clip(m.st.Muted.Render("no validation score yet"), w, h)
	}
	pad := math.Max(0.01, (y1-y0)*0.1)
	y0, y1 = math.Max(0, y0-pad), math.Min(1, y1+pad)
	if y1-y0 < 0.02 {
		y0 = y1 - 0.02
	}
	// a little room right of the last job, where every curve runs on, so that a best
	// found by the last job shows
	tEnd = math.Max(tEnd, 1e-3) * 1.06
	lc := linechart.New(w, h-1, 0, tEnd, y0, y1,
		linechart.WithXYSteps(max(4, w/6), 2),
		linechart.WithStyles(m.st.Axis, m.st.Muted, m.st.Text),
		linechart.WithYLabelFormatter(func(_ int, v float64) string { return fmt.Sprintf("%.3f", v) }),
		linechart.WithXLabelFormatter(func(_ int, v float64) string { return fmtSeconds(v) }),
	)
	lc.Clear()
	lc.DrawXYAxisAndLabel()
	var legend []string
	for k, ps := range pts {
		if len(ps) == 0 {
			continue
		}
		st := m.st.SeriesStyle(k)
		for i, p := range ps {
			end := tEnd
			if i+1 < len(ps) {
				end = ps[i+1].X
			}
			lc.DrawBrailleLineWithStyle(p, canvas.Float64Point{X: end, Y: p.Y}, st)
			if i+1 < len(ps) {
				lc.DrawBrailleLineWithStyle(canvas.Float64Point{X: end, Y: p.Y}, ps[i+1], st)
			}
		}
		legend = append(legend, st.Render("━")+m.st.Muted.Render(fmt.Sprintf(" n %d: %.3f", m.sizes[k], ps[len(ps)-1].Y)))
	}
	foot := strings.Join(legend, " ")
	return theme.Clip(lc.View()+"\n"+foot, w, h)
}

func fmtSeconds(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0fs", v)
	case v >= 10:
		return fmt.Sprintf("%.1fs", v)
	}
	return fmt.Sprintf("%.2fs", v)
}

// pcRuns returns the trials as the parallel axes draw them: the parameters, the
// training size of the highest rung reached (n) and the validation there. The baseline
// (the spec's own setting, not a sampled trial) is marked "your setting": drawn apart
// and labelled (parcoords.Run.Mark).
func (m *Model) pcRuns() []parcoords.Run {
	var out []parcoords.Run
	for _, t := range m.trials {
		k, v := t.Top()
		p := t.ParamTexts()
		if k >= 0 {
			p["n"] = fmt.Sprint(m.sizes[k])
		}
		r := parcoords.Run{ID: fmt.Sprint(t.ID), Params: p, Acc: v}
		if t.ID == study.BaselineTrial {
			r.Mark = "your setting"
		}
		out = append(out, r)
	}
	return out
}

// importance draws the share of the variance of the validation accuracy at the first
// rung (where every trial is scored at the same n) that each parameter explains
// (runs.Importances, η²), one bar each.
func (m *Model) importance(w, h int) string {
	if len(m.sizes) == 0 {
		return theme.Clip(m.st.Muted.Render("no validation score yet"), w, h)
	}
	var es []runs.Entry
	for _, t := range m.trials {
		// the baseline is not a sampled trial (scored at the first rung only when the
		// study has one)
		if len(t.Scores) == 0 || math.IsNaN(t.Scores[0]) || t.ID == study.BaselineTrial {
			continue
		}
		p := t.ParamTexts()
		es = append(es, runs.Entry{ID: fmt.Sprint(t.ID), Params: p, Acc: t.Scores[0],
			Series: []eval.Series{{Name: "validation", Points: []eval.SeriesPoint{{X: float64(m.sizes[0]), Mean: t.Scores[0]}}}}})
	}
	lines := []string{m.st.Muted.Render(fmt.Sprintf("η² of validation at n %d over %d trials", m.sizes[0], len(es)))}
	imps, why := runs.Importances(es, "")
	if why != "" {
		lines = append(lines, theme.WrapLines(m.st.Muted.Render, why, w, 0)...)
		return theme.Clip(strings.Join(lines, "\n"), w, h)
	}
	// η² sums its groups in a fixed order (runs.Eta2), so equal shares are equal to the
	// last bit: rank by η², ties by name.
	sort.SliceStable(imps, func(i, j int) bool {
		a, b := imps[i].Eta2, imps[j].Eta2
		if a != b {
			return a > b || math.IsNaN(b)
		}
		return imps[i].Field < imps[j].Field
	})
	names := make([]string, len(imps))
	for i, im := range imps {
		names[i] = im.Field
	}
	sn := parcoords.ShortNames(names)
	nw := 0
	for _, n := range sn {
		nw = max(nw, ansi.StringWidth(n))
	}
	nw = min(nw, w/3)
	bw := max(4, w-nw-24)
	for _, im := range imps {
		fill := 0
		if !math.IsNaN(im.Eta2) {
			fill = int(math.Round(im.Eta2 * float64(bw)))
		}
		bar := m.st.Accent.Render(strings.Repeat("█", fill)) + m.st.Muted.Render(strings.Repeat("░", bw-fill))
		v := "  —"
		if !math.IsNaN(im.Eta2) {
			v = fmt.Sprintf("%5.2f", im.Eta2)
		}
		lines = append(lines, cellText(sn[im.Field], nw, false)+" "+bar+" "+v+m.st.Muted.Render(fmt.Sprintf(" %2d groups", im.Groups)))
	}
	note := fmt.Sprintf("numbers in at most %d quantile bins; as many groups as trials explain everything and say nothing", runs.MaxBins)
	lines = append(lines, theme.WrapLines(m.st.Muted.Render, note, w, 0)...)
	return theme.Clip(strings.Join(lines, "\n"), w, h)
}

// scoredOn says how the study's trials were scored: on a validation split of the pool,
// by leave-one-out on their own training samples, or on the split pooled at the last
// rung with leave-one-out.
func scoredOn(f *study.File) string {
	switch f.Score {
	case model.TuneLOO:
		return fmt.Sprintf(" · leave-one-out, pool %d", f.Pool)
	case model.TunePooled:
		return fmt.Sprintf(" · validation %d + loo at the last rung, pool %d", f.Validation, f.Pool)
	}
	return fmt.Sprintf(" · validation %d, pool %d", f.Validation, f.Pool)
}

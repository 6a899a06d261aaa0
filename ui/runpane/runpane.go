package runpane

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/ui/theme"
)

// maxLog bounds the log kept in memory (oldest lines are dropped).
const maxLog = 1000

// logIndent indents the continuation lines of a wrapped log line past its time stamp.
const logIndent = len("15:04:05 ")

type stage struct {
	name        string
	done, total int
	first, last time.Time // when the stage was first and last reported
	// work and workTotal are the estimated seconds done and in all (eval.Progress.Work);
	// workTotal 0: the stage is counted by its units.
	work, workTotal float64
}

// KeyMap lists the run pane's keys.
type KeyMap struct{ Older, Newer key.Binding }

// DefaultKeyMap returns the run pane's default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Older: key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "scroll log up")),
		Newer: key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "scroll log down")),
	}
}

// Model is the run pane: the state of the current run (running, cancelling, done,
// cancelled, failed), a progress bar with ETA per stage, and the run log.
type Model struct {
	st         theme.Styles
	keys       KeyMap
	label      string
	running    bool
	cancelling bool
	started    time.Time
	ended      time.Time
	now        time.Time
	stages     []stage
	log        []string
	scroll     int // lines scrolled up from the end
	result     string
	resultErr  bool
	w, h       int
	focused    bool
}

// New returns an idle run pane.
func New(st theme.Styles) Model { return Model{st: st, keys: DefaultKeyMap()} }

// SetSize sets the pane's content size.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Focus gives or takes the keyboard focus.
func (m *Model) Focus(on bool) { m.focused = on }

// Start resets the pane for a new run called label, started at now.
func (m *Model) Start(label string, now time.Time) {
	m.label, m.running, m.cancelling = label, true, false
	m.started, m.now, m.ended = now, now, time.Time{}
	m.stages, m.result, m.resultErr, m.scroll = nil, "", false, 0
	m.Logf(now, "start %s", label)
}

// Cancelling marks the run as being cancelled (finished cells still arrive).
func (m *Model) Cancelling(now time.Time) {
	if m.running && !m.cancelling {
		m.cancelling = true
		m.Logf(now, "cancelling: finished cells are kept")
	}
}

// Running reports whether a run is going (including while cancelling).
func (m *Model) Running() bool { return m.running }

// Tick advances the clock used for elapsed time and ETA.
func (m *Model) Tick(now time.Time) { m.now = now }

// Progress records a progress event received at now.
func (m *Model) Progress(p eval.Progress, now time.Time) {
	m.now = now
	for i := range m.stages {
		if m.stages[i].name == p.Stage {
			m.stages[i].done, m.stages[i].total, m.stages[i].last = p.Done, p.Total, now
			m.stages[i].work, m.stages[i].workTotal = p.Work, p.WorkTotal
			return
		}
	}
	// A stage weighed by work counts its time from the run's start: its work includes
	// the preparations before its first event.
	first := now
	if p.WorkTotal > 0 && !m.started.IsZero() {
		first = m.started
	}
	m.stages = append(m.stages, stage{name: p.Stage, done: p.Done, total: p.Total, first: first, last: now, work: p.Work, workTotal: p.WorkTotal})
}

// Stage returns done and total of the named stage (ok false if never reported).
func (m *Model) Stage(name string) (done, total int, ok bool) {
	for _, s := range m.stages {
		if s.name == name {
			return s.done, s.total, true
		}
	}
	return 0, 0, false
}

// Log appends an engine log line.
func (m *Model) Log(l eval.Log) {
	t := l.Time
	if t.IsZero() {
		t = m.now
	}
	m.add(t, l.Line)
}

// Logf appends a line of the workbench's own.
func (m *Model) Logf(now time.Time, format string, a ...any) { m.add(now, fmt.Sprintf(format, a...)) }

func (m *Model) add(t time.Time, line string) {
	for _, l := range strings.Split(strings.TrimRight(line, "\n"), "\n") {
		m.log = append(m.log, t.Format("15:04:05")+" "+l)
	}
	if len(m.log) > maxLog {
		m.log = append(m.log[:0:0], m.log[len(m.log)-maxLog:]...)
	}
}

// LogLines returns the log (shared; do not modify).
func (m *Model) LogLines() []string { return m.log }

// Finish records the end of the run with its error (nil: done; context.Canceled:
// cancelled; else failed) and a one-line summary.
func (m *Model) Finish(err error, summary string, now time.Time) {
	m.running, m.cancelling, m.ended, m.now = false, false, now, now
	switch {
	case err == nil:
		m.result, m.resultErr = "done: "+summary, false
	case errors.Is(err, context.Canceled):
		m.result, m.resultErr = "cancelled: "+summary, false
	default:
		m.result, m.resultErr = "failed: "+err.Error(), true
	}
	m.Logf(now, "%s", m.result)
}

// Result returns the one-line outcome of the last finished run ("" while running).
func (m *Model) Result() string { return m.result }

// Failed reports whether the last finished run failed (its error is shown, wrapped).
func (m *Model) Failed() bool { return m.result != "" && m.resultErr && !m.running }

// Problem returns the outcome of the last finished run when it failed, else nil.
func (m *Model) Problem() error {
	if !m.Failed() {
		return nil
	}
	return errors.New(m.result)
}

// ShortHelp returns the keys that work now.
func (m Model) ShortHelp() []key.Binding { return []key.Binding{m.keys.Older, m.keys.Newer} }

// FullHelp returns the keys that work now.
func (m Model) FullHelp() [][]key.Binding { return [][]key.Binding{m.ShortHelp()} }

// Update scrolls the log when focused.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || !m.focused {
		return m, nil
	}
	switch {
	case key.Matches(km, m.keys.Older):
		m.scroll = min(m.scroll+1, max(0, len(m.log)-1))
	case key.Matches(km, m.keys.Newer):
		m.scroll = max(0, m.scroll-1)
	}
	return m, nil
}

func dur(d time.Duration) string {
	d = d.Round(time.Second)
	h, mnt, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, mnt, s)
	}
	return fmt.Sprintf("%d:%02d", mnt, s)
}

// ETA estimates the time left in a stage from its rate so far:
//
//	eta = (now - first) · (total - done) / done
//
// It returns -1 when nothing is done yet or the stage is complete.
func ETA(done, total int, first, now time.Time) time.Duration {
	if done <= 0 || done >= total {
		return -1
	}
	return time.Duration(float64(now.Sub(first)) * float64(total-done) / float64(done))
}

// WorkETA estimates the time left from the estimated work done (eval.Progress.Work of
// WorkTotal seconds of estimated cost):
//
//	eta = (now - first) · (total - done) / done
//
// so that a cell that costs ten times another counts ten times. It returns -1 when no
// work is done yet or all of it is.
func WorkETA(done, total float64, first, now time.Time) time.Duration {
	if done <= 0 || done >= total {
		return -1
	}
	return time.Duration(float64(now.Sub(first)) * (total - done) / done)
}

// View renders the status line, one progress line per stage and the log tail.
func (m *Model) View() string {
	var out []string
	switch {
	case m.running && m.cancelling:
		out = append(out, m.st.Warn.Render("◌ cancelling "+m.label)+m.st.Muted.Render(" "+dur(m.now.Sub(m.started))))
	case m.running:
		out = append(out, m.st.Accent.Render("● running "+m.label)+m.st.Muted.Render(" "+dur(m.now.Sub(m.started))))
	case m.result != "" && m.resultErr:
		out = append(out, theme.WrapLines(m.st.Error.Render, "✗ "+m.result, m.w, 2)...) // wrapped, never cut
	case m.result != "":
		out = append(out, m.st.OK.Render("✓ "+m.result)+m.st.Muted.Render(" in "+dur(m.ended.Sub(m.started))))
	default:
		out = append(out, m.st.Muted.Render("idle: r runs the spec in the panes"))
	}
	for _, s := range m.stages {
		out = append(out, m.bar(s))
	}
	room := m.h - len(out)
	if room > 0 && len(m.log) > 0 {
		// The newest entries that fit, each wrapped under its time stamp; the
		// oldest of them loses its first lines when it does not fit whole.
		var tail []string
		for i := len(m.log) - m.scroll - 1; i >= 0 && len(tail) < room; i-- {
			tail = append(theme.WrapLines(m.st.Muted.Render, m.log[i], m.w, logIndent), tail...)
		}
		out = append(out, tail[max(0, len(tail)-room):]...)
	}
	return theme.Clip(strings.Join(out, "\n"), m.w, m.h)
}

func (m *Model) bar(s stage) string {
	frac := eval.Progress{Done: s.done, Total: s.total, Work: s.work, WorkTotal: s.workTotal}.Fraction()
	label := fmt.Sprintf("%-9s", s.name)
	count := fmt.Sprintf(" %d/%d", s.done, s.total)
	eta := ""
	e := ETA(s.done, s.total, s.first, m.now)
	if s.workTotal > 0 {
		e = WorkETA(s.work, s.workTotal, s.first, m.now)
	}
	if e >= 0 && m.running {
		eta = " ETA " + dur(e)
	}
	bw := max(4, m.w-len(label)-len(count)-len(eta)-2)
	fill := int(frac*float64(bw) + 0.5)
	bar := m.st.Accent.Render(strings.Repeat("█", fill)) + m.st.Muted.Render(strings.Repeat("░", bw-fill))
	return label + " " + bar + count + m.st.Muted.Render(eta)
}

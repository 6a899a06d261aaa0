package runs

import (
	"fmt"
	"maps"
	"strconv"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/parcoords"
)

// The parallel-coordinates view (p) of the runs shown: the view itself is the package
// ui/parcoords; the pane keeps it (and its brushes) while it is closed, refreshes its
// runs with the table's and marks its brushed runs on enter.

// pcRuns returns the runs shown, as the view draws them (ID is the run's Path), with
// what each method's fits chose (Entry.Chosen) as fields of their own,
// "methods.N.lambda (chosen)", so a leave-one-out λ or a median-heuristic γ is an axis.
func (m *Model) pcRuns() []parcoords.Run {
	out := make([]parcoords.Run, len(m.shown))
	for i, k := range m.shown {
		e := m.all[k]
		p := e.Params
		if len(e.Chosen) > 0 {
			p = maps.Clone(e.Params)
			for mi, c := range e.Chosen {
				for name, v := range c {
					p[fmt.Sprintf("methods.%d.%s (chosen)", mi, name)] = strconv.FormatFloat(v, 'g', 3, 64)
				}
			}
		}
		out[i] = parcoords.Run{ID: e.Path, Params: p, Acc: e.Acc}
	}
	return out
}

// openParcoords opens the view over the runs shown (the brushes of the last time kept).
func (m *Model) openParcoords() {
	if m.pc == nil {
		m.pc = parcoords.New(m.st)
	}
	m.pc.SetSize(m.w, m.h)
	m.pc.SetRuns(m.pcRuns())
	m.pcOn = true
}

// syncParcoords gives the view the runs shown after a re-read, filter or sort.
func (m *Model) syncParcoords() {
	if m.pc != nil {
		m.pc.SetRuns(m.pcRuns())
	}
}

// parcoordsKey hands k to the open view: enter marks exactly the brushed runs (when
// there is a brush) and goes back to the table, esc and p go back.
func (m *Model) parcoordsKey(k tea.KeyMsg) {
	switch m.pc.Key(k) {
	case parcoords.Mark:
		if len(m.pc.Brushes()) > 0 {
			m.marked = map[string]bool{}
			for _, p := range m.pc.Brushed() {
				m.marked[p] = true
			}
		}
		m.pcOn = false
	case parcoords.Close:
		m.pcOn = false
	}
}

// Parcoords returns the parallel-coordinates view while it is open (nil otherwise).
func (m *Model) Parcoords() *parcoords.Model {
	if !m.pcOn {
		return nil
	}
	return m.pc
}

// Wants reports whether the pane takes k before the workbench's global keys: p in the
// table (the parallel-coordinates view, where p elsewhere opens the presets), and
// every key of the view while it is open (x and esc among them, which otherwise cancel
// a run); r in every view (it re-reads the runs: typing in the pane never starts a run);
// and esc while it closes something of the pane (the compare view, the groups,
// importance or HParams view, a filter) rather than cancelling the run.
func (m *Model) Wants(k tea.KeyMsg) bool {
	return m.wantsParcoords(k) || key.Matches(k, m.keys.Reload) || k.Type == tea.KeyEsc && (m.Comparing() || m.Nested() || m.hp.on || len(m.Entries()) < m.Total())
}

// wantsParcoords reports whether k opens the parallel-coordinates view or is one of
// its keys while it is open.
func (m *Model) wantsParcoords(k tea.KeyMsg) bool {
	if m.pcOn {
		return m.pc.Handles(k)
	}
	return m.cmp == nil && !m.filtering && !m.hp.on && key.Matches(k, m.keys.Parcoords)
}

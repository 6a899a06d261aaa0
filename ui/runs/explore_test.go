package runs

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/ui/internal/uitest"
)

// pane returns a focused Runs pane of size w×h listing es.
func pane(es []Entry, w, h int) Model {
	m := New(uitest.Styles())
	m.SetSize(w, h)
	m.Focus(true)
	m, _ = m.Update(LoadedMsg{Entries: es})
	return m
}

// typeKeys sends each key of keys: a rune each, except "enter" and "esc".
func typeKeys(m Model, keys ...string) Model {
	for _, k := range keys {
		switch k {
		case "enter":
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		case "esc":
			m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
		default:
			for _, r := range k {
				m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
			}
		}
	}
	return m
}

// TestPaneFilterExpression: typed into the pane's /, an unfinished expression shows one
// line naming the problem and its column, lists no run, and draws the grammar at the
// pane's foot; finished, it keeps the run worked out by hand (λ 0.1 is the only run
// with λ < 0.5 and a headline above 0.82: 0.85); esc clears it.
func TestPaneFilterExpression(t *testing.T) {
	es, _ := Load([]string{store(t)}, true)
	m := pane(es, 80, 24)
	m = typeKeys(m, "/", "lambda<0.5 && acc>")
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, v, 80, 24)
	if len(m.Entries()) != 0 || !strings.Contains(v, "✗ filter column 19: expected a value after >") {
		t.Fatalf("unfinished filter: %d runs shown\n%s", len(m.Entries()), v)
	}
	if !strings.Contains(v, FilterSyntax[1]) {
		t.Errorf("no grammar while typing the filter:\n%s", v)
	}
	m = typeKeys(m, "0.82", "enter")
	v = ansi.Strip(m.View())
	if got := m.Entries(); len(got) != 1 || got[0].Params["methods.0.lambda"] != "0.1" || strings.Contains(v, "✗") || strings.Contains(v, FilterSyntax[1]) {
		t.Fatalf("lambda<0.5 && acc>0.82 shows %d runs:\n%s", len(got), v)
	}
	m = typeKeys(m, "esc")
	if len(m.Entries()) != 3 {
		t.Fatal("esc did not clear the filter")
	}
}

package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/pane"
)

// TestPanesBehindOneInterface checks the root's slice of panes: one per paneID, each
// focused alone by setFocus, sized to its layout box, and updated in place through the
// interface (a key handed to the Curves component reaches the App's curves model); the
// form panes and the Runs pane take clicks, the charts keep frames.
func TestPanesBehindOneInterface(t *testing.T) {
	a := newTestApp(t, 160, 50)
	for p, c := range a.panes {
		if c == nil {
			t.Fatalf("pane %s has no component", paneID(p))
		}
		_, clicks := pane.As[pane.Clicker](c)
		_, caches := pane.As[pane.Cacher](c)
		wantClicks := paneID(p) <= paneMethod || paneID(p) == paneRuns
		wantCaches := paneID(p) == paneCurves || paneID(p) == paneHeat
		if clicks != wantClicks || caches != wantCaches {
			t.Errorf("pane %s: clicks %v (want %v), caches frames %v (want %v)", paneID(p), clicks, wantClicks, caches, wantCaches)
		}
	}
	fw, fh := a.st.Pane.GetHorizontalFrameSize(), a.st.Pane.GetVerticalFrameSize()
	if r := a.lay.rectOf(paneCurves); a.lay.tabs || r != a.lay.curves {
		t.Fatalf("160x50: tabs %v, curves box %+v", a.lay.tabs, r)
	}
	if w, h := a.curves.Dims(); w != a.lay.curves.w-fw || h != a.lay.curves.h-fh-1 {
		t.Errorf("curves sized %dx%d, its box is %+v", w, h, a.lay.curves)
	}
	a.setFocus(paneData)
	if a.focused() != a.panes[paneData] || a.editing() {
		t.Fatalf("focus on Data: focused %T, editing %v", a.focused(), a.editing())
	}
	before, _ := a.data.Form().Selected()
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")}) // to the focused pane, through pane.Component
	after, _ := a.data.Form().Selected()
	if before.Key == after.Key {
		t.Errorf("j in the Data pane left the selection on %s: the component's Update did not reach a.data", after.Key)
	}
	a.Update(tea.KeyMsg{Type: tea.KeyEnter}) // the field after data.name is a number: enter opens its editor
	if !a.editing() || a.focused().Wants(tea.KeyMsg{Type: tea.KeyEsc}) {
		t.Fatalf("enter on %s: editing %v", after.Key, a.editing())
	}
	for _, p := range a.panes {
		p.Blur()
	}
	if a.editing() {
		t.Error("a blurred pane still holds the keyboard")
	}
}

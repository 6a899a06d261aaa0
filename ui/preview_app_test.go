package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"gitui/model"
	"gitui/ui/form"
	"gitui/ui/internal/uitest"
)

// digitsSpec is tinySpec on the embedded MNIST digits under rotations by ±40°.
func digitsSpec() *model.Spec {
	s := tinySpec(true)
	s.Data = model.DataSpec{Name: "embedded", TestSize: 100}
	s.Group = model.GroupSpec{Kind: model.GroupRotation, Angles: &model.AngleSpec{From: -40, To: 40, Count: 5}}
	return s
}

// previewPane returns the pane that key 8 focuses (the Data preview), as declared.
func previewPane(t *testing.T) paneID {
	t.Helper()
	p, ok := paneWithKey("8")
	if !ok || p.String() != "Preview" {
		t.Fatalf("key 8 focuses %v (%v), want the Preview pane", p, ok)
	}
	return p
}

// TestScriptedPreview drives the workbench at 120×40 (grid) and 80×24 (tabs): 8 shows
// the Data preview of the embedded digits with its orbit row, j moves to the next digit.
func TestScriptedPreview(t *testing.T) {
	p := previewPane(t)
	for _, sz := range [][2]int{{120, 40}, {80, 24}} {
		a := New(context.Background(), Options{Presets: testPresets(), Initial: digitsSpec()}, uitest.Styles())
		tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(sz[0], sz[1]))
		scr := watch(tm.Output())
		m := scr.mark()
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("8")})
		m = scr.waitFor(t, m, "embedded · class 0 (1 of 10) · sample 1 of 300", 30*time.Second)
		scr.waitFor(t, m, "orbit of the selected x", 30*time.Second)
		m = scr.mark()
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("j")})
		scr.waitFor(t, m, "sample 2 of 300", 10*time.Second)
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
		fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*App)
		if fm.focus != p {
			t.Errorf("%v: focus on %s, want Preview", sz, fm.focus)
		}
		v := fm.View()
		uitest.CheckFits(t, v, sz[0], sz[1])
		if !strings.Contains(v, "█") {
			t.Errorf("%v: no image drawn (NO_COLOR shades):\n%s", sz, ansi.Strip(v))
		}
	}
}

// TestPreviewFollowsGroup checks the root's routing: a change of the group in the spec
// (form.ChangedMsg, as the Group pane sends it) redraws the preview's orbit row under
// the new group, and a preset loaded replaces its data set.
func TestPreviewFollowsGroup(t *testing.T) {
	p := previewPane(t)
	a := New(context.Background(), Options{Presets: testPresets(), Initial: digitsSpec()}, uitest.Styles())
	a.now = func() time.Time { return t0 }
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	exec(t, a, a.Init())
	exec(t, a, a.focusTo(p))
	orbit := func() string {
		v := ansi.Strip(a.View())
		i := strings.Index(v, "orbit of the selected x")
		if i < 0 {
			t.Fatalf("no orbit row:\n%s", v)
		}
		return v[i:]
	}
	rot := orbit()
	a.spec.Group = model.GroupSpec{Kind: model.GroupLocalShift, Radius: 1}
	_, cmd := a.Update(form.ChangedMsg{Key: "group.kind"})
	exec(t, a, cmd)
	if shift := orbit(); shift == rot || !strings.Contains(shift, "|G| = 9") {
		t.Errorf("the orbit row did not follow the group (rotations → 9 local shifts):\n%s", shift)
	}
	exec(t, a, a.loadPreset(0, true)) // xperm-tiny: sequences, no digits
	if v := ansi.Strip(a.View()); strings.Contains(v, "embedded ·") || !strings.Contains(v, "xperm ·") {
		t.Errorf("after loading xperm-tiny the preview still shows the digits:\n%s", v)
	}
}

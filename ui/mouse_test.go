package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/ui/curves"
	"gitui/ui/form"
)

// find returns the screen cell where text is drawn inside r (the first match, by line),
// as column and line of the whole screen; ok is false if r does not show it.
func find(view, text string, r rect) (x, y int, ok bool) {
	for y, l := range strings.Split(ansi.Strip(view), "\n") {
		if y < r.y || y >= r.y+r.h {
			continue
		}
		rs := []rune(l)
		for x0 := r.x; x0 < min(len(rs), r.x+r.w); x0++ {
			if strings.HasPrefix(string(rs[x0:]), text) {
				return x0, y, true
			}
		}
	}
	return 0, 0, false
}

func click(a *App, x, y int) {
	a.Update(tea.MouseMsg{X: x, Y: y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
}

func wheel(a *App, x, y int, up bool) {
	b := tea.MouseButtonWheelDown
	if up {
		b = tea.MouseButtonWheelUp
	}
	a.Update(tea.MouseMsg{X: x, Y: y, Button: b, Action: tea.MouseActionPress})
}

// TestClickFieldFocusesPaneAndField: a left click on a field's label in the data, group
// or method form focuses that pane and selects that field (the ▸ cursor moves to it):
// at 120×40 from another focused pane (the form is in the grid's config slot), and at
// 80×24 (one pane at a time). A click below the fields selects nothing new.
func TestClickFieldFocusesPaneAndField(t *testing.T) {
	cases := []struct {
		key         string // the pane's key
		pane        paneID
		label, want string // the field clicked and its spec key
	}{
		{"1", paneData, "test size", "data.test_size"},
		{"2", paneGroup, "|G| sample", "group.size"},
		{"3", paneMethod, "protocol", "protocol"},
	}
	for _, sz := range [][2]int{{120, 40}, {80, 24}} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], c.label), func(t *testing.T) {
				a := newTestApp(t, sz[0], sz[1])
				press(t, a, c.key)
				r := a.lay.body
				if !a.fullBody() {
					press(t, a, "5") // focus the Curves pane; the form stays in the config slot
					r = a.lay.config
				}
				fm := a.formOf(c.pane)
				if f, _ := fm.Selected(); f.Key == c.want {
					t.Fatalf("%s is selected before the click", c.want)
				}
				x, y, ok := find(a.View(), c.label, r)
				if !ok {
					t.Fatalf("%q not drawn in the pane:\n%s", c.label, ansi.Strip(a.View()))
				}
				click(a, x+1, y)
				if a.focus != c.pane {
					t.Fatalf("click on %q focused %v", c.label, a.focus)
				}
				if f, _ := fm.Selected(); f.Key != c.want {
					t.Fatalf("click on %q selected %s", c.label, f.Key)
				}
				if _, _, ok := find(a.View(), "▸ "+c.label, r); !ok {
					t.Errorf("the cursor is not on %q after the click:\n%s", c.label, ansi.Strip(a.View()))
				}
				// the pane's last content line is below the fields (preview or command)
				click(a, r.x+2, r.y+r.h-2)
				if f, _ := fm.Selected(); f.Key != c.want {
					t.Errorf("a click below the fields moved the selection to %s", f.Key)
				}
			})
		}
	}
}

// formOf returns the form of a configuration pane.
func (a *App) formOf(p paneID) *form.Model {
	switch p {
	case paneData:
		return a.data.Form()
	case paneGroup:
		return a.group.Form()
	}
	return a.method.Form()
}

// TestClickMethodTab: with the last of several methods edited, a click on the first
// method's tab edits it.
func TestClickMethodTab(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "3", "a")
	if n := len(a.spec.Methods); n < 2 || a.method.Method() != n-1 {
		t.Fatalf("a added no method (editing %d of %d)", a.method.Method(), n)
	}
	name := a.spec.Methods[0].DisplayName()
	x, y, ok := find(a.View(), "1 "+name, a.lay.config)
	if !ok {
		t.Fatalf("no tab %q:\n%s", "1 "+name, ansi.Strip(a.View()))
	}
	click(a, x+1, y)
	if a.method.Method() != 0 {
		t.Fatalf("click on the first tab edits method %d", a.method.Method())
	}
}

// TestWheelScrollsLists: the wheel moves the preset picker's selection (stopping at the
// ends), scrolls the Curves pane's legend when the pointer is over it (focusing it),
// and moves a form's cursor.
func TestWheelScrollsLists(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "p")
	a.picker.cur = 0
	wheel(a, 60, 20, false)
	wheel(a, 60, 20, false)
	if n := len(a.pickerShown()); a.picker.cur != n-1 {
		t.Fatalf("two wheel steps down over %d presets: cursor %d", n, a.picker.cur)
	}
	wheel(a, 60, 20, true)
	if a.picker.cur != 0 {
		t.Fatalf("wheel up: cursor %d", a.picker.cur)
	}
	press(t, a, "esc")

	for k := 0; k < 8; k++ {
		var ps []eval.Point
		for _, x := range []float64{20, 100} {
			ps = append(ps, eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: x, Mean: 0.5 + 0.01*float64(k), Std: 0.01, Runs: 2})
		}
		r := curves.Run{Label: fmt.Sprintf("run %d", k)}
		m := curves.New(a.st)
		m.Add(ps...)
		r.Series = m.Current().Series
		a.curves.AddRun(r)
	}
	legend := func() string {
		_, y, ok := find(a.View(), "legend ", a.lay.curves)
		if !ok {
			t.Fatalf("the legend does not scroll:\n%s", ansi.Strip(a.View()))
		}
		l := []rune(strings.Split(ansi.Strip(a.View()), "\n")[y])
		return string(l[a.lay.curves.x:min(len(l), a.lay.curves.x+a.lay.curves.w)])
	}
	before := legend()
	c := a.lay.curves
	wheel(a, c.x+5, c.y+5, true)
	if a.focus != paneCurves {
		t.Fatalf("wheel over the curves focused %v", a.focus)
	}
	if after := legend(); after == before {
		t.Fatalf("wheel up left the legend at %q", before)
	}
	wheel(a, c.x+5, c.y+5, false)
	if after := legend(); after != before {
		t.Fatalf("wheel down did not scroll back: %q, was %q", after, before)
	}

	press(t, a, "1")
	f0, _ := a.data.Form().Selected()
	cfg := a.lay.config
	wheel(a, cfg.x+3, cfg.y+3, false)
	if f1, _ := a.data.Form().Selected(); f1.Key == f0.Key {
		t.Fatalf("wheel down over the data form left the cursor on %s", f0.Key)
	}
}

// TestNarrowHeaderKeepsTheRunName: at 80 columns the eight tabs and the preset
// "xperm-curve" fit once the tabs other than the focused one are abbreviated; with
// "running run 2 xperm-curve" the abbreviated tabs keep 21 columns for the run's name
// (cut with …), and a click on an abbreviated tab still focuses its pane. At 120
// columns every tab keeps its name.
func TestNarrowHeaderKeepsTheRunName(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.preset = "xperm-curve"
	if head := strings.Split(ansi.Strip(a.View()), "\n")[0]; !strings.HasPrefix(head, " 1 Data  2 Grp 3 Mth") || !strings.Contains(head, "8 Prv ") || !strings.HasSuffix(head, " xperm-curve") {
		t.Errorf("idle header %q", head)
	}
	a.r.running, a.r.label = true, "run 2 xperm-curve"
	head := strings.Split(ansi.Strip(a.View()), "\n")[0]
	if !strings.HasSuffix(head, " running run 2 xperm-curve") || !strings.Contains(head, "1 Data") || strings.Contains(head, "Curves") {
		t.Fatalf("header %q", head)
	}
	x := strings.Index(head, " 5 ") + 1 // the tabs are ASCII up to the status
	if x <= 0 {
		t.Fatalf("no tab 5 in %q", head)
	}
	click(a, x, 0)
	if a.focus != paneCurves {
		t.Fatalf("click on tab 5 at column %d focused %v", x, a.focus)
	}
	if head = strings.Split(ansi.Strip(a.View()), "\n")[0]; !strings.Contains(head, "5 Curves") || strings.Contains(head, "Data") {
		t.Errorf("header after the click %q", head)
	}
	a.r.running = false
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if head = strings.Split(ansi.Strip(a.View()), "\n")[0]; !strings.Contains(head, "1 Data  2 Group  3 Method  4 Run  5 Curves  6 Heatmap  7 Runs") {
		t.Errorf("header at 120 columns %q", head)
	}
}

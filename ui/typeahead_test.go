package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gitui/ui/internal/uitest"
)

// TestChoiceTypeAheadInPanes: in the workbench, enter on a choice field opens its list
// with type-ahead at 80×24 and 120×40: the data set becomes usps in four keys (enter,
// "us", enter: the keys typed go to the list, not to the workbench), esc leaves the value
// as it was (and cancels nothing), and the method pane's choice fields work alike.
func TestChoiceTypeAheadInPanes(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		a := newTestApp(t, sz[0], sz[1])
		a.setFocus(paneData)
		a.data.Form().Select("data.name")
		press(t, a, "enter", "us")
		v := ansi.Strip(a.View())
		uitest.CheckFits(t, v, sz[0], sz[1])
		if !strings.Contains(v, "▸ usps") || !strings.Contains(v, "usps-binary") || !strings.Contains(v, "2 of ") {
			t.Fatalf("%dx%d: the narrowed list is not drawn:\n%s", sz[0], sz[1], v)
		}
		if !strings.Contains(v, "enter choose") || !strings.Contains(v, "esc keep the value") {
			t.Errorf("%dx%d: the help does not say what enter and esc do:\n%s", sz[0], sz[1], v)
		}
		press(t, a, "enter")
		if a.spec.Data.Name != "usps" || a.data.Form().Choosing() {
			t.Fatalf("%dx%d: data set %q after enter us enter", sz[0], sz[1], a.spec.Data.Name)
		}
		press(t, a, "enter", "mnist", "esc")
		if a.spec.Data.Name != "usps" || a.data.Form().Choosing() || a.editing() {
			t.Fatalf("%dx%d: esc left data set %q (choosing %v)", sz[0], sz[1], a.spec.Data.Name, a.data.Form().Choosing())
		}
		// q and r typed into the list are letters, not quit or run.
		press(t, a, "enter", "qr")
		if a.r.running || !a.data.Form().Choosing() {
			t.Fatalf("%dx%d: q r typed into the list left it (running %v)", sz[0], sz[1], a.r.running)
		}
		press(t, a, "esc")

		a.setFocus(paneMethod)
		if !a.method.Form().Select("methods.0.features") {
			t.Fatal("no features field")
		}
		was := a.spec.Methods[0].Features
		press(t, a, "enter", "raw", "enter")
		if a.spec.Methods[0].Features != "raw" {
			t.Fatalf("%dx%d: features %q after enter raw enter (was %q)", sz[0], sz[1], a.spec.Methods[0].Features, was)
		}
	}
}

// TestHParamsInWorkbench: h in the Runs pane opens the HParams table of the runs read,
// the help lists its keys, and esc closes it (without asking to cancel anything).
func TestHParamsInWorkbench(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		a := newTestApp(t, sz[0], sz[1])
		a.opts.Store = helpStore(t)
		press(t, a, "7")
		press(t, a, "h")
		v := ansi.Strip(a.View())
		uitest.CheckFits(t, v, sz[0], sz[1])
		if !a.runs.HParamsOpen() || !strings.Contains(v, "hparams · ") || !strings.Contains(v, "series") {
			t.Fatalf("%dx%d: h did not open the HParams table:\n%s", sz[0], sz[1], v)
		}
		if !strings.Contains(v, "o sort column") {
			t.Errorf("%dx%d: the help lacks the table's keys:\n%s", sz[0], sz[1], v)
		}
		press(t, a, "esc")
		if a.runs.HParamsOpen() || a.confirm != confirmNone {
			t.Fatalf("%dx%d: esc did not close the table (confirm %v)", sz[0], sz[1], a.confirm)
		}
	}
}

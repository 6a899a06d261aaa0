package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/datapane"
	"gitui/ui/internal/uitest"
	"gitui/ui/previewpane"
)

// sgr matches the styling sequences the views write themselves (ESC [ params m).
var sgr = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// checkNoControl fails when view, once its own styling sequences are removed, holds a
// control byte other than the newline between lines, DEL, a C1 code or a
// bidirectional override: what a file's string could use to act on the terminal.
func checkNoControl(t *testing.T, where, evil, view string) {
	t.Helper()
	rest := sgr.ReplaceAllString(view, "")
	for i, r := range rest {
		bad := r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
		if bad {
			lo, hi := max(0, i-30), min(len(rest), i+30)
			t.Fatalf("%s shows %U from the string %q: %q", where, r, evil, rest[lo:hi])
		}
	}
}

// FuzzFileStringsNeverReachTheTerminal drives strings taken from files through the
// views that show them: a CSV's class labels and its file name in the Data pane, and
// the same labels in the Data preview pane, a result.json's preset, spec name,
// series name and error in the Runs pane, its HParams table and the Curves legend of
// the run it opens. Every view must show the string's control characters as visible escapes (printable.String), never write them. The seeds run
// with go test; go test -fuzz explores further.
func FuzzFileStringsNeverReachTheTerminal(f *testing.F) {
	for _, s := range []string{"\x1b]0;PWNED\x07\x1b[2J", "a\rb\tc", "\u009b31m", "rtl\u202egnp.exe", "\xff\xfeok", "bell\x07", "\x1bc"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, evil string) {
		if strings.ContainsAny(evil, ",\n\"") || strings.TrimSpace(evil) == "" || len(evil) > 64 {
			return // not one CSV field of a label
		}
		dir := t.TempDir()
		// The Data pane: a CSV whose label column holds evil.
		csv := filepath.Join(dir, "d.csv")
		rows := ""
		for i := range 12 {
			label := evil
			if i%2 == 1 {
				label = "other"
			}
			rows += fmt.Sprintf("%d,%d,%s\n", i, i*i, label)
		}
		if err := os.WriteFile(csv, []byte(rows), 0o644); err != nil {
			t.Fatal(err)
		}
		spec := &model.Spec{Data: model.DataSpec{Name: "file", Path: csv, TestSize: 2}}
		dp := datapane.New(uitest.Styles(), spec, dir)
		dp.SetSize(100, 30)
		pp := previewpane.New(uitest.Styles(), spec)
		pp.SetSize(100, 30)
		deliver := func(msg tea.Msg) {
			dp, _ = dp.Update(msg)
			if cmd := func() tea.Cmd { var c tea.Cmd; pp, c = pp.Update(msg); return c }(); cmd != nil {
				pp, _ = pp.Update(cmd()) // the group built for the orbit row
			}
		}
		if cmd := dp.Load(); cmd != nil {
			msg := cmd()
			if b, ok := msg.(tea.BatchMsg); ok {
				for _, c := range b {
					if c != nil {
						deliver(c())
					}
				}
			} else {
				deliver(msg)
			}
		}
		checkNoControl(t, "the Data pane", evil, dp.View())
		if v := pp.View(); !strings.Contains(v, "sample 1 of") {
			t.Fatalf("the Data preview pane shows no samples:\n%s", v)
		}
		checkNoControl(t, "the Data preview pane", evil, pp.View())
		pp, _ = pp.Update(tea.KeyMsg{Type: tea.KeyRight}) // the other class selected
		checkNoControl(t, "the Data preview pane, other class", evil, pp.View())

		// The Runs pane and the Curves legend: a result.json shared by a colleague.
		storeDir := filepath.Join(dir, "store")
		d := filepath.Join(storeDir, "20261126-010203-shared")
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		sp := tinySpec(true)
		raw, _ := json.Marshal(sp)
		var tree map[string]any
		json.Unmarshal(raw, &tree)
		tree["name"] = evil
		raw, _ = json.Marshal(tree)
		r := &model.Result{Schema: model.ResultSchema, Preset: evil, Spec: raw, Error: evil, Partial: true,
			Series: []model.Series{{Name: evil, XLabel: evil, YLabel: "accuracy", Points: []model.Point{{X: 20, Mean: 0.6, Runs: 2}, {X: 100, Mean: 0.8, Runs: 2}}}}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
		a := newTestApp(t, 120, 40)
		a.opts.Store = storeDir
		press(t, a, "7")
		checkNoControl(t, "the Runs pane", evil, a.View())
		press(t, a, "h")
		if v := a.View(); !strings.Contains(v, "hparams ·") {
			t.Fatalf("h in the Runs pane shows no HParams table:\n%s", v)
		}
		checkNoControl(t, "the Runs pane's HParams table", evil, a.View())
		press(t, a, "h")
		press(t, a, "enter")
		checkNoControl(t, "the Curves pane of the opened run", evil, a.View())
	})
}

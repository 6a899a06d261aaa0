package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
)

// storeWithRuns writes n finished tiny runs (λ = 0.01, 0.1, 1, ...) into a fresh run
// store and returns its directory.
func storeWithRuns(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	lambda := 0.01
	for i := 0; i < n; i++ {
		s := tinySpec(true)
		s.Methods[0].Lambda = lambda
		lambda *= 10
		raw, _ := json.Marshal(s)
		d := filepath.Join(dir, fmt.Sprintf("20261126-0%d0000-xperm-tiny", i+1))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", YLabel: "accuracy",
			Points: []model.Point{{X: 100, Mean: 0.7 + 0.1*float64(i), Std: 0.01, Runs: 2}}}}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// countingStart returns an engine that counts the runs started and finishes each at once.
func countingStart(n *int) starter {
	return func(ctx context.Context, spec *model.Spec, o engine.RunOptions) <-chan eval.Event {
		*n++
		ch := make(chan eval.Event, 1)
		ch <- eval.Done{}
		close(ch)
		return ch
	}
}

// TestRunsPaneKeysNeverRun: typing in the Runs pane, a pane that takes no
// text but through its filter and its name prompt, never starts a run through the
// global r: not as a stray key in the table, not after a filter typed and applied, not in
// the compare, groups or parallel-coordinates views, not as part of a batch of runes.
// r there re-reads the runs and says where r runs the spec.
func TestRunsPaneKeysNeverRun(t *testing.T) {
	a := newTestApp(t, 120, 40)
	started := 0
	a.start = countingStart(&started)
	a.opts.Store = storeWithRuns(t, 3)
	press(t, a, "7")
	if a.runs.Total() != 3 {
		t.Fatalf("the Runs pane lists %d runs, want 3", a.runs.Total())
	}
	steps := [][]string{
		{"r"},                         // a stray r in the table
		{"rbf"},                       // typed as a word (one batch of runes)
		{"/", "r", "b", "f", "enter"}, // a filter typed and applied
		{"r"},                         // then r again, as if still filtering
		{"esc", " ", " ", "c", "r"},   // the compare view
		{"esc", "g", "r", "G"},        // the groups view
		{"p", "r", "esc"},             // the parallel coordinates
	}
	for _, s := range steps {
		press(t, a, s...)
		if started != 0 || a.r.running || a.confirm != confirmNone {
			t.Fatalf("after %q in the Runs pane: %d runs started (confirm %v)", s, started, a.confirm)
		}
	}
	if !strings.Contains(a.status, "r runs the spec") {
		t.Errorf("status after r in the Runs pane %q: want where r runs the spec", a.status)
	}
	// Elsewhere r still runs.
	press(t, a, "3", "r")
	if started != 1 {
		t.Fatalf("r in the Method pane started %d runs, want 1", started)
	}
}

// TestPaneKeysBeforeGlobal: every key that the focused pane binds (in any
// state, enabled or not) goes to the pane, never to the workbench's global action of
// the same key; keys the pane does not bind keep their global meaning.
func TestPaneKeysBeforeGlobal(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.opts.Store = storeWithRuns(t, 3)
	for p := paneData; p < numPanes; p++ {
		exec(t, a, a.focusTo(p))
		var bs []key.Binding
		for _, col := range a.focused().FullHelp() {
			bs = append(bs, col...)
		}
		bs = append(bs, a.focused().ShortHelp()...)
		for _, b := range bs {
			for _, k := range b.Keys() {
				if p == paneMethod && k == "D" {
					continue // delete asks first: the workbench's y/n prompt, then the pane
				}
				if !a.paneTakes(keyOf(k)) {
					t.Errorf("%s: the pane binds %q (%s) but the workbench takes it first", p, k, b.Help().Desc)
				}
			}
		}
	}
	exec(t, a, a.focusTo(paneCurves))
	for _, k := range []string{"r", "q", "?", "tab", "1"} {
		if a.paneTakes(keyOf(k)) {
			t.Errorf("curves: %q went to the pane, not the workbench", k)
		}
	}
}

// keyOf is the key message whose String() is k.
func keyOf(k string) tea.KeyMsg {
	for t, name := range map[tea.KeyType]string{tea.KeyEnter: "enter", tea.KeyEsc: "esc", tea.KeyTab: "tab", tea.KeyShiftTab: "shift+tab",
		tea.KeyUp: "up", tea.KeyDown: "down", tea.KeyLeft: "left", tea.KeyRight: "right", tea.KeyPgUp: "pgup", tea.KeyPgDown: "pgdown",
		tea.KeyBackspace: "backspace", tea.KeyCtrlU: "ctrl+u", tea.KeyCtrlW: "ctrl+w", tea.KeyCtrlH: "ctrl+h", tea.KeySpace: " ",
		tea.KeyShiftUp: "shift+up", tea.KeyShiftDown: "shift+down", tea.KeyHome: "home", tea.KeyEnd: "end", tea.KeyCtrlZ: "ctrl+z", tea.KeyCtrlC: "ctrl+c"} {
		if name == k {
			if t == tea.KeySpace {
				return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
			}
			return tea.KeyMsg{Type: t}
		}
	}
	if strings.HasPrefix(k, "alt+") {
		m := keyOf(strings.TrimPrefix(k, "alt+"))
		m.Alt = true
		return m
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestPromptSaysAnswerFirst: while a y/n question is up, a key that answers
// nothing says "answer y or n first" in the status line, leaves the question up and does
// nothing else; the long-run question says its own answers. Answering clears the note.
func TestPromptSaysAnswerFirst(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "3", "D")
	if a.confirm != confirmDelete {
		t.Fatal("D did not ask")
	}
	before, _ := a.method.Form().Selected()
	press(t, a, "j")
	if after, _ := a.method.Form().Selected(); a.confirm != confirmDelete || after.Key != before.Key || len(a.spec.Methods) != 2 {
		t.Fatalf("j during the question: confirm %v, field %s→%s, %d methods", a.confirm, before.Key, after.Key, len(a.spec.Methods))
	}
	if !strings.Contains(a.status, "answer y or n first") || !strings.Contains(ansi.Strip(a.View()), "answer y or n first") {
		t.Fatalf("status %q: want \"answer y or n first\" on screen", a.status)
	}
	press(t, a, "n")
	if a.confirm != confirmNone || strings.Contains(a.status, "first") {
		t.Fatalf("n: confirm %v, status %q", a.confirm, a.status)
	}
	// The long-run question (TestLongRunAsks) answers r or esc.
	started := 0
	a.start = countingStart(&started)
	a.opts.AskAbove = time.Nanosecond
	press(t, a, "r", "j")
	if a.confirm != confirmLong || started != 0 || !strings.Contains(a.status, "answer r (start) or esc (edit) first") {
		t.Fatalf("j during the long-run question: confirm %v, started %d, status %q", a.confirm, started, a.status)
	}
	press(t, a, "r")
	if started != 1 || strings.Contains(a.status, "first") {
		t.Fatalf("r: started %d, status %q", started, a.status)
	}
}

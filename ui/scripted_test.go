package ui

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"

	"gitui/ui/internal/uitest"
)

// screen accumulates everything the program writes, so that several conditions can be
// waited for on the same output (teatest.WaitFor consumes what it reads).
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func watch(r io.Reader) *screen {
	s := &screen{}
	go func() {
		b := make([]byte, 32<<10)
		for {
			n, err := r.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			s.mu.Unlock()
			if err != nil && err != io.EOF {
				return
			}
			if n == 0 {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}()
	return s
}

// mark returns the current length of the output.
func (s *screen) mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Len()
}

// contains reports whether the output written after mark contains want.
func (s *screen) contains(mark int, want string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return bytes.Contains(s.buf.Bytes()[mark:], []byte(want))
}

// runKeyHelp is the start of the help line when r is enabled (the run pane's "r runs"
// does not match it).
const runKeyHelp = "tab next pane • r run • "

// waitFor waits until the output written after mark contains want, and returns the
// position just after its first occurrence.
func (s *screen) waitFor(t *testing.T, mark int, want string, d time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		i := bytes.Index(s.buf.Bytes()[mark:], []byte(want))
		s.mu.Unlock()
		if i >= 0 {
			return mark + i + len(want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	tail := s.buf.Bytes()[mark:]
	if len(tail) > 4000 {
		tail = tail[len(tail)-4000:]
	}
	t.Fatalf("no %q on screen after %v; last output:\n%s", want, d, ansi.Strip(string(tail)))
	return 0
}

// TestScriptedQuickRun drives a whole quick run with the real engine by key presses:
// p (picker) enter (load xperm-tiny), wait for its data, r (run), wait for the end and the Gram
// matrices, then checks that the curves hold the final points of every series and
// that the heatmap shows class-sorted matrices.
func TestScriptedQuickRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine for a few seconds")
	}
	a := New(context.Background(), Options{Presets: testPresets(), OutDir: t.TempDir()}, uitest.Styles())
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(120, 40))
	scr := watch(tm.Output())
	keys := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	m := scr.mark()
	keys("p")
	scr.waitFor(t, m, "f toggles quick/full", 10*time.Second)
	m = scr.mark()
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	// Loading the preset reloads the data preview, and r is refused until it is in.
	// What is on screen from before (the data summary, the orbit) says nothing about
	// the new load, but the help does: the frame that says "loaded preset" lists no
	// r (the load is in flight), and r comes back in the first frame drawn after the
	// new data is in. So wait for "r run" after "loaded preset".
	m = scr.waitFor(t, m, "loaded preset xperm-tiny", 10*time.Second)
	scr.waitFor(t, m, runKeyHelp, 30*time.Second)
	m = scr.mark()
	keys("r")
	scr.waitFor(t, m, "✓ done:", 90*time.Second)
	scr.waitFor(t, m, "λmin", 90*time.Second)
	keys("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*App)

	spec := tinySpec(true)
	cur := fm.curves.Current()
	if fm.r.err != nil || fm.r.outcome == nil {
		t.Fatalf("run ended with %v", fm.r.err)
	}
	if len(cur.Series) != len(spec.Methods) {
		t.Fatalf("%d series on the curves, want %d", len(cur.Series), len(spec.Methods))
	}
	for _, s := range fm.r.outcome.Series {
		if len(s.Points) != len(spec.Sizes) {
			t.Errorf("series %s has %d points, want one per size %v", s.Name, len(s.Points), spec.Sizes)
		}
		for _, p := range s.Points {
			got, ok := cur.Point(s.Name, p.X)
			if !ok || got != p || p.Runs != spec.Repeats || p.Mean < 0 || p.Mean > 1 {
				t.Errorf("series %s at x=%g: pane has %+v (%v), outcome %+v", s.Name, p.X, got, ok, p)
			}
		}
	}
	cv := ansi.Strip(fm.curves.View())
	for _, s := range cur.Series {
		if !strings.Contains(cv, s.Name+"  x=100 ") {
			t.Errorf("curves legend lacks the final point of %s:\n%s", s.Name, cv)
		}
	}
	mats := fm.heat.Matrices()
	if len(mats) != 2 {
		t.Fatalf("heatmap holds %d matrices, want base and invariant", len(mats))
	}
	for _, m := range mats {
		if m.N < 10 || !sort.IntsAreSorted(m.Labels) || m.Labels[0] == m.Labels[m.N-1] {
			t.Errorf("matrix %s (n=%d) is not sorted by class over several classes", m.Name, m.N)
		}
	}
	hv := ansi.Strip(fm.heat.View())
	t.Logf("final curves pane:\n%s\nheatmap pane:\n%s", cv, hv)
	if !strings.Contains(hv, mats[0].Name) || !strings.Contains(hv, mats[1].Name) || !strings.Contains(hv, "λmin") {
		t.Errorf("heatmap view lacks the matrices:\n%s", hv)
	}
}

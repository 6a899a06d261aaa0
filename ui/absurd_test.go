package ui

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// syncBuffer is a bytes.Buffer safe for the program's writer and the test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestAbsurdValuesRefusedInTUI types an absurd CDF(1000, 100000) (49 TB of
// features) into the method pane of the real engine and presses r: the memory
// estimate refuses the run before anything is allocated, the refusal is shown, nothing
// goes into the run store, and the workbench stays usable; quitting the program then
// leaves the alternate screen and shows the cursor again (the terminal is restored).
func TestAbsurdValuesRefusedInTUI(t *testing.T) {
	store := tempStore(t)
	a := storeApp(t, store)
	a.setFocus(paneMethod)
	typeInto := func(field, text string) { t.Helper(); typeField(t, a, field, text) }
	typeInto("methods.0.bins", "1000")
	typeInto("methods.0.templates", "100000")
	if m := a.spec.Methods[0]; m.Bins != 1000 || m.Templates != 100000 {
		t.Fatalf("spec holds bins %d templates %d", m.Bins, m.Templates)
	}
	if !a.keys.Run.Enabled() {
		t.Fatalf("run disabled: these values are within the fields' ranges (%v)", a.issues)
	}
	press(t, a, "r") // its time estimate asks first
	if a.confirm != confirmLong || !strings.Contains(ansi.Strip(a.View()), "r again to start") {
		t.Fatalf("r on CDF(1000, 100000) did not ask about its time (confirm %v)", a.confirm)
	}
	press(t, a, "r") // the real engine: exec pumps the run to its end
	if a.r.running || a.r.err == nil || !strings.Contains(a.r.err.Error(), "memory") {
		t.Fatalf("run running=%v err=%v, want a memory refusal", a.r.running, a.r.err)
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "memory") || !strings.Contains(v, "TiB") {
		t.Errorf("the refusal is not shown:\n%s", v)
	}
	if dirs := runDirs(t, store); len(dirs) != 0 {
		t.Errorf("a refused run left %v in the store", dirs)
	}

	// The same workbench under a real program: r is refused again, q quits, and the
	// terminal is handed back (alternate screen off, cursor on).
	inR, inW := io.Pipe()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- runProgram(context.Background(), a, inR, out, io.Discard) }()
	go func() {
		inW.Write([]byte("r"))
		time.Sleep(500 * time.Millisecond)
		inW.Write([]byte("q"))
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("program ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the program did not quit")
	}
	s := out.String()
	if !strings.Contains(ansi.Strip(s), "memory") {
		t.Error("the program never drew the refusal")
	}
	tail := s[strings.LastIndex(s, "TiB"):]
	for _, seq := range []string{"\x1b[?1049l", "\x1b[?25h"} {
		if !strings.Contains(tail, seq) {
			t.Errorf("after the refusal the program did not write %q on quitting: the terminal is left as it was", seq)
		}
	}
}

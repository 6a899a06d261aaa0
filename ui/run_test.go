package ui

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/internal/uitest"
)

func TestRunNeedsTerminal(t *testing.T) {
	t.Setenv("TERM", "dumb")
	if err := Run(context.Background(), Options{}); !errors.Is(err, ErrNotTerminal) || !strings.Contains(err.Error(), "gitui run PRESET") {
		t.Fatalf("Run under TERM=dumb: %v", err)
	}
}

// TestPanicSavesPartialResult makes a pane panic in the middle of a run (a matrix of
// the wrong shape reaches the heatmap) and checks that the program returns an error
// wrapping tea.ErrProgramPanic that names a result.json holding the points so far.
func TestPanicSavesPartialResult(t *testing.T) {
	out := t.TempDir()
	a := New(context.Background(), Options{Presets: testPresets(), OutDir: out}, uitest.Styles())
	a.start = func(ctx context.Context, _ *model.Spec, _ engine.RunOptions) <-chan eval.Event {
		ch := make(chan eval.Event, 4)
		go func() {
			defer close(ch)
			ch <- eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: 20, Mean: 0.6, Std: 0.1, Runs: 2}
			time.Sleep(100 * time.Millisecond) // a separate batch
			ch <- eval.Matrix{Name: "broken", N: 3, Data: make([]float64, 2)}
			<-ctx.Done()
		}()
		return ch
	}
	inR, inW := io.Pipe()
	defer inW.Close()
	done := make(chan error, 1)
	go func() { done <- runProgram(context.Background(), a, inR, io.Discard, io.Discard) }()
	// r is refused while the data preview loads: press it until the run starts (a
	// later r only asks whether to restart).
	var err error
	deadline := time.After(30 * time.Second)
wait:
	for {
		select {
		case err = <-done:
			break wait
		case <-deadline:
			t.Fatal("program did not stop after the panic")
		case <-time.After(300 * time.Millisecond):
			go inW.Write([]byte("r"))
		}
	}
	if !errors.Is(err, tea.ErrProgramPanic) || !strings.Contains(err.Error(), "result.json") {
		t.Fatalf("err = %v", err)
	}
	path := err.Error()[strings.LastIndex(err.Error(), " ")+1:]
	r, rerr := model.ReadResult(path)
	if rerr != nil {
		t.Fatalf("read %s: %v", path, rerr)
	}
	if !r.Partial || len(r.Series) != 1 || len(r.Series[0].Points) != 1 || r.Series[0].Points[0].Mean != 0.6 {
		t.Fatalf("partial result %+v", r)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

package ui

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// gatedEngine is a fake engine that journals one cell into the run directory, reports
// it, and then waits: for release (it then finishes: Done without error) or for its
// context to end (Done with the context's error). started is closed when it starts and
// cancelled when its context ends.
type gatedEngine struct {
	started, release, cancelled chan struct{}
}

func newGatedEngine() *gatedEngine {
	return &gatedEngine{started: make(chan struct{}), release: make(chan struct{}), cancelled: make(chan struct{})}
}

func (g *gatedEngine) start(ctx context.Context, _ *model.Spec, o engine.RunOptions) <-chan eval.Event {
	ch := make(chan eval.Event, 8)
	go func() {
		defer close(ch)
		c := eval.Cell{CellKey: eval.CellKey{Stage: "cells", Series: "raw RLS", X: 20, Rep: 0}, Size: 20, Acc: 0.5, BAcc: 0.5}
		if o.Dir != nil {
			if err := o.Dir.Append(c); err != nil {
				ch <- eval.Done{Err: err}
				return
			}
		}
		out := &eval.Outcome{Series: []eval.Series{{Name: "raw RLS", XLabel: "training set size", YLabel: "accuracy",
			Points: []eval.SeriesPoint{{X: 20, Mean: 0.5, Runs: 1}}}}}
		ch <- eval.Point{Series: "raw RLS", XLabel: "training set size", YLabel: "accuracy", X: 20, Mean: 0.5, Runs: 1}
		close(g.started)
		select {
		case <-g.release:
			ch <- eval.Done{Outcome: out}
		case <-ctx.Done():
			close(g.cancelled)
			ch <- eval.Done{Outcome: out, Err: ctx.Err()}
		}
	}()
	return ch
}

// startProgram runs app under runProgram on a pipe and presses r until the engine
// started (r is refused while the data preview loads). It returns the terminal's input
// and the channel of runProgram's result.
func startProgram(t *testing.T, ctx context.Context, a *App, g *gatedEngine) (*io.PipeWriter, chan error) {
	t.Helper()
	inR, inW := io.Pipe()
	t.Cleanup(func() { inW.Close() })
	done := make(chan error, 1)
	go func() { done <- runProgram(ctx, a, inR, io.Discard, io.Discard) }()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case <-g.started:
			return inW, done
		case err := <-done:
			t.Fatalf("program ended before the run started: %v", err)
		case <-deadline:
			t.Fatal("the run did not start")
		case <-time.After(200 * time.Millisecond):
			go inW.Write([]byte("r"))
		}
	}
}

// storedResult returns the one run directory of store and its result.
func storedResult(t *testing.T, storeDir string) (string, *model.Result) {
	t.Helper()
	dirs := runDirs(t, storeDir)
	if len(dirs) != 1 {
		t.Fatalf("store holds %v, want one run", dirs)
	}
	r, err := model.ReadResult(filepath.Join(dirs[0], store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	return dirs[0], r
}

// TestHangupLetsTheRunFinish sends SIGHUP (on Options.Hangup) to a workbench in the
// middle of a run and checks that the program lets go of the terminal but does not
// cancel the run nor return before it ended; that it then returns ErrHangup (exit 129
// in cmd/gitui), a second SIGHUP changing nothing; and that the store holds the
// complete result, its journal and a log.txt that says the terminal was closed.
func TestHangupLetsTheRunFinish(t *testing.T) {
	storeDir := tempStore(t)
	hup := make(chan os.Signal, 2)
	a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir, Hangup: hup}, uitest.Styles())
	g := newGatedEngine()
	a.start = g.start
	_, done := startProgram(t, context.Background(), a, g)
	hup <- syscall.SIGHUP
	hup <- syscall.SIGHUP
	select {
	case err := <-done:
		t.Fatalf("the program returned (%v) while its run was going", err)
	case <-g.cancelled:
		t.Fatal("SIGHUP cancelled the run")
	case <-time.After(500 * time.Millisecond):
	}
	close(g.release)
	select {
	case err := <-done:
		if !errors.Is(err, ErrHangup) {
			t.Fatalf("err = %v, want ErrHangup", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program did not end after its run")
	}
	dir, r := storedResult(t, storeDir)
	if r.Partial || len(journal(t, dir)) != 1 {
		t.Fatalf("partial=%v, journal %d cells: want the complete run", r.Partial, len(journal(t, dir)))
	}
	b, _ := os.ReadFile(filepath.Join(dir, LogFile))
	if !strings.Contains(string(b), "the terminal was closed (SIGHUP)") || !strings.Contains(string(b), "saved in "+dir+" (done") {
		t.Errorf("log.txt:\n%s", b)
	}
}

// TestInterruptKeepsCells interrupts a run with ctrl+c (the key) and with a cancelled
// context (SIGINT, SIGTERM in cmd/gitui) and checks that the run is cancelled, that
// the program returns ErrInterrupted (exit 130) only after the store holds the
// journaled cell and a partial result.
func TestInterruptKeepsCells(t *testing.T) {
	for _, how := range []string{"ctrl+c", "context"} {
		t.Run(how, func(t *testing.T) {
			storeDir := tempStore(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			a := New(ctx, Options{Presets: testPresets(), Store: storeDir}, uitest.Styles())
			g := newGatedEngine()
			a.start = g.start
			in, done := startProgram(t, ctx, a, g)
			if how == "ctrl+c" {
				go in.Write([]byte{0x03})
			} else {
				cancel()
			}
			select {
			case err := <-done:
				if !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want ErrInterrupted", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the program did not end")
			}
			select {
			case <-g.cancelled:
			default:
				t.Fatal("the run was not cancelled")
			}
			dir, r := storedResult(t, storeDir)
			if !r.Partial || len(journal(t, dir)) != 1 || len(r.Series) != 1 {
				t.Fatalf("partial=%v, %d series, journal %d cells: want the finished cell kept", r.Partial, len(r.Series), len(journal(t, dir)))
			}
		})
	}
}

// TestTerminalEOFIsAHangup checks a lost terminal without a SIGHUP (tmux
// kill-server under `trap : HUP`): EOF on the terminal's input lets go of it like a
// SIGHUP, without cancelling the run; the program returns ErrHangup (exit 129) once the
// run is finished into the store, whose log says why.
func TestTerminalEOFIsAHangup(t *testing.T) {
	storeDir := tempStore(t)
	a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir}, uitest.Styles())
	g := newGatedEngine()
	a.start = g.start
	inR, inW, err := os.Pipe() // an *os.File, as the terminal is
	if err != nil {
		t.Fatal(err)
	}
	defer inR.Close()
	done := make(chan error, 1)
	go func() { done <- runProgram(context.Background(), a, inR, io.Discard, io.Discard) }()
	deadline := time.After(30 * time.Second)
wait:
	for {
		select {
		case <-g.started:
			break wait
		case err := <-done:
			t.Fatalf("program ended before the run started: %v", err)
		case <-deadline:
			t.Fatal("the run did not start")
		case <-time.After(200 * time.Millisecond):
			inW.Write([]byte("r"))
		}
	}
	inW.Close() // EOF: the terminal is gone
	select {
	case err := <-done:
		t.Fatalf("the program returned (%v) while its run was going", err)
	case <-g.cancelled:
		t.Fatal("EOF cancelled the run")
	case <-time.After(500 * time.Millisecond):
	}
	close(g.release)
	select {
	case err := <-done:
		if !errors.Is(err, ErrHangup) {
			t.Fatalf("err = %v, want ErrHangup", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the program never ended after EOF on its terminal")
	}
	dir, r := storedResult(t, storeDir)
	if r.Partial {
		t.Fatal("the run was not finished")
	}
	b, _ := os.ReadFile(filepath.Join(dir, LogFile))
	if !strings.Contains(string(b), "the terminal was closed (reading it gave EOF)") {
		t.Errorf("log.txt:\n%s", b)
	}
}

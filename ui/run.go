package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"golang.org/x/term"

	"gitui/core/eval"
	"gitui/model/store"
	"gitui/ui/theme"
)

// ErrNotTerminal is returned by Run when stdout is not a terminal or TERM is dumb.
var ErrNotTerminal = errors.New("not a terminal: use `gitui run PRESET` (or a terminal with TERM set)")

// ErrInterrupted is returned by Run after ctrl+c, or when its context was cancelled
// (SIGINT, SIGTERM): the run going then was cancelled and its finished cells saved
// into the store (a partial result) before Run returned. It wraps context.Canceled.
var ErrInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)

// ErrHangup is returned by Run after SIGHUP on Options.Hangup, or EOF or EIO reading the
// terminal (the terminal or SSH connection was closed): the run going then was not cancelled but finished into the
// store before Run returned. cmd/gitui exits 129 on it.
var ErrHangup = errors.New("hung up (SIGHUP): the terminal was closed; the run was finished into the run store")

// Run opens the workbench on the terminal and returns when the user quits. Every run is
// saved into opts.Store (store.StoreDir() when empty). It returns ErrNotTerminal when
// stdout is not a terminal or TERM=dumb; ErrInterrupted after ctrl+c or when ctx ends;
// ErrHangup after a SIGHUP on opts.Hangup; and, after a panic anywhere in the UI, an
// error wrapping tea.ErrProgramPanic that names where the result so far was saved (the
// terminal is restored first). In every case a run in flight has been written to the
// store when Run returns, and a line on stderr says where. The colour profile and
// background are probed once, before the program owns the terminal; NO_COLOR turns
// colours off. GITUI_MOUSE=1 turns mouse capture on (Options.Mouse).
func Run(ctx context.Context, opts Options) error {
	if os.Getenv("TERM") == "dumb" || !term.IsTerminal(int(os.Stdout.Fd())) {
		return ErrNotTerminal
	}
	if os.Getenv("GITUI_MOUSE") == "1" {
		opts.Mouse = true
	}
	var storeErr error
	if opts.Store == "" {
		opts.Store, storeErr = store.StoreDir()
	}
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetHasDarkBackground(lipgloss.HasDarkBackground())
	app := New(ctx, opts, theme.NewStyles(r, theme.Default()))
	if storeErr != nil {
		app.run.Logf(time.Now(), "runs are not saved: %v; s exports them", storeErr)
	}
	return runProgram(ctx, app, os.Stdin, os.Stdout, os.Stderr)
}

// runProgram runs app on in/out with the workbench's program options, then sees its
// runs into the store: cancelled after ctrl+c, q, a cancelled ctx or a panic; left
// to finish after a hang-up (SIGHUP on app.opts.Hangup, or the terminal failing under
// the program), when the program has already let go of the terminal. Bubble Tea's own
// SIGINT/SIGTERM handler is off: the caller's ctx carries those signals.
func runProgram(ctx context.Context, app *App, in io.Reader, out io.Writer, errw io.Writer) error {
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithAltScreen(), tea.WithFPS(60), // charts redraw at most every frameEvery; keys show at once
		tea.WithoutSignalHandler()}
	if app.opts.Mouse {
		popts = append(popts, tea.WithMouseCellMotion())
	}
	var p *tea.Program
	var hupped, lost atomic.Bool
	var lostErr atomic.Value
	if f, ok := in.(*os.File); ok {
		// EOF or EIO on the terminal is a hang-up that no SIGHUP announced (the pty was
		// deleted under a shell that traps HUP): Bubble Tea would read nothing forever.
		in = &hangupInput{File: f, lost: func(err error) {
			if lost.CompareAndSwap(false, true) {
				lostErr.Store(err)
				go p.Kill()
			}
		}}
		popts[1] = tea.WithInput(in)
	}
	p = tea.NewProgram(app, popts...)
	stop := make(chan struct{})
	defer close(stop)
	if app.opts.Hangup != nil {
		go func() {
			select {
			case <-app.opts.Hangup:
				hupped.Store(true)
				p.Kill() // restores the terminal as far as it can; write errors are ignored
			case <-stop:
			}
		}()
	}
	_, err := p.Run()
	switch {
	case errors.Is(err, tea.ErrProgramPanic):
		app.cancelRun()
		if dir := app.wait(); dir != "" {
			return fmt.Errorf("%w: the result so far was saved to %s", err, dir)
		}
		path, serr := savePartial(app.opts.OutDir, app.partial, time.Now())
		if serr != nil {
			return fmt.Errorf("%w (no partial result saved: %v)", err, serr)
		}
		return fmt.Errorf("%w: the result so far was saved to %s", err, path)
	case ctx.Err() != nil || errors.Is(err, tea.ErrInterrupted):
		app.cancelRun()
		app.wait()
		app.report(errw)
		return ErrInterrupted
	case hupped.Load() || lost.Load() || err != nil:
		// The terminal is gone (SIGHUP, EOF or EIO reading it, or another failure):
		// the program has let go of it; the run goes on without it.
		var eof error
		if lost.Load() {
			eof = lostErr.Load().(error)
		}
		return app.detached(ctx, errw, err, &hupped, eof)
	}
	app.cancelRun() // q asks before quitting a run; y cancels it
	app.wait()
	app.report(errw)
	return nil
}

// detached lets the run in flight finish into the store after the terminal was lost,
// then returns ErrHangup after a SIGHUP or when reading the terminal gave lost (EOF or
// EIO: a hang-up without the signal); ErrInterrupted if ctx was cancelled meanwhile by
// SIGINT or SIGTERM, which cancels the run too; else the terminal's error.
// Messages go to errw and to the run's log.txt; write errors are ignored.
func (a *App) detached(ctx context.Context, errw io.Writer, termErr error, hupped *atomic.Bool, lost error) error {
	signal.Ignore(syscall.SIGPIPE) // stderr may be a pipe whose reader went with the terminal
	now := time.Now()
	if j := a.r.job; a.r.running && j != nil {
		where := "it is not saved (no run store)"
		if dir := j.Dir(); dir != "" {
			where = "into " + dir + " (its log: " + dir + "/" + LogFile + ")"
		}
		fmt.Fprintf(errw, "gitui: the terminal was closed: %s goes on without it %s\n", a.r.label, where)
		why := "SIGHUP"
		if lost != nil {
			why = fmt.Sprintf("reading it gave %v", lost)
		} else if !hupped.Load() {
			why = fmt.Sprintf("reading it failed: %v", termErr)
		}
		j.logLine(now, fmt.Sprintf("the terminal was closed (%s): the run goes on without it; process %d exits when it is saved", why, os.Getpid()))
	}
	a.wait()
	a.report(errw)
	switch {
	case ctx.Err() != nil:
		return ErrInterrupted
	case hupped.Load() || lost != nil:
		return ErrHangup
	}
	return fmt.Errorf("the terminal failed (%w); the run was finished and saved", termErr)
}

// wait drains the events of every run of the session (so no job is blocked on a
// workbench that stopped reading) and waits until each has written its result. It
// returns the directory of the current run ("" when none or not saved). Call it only
// after the program stopped.
func (a *App) wait() string {
	for _, j := range a.jobs {
		go func(ch <-chan []eval.Event) {
			for range ch {
			}
		}(j.batches)
	}
	for _, j := range a.jobs {
		<-j.done
	}
	a.stopStudy() // cancelled: its scored jobs are in its journal (gitui resume continues it)
	if a.r.job == nil {
		return ""
	}
	return a.r.job.saved.dir
}

// report writes where the session's last run went, one line on errw (after wait).
func (a *App) report(errw io.Writer) {
	if j := a.r.job; j != nil && j.saved.note != "" {
		fmt.Fprintf(errw, "gitui: %s: %s\n", j.label, j.saved.note)
	}
}

// hangupInput is the terminal as Bubble Tea reads it, with EOF and EIO reported to lost
// (once per error; the error is still returned): both mean the terminal is gone. It
// embeds the *os.File so the program still sees a terminal (Fd: raw mode, cancellable
// reads).
type hangupInput struct {
	*os.File
	lost func(error)
}

// Read reads the terminal; on EOF or EIO it calls lost before returning the error.
func (h *hangupInput) Read(b []byte) (int, error) {
	n, err := h.File.Read(b)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO)) {
		h.lost(err)
	}
	return n, err
}

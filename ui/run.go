package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"golang.org/x/term"

	"gitui/ui/theme"
)

// ErrNotTerminal is returned by Run when stdout is not a terminal or TERM is dumb.
var ErrNotTerminal = errors.New("not a terminal: use `gitui run PRESET` (or a terminal with TERM set)")

// Run opens the workbench on the terminal and returns when the user quits. It returns
// ErrNotTerminal when stdout is not a terminal or TERM=dumb; context.Canceled-wrapping
// errors when ctx ends; and, after a panic anywhere in the UI, an error wrapping
// tea.ErrProgramPanic that names where the result so far was saved (the terminal is
// restored first). The colour profile and background are probed once, before the
// program owns the terminal; NO_COLOR turns colours off.
func Run(ctx context.Context, opts Options) error {
	if os.Getenv("TERM") == "dumb" || !term.IsTerminal(int(os.Stdout.Fd())) {
		return ErrNotTerminal
	}
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetHasDarkBackground(lipgloss.HasDarkBackground())
	app := New(ctx, opts, theme.NewStyles(r, theme.Default()))
	return runProgram(ctx, app, os.Stdin, os.Stdout)
}

// runProgram runs app on in/out with the workbench's program options.
func runProgram(ctx context.Context, app *App, in io.Reader, out io.Writer) error {
	p := tea.NewProgram(app, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out),
		tea.WithAltScreen(), tea.WithFPS(60)) // charts redraw at most every frameEvery; keys show at once
	_, err := p.Run()
	app.cancelRun()
	if errors.Is(err, tea.ErrProgramPanic) {
		path, serr := savePartial(app.opts.OutDir, app.partial, time.Now())
		if serr != nil {
			return fmt.Errorf("%w (no partial result saved: %v)", err, serr)
		}
		return fmt.Errorf("%w: the result so far was saved to %s", err, path)
	}
	return err
}

// Command gitui is a terminal workbench for learning with group-invariant features and
// kernels: with no arguments it opens the TUI; its sub-commands run the same engine headless.
//
//	gitui                                  the TUI, on the embedded default data
//	gitui run PRESET|SPEC [--quick] [--out DIR] [--data DIR] [--seed N] [--set key=value]...
//	gitui presets [-v]                     name and one line for each preset (-v: the spec)
//	gitui data list | fetch NAME           what data is available and where; download with SHA-256 checks
//	gitui bench [NAME...] [--n N] [--test T] [--gram FILE] [--data DIR] [--json]
//	gitui resume DIR                       finish an interrupted run from its journal
//	gitui merge OUT [SHARD_DIR...]         combine sharded runs (run --shard i/N) into OUT/result.json
//	gitui slurm SPEC --out DIR [--tasks N] [--submit] ...   a Slurm job array over shards, then a merge
//	gitui export RESULT.json... [--png F] [--svg F] [--pdf F] [--csv F|-]
//	gitui completion bash|zsh|fish         shell completion (gitui __complete does the work)
//	gitui version                          module version and VCS commit
//	gitui help [CMD] | gitui CMD --help    that command's usage and flags, exit 0
//
// Commands are registered in a table (help.go: register) that drives dispatch, help
// and completion.
//
// Exit status: 0 done; 2 bad usage or bad input (one line on stderr, no result written);
// 1 a failure while running (or a merge with missing cells); 130 interrupted by SIGINT,
// SIGTERM or SIGUSR1 (Slurm's time-limit warning; or ctrl+c in the
// TUI), 129 by SIGHUP (the finished cells are kept: in the run's journal and a partial
// result.json). The TUI does not stop its run on SIGHUP: it lets go of the closed
// terminal, finishes the run into its run store, then exits 129.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"syscall"

	"gitui/internal/printable"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/ui"
)

// Exit codes, as docs/cli.md states them ("Exit status").
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
	exitHangup      = 129 // interrupted by SIGHUP (a closed terminal or SSH session)
)

// usageError marks bad usage or bad input: exit status 2, nothing written.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

func main() {
	// Runs hold large float buffers, which the collector frees without scanning them
	// (they hold no pointers): collecting at 25% heap growth instead of the default
	// 100% costs little time and keeps the peak RSS near the live memory instead of up
	// to twice it. The GOGC environment variable overrides this.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if limit, ok := engine.SoftMemoryLimit(); ok {
		debug.SetMemoryLimit(limit) // collect hard near the limit rather than die of it
	}
	var err error
	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	if strings.HasPrefix(cmd, "-") && cmd != "-h" && cmd != "--help" && cmd != "-v" && cmd != "--version" {
		cmd, args = "", append([]string{cmd}, args...) // gitui --data DIR: flags of the TUI
	}
	tui := cmd == ""
	if c, ok := commands[cmd]; ok && c.TUI {
		tui = true
	}
	ctx, sig, hup, stop := notify(stderr, tui)
	defer stop()
	ctx = withHangup(ctx, hup)
	c := tuiCommand
	switch cmd {
	case "":
		err = cmdTUI(ctx, hup, args, stdout, stderr)
	case completeCmd:
		cmdComplete(args, stdout)
		return exitOK
	case "--version", "-v":
		fmt.Fprintln(stdout, versionLine())
	case "-h", "--help":
		printUsage(stdout)
	default:
		var ok bool
		if c, ok = commands[cmd]; !ok {
			err = usagef("unknown command %q: run `gitui help` for the list", cmd)
			break
		}
		err = c.Run(ctx, args, stdout, stderr)
	}
	var hr *helpRequest
	if errors.As(err, &hr) { // gitui CMD --help: that command's usage, on stdout
		printCommandHelp(stdout, c, hr.fs)
		return exitOK
	}
	code := exitCode(err, stderr)
	if code == exitInterrupted && sig() == syscall.SIGHUP {
		code = exitHangup
	}
	return code
}

// notify returns a context cancelled by the first SIGINT, SIGTERM, SIGHUP or (headless)
// SIGUSR1, the warning Slurm sends before a time limit, and a func
// that tells which signal it was (nil if none). Every finished cell is already in the
// journal then, and the command writes a partial result and exits 130 (129 for SIGHUP).
// A second signal means "now": the process exits at once with that status, and
// `gitui resume` rebuilds the result from the journal.
//
// With tui set (the workbench), SIGHUP does not cancel the context: it is delivered on
// hup instead (the workbench detaches from the closed terminal and lets its run
// finish), and later ones are ignored. hup is nil otherwise.
func notify(stderr io.Writer, tui bool) (ctx context.Context, sig func() os.Signal, hup <-chan os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	var hupCh chan os.Signal
	if tui {
		hupCh = make(chan os.Signal, 1) // a full channel drops the repeats: never the default action
		signal.Notify(hupCh, syscall.SIGHUP)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	} else {
		// SIGUSR1 is Slurm's warning before a time limit (gitui slurm: --signal=B:USR1@90).
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1)
	}
	var got atomic.Value
	quit := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			got.Store(s)
			cancel()
		case <-quit:
			return
		}
		select {
		case s := <-ch:
			fmt.Fprintln(stderr, "gitui: second signal: stopping now (the finished cells are in the run's journal: `gitui resume DIR` writes the result)")
			code := exitInterrupted
			if s == syscall.SIGHUP {
				code = exitHangup
			}
			os.Exit(code)
		case <-quit:
		}
	}()
	sig = func() os.Signal {
		s, _ := got.Load().(os.Signal)
		return s
	}
	stop = func() {
		signal.Stop(ch)
		if hupCh != nil {
			signal.Stop(hupCh)
		}
		close(quit)
		cancel()
	}
	if hupCh != nil {
		hup = hupCh
	}
	return ctx, sig, hup, stop
}

// exitCode prints err as one line and maps it to its exit status (the constants above).
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var ue usageError
	var ns *store.NoSpaceError
	switch {
	case errors.As(err, &ns): // a full disk is no bad input, whichever refusal met it
		fmt.Fprintln(stderr, "gitui: "+oneLine(err.Error()))
		return exitFailure
	case errors.Is(err, ui.ErrHangup): // the TUI finished its run after the terminal was closed
		fmt.Fprintln(stderr, "gitui: "+err.Error())
		return exitHangup
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "gitui: interrupted")
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, "gitui: "+oneLine(err.Error()))
		return exitUsage
	default:
		fmt.Fprintln(stderr, "gitui: "+oneLine(err.Error()))
		return exitFailure
	}
}

// oneLine joins a multi-line error (errors.Join) with "; " so stderr gets one line, and
// escapes every other control character (printable.String).
func oneLine(s string) string {
	return printable.String(strings.ReplaceAll(s, "\n", "; "))
}

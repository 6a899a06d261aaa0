package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"gitui/core/data"
	"gitui/model"
	"gitui/presets"
	"gitui/ui"
)

func init() {
	register(command{Name: "open", Synopsis: "open [DIR|RESULT.json...] [--data DIR] [--out DIR] [--mouse] [--color auto|always|never]",
		Summary: "the workbench on the Runs pane: the run store plus these run folders and results",
		Details: `Open the workbench on the Runs pane: every run of the run store ($XDG_DATA_HOME/gitui/runs),
plus the runs of each DIR (a run directory written by gitui run --out, or a folder of them)
and each RESULT.json. Enter opens a run's curves, space marks runs, c compares the marked
runs, / filters on names and key=value of their specs, o/O sort.`,
		Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
			return cmdOpen(ctx, hangup(ctx), args, stdout, stderr)
		}, Order: 15, TUI: true})
}

// cmdOpen runs `gitui open`: the TUI started on the Runs pane, listing the run store
// and the given folders and result files. A path that does not exist, or a file that
// is not a result.json, is refused before the terminal is taken (exit 2).
func cmdOpen(ctx context.Context, hup <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("open", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory for new runs (default $GITUI_DATA, else the user cache directory)")
	out := fs.String("out", "gitui-results", "where s exports results")
	mouse := fs.Bool("mouse", false, "click to focus a pane or select a field, wheel to scroll (also GITUI_MOUSE=1)")
	colorFlag := fs.String("color", "", "colours: auto (detect from TERM, NO_COLOR), always or never (default $GITUI_COLOR, else auto)")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	mode, err := colorMode(*colorFlag, os.Getenv("GITUI_COLOR"))
	if err != nil {
		return usageError{err}
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			return usagef("gitui open %s: no such run directory or result.json: give a folder written by gitui run --out, the run store, or a result.json", p)
		}
		if !fi.IsDir() {
			if _, err := model.ReadResult(p); err != nil {
				return usageError{fmt.Errorf("gitui open: %w", err)}
			}
		}
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	applyColorMode(mode)
	return ui.Run(ctx, ui.Options{DataDir: dir, Presets: presets.All(), OutDir: *out, Hangup: hup, Open: paths, Mouse: *mouse, StartRuns: true})
}

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

// openUsage is the usage of `gitui open`.
const openUsage = `usage: gitui open [DIR|RESULT.json...] [--data DIR] [--out DIR] [--mouse]

Open the workbench on the Runs pane: every run of the run store ($XDG_DATA_HOME/gitui/runs),
plus the runs of each DIR (a run directory written by gitui run --out, or a folder of them)
and each RESULT.json. Enter opens a run's curves, space marks runs, c compares the marked
runs, / filters on names and key=value of their specs, o/O sort.

  --data DIR   data directory for new runs (default $GITUI_DATA, else the user cache directory)
  --out DIR    where s exports results (default gitui-results)
  --mouse      click to focus a pane, wheel to scroll (also GITUI_MOUSE=1)
`

// cmdOpen runs `gitui open`: the TUI started on the Runs pane, listing the run store
// and the given folders and result files. A path that does not exist, or a file that
// is not a result.json, is refused before the terminal is taken (exit 2).
func cmdOpen(ctx context.Context, hup <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gitui open", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dataFlag := fs.String("data", "", "data directory")
	out := fs.String("out", "gitui-results", "export directory")
	mouse := fs.Bool("mouse", false, "mouse capture")
	help := fs.Bool("help", false, "usage")
	fs.BoolVar(help, "h", false, "usage")
	paths, err := parseInterleaved(fs, args)
	if err != nil {
		return usagef("gitui open: %v (gitui open --help lists the flags)", err)
	}
	if *help {
		fmt.Fprint(stdout, openUsage)
		return nil
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
	return ui.Run(ctx, ui.Options{DataDir: dir, Presets: presets.All(), OutDir: *out, Hangup: hup, Open: paths, Mouse: *mouse, StartRuns: true})
}

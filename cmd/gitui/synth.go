package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"gitui/core/data"
)

// cmdSynth is `gitui data synth spoken-digits [--data DIR] [--full]`: the synthetic
// spoken-digit corpus made with espeak-ng (data.SynthSpokenDigits).
func cmdSynth(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("data synth", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataFlag := fs.String("data", "", "data directory: the corpus goes to DIR/spoken-digits (default $GITUI_DATA, else the user cache directory)")
	full := fs.Bool("full", false, "every English accent x every espeak-ng voice variant (about 800 speakers, 72,000 files, minutes); default 32 speakers (seconds)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "spoken-digits" {
		return usagef("usage: gitui data synth spoken-digits [--data DIR] [--full]")
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	t0 := time.Now()
	rep, err := data.SynthSpokenDigits(ctx, data.SynthOptions{Dir: dir, Full: *full, Progress: func(done, total int) {
		if done%50 == 0 || done == total {
			fmt.Fprintf(stderr, "\rspoken-digits: %d/%d renderings", done, total)
		}
	}})
	fmt.Fprintln(stderr)
	if errors.Is(err, data.ErrNoEspeak) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "spoken-digits: %d speakers, %d files in %s (%.1f s); %d renderings dropped (not cut into ten words)\n",
		rep.Speakers, rep.Files, rep.Dir, time.Since(t0).Seconds(), len(rep.Dropped))
	return nil
}

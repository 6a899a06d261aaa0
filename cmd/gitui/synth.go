package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"gitui/core/data"
)

// cmdSynth is `gitui data synth spoken-digits [--data DIR] [--full]` after cmdData has
// parsed its flags: the synthetic spoken-digit corpus made with espeak-ng
// (data.SynthSpokenDigits) in the data directory dataFlag resolves to.
func cmdSynth(ctx context.Context, dataFlag string, full bool, stdout, stderr io.Writer) error {
	dir, err := data.ResolveDir(dataFlag)
	if err != nil {
		return usageError{err}
	}
	t0 := time.Now()
	rep, err := data.SynthSpokenDigits(ctx, data.SynthOptions{Dir: dir, Full: full, Progress: func(done, total int) {
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

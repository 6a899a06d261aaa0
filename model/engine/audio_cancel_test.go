package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gitui/core/audio"
	"gitui/core/eval"
	"gitui/model"
)

// TestLoadDataContextCancel loads a 400-recording corpus in the FSDD layout (written by
// the test) and cancels from the progress callback a quarter of the way: LoadDataContext
// returns context.Canceled (errors.Is), not an *InputError, and reports no progress after
// the cancel beyond the recordings in hand. Uncancelled, the progress covers the pool and
// the test set together and ends at their total.
func TestLoadDataContextCancel(t *testing.T) {
	dir := writeToneFSDD(t)
	d := model.DataSpec{Name: "fsdd", Path: dir, Audio: &model.AudioSpec{Split: "utterance"}}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last, after int
	cancelled := false
	_, _, err := LoadDataContext(ctx, d, "", 1, func(done, total int) {
		if total != 400 {
			t.Errorf("progress total %d, want 400 (pool and test set)", total)
		}
		if cancelled {
			after++
		}
		last = done
		if done >= 100 && !cancelled {
			cancelled = true
			cancel()
		}
	})
	var ie *model.InputError
	if !errors.Is(err, context.Canceled) || errors.As(err, &ie) {
		t.Fatalf("cancelled load: %v (input error %v); want context.Canceled", err, errors.As(err, &ie))
	}
	if after > 2 || last >= 200 {
		t.Errorf("after the cancel at 100: %d more reports, last %d of 400; want the load to stop within the pool", after, last)
	}

	last = 0
	pool, test, err := LoadDataContext(context.Background(), d, "", 1, func(done, total int) { last = done })
	if err != nil {
		t.Fatal(err)
	}
	if pool.Len() != 200 || test.Len() != 200 || last != 400 {
		t.Errorf("pool %d, test %d, last progress %d; want 200, 200, 400", pool.Len(), test.Len(), last)
	}
}

// writeToneFSDD writes 400 short tone recordings (4 speakers × 10 digits × repetitions
// 0-9) in the FSDD layout and returns the folder.
func writeToneFSDD(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rec := filepath.Join(dir, "recordings")
	if err := os.MkdirAll(rec, 0o755); err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 3200)
	for i := range 400 {
		digit, speaker, index := i%10, i/100, (i/10)%10
		for k := range x {
			x[k] = 0.5 * math.Sin(2*math.Pi*float64(150+40*digit)*float64(k)/8000) * math.Sin(math.Pi*float64(k)/float64(len(x)))
		}
		p := filepath.Join(rec, fmt.Sprintf("%d_s%d_%d.wav", digit, speaker, index))
		if err := audio.WriteWAV(p, &audio.Sound{Rate: 8000, Samples: x}, audio.PCM16); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestStartReportsAndCancelsLoad: a run on spoken digits reports "load" progress up to
// the recordings of pool and test set before any cell, and a run cancelled during the
// load stops reading at once and ends with Done.Err context.Canceled and no points.
func TestStartReportsAndCancelsLoad(t *testing.T) {
	dir := writeToneFSDD(t)
	spec := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "fsdd", Path: dir, Audio: &model.AudioSpec{Split: "utterance"}},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{20}, Repeats: 1, Seed: 1}
	lastLoad, cellsBeforeLoad := 0, false
	var done eval.Done
	for e := range Start(context.Background(), spec, RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Progress:
			if e.Stage == "load" {
				if e.Total != 400 || e.Done < lastLoad {
					t.Errorf("load progress %d/%d after %d", e.Done, e.Total, lastLoad)
				}
				lastLoad = e.Done
			} else if lastLoad < 400 {
				cellsBeforeLoad = true
			}
		case eval.Done:
			done = e
		}
	}
	if done.Err != nil || lastLoad != 400 || cellsBeforeLoad {
		t.Fatalf("run: %v; last load progress %d of 400; other stages before the load ended: %v", done.Err, lastLoad, cellsBeforeLoad)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelled, maxDone := false, 0
	for e := range Start(ctx, spec, RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Progress:
			if e.Stage != "load" {
				break
			}
			maxDone = max(maxDone, e.Done)
			if e.Done >= 100 && !cancelled {
				cancelled = true
				cancel()
			}
		case eval.Done:
			done = e
		}
	}
	if !errors.Is(done.Err, context.Canceled) {
		t.Fatalf("cancelled during the load: %v, want context.Canceled", done.Err)
	}
	// When the cancel is seen, the reader is at most the event channel's 64 buffered
	// reports (2 recordings each) ahead: it stops before 100 + 128 + a few. A load that
	// ignored ctx would read all 400 (its late reports are sent or dropped at random once
	// ctx is done, so some of the last ones arrive).
	if maxDone >= 300 {
		t.Errorf("load progress reached %d of 400 after the cancel at 100: the load did not stop", maxDone)
	}
	if done.Outcome != nil && len(done.Outcome.Series) > 0 {
		t.Errorf("cancelled during the load, yet %d series have points", len(done.Outcome.Series))
	}
}

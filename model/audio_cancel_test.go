package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"gitui/core/audio"
)

// TestLoadDataContextCancel loads a 400-recording corpus in the FSDD layout (written by
// the test) and cancels from the progress callback a quarter of the way: LoadDataContext
// returns context.Canceled (errors.Is), not an *InputError, and reports no progress after
// the cancel beyond the recordings in hand. Uncancelled, the progress covers the pool and
// the test set together and ends at their total.
func TestLoadDataContextCancel(t *testing.T) {
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
	d := DataSpec{Name: "fsdd", Path: dir, Audio: &AudioSpec{Split: "utterance"}}

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
	var ie *InputError
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

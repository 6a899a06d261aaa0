package data

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"gitui/core/audio"
)

// writeToneCorpus writes n short recordings (a 0.4 s tone at 16 kHz, so that loading also
// resamples) in the FSDD layout under dir/recordings and returns their items.
func writeToneCorpus(t testing.TB, dir string, n int) []AudioItem {
	t.Helper()
	rec := filepath.Join(dir, "recordings")
	items := make([]AudioItem, n)
	x := make([]float64, 6400)
	for i := range n {
		f := 200 + 10*float64(i%50)
		for k := range x {
			x[k] = 0.5 * math.Sin(2*math.Pi*f*float64(k)/16000) * math.Sin(math.Pi*float64(k)/float64(len(x)))
		}
		p := filepath.Join(rec, fmt.Sprintf("%d_s%d_%d.wav", i%10, i/100, (i/10)%10))
		if i == 0 {
			if err := os.MkdirAll(rec, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := audio.WriteWAV(p, &audio.Sound{Rate: 16000, Samples: x}, audio.PCM16); err != nil {
			t.Fatal(err)
		}
		items[i] = AudioItem{Path: p, Digit: i % 10, Speaker: fmt.Sprintf("s%d", i/100), Index: (i / 10) % 10}
	}
	return items
}

// TestAudioDatasetCancel cancels a load of 400 recordings after the 50th and checks that
// it returns ctx's error (context.Canceled, unwrapped) and that the workers stop at once:
// after the cancelling recording, each other worker finishes at most the one it holds, so
// at most 50 + GOMAXPROCS - 1 recordings are ever read. Progress reports are in order,
// never concurrent, and end before the total.
func TestAudioDatasetCancel(t *testing.T) {
	items := writeToneCorpus(t, t.TempDir(), 400)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu       sync.Mutex
		reads    int
		inProg   bool
		lastDone int
		bad      error
	)
	opt := AudioOptions{
		Process: func(i int, x []float64) []float64 {
			mu.Lock()
			reads++
			if reads == 50 {
				cancel()
			}
			mu.Unlock()
			return x
		},
		Progress: func(done, total int) {
			if inProg {
				bad = errors.New("progress called concurrently")
			}
			inProg = true
			if done <= lastDone || total != len(items) {
				bad = fmt.Errorf("progress %d/%d after %d", done, total, lastDone)
			}
			lastDone = done
			inProg = false
		},
	}
	ds, err := AudioDataset(ctx, "tones", items, nil, opt)
	if ds != nil || err != context.Canceled {
		t.Fatalf("cancelled load: dataset %v, error %v; want context.Canceled as it is", ds != nil, err)
	}
	if max := 50 + runtime.GOMAXPROCS(0) - 1; reads > max {
		t.Errorf("%d recordings read after cancelling at the 50th: want at most %d (one per other worker)", reads, max)
	}
	if bad != nil {
		t.Error(bad)
	}
	if lastDone >= len(items) {
		t.Errorf("progress reached %d of %d on a cancelled load", lastDone, len(items))
	}
	// The same recordings load completely without cancellation, with a final report.
	lastDone = 0
	opt.Process = nil
	if _, err := AudioDataset(context.Background(), "tones", items, nil, opt); err != nil {
		t.Fatal(err)
	}
	if bad != nil || lastDone != len(items) {
		t.Errorf("full load: last progress %d of %d (%v)", lastDone, len(items), bad)
	}
}

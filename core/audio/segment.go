package audio

import (
	"fmt"
	"math"
)

// segFrameMs is the frame of the energy envelope used to find silences.
const segFrameMs = 10

// envelope returns the energy in dB of consecutive segFrameMs frames of x and its peak.
func envelope(x []float64, rate int) ([]float64, float64) {
	fl := max(1, rate*segFrameMs/1000)
	n := (len(x) + fl - 1) / fl
	env := make([]float64, n)
	peak := math.Inf(-1)
	for f := range n {
		var e float64
		hi := min(len(x), (f+1)*fl)
		for _, v := range x[f*fl : hi] {
			e += v * v
		}
		e /= float64(hi - f*fl)
		db := math.Inf(-1)
		if e > 0 {
			db = 10 * math.Log10(e)
		}
		env[f] = db
		peak = math.Max(peak, db)
	}
	return env, peak
}

// Trim returns the part of x (at rate Hz) between the first and the last 10 ms frame
// whose energy is within thresholdDB of the loudest frame, widened by marginMs on each
// side (within x). A silent x gives an empty slice. The result shares x's memory.
func Trim(x []float64, rate int, thresholdDB, marginMs float64) []float64 {
	env, peak := envelope(x, rate)
	fl := max(1, rate*segFrameMs/1000)
	first, last := -1, -1
	for f, db := range env {
		if db >= peak-thresholdDB && !math.IsInf(db, -1) {
			if first < 0 {
				first = f
			}
			last = f
		}
	}
	if first < 0 {
		return x[:0]
	}
	m := int(marginMs * float64(rate) / 1000)
	lo := max(0, first*fl-m)
	hi := min(len(x), (last+1)*fl+m)
	return x[lo:hi]
}

// Segment is a span [Start, End) of samples.
type Segment struct{ Start, End int }

// Words cuts x (at rate Hz), a recording of n words separated by pauses, into exactly n
// segments. A 10 ms frame is active when its energy is within a threshold of the
// loudest frame; runs of active frames separated by fewer than a minimum gap of silent
// frames are merged (the closure of a stop consonant, as in "six" or "eight", is a short
// silence inside a word), and runs shorter than 40 ms are dropped as clicks. Words tries
// thresholds of 40, 35, 45, 30 and 50 dB with minimum gaps of 120, 90, 160, 200 and 60 ms
// and returns the first cut that gives exactly n words, each widened by 15 ms of margin.
// If none does, it returns an error giving the counts it found: the caller should say the
// words with longer pauses.
func Words(x []float64, rate, n int) ([]Segment, error) {
	env, peak := envelope(x, rate)
	if math.IsInf(peak, -1) {
		return nil, fmt.Errorf("the recording is silent: no words to cut")
	}
	fl := max(1, rate*segFrameMs/1000)
	margin := 15 * rate / 1000
	var counts []int
	for _, th := range []float64{40, 35, 45, 30, 50} {
		for _, gapMs := range []int{120, 90, 160, 200, 60} {
			gap := gapMs / segFrameMs
			var runs []Segment // in frames
			start, silent := -1, 0
			for f, db := range env {
				if db >= peak-th && !math.IsInf(db, -1) {
					if start < 0 {
						start = f
					} else if silent >= gap {
						runs = append(runs, Segment{start, f - silent})
						start = f
					}
					silent = 0
				} else if start >= 0 {
					silent++
				}
			}
			if start >= 0 {
				runs = append(runs, Segment{start, len(env) - silent})
			}
			var words []Segment
			for _, r := range runs {
				if (r.End-r.Start)*segFrameMs >= 40 {
					words = append(words, r)
				}
			}
			counts = append(counts, len(words))
			if len(words) != n {
				continue
			}
			out := make([]Segment, n)
			for i, w := range words {
				out[i] = Segment{max(0, w.Start*fl-margin), min(len(x), w.End*fl+margin)}
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("cutting at the pauses gives %v words, never %d: say the words with longer pauses", uniq(counts), n)
}

func uniq(v []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, x := range v {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

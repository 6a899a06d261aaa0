package audio

import (
	"context"
	"math/rand/v2"
	"testing"
)

// BenchmarkSpectrogramAll reports spectrograms per second over GOMAXPROCS workers for
// 0.6 s recordings at 8 kHz (FSDD's mean length is about 0.44 s; the synthetic corpus's
// words 0.2-0.6 s), already in memory: the cost of the spectrogram step alone. The
// target is 20,000 files in under 20 s on 2 cores (1,000 files/s).
func BenchmarkSpectrogramAll(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	const n = 256
	sounds := make([]*Sound, n)
	for i := range sounds {
		x := tone(150+rng.Float64()*150, []float64{0.5, 0.3, 0.2, 0.1}, 8000, 4800)
		for j := range x {
			x[j] += 0.01 * rng.NormFloat64()
		}
		sounds[i] = &Sound{Rate: 8000, Samples: x}
	}
	p := DefaultSpec()
	dst := make([]float64, n*p.Dim())
	for b.Loop() {
		if err := SpectrogramAll(context.Background(), dst, n, p, func(i int) (*Sound, error) { return sounds[i], nil }); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

package audio

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/floats"
)

// SpecParams are the parameters of a log-frequency spectrogram. The zero value of a
// field means its default (DefaultSpec): 8 kHz, 32 ms Hann frames every 16 ms, 64 bands
// 12 to the octave (one semitone apart) from 100 Hz, a 64-frame window, a 60 dB floor.
type SpecParams struct {
	Rate           int     // sample rate of the input in Hz (8000)
	FrameMs        float64 // frame length in ms (32)
	HopMs          float64 // hop between frames in ms (16)
	Bands          int     // number of bands (64)
	MinHz          float64 // centre of the lowest band in Hz (100)
	BandsPerOctave int     // bands per octave (12: a semitone apart)
	Frames         int     // frames in the output window (64)
	FloorDB        float64 // dynamic range kept below the peak in dB (60)
}

// DefaultSpec returns the default parameters (see SpecParams).
func DefaultSpec() SpecParams {
	return SpecParams{Rate: 8000, FrameMs: 32, HopMs: 16, Bands: 64, MinHz: 100, BandsPerOctave: 12, Frames: 64, FloorDB: 60}
}

// WithDefaults returns p with every zero field replaced by its default.
func (p SpecParams) WithDefaults() SpecParams {
	d := DefaultSpec()
	if p.Rate == 0 {
		p.Rate = d.Rate
	}
	if p.FrameMs == 0 {
		p.FrameMs = d.FrameMs
	}
	if p.HopMs == 0 {
		p.HopMs = d.HopMs
	}
	if p.Bands == 0 {
		p.Bands = d.Bands
	}
	if p.MinHz == 0 {
		p.MinHz = d.MinHz
	}
	if p.BandsPerOctave == 0 {
		p.BandsPerOctave = d.BandsPerOctave
	}
	if p.Frames == 0 {
		p.Frames = d.Frames
	}
	if p.FloorDB == 0 {
		p.FloorDB = d.FloorDB
	}
	return p
}

// Check returns a one-line error naming the first parameter out of range (after
// WithDefaults), with the range to use: rate 1000..192000 Hz, a frame of 4..256 ms, a
// hop of 1 ms up to the frame length, 1..512 bands, 1..96 bands per octave, a lowest
// band above 0 whose top band stays below the Nyquist frequency, 1..4096 frames, a
// floor of 1..200 dB.
func (p SpecParams) Check() error {
	p = p.WithDefaults()
	switch {
	case p.Rate < 1000 || p.Rate > 192000:
		return fmt.Errorf("audio.rate %d Hz is out of range: use 1000..192000 (8000 is the default)", p.Rate)
	case !(p.FrameMs >= 4 && p.FrameMs <= 256):
		return fmt.Errorf("audio.frame_ms %g is out of range: use 4..256 ms (32 is the default)", p.FrameMs)
	case !(p.HopMs >= 1 && p.HopMs <= p.FrameMs):
		return fmt.Errorf("audio.hop_ms %g is out of range: use 1 ms up to frame_ms %g", p.HopMs, p.FrameMs)
	case p.Bands < 1 || p.Bands > 512:
		return fmt.Errorf("audio.bands %d is out of range: use 1..512 (64 is the default)", p.Bands)
	case p.BandsPerOctave < 1 || p.BandsPerOctave > 96:
		return fmt.Errorf("audio.bands_per_octave %d is out of range: use 1..96 (12, a semitone apart, is the default)", p.BandsPerOctave)
	case !(p.MinHz > 0) || math.IsInf(p.MinHz, 0):
		return fmt.Errorf("audio.min_hz %g must be a positive frequency (100 is the default)", p.MinHz)
	case p.Frames < 1 || p.Frames > 4096:
		return fmt.Errorf("audio.frames %d is out of range: use 1..4096 (64 is the default)", p.Frames)
	case !(p.FloorDB >= 1 && p.FloorDB <= 200):
		return fmt.Errorf("audio.floor_db %g is out of range: use 1..200 dB (60 is the default)", p.FloorDB)
	}
	if top := p.centre(p.Bands - 1); top >= float64(p.Rate)/2 {
		return fmt.Errorf("audio: the top band of %d from %g Hz (%d per octave) is at %.0f Hz, above the Nyquist frequency %d Hz: use fewer bands or a lower min_hz", p.Bands, p.MinHz, p.BandsPerOctave, top, p.Rate/2)
	}
	return nil
}

// centre returns the centre frequency of band k in Hz: MinHz·2^(k/BandsPerOctave).
func (p SpecParams) centre(k int) float64 {
	return p.MinHz * math.Pow(2, float64(k)/float64(p.BandsPerOctave))
}

// Dim returns Bands·Frames, the length of a spectrogram.
func (p SpecParams) Dim() int { p = p.WithDefaults(); return p.Bands * p.Frames }

// Spectrogrammer computes log-frequency spectrograms with fixed parameters. It holds
// scratch buffers and an FFT plan: one per goroutine.
type Spectrogrammer struct {
	p        SpecParams
	frame    int // samples per frame
	hop      int // samples between frames
	win      []float64
	fft      *fourier.FFT
	buf      []float64
	coef     []complex128
	power    []float64
	bandBins [][]int     // FFT bins of band k
	bandW    [][]float64 // their weights (sum 1)
}

// NewSpectrogrammer returns a Spectrogrammer for p (zero fields take their defaults).
// It panics if p.Check fails: callers check parameters from users first.
func NewSpectrogrammer(p SpecParams) *Spectrogrammer {
	p = p.WithDefaults()
	if err := p.Check(); err != nil {
		panic("audio: " + err.Error())
	}
	s := &Spectrogrammer{p: p}
	s.frame = int(math.Round(p.FrameMs * float64(p.Rate) / 1000))
	s.hop = max(1, int(math.Round(p.HopMs*float64(p.Rate)/1000)))
	s.win = make([]float64, s.frame)
	for i := range s.win { // periodic Hann window
		s.win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(s.frame))
	}
	s.fft = fourier.NewFFT(s.frame)
	s.buf = make([]float64, s.frame)
	s.coef = make([]complex128, s.frame/2+1)
	s.power = make([]float64, s.frame/2+1)
	s.bandBins, s.bandW = bandWeights(p, s.frame)
	return s
}

// bandWeights returns, for each band k, the FFT bins and weights that average the power
// spectrum under the triangle from centre(k-1) to centre(k+1) (peak 1 at centre(k)).
// The power between bins is interpolated linearly, so a band narrower than a bin (low
// bands at 31 Hz resolution) still gets a value; the weights of a band sum to 1.
func bandWeights(p SpecParams, n int) ([][]int, [][]float64) {
	nb := n/2 + 1
	df := float64(p.Rate) / float64(n)
	bins := make([][]int, p.Bands)
	ws := make([][]float64, p.Bands)
	const steps = 64
	for k := range p.Bands {
		lo, c, hi := p.centre(k-1), p.centre(k), p.centre(k+1)
		acc := map[int]float64{}
		var total float64
		for s := 1; s < steps; s++ {
			f := lo + (hi-lo)*float64(s)/steps
			var tri float64
			if f <= c {
				tri = (f - lo) / (c - lo)
			} else {
				tri = (hi - f) / (hi - c)
			}
			pos := f / df
			i := int(pos)
			if i >= nb-1 {
				continue
			}
			a := pos - float64(i)
			acc[i] += tri * (1 - a)
			acc[i+1] += tri * a
			total += tri
		}
		for i := 0; i < nb; i++ {
			if w, ok := acc[i]; ok && w > 0 {
				bins[k] = append(bins[k], i)
				ws[k] = append(ws[k], w/total)
			}
		}
	}
	return bins, ws
}

// Params returns the parameters with defaults filled in.
func (s *Spectrogrammer) Params() SpecParams { return s.p }

// Compute writes the spectrogram of x (samples at Params().Rate) into dst, which must
// have Bands·Frames entries, and returns dst. The steps (Mroueh et al. Sec. 5):
//
//	P[b,t]  = |FFT(hann · frame_t)[b]|²                      frames of FrameMs every HopMs
//	E[k,t]  = sum_b W[k,b] P[b,t]                             triangular band k, a semitone wide
//	V[k,t]  = max(0, 10 log10 E[k,t] - max_{k,t} 10 log10 E + FloorDB)
//
// then the frames whose bands are not all zero (the word) are centred in the window of
// Frames (cropped at both ends when longer, zero padded when shorter), and the result
// is scaled to unit Euclidean norm. A silent x gives zeros. A recording shorter than a
// frame is zero padded to one frame. It panics if len(dst) != Bands·Frames.
func (s *Spectrogrammer) Compute(dst, x []float64) []float64 {
	p := s.p
	if len(dst) != p.Bands*p.Frames {
		panic(fmt.Sprintf("audio: Spectrogram: len(dst)=%d, want %d", len(dst), p.Bands*p.Frames))
	}
	nf := 1
	if len(x) > s.frame {
		nf = 1 + (len(x)-s.frame)/s.hop
	}
	v := make([]float64, p.Bands*nf) // band-major would need a transpose: frame-major here
	peak := math.Inf(-1)
	for t := range nf {
		off := t * s.hop
		for i := range s.buf {
			if j := off + i; j < len(x) {
				s.buf[i] = x[j] * s.win[i]
			} else {
				s.buf[i] = 0
			}
		}
		s.fft.Coefficients(s.coef, s.buf)
		for b, c := range s.coef {
			s.power[b] = real(c)*real(c) + imag(c)*imag(c)
		}
		row := v[t*p.Bands : (t+1)*p.Bands]
		for k := range p.Bands {
			var e float64
			for j, b := range s.bandBins[k] {
				e += s.bandW[k][j] * s.power[b]
			}
			db := math.Inf(-1)
			if e > 0 {
				db = 10 * math.Log10(e)
			}
			row[k] = db
			if db > peak {
				peak = db
			}
		}
	}
	clear(dst)
	if math.IsInf(peak, -1) {
		return dst
	}
	first, last := -1, -1
	for t := range nf {
		row := v[t*p.Bands : (t+1)*p.Bands]
		any := false
		for k, db := range row {
			row[k] = math.Max(0, db-peak+p.FloorDB)
			if row[k] > 0 {
				any = true
			}
		}
		if any {
			if first < 0 {
				first = t
			}
			last = t
		}
	}
	// Source frame of output frame t: t + off, centring the word's span.
	off := int(math.Round(float64(first+last)/2 - float64(p.Frames-1)/2))
	for t := range p.Frames {
		src := t + off
		if src < 0 || src >= nf {
			continue
		}
		for k := range p.Bands {
			dst[k*p.Frames+t] = v[src*p.Bands+k]
		}
	}
	if n := floats.Norm(dst, 2); n > 0 {
		floats.Scale(1/n, dst)
	}
	return dst
}

// Spectrogram returns the spectrogram of the sound s with parameters p (see
// Spectrogrammer.Compute), resampling s to p.Rate first (Resample) when its rate
// differs. It panics if p.Check fails.
func Spectrogram(s *Sound, p SpecParams) []float64 {
	sp := NewSpectrogrammer(p)
	x := s.Samples
	if s.Rate != sp.p.Rate {
		x = Resample(x, s.Rate, sp.p.Rate)
	}
	return sp.Compute(make([]float64, sp.p.Bands*sp.p.Frames), x)
}

// SpectrogramAll computes the spectrograms of n sounds into the rows of dst (n rows of
// Bands·Frames, row-major), spread over GOMAXPROCS workers, each with its own
// Spectrogrammer. load(i) returns sound i (read, decoded, transformed as the caller
// wishes); it is called from several goroutines at once. The first error returned by load
// stops the work and is returned; ctx is checked before each sound, and ctx.Err() is
// returned if it is cancelled. It panics if len(dst) != n·Bands·Frames.
func SpectrogramAll(ctx context.Context, dst []float64, n int, p SpecParams, load func(i int) (*Sound, error)) error {
	p = p.WithDefaults()
	d := p.Bands * p.Frames
	if len(dst) != n*d {
		panic(fmt.Sprintf("audio: SpectrogramAll: len(dst)=%d, want %d·%d", len(dst), n, d))
	}
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	workers := min(runtime.GOMAXPROCS(0), max(n, 1))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sp := NewSpectrogrammer(p)
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil
				mu.Unlock()
				if i >= n || stop {
					return
				}
				if err := ctx.Err(); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				s, err := load(i)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				x := s.Samples
				if s.Rate != p.Rate {
					x = Resample(x, s.Rate, p.Rate)
				}
				sp.Compute(dst[i*d:(i+1)*d], x)
			}
		}()
	}
	wg.Wait()
	return first
}

package audio

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// vocoderFrame is the phase vocoder's frame in samples at 8 kHz (64 ms); other rates
// scale it to the same duration (rounded to an even length).
const vocoderFrameMs = 64

// TimeStretch returns x (at rate Hz) played at speed r without changing its pitch: the
// output lasts len(x)/r samples (r = 2 is twice as fast, r = 0.5 half as fast). It is a
// phase vocoder (Flanagan and Golden 1966; Laroche and Dolson 1999): Hann-windowed
// frames of 64 ms are taken every Ha = r·Hs samples and overlap-added every Hs = frame/4
// samples, each bin's phase advanced by its instantaneous frequency
//
//	omega_k = 2·pi·k/N + princarg(phi_k(t) - phi_k(t-1) - 2·pi·k·Ha/N) / Ha,
//	psi_k(t) = psi_k(t-1) + omega_k·Hs,
//
// and the sum divided by the overlap of the squared windows. It panics if r is not
// positive and finite or rate < 1.
func TimeStretch(x []float64, rate int, r float64) []float64 {
	if !(r > 0) || math.IsInf(r, 0) || rate < 1 {
		panic(fmt.Sprintf("audio: TimeStretch rate %d, speed %v", rate, r))
	}
	N := max(16, 2*int(math.Round(vocoderFrameMs*float64(rate)/2000)))
	hs := N / 4
	ha := float64(hs) * r
	outLen := int(math.Round(float64(len(x)) / r))
	if len(x) == 0 || outLen == 0 {
		return []float64{}
	}
	win := make([]float64, N)
	for i := range win {
		win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(N))
	}
	fft := fourier.NewFFT(N)
	nb := N/2 + 1
	frames := int(math.Ceil(float64(len(x))/ha)) + 1
	out := make([]float64, frames*hs+N)
	norm := make([]float64, len(out))
	prevPhase := make([]float64, nb)
	synPhase := make([]float64, nb)
	buf := make([]float64, N)
	coef := make([]complex128, nb)
	for f := 0; f < frames; f++ {
		// Analysis frame centred at f·ha (so the first frame covers the start).
		pos := float64(f)*ha - float64(N)/2
		ip := int(math.Floor(pos))
		frac := pos - float64(ip)
		for i := range buf {
			j := ip + i
			var v float64
			if j >= 0 && j < len(x) {
				v = x[j] * (1 - frac)
			}
			if frac > 0 && j+1 >= 0 && j+1 < len(x) {
				v += x[j+1] * frac
			}
			buf[i] = v * win[i]
		}
		fft.Coefficients(coef, buf)
		for k, c := range coef {
			mag, ph := math.Hypot(real(c), imag(c)), math.Atan2(imag(c), real(c))
			if f == 0 {
				synPhase[k] = ph
			} else {
				omega := 2 * math.Pi * float64(k) / float64(N)
				d := princarg(ph - prevPhase[k] - omega*ha)
				synPhase[k] += (omega + d/ha) * float64(hs)
			}
			prevPhase[k] = ph
			coef[k] = complex(mag*math.Cos(synPhase[k]), mag*math.Sin(synPhase[k]))
		}
		fft.Sequence(buf, coef)
		o := f * hs
		for i, v := range buf {
			out[o+i] += v / float64(N) * win[i]
			norm[o+i] += win[i] * win[i]
		}
	}
	// The first synthesis frame is centred at N/2: drop that lead-in.
	y := make([]float64, outLen)
	for i := range y {
		j := i + N/2
		if j < len(out) && norm[j] > 1e-3 {
			y[i] = out[j] / norm[j]
		}
	}
	return y
}

func princarg(p float64) float64 {
	return p - 2*math.Pi*math.Round(p/(2*math.Pi))
}

// PitchShift returns x (at rate Hz) with its pitch raised by cents (lowered when
// negative) and its duration kept: TimeStretch by 2^(-cents/1200), which lengthens x by
// the pitch ratio q = 2^(cents/1200), then Resample by 1/q (the ratio rounded to
// thousandths, an error below 0.7 cents). The length is len(x) up to rounding. It panics
// if rate < 1 or |cents| > 2400.
func PitchShift(x []float64, rate int, cents float64) []float64 {
	if rate < 1 || math.Abs(cents) > 2400 || math.IsNaN(cents) {
		panic(fmt.Sprintf("audio: PitchShift rate %d, %v cents", rate, cents))
	}
	if cents == 0 {
		return append([]float64(nil), x...)
	}
	q := math.Pow(2, cents/1200)
	stretched := TimeStretch(x, rate, 1/q)
	from := int(math.Round(q * 1000))
	y := Resample(stretched, from, 1000)
	if len(y) > len(x) {
		y = y[:len(x)]
	}
	return y
}

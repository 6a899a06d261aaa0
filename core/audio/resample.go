package audio

import (
	"fmt"
	"math"
)

// resampleZeros is the number of zero crossings of the sinc on each side of the centre
// at the filter's cutoff, and resampleBeta the Kaiser window's shape: about 80 dB of
// stopband attenuation with a transition band of about 6% of the lower Nyquist
// frequency.
const (
	resampleZeros = 16
	resampleBeta  = 8.0
	resampleGuard = 0.94 // cutoff as a fraction of the lower Nyquist frequency
)

// Resample returns x, sampled at from Hz, resampled to to Hz by a windowed-sinc
// low-pass filter evaluated in polyphase form. With L/M = to/from in lowest terms,
// output sample n lies at input time t = n·M/L and is
//
//	y[n] = sum_k x[k] · fc·sinc(fc·(t - k)) · w((t - k)/H),   fc = 0.94·min(1, L/M),
//
// with w a Kaiser window (beta 8) of half-width H = 16/fc input samples: the band above
// the lower of the two Nyquist frequencies is removed before decimation (no aliasing),
// and upsampling interpolates band-limited. Samples outside x count as zero. The output
// has ceil(len(x)·L/M) samples. The L filter phases are tabulated once when L <= 4096;
// otherwise taps are computed per sample. Cost O(len(y)·32/fc). Resample panics if from
// or to is not positive; when from == to it returns a copy of x.
func Resample(x []float64, from, to int) []float64 {
	if from < 1 || to < 1 {
		panic(fmt.Sprintf("audio: Resample from %d Hz to %d Hz", from, to))
	}
	if from == to {
		return append([]float64(nil), x...)
	}
	g := gcd(from, to)
	L, M := to/g, from/g
	fc := resampleGuard * math.Min(1, float64(L)/float64(M))
	half := float64(resampleZeros) / fc
	K := int(math.Ceil(half))
	taps := 2*K + 1
	n := (len(x)*L + M - 1) / M
	y := make([]float64, n)
	i0 := besselI0(resampleBeta)
	kernel := func(u float64) float64 {
		if math.Abs(u) >= half {
			return 0
		}
		r := u / half
		return fc * sinc(fc*u) * besselI0(resampleBeta*math.Sqrt(1-r*r)) / i0
	}
	var table []float64
	if L <= 4096 {
		table = make([]float64, L*taps)
		for ph := range L {
			frac := float64(ph) / float64(L)
			for j := range taps {
				table[ph*taps+j] = kernel(frac - float64(j-K))
			}
		}
	}
	h := make([]float64, taps)
	for i := range y {
		num := i * M
		base, ph := num/L, num%L
		var w []float64
		if table != nil {
			w = table[ph*taps : (ph+1)*taps]
		} else {
			frac := float64(ph) / float64(L)
			for j := range taps {
				h[j] = kernel(frac - float64(j-K))
			}
			w = h
		}
		lo := base - K
		var s float64
		for j, c := range w {
			k := lo + j
			if k >= 0 && k < len(x) {
				s += c * x[k]
			}
		}
		y[i] = s
	}
	return y
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// besselI0 returns the modified Bessel function of the first kind of order 0 by its
// power series (converges for every x; terms below 1e-17 of the sum are dropped).
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	q := x * x / 4
	for k := 1; k < 200; k++ {
		term *= q / float64(k*k)
		sum += term
		if term < 1e-17*sum {
			break
		}
	}
	return sum
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

package group

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PitchTempo is a set of pitch shifts and tempo warps acting on log-frequency
// spectrograms of Bands×Frames values stored band-major (value (b, t) at index
// b·Frames + t, band 0 the lowest, bands BandsPerOctave to the octave). Element
// (s, r), a shift by s bands (s·1200/BandsPerOctave cents) and a playback rate r, is
//
//	(g·x)[b, t] = x[b - s, c + (t - c)·r]        c = (Frames-1)/2, the window's centre,
//
// with linear interpolation along time and zero outside the spectrogram: a pitch shift
// translates the frequency axis (zero fill), a tempo warp at rate r resamples the time
// axis about the centre, so a block of length L centred at c becomes a block of length
// L/r centred at c (r > 1 plays faster: shorter). The element order is shift-major,
// s over Shifts, then r over Rates, with the identity (0, 1) moved first.
//
// It is not a group in the strict sense: zero fill loses the bands shifted out and
// interpolation is not exactly invertible; ApplyInverse applies (-s, 1/r), which undoes
// (s, r) on the bands and frames that stay inside. The I-theory features only need a
// finite set applied to templates (Mroueh et al. Sec. 5, TIDIGITS: {-400, 0, +400}
// cents × {half, normal, double speed}), each transformed template rescaled to the
// template's norm by the feature map. Build one with [NewPitchTempo], [DensePitchTempo]
// or [PaperPitchTempo].
type PitchTempo struct {
	bands, frames int
	elems         []ptElem
	name          string
}

type ptElem struct {
	shift int
	rate  float64
}

// NewPitchTempo returns the product of the pitch shifts (in bands) and the playback
// rates on bands×frames spectrograms, identity first. It panics if bands or frames is
// below 1, a list is empty, a rate is not positive and finite, or an element repeats.
func NewPitchTempo(bands, frames int, shifts []int, rates []float64, name string) *PitchTempo {
	checkHW("NewPitchTempo", bands, frames)
	if len(shifts) == 0 || len(rates) == 0 {
		panic("group: NewPitchTempo: no shifts or no rates")
	}
	g := &PitchTempo{bands: bands, frames: frames, name: name}
	seen := map[ptElem]bool{}
	for _, s := range shifts {
		for _, r := range rates {
			if !(r > 0) || math.IsInf(r, 0) {
				panic(fmt.Sprintf("group: NewPitchTempo: rate %v", r))
			}
			e := ptElem{s, r}
			if seen[e] {
				panic(fmt.Sprintf("group: NewPitchTempo: element (%d bands, rate %v) repeats", s, r))
			}
			seen[e] = true
			if s == 0 && r == 1 {
				g.elems = append([]ptElem{e}, g.elems...)
			} else {
				g.elems = append(g.elems, e)
			}
		}
	}
	if g.name == "" {
		g.name = fmt.Sprintf("pitch %v bands x tempo %v on %dx%d", shifts, rates, bands, frames)
	}
	return g
}

// centsToBands returns the band shifts of the given cents at bandsPerOctave bands to the
// octave; it panics unless each is a whole number of bands.
func centsToBands(cents []int, bandsPerOctave int) []int {
	out := make([]int, len(cents))
	for i, c := range cents {
		b := float64(c) * float64(bandsPerOctave) / 1200
		if b != math.Trunc(b) {
			panic(fmt.Sprintf("group: %d cents is not a whole number of bands at %d per octave", c, bandsPerOctave))
		}
		out[i] = int(b)
	}
	return out
}

// DensePitchTempo returns the 25-element set of gitui's speech presets: pitch shifts of
// -400, -200, 0, +200, +400 cents times playback rates 0.5, 0.75, 1, 1.5, 2, on
// bands×frames spectrograms with bandsPerOctave bands to the octave (12: a semitone per
// band, so 200 cents is 2 bands). It panics if 200 cents is not a whole number of bands.
func DensePitchTempo(bands, frames, bandsPerOctave int) *PitchTempo {
	cents := []int{0, -400, -200, 200, 400}
	rates := []float64{1, 0.5, 0.75, 1.5, 2}
	return NewPitchTempo(bands, frames, centsToBands(cents, bandsPerOctave), rates,
		fmt.Sprintf("pitch +-400c/200c x tempo 0.5..2 (25) on %dx%d", bands, frames))
}

// PaperPitchTempo returns the 9-element set of Mroueh et al. (NIPS 2015, Sec. 5):
// {-400, 0, +400} cents × {0.5, 1, 2} playback rate (half, normal, double speed).
func PaperPitchTempo(bands, frames, bandsPerOctave int) *PitchTempo {
	return NewPitchTempo(bands, frames, centsToBands([]int{0, -400, 400}, bandsPerOctave), []float64{1, 0.5, 2},
		fmt.Sprintf("pitch {-400,0,400}c x tempo {0.5,1,2} (9) on %dx%d", bands, frames))
}

// Name returns the set's description.
func (g *PitchTempo) Name() string { return g.name }

// Len returns the number of elements.
func (g *PitchTempo) Len() int { return len(g.elems) }

// Dim returns Bands·Frames.
func (g *PitchTempo) Dim() int { return g.bands * g.frames }

// Shape returns (bands, frames).
func (g *PitchTempo) Shape() (bands, frames int) { return g.bands, g.frames }

// Element returns the shift in bands and the playback rate of element i.
func (g *PitchTempo) Element(i int) (shift int, rate float64) {
	return g.elems[i].shift, g.elems[i].rate
}

// Label returns a short label of element i in cents and rate, e.g. "+400c x0.5", given
// bandsPerOctave bands to the octave.
func (g *PitchTempo) Label(i, bandsPerOctave int) string {
	e := g.elems[i]
	c := e.shift * 1200 / bandsPerOctave
	var b strings.Builder
	if c > 0 {
		b.WriteByte('+')
	}
	b.WriteString(strconv.Itoa(c))
	b.WriteString("c x")
	b.WriteString(strconv.FormatFloat(e.rate, 'g', 3, 64))
	return b.String()
}

// Apply writes g_i·x into dst (see [PitchTempo]).
func (g *PitchTempo) Apply(dst, x []float64, i int) {
	checkApply("PitchTempo.Apply", g.Dim(), len(g.elems), dst, x, i)
	g.apply(dst, x, g.elems[i].shift, g.elems[i].rate)
}

// ApplyInverse writes (-s, 1/r)·x into dst, the approximate inverse of element i.
func (g *PitchTempo) ApplyInverse(dst, x []float64, i int) {
	checkApply("PitchTempo.ApplyInverse", g.Dim(), len(g.elems), dst, x, i)
	g.apply(dst, x, -g.elems[i].shift, 1/g.elems[i].rate)
}

func (g *PitchTempo) apply(dst, x []float64, s int, r float64) {
	B, T := g.bands, g.frames
	c := float64(T-1) / 2
	clear(dst)
	for b := range B {
		sb := b - s
		if sb < 0 || sb >= B {
			continue
		}
		src := x[sb*T : (sb+1)*T]
		out := dst[b*T : (b+1)*T]
		if r == 1 {
			copy(out, src)
			continue
		}
		for t := range T {
			u := c + (float64(t)-c)*r
			if u < 0 || u > float64(T-1) {
				continue
			}
			k := int(u)
			a := u - float64(k)
			v := src[k] * (1 - a)
			if a > 0 && k+1 < T {
				v += src[k+1] * a
			}
			out[t] = v
		}
	}
}

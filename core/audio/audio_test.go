package audio

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// tone returns n samples of sum_h amp_h sin(2 pi h f0 t) at rate Hz.
func tone(f0 float64, harmonics []float64, rate, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		t := float64(i) / float64(rate)
		for h, a := range harmonics {
			x[i] += a * math.Sin(2*math.Pi*float64(h+1)*f0*t)
		}
	}
	return x
}

// peakHz estimates the frequency of the strongest component of x by a Hann-windowed,
// 16x zero-padded FFT with parabolic interpolation of the log magnitude.
func peakHz(x []float64, rate int) float64 {
	n := 1
	for n < 16*len(x) {
		n *= 2
	}
	buf := make([]float64, n)
	for i, v := range x {
		buf[i] = v * (0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(len(x))))
	}
	c := fourier.NewFFT(n).Coefficients(nil, buf)
	best := 1
	for k := 1; k < len(c)-1; k++ {
		if mag(c[k]) > mag(c[best]) {
			best = k
		}
	}
	a, b, g := math.Log(mag(c[best-1])), math.Log(mag(c[best])), math.Log(mag(c[best+1]))
	p := 0.5 * (a - g) / (a - 2*b + g)
	return (float64(best) + p) * float64(rate) / float64(n)
}

func mag(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

func TestWAVRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 1001)
	for i := range x {
		x[i] = rng.Float64()*1.8 - 0.9
	}
	for _, enc := range []int{PCM16, Float32} {
		var b bytes.Buffer
		if err := EncodeWAV(&b, &Sound{Rate: 22050, Samples: x}, enc); err != nil {
			t.Fatal(err)
		}
		s, err := DecodeWAV(b.Bytes())
		if err != nil {
			t.Fatalf("encoding %d: %v", enc, err)
		}
		if s.Rate != 22050 || len(s.Samples) != len(x) {
			t.Fatalf("encoding %d: got %d Hz, %d samples", enc, s.Rate, len(s.Samples))
		}
		// PCM16 rounds to steps of 2^-15: error at most half a step; float32 keeps ~7 digits.
		tol := map[int]float64{PCM16: 0.5 / (1 << 15), Float32: 1e-7}[enc]
		for i := range x {
			if d := math.Abs(s.Samples[i] - x[i]); d > tol*1.0001 {
				t.Fatalf("encoding %d: sample %d: %v, want %v (tol %g)", enc, i, s.Samples[i], x[i], tol)
			}
		}
	}
}

// rawWAV builds a WAV file by hand: format tag, channels, bits, and the data bytes.
func rawWAV(format, channels, rate, bits int, data []byte, extensible bool) []byte {
	var b bytes.Buffer
	le := binary.LittleEndian
	fmtLen := 16
	if extensible {
		fmtLen = 40
	}
	b.WriteString("RIFF")
	binary.Write(&b, le, uint32(4+8+fmtLen+8+len(data)))
	b.WriteString("WAVE")
	b.WriteString("LIST") // a chunk to skip
	binary.Write(&b, le, uint32(3))
	b.WriteString("abc\x00") // 3 bytes and a pad byte
	b.WriteString("fmt ")
	binary.Write(&b, le, uint32(fmtLen))
	tag := format
	if extensible {
		tag = wavExtensible
	}
	binary.Write(&b, le, uint16(tag))
	binary.Write(&b, le, uint16(channels))
	binary.Write(&b, le, uint32(rate))
	binary.Write(&b, le, uint32(rate*channels*bits/8))
	binary.Write(&b, le, uint16(channels*bits/8))
	binary.Write(&b, le, uint16(bits))
	if extensible {
		binary.Write(&b, le, uint16(22))
		binary.Write(&b, le, uint16(bits))
		binary.Write(&b, le, uint32(4))
		binary.Write(&b, le, uint16(format))
		b.Write(make([]byte, 14))
	}
	b.WriteString("data")
	binary.Write(&b, le, uint32(len(data)))
	b.Write(data)
	return b.Bytes()
}

func TestWAVFormats(t *testing.T) {
	// Each case encodes the samples -0.5 and +0.25 (stereo: L and R of one frame, mean -0.125).
	le := binary.LittleEndian
	u16 := func(v int16) []byte { var b [2]byte; le.PutUint16(b[:], uint16(v)); return b[:] }
	u32 := func(v uint32) []byte { var b [4]byte; le.PutUint32(b[:], v); return b[:] }
	i24 := func(v int32) []byte { return []byte{byte(v), byte(v >> 8), byte(v >> 16)} }
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	cases := []struct {
		name         string
		format, bits int
		data         []byte
		ext          bool
	}{
		{"pcm8", wavPCM, 8, []byte{64, 160}, false},
		{"pcm16", wavPCM, 16, cat(u16(-16384), u16(8192)), false},
		{"pcm24", wavPCM, 24, cat(i24(-1<<22), i24(1<<21)), false},
		{"pcm32", wavPCM, 32, cat(u32(uint32(0xC0000000)), u32(1<<29)), false},
		{"float32", wavFloat, 32, cat(u32(math.Float32bits(-0.5)), u32(math.Float32bits(0.25))), false},
		{"float64-ext", wavFloat, 64, func() []byte {
			var b [16]byte
			le.PutUint64(b[:], math.Float64bits(-0.5))
			le.PutUint64(b[8:], math.Float64bits(0.25))
			return b[:]
		}(), true},
		{"pcm16-ext", wavPCM, 16, cat(u16(-16384), u16(8192)), true},
	}
	for _, c := range cases {
		mono, err := DecodeWAV(rawWAV(c.format, 1, 8000, c.bits, c.data, c.ext))
		if err != nil {
			t.Fatalf("%s mono: %v", c.name, err)
		}
		if len(mono.Samples) != 2 || mono.Samples[0] != -0.5 || mono.Samples[1] != 0.25 {
			t.Errorf("%s mono: got %v, want [-0.5 0.25]", c.name, mono.Samples)
		}
		st, err := DecodeWAV(rawWAV(c.format, 2, 8000, c.bits, c.data, c.ext))
		if err != nil {
			t.Fatalf("%s stereo: %v", c.name, err)
		}
		if len(st.Samples) != 1 || st.Samples[0] != -0.125 {
			t.Errorf("%s stereo: got %v, want the mean [-0.125]", c.name, st.Samples)
		}
	}
}

func TestWAVBadInput(t *testing.T) {
	var good bytes.Buffer
	_ = EncodeWAV(&good, &Sound{Rate: 8000, Samples: make([]float64, 100)}, PCM16)
	g := good.Bytes()
	cases := map[string][]byte{
		"not a WAV file":            []byte("hello world, this is text"),
		"truncated":                 g[:len(g)-10],
		"no data chunk":             g[:36],
		"not supported":             rawWAV(2, 1, 8000, 4, []byte{1, 2}, false), // ADPCM
		"not a whole number":        rawWAV(wavPCM, 2, 8000, 16, []byte{1, 2, 3}, false),
		"truncated: chunk \"fmt \"": g[:20],
		"WAV header gives a sample rate of 4000000000 Hz, above the 1000000 Hz of any recording: the header is corrupt": rawWAV(wavPCM, 1, 4000000000, 16, []byte{1, 2, 3, 4}, false),
	}
	for want, b := range cases {
		_, err := DecodeWAV(b)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error containing %q", want, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error has several lines: %q", want, err)
		}
	}
}

func TestResampleFrequency(t *testing.T) {
	// A sine keeps its frequency through resampling, to 0.5% (the estimator is good
	// to about 0.01% on 0.5 s of signal).
	for _, c := range []struct {
		from, to int
		f        float64
	}{{22050, 8000, 440}, {44100, 8000, 1234}, {16000, 8000, 3000}, {8000, 22050, 700}, {11025, 8000, 2500}} {
		x := tone(c.f, []float64{0.8}, c.from, c.from/2)
		y := Resample(x, c.from, c.to)
		if want := (len(x)*c.to + c.from - 1) / c.from; len(y) != want {
			t.Fatalf("%d->%d: %d samples, want %d", c.from, c.to, len(y), want)
		}
		got := peakHz(y[len(y)/10:len(y)*9/10], c.to)
		if math.Abs(got-c.f)/c.f > 0.005 {
			t.Errorf("%d->%d: %.2f Hz, want %.2f within 0.5%%", c.from, c.to, got, c.f)
		}
		// Amplitude is kept in the passband (RMS of a 0.8 sine: 0.566) within 1%.
		var e float64
		mid := y[len(y)/10 : len(y)*9/10]
		for _, v := range mid {
			e += v * v
		}
		if rms := math.Sqrt(e / float64(len(mid))); math.Abs(rms-0.8/math.Sqrt2) > 0.01*0.8/math.Sqrt2 {
			t.Errorf("%d->%d: RMS %.4f, want %.4f", c.from, c.to, rms, 0.8/math.Sqrt2)
		}
	}
}

func TestResampleRemovesAliases(t *testing.T) {
	// A 6 kHz tone is above the 4 kHz Nyquist frequency of 8 kHz: naive decimation would
	// fold it to 2 kHz at full strength; the filter must remove it (below -60 dB).
	x := tone(6000, []float64{1}, 22050, 22050/2)
	y := Resample(x, 22050, 8000)
	var e float64
	for _, v := range y[len(y)/10 : len(y)*9/10] {
		e += v * v
	}
	rms := math.Sqrt(e / float64(len(y)*8/10))
	if db := 20 * math.Log10(rms/(1/math.Sqrt2)); db > -60 {
		t.Errorf("6 kHz tone after resampling to 8 kHz: %.1f dB, want below -60 dB", db)
	}
}

// translateBands returns the spectrogram s shifted up by k bands (zero fill).
func translateBands(s []float64, bands, frames, k int) []float64 {
	out := make([]float64, len(s))
	for b := range bands {
		if sb := b - k; sb >= 0 && sb < bands {
			copy(out[b*frames:(b+1)*frames], s[sb*frames:(sb+1)*frames])
		}
	}
	return out
}

func cosine(a, b []float64) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
	}
	return ab / math.Sqrt(aa*bb)
}

func TestSpectrogramPitchShiftIsTranslation(t *testing.T) {
	// A harmonic tone at f0 and the same tone at f0·2^(k/12): on semitone bands the second
	// spectrogram is the first translated by k bands. Not exactly: the Hann window's main
	// lobe is 62.5 Hz wide whatever the band, so low harmonics smear differently; the
	// cosine must exceed 0.95 and beat the neighbouring translations k-1 and k+1.
	p := DefaultSpec()
	harm := []float64{1, 0.7, 0.5, 0.35, 0.25, 0.18, 0.12, 0.08}
	n := p.Rate / 2
	base := Spectrogram(&Sound{Rate: p.Rate, Samples: tone(240, harm, p.Rate, n)}, p)
	for _, k := range []int{-4, -2, 2, 4, 7} {
		shifted := Spectrogram(&Sound{Rate: p.Rate, Samples: tone(240*math.Pow(2, float64(k)/12), harm, p.Rate, n)}, p)
		c := cosine(shifted, translateBands(base, p.Bands, p.Frames, k))
		if c < 0.95 {
			t.Errorf("shift %d semitones: cosine with the %d-band translation %.4f, want >= 0.95", k, k, c)
		}
		for _, j := range []int{k - 1, k + 1} {
			if cj := cosine(shifted, translateBands(base, p.Bands, p.Frames, j)); cj >= c {
				t.Errorf("shift %d semitones: translation by %d bands fits better (%.4f >= %.4f)", k, j, cj, c)
			}
		}
	}
}

func TestSpectrogramShapeAndCentring(t *testing.T) {
	p := DefaultSpec()
	// 0.3 s of tone in 1.5 s of silence, starting at 0.2 s: the word is centred anyway.
	x := make([]float64, p.Rate*3/2)
	copy(x[p.Rate/5:], tone(300, []float64{1, 0.5}, p.Rate, p.Rate*3/10))
	s := Spectrogram(&Sound{Rate: p.Rate, Samples: x}, p)
	if len(s) != 64*64 {
		t.Fatalf("len %d, want 4096", len(s))
	}
	var nrm float64
	first, last := -1, -1
	for tt := range p.Frames {
		on := false
		for b := range p.Bands {
			v := s[b*p.Frames+tt]
			nrm += v * v
			if v < 0 {
				t.Fatalf("negative value %v", v)
			}
			on = on || v > 0
		}
		if on {
			if first < 0 {
				first = tt
			}
			last = tt
		}
	}
	if math.Abs(nrm-1) > 1e-12 {
		t.Errorf("squared norm %v, want 1", nrm)
	}
	// 0.3 s is about 19 hops of 16 ms: the word's frames are centred on (64-1)/2 within a frame.
	if c := float64(first+last) / 2; math.Abs(c-31.5) > 1 {
		t.Errorf("word spans frames %d..%d, centre %.1f, want 31.5 ± 1", first, last, c)
	}
	if w := last - first + 1; w < 17 || w > 23 {
		t.Errorf("word spans %d frames, want about 19-21", w)
	}
	silent := Spectrogram(&Sound{Rate: p.Rate, Samples: make([]float64, 800)}, p)
	for _, v := range silent {
		if v != 0 {
			t.Fatal("silence gives a non-zero spectrogram")
		}
	}
}

func TestWords(t *testing.T) {
	// Ten tone bursts of 150..400 ms separated by 250 ms pauses, one with an 50 ms inner
	// closure (as in "six"): exactly ten segments, each covering its burst.
	rate := 8000
	var x []float64
	var want []Segment
	rng := rand.New(rand.NewPCG(3, 3))
	x = append(x, make([]float64, rate/5)...)
	for w := range 10 {
		d := rate * (150 + rng.IntN(250)) / 1000
		start := len(x)
		burst := tone(200+40*float64(w), []float64{0.5, 0.3}, rate, d)
		if w == 6 {
			clear(burst[d/2 : d/2+rate/20])
		}
		x = append(x, burst...)
		want = append(want, Segment{start, len(x)})
		x = append(x, make([]float64, rate/4)...)
	}
	got, err := Words(x, rate, 10)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range got {
		if g.Start > want[i].Start || g.End < want[i].End || g.Start < want[i].Start-rate/20 || g.End > want[i].End+rate/20 {
			t.Errorf("word %d: segment %v, want one covering %v within 50 ms", i, g, want[i])
		}
	}
	if _, err := Words(x, rate, 9); err == nil || !strings.Contains(err.Error(), "never 9") {
		t.Errorf("asking for 9 words of 10: %v", err)
	}
}

// ReadWAV refuses, before reading a file whole, what is no recording: a link to
// /dev/zero, a large file without a RIFF header (sparse, 1.2 GB), and a file much longer
// than its RIFF header claims.
func TestReadWAVChecksBeforeReading(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.wav")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.wav")
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(1200 << 20)
		f.Close()
	}
	var good bytes.Buffer
	EncodeWAV(&good, &Sound{Rate: 8000, Samples: make([]float64, 100)}, PCM16)
	long := filepath.Join(dir, "long.wav")
	os.WriteFile(long, append(good.Bytes(), make([]byte, 3<<20)...), 0o644)
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	for path, want := range map[string]string{
		zero: "is not a regular file",
		big:  "not a WAV file (no RIFF/WAVE header)",
		long: "larger than the 244 its RIFF header claims",
	} {
		_, err := ReadWAV(path)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", filepath.Base(path), err, want)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the refusals allocated %d MB: the files were read before their headers were checked", grew>>20)
	}
}

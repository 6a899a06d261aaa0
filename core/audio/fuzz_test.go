package audio

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzDecodeWAV: any input gives a Sound or a one-line error, never a panic; a decoded
// Sound has a positive rate and finite samples within ±1000.
func FuzzDecodeWAV(f *testing.F) {
	var good bytes.Buffer
	_ = EncodeWAV(&good, &Sound{Rate: 8000, Samples: []float64{0, 0.5, -0.5, 0.25}}, PCM16)
	f.Add(good.Bytes())
	f.Add(rawWAV(wavFloat, 2, 44100, 32, make([]byte, 16), true))
	f.Add(rawWAV(wavPCM, 1, 8000, 24, make([]byte, 9), false))
	f.Add([]byte("RIFF\x00\x00\x00\x00WAVE"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeWAV(b)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error on several lines: %q", err)
			}
			return
		}
		if s.Rate < 1 {
			t.Fatalf("rate %d", s.Rate)
		}
		for _, v := range s.Samples {
			if v != v || v > 1000 || v < -1000 {
				t.Fatalf("sample %v", v)
			}
		}
	})
}

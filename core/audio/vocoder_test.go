package audio

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestTimeStretchKeepsPitch(t *testing.T) {
	rate := 8000
	x := tone(300, []float64{0.6, 0.3}, rate, rate)
	for _, r := range []float64{0.5, 2} {
		y := TimeStretch(x, rate, r)
		if want := int(math.Round(float64(len(x)) / r)); len(y) != want {
			t.Fatalf("speed %v: %d samples, want %d", r, len(y), want)
		}
		if f := peakHz(y[len(y)/5:len(y)*4/5], rate); math.Abs(f-300)/300 > 0.005 {
			t.Errorf("speed %v: fundamental %.2f Hz, want 300 within 0.5%%", r, f)
		}
	}
}

func TestPitchShiftKeepsDuration(t *testing.T) {
	rate := 8000
	x := tone(250, []float64{0.6, 0.3}, rate, rate)
	for _, c := range []float64{-400, 400} {
		y := PitchShift(x, rate, c)
		if math.Abs(float64(len(y)-len(x))) > 2 {
			t.Fatalf("%v cents: %d samples, want %d", c, len(y), len(x))
		}
		want := 250 * math.Pow(2, c/1200)
		if f := peakHz(y[len(y)/5:len(y)*4/5], rate); math.Abs(f-want)/want > 0.005 {
			t.Errorf("%v cents: fundamental %.2f Hz, want %.2f within 0.5%%", c, f, want)
		}
	}
}

// TestAgainstSox compares TimeStretch and PitchShift with Debian's sox (`tempo`, `pitch`)
// on a vowel-like harmonic tone (200 Hz, five harmonics, a rise and fall): the spectrograms of the two outputs
// agree (cosine >= 0.9; the two use different algorithms, WSOLA in sox, a phase
// vocoder here), their durations agree within 2%, and their fundamentals within 1%.
func TestAgainstSox(t *testing.T) {
	sox, err := exec.LookPath("sox")
	if err != nil {
		t.Skip("sox is not installed (apt-get install sox): the comparison is skipped")
	}
	rate := 8000
	n := rate * 6 / 10
	x := make([]float64, n)
	for i := range x {
		tt := float64(i) / float64(rate)
		env := math.Sin(math.Pi * float64(i) / float64(n))
		for h, a := range []float64{0.5, 0.35, 0.25, 0.15, 0.1} {
			x[i] += env * a * math.Sin(2*math.Pi*float64(h+1)*200*tt)
		}
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.wav")
	if err := WriteWAV(in, &Sound{Rate: rate, Samples: x}, PCM16); err != nil {
		t.Fatal(err)
	}
	p := DefaultSpec()
	for _, c := range []struct {
		name string
		args []string
		ours []float64
	}{
		{"tempo 2", []string{"tempo", "2"}, TimeStretch(x, rate, 2)},
		{"tempo 0.5", []string{"tempo", "0.5"}, TimeStretch(x, rate, 0.5)},
		{"pitch +400", []string{"pitch", "400"}, PitchShift(x, rate, 400)},
		{"pitch -400", []string{"pitch", "-400"}, PitchShift(x, rate, -400)},
	} {
		out := filepath.Join(dir, "out.wav")
		cmd := exec.Command(sox, append([]string{in, out}, c.args...)...)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sox %v: %v: %s", c.args, err, b)
		}
		ref, err := ReadWAV(out)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(out)
		if d := math.Abs(float64(len(ref.Samples)-len(c.ours))) / float64(len(ref.Samples)); d > 0.02 {
			t.Errorf("%s: %d samples, sox %d", c.name, len(c.ours), len(ref.Samples))
		}
		cs := cosine(Spectrogram(&Sound{Rate: rate, Samples: c.ours}, p), Spectrogram(ref, p))
		if cs < 0.9 {
			t.Errorf("%s: spectrogram cosine with sox %.3f, want >= 0.9", c.name, cs)
		}
		mo, mr := c.ours[len(c.ours)/4:len(c.ours)*3/4], ref.Samples[len(ref.Samples)/4:len(ref.Samples)*3/4]
		fo, fr := peakHz(mo, rate), peakHz(mr, rate)
		if math.Abs(fo-fr)/fr > 0.01 {
			t.Errorf("%s: strongest component %.1f Hz, sox %.1f Hz", c.name, fo, fr)
		}
		t.Logf("%s: cosine %.3f, %d vs %d samples, %.1f vs %.1f Hz", c.name, cs, len(c.ours), len(ref.Samples), fo, fr)
	}
}

package data

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/audio"
)

// fsddDir returns $GITUI_DATA/fsdd or skips the test with the reason.
func fsddDir(t testing.TB) string {
	root := os.Getenv("GITUI_DATA")
	if root == "" {
		t.Skip("GITUI_DATA is not set: the FSDD tests need GITUI_DATA=/path/to/data holding fsdd/recordings")
	}
	dir := filepath.Join(root, "fsdd")
	if _, err := os.Stat(filepath.Join(dir, "recordings")); err != nil {
		t.Skipf("no FSDD under %s (%v): the FSDD tests are skipped", root, err)
	}
	return dir
}

func TestReadFSDD(t *testing.T) {
	c, err := ReadFSDD(fsddDir(t), "fsdd")
	if err != nil {
		t.Fatal(err)
	}
	// The dataset's README: 6 speakers x 10 digits x 50 repetitions, all male.
	if len(c.Items) != 3000 || len(c.Speakers) != 6 {
		t.Fatalf("%d items, %d speakers, want 3000 and 6", len(c.Items), len(c.Speakers))
	}
	for id, s := range c.Speakers {
		if s.Gender != "male" || s.Accent == "" {
			t.Errorf("speaker %s: gender %q accent %q, want male with an accent", id, s.Gender, s.Accent)
		}
	}
	items := []AudioItem{c.Items[0], c.Items[1], c.Items[2]}
	ds, err := AudioDataset(context.Background(), "fsdd", items, []int{0, 0, 0}, AudioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if ds.Dim() != 4096 || ds.Shape[0] != 64 || ds.Shape[1] != 64 {
		t.Fatalf("dim %d shape %v", ds.Dim(), ds.Shape)
	}
	for i := range ds.Len() {
		var ss float64
		for _, v := range ds.X.RawRowView(i) {
			ss += v * v
		}
		if math.Abs(ss-1) > 1e-9 || ds.Y[i] != items[i].Digit {
			t.Errorf("row %d: squared norm %v, label %d (want 1, %d)", i, ss, ds.Y[i], items[i].Digit)
		}
	}
}

func TestAudioLayoutsAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "recordings")
	os.MkdirAll(rec, 0o755)
	x := make([]float64, 4000)
	for i := range x {
		x[i] = 0.5 * math.Sin(2*math.Pi*300*float64(i)/16000)
	}
	for _, n := range []string{"3_anna_0.wav", "7_anna_0.wav"} {
		if err := audio.WriteWAV(filepath.Join(rec, n), &audio.Sound{Rate: 16000, Samples: x}, audio.PCM16); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "speakers.csv"), []byte("speaker,gender,accent\nanna,F,Scottish\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "renders.csv"), []byte("index,pitch,speed\n0,50,175\n"), 0o644)
	c, err := ReadFSDD(dir, "mine")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Items) != 2 || c.Speakers["anna"].Gender != "female" || c.Renders[0].Speed != 175 {
		t.Fatalf("items %v speakers %v renders %v", c.Items, c.Speakers, c.Renders)
	}
	// 16 kHz recordings are resampled to 8 kHz by the spectrogram step.
	if _, err := AudioDataset(context.Background(), "mine", c.Items, []int{0, 0}, AudioOptions{}); err != nil {
		t.Fatal(err)
	}
	// A truncated file: one line naming it.
	b, _ := os.ReadFile(filepath.Join(rec, "3_anna_0.wav"))
	os.WriteFile(filepath.Join(rec, "3_anna_0.wav"), b[:len(b)/2], 0o644)
	_, err = AudioDataset(context.Background(), "mine", c.Items, []int{0, 0}, AudioOptions{})
	if err == nil || !strings.Contains(err.Error(), "3_anna_0.wav") || !strings.Contains(err.Error(), "truncated") || strings.Contains(err.Error(), "\n") {
		t.Errorf("truncated file: %v", err)
	}
	os.WriteFile(filepath.Join(rec, "notes.wav"), []byte("x"), 0o644)
	if _, err := ReadFSDD(dir, "mine"); err == nil || !strings.Contains(err.Error(), "notes.wav") {
		t.Errorf("badly named file: %v", err)
	}
	if _, err := ReadFSDD(filepath.Join(dir, "nope"), "mine"); err == nil || !strings.Contains(err.Error(), "no folder") {
		t.Errorf("missing folder: %v", err)
	}

	// AudioMNIST layout with its JSON metadata; TIDIGITS-style tree with speakers.csv.
	am := t.TempDir()
	os.MkdirAll(filepath.Join(am, "data", "01"), 0o755)
	audio.WriteWAV(filepath.Join(am, "data", "01", "5_01_3.wav"), &audio.Sound{Rate: 48000, Samples: x}, audio.PCM16)
	os.WriteFile(filepath.Join(am, "data", "audioMNIST_meta.txt"), []byte(`{"01": {"accent": "german", "age": 30, "gender": "female"}}`), 0o644)
	a, err := ReadAudioMNIST(am)
	if err != nil || len(a.Items) != 1 || a.Items[0].Digit != 5 || a.Items[0].Index != 3 || a.Speakers["01"].Gender != "female" {
		t.Fatalf("audiomnist: %v %+v", err, a)
	}
	td := t.TempDir()
	os.MkdirAll(filepath.Join(td, "man", "ab"), 0o755)
	for _, n := range []string{"1a.wav", "1b.wav", "za.wav", "oa.wav", "12a.wav"} {
		audio.WriteWAV(filepath.Join(td, "man", "ab", n), &audio.Sound{Rate: 20000, Samples: x}, audio.PCM16)
	}
	os.WriteFile(filepath.Join(td, "speakers.csv"), []byte("speaker,gender,age\nab,M,child\n"), 0o644)
	tc, err := ReadTIDIGITSTree(td)
	if err != nil || len(tc.Items) != 4 || tc.Speakers["ab"].Age != "child" {
		t.Fatalf("tidigits: %v %+v", err, tc)
	}
	zeros := 0
	for _, it := range tc.Items {
		if it.Digit == 0 {
			zeros++
		}
	}
	if zeros != 2 {
		t.Errorf("tidigits: %d zeros (z and o), want 2", zeros)
	}
}

func TestDrawUnits(t *testing.T) {
	// 30 units of 10 samples (the digits 0..9): draws are whole units, class-balanced.
	var units, y []int
	for u := range 30 {
		for d := range 10 {
			units = append(units, 100+u)
			y = append(y, d)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10, 50, 300} {
		idx, err := DrawUnits(rng, units, n, DrawOptions{})
		if err != nil {
			t.Fatal(err)
		}
		per := map[int]int{}
		cls := ClassCounts(func() []int {
			var v []int
			for _, i := range idx {
				v = append(v, y[i])
			}
			return v
		}(), 10)
		for _, i := range idx {
			per[units[i]]++
		}
		for u, k := range per {
			if k != 10 {
				t.Errorf("n=%d: unit %d has %d of its 10 samples", n, u, k)
			}
		}
		for c, k := range cls {
			if k != n/10 {
				t.Errorf("n=%d: class %d drawn %d times, want %d", n, c, k, n/10)
			}
		}
	}
	if _, err := DrawUnits(rng, units, 25, DrawOptions{What: "training size"}); err == nil || !strings.Contains(err.Error(), "multiple of 10") {
		t.Errorf("n=25: %v", err)
	}
	if _, err := DrawUnits(rng, units, 310, DrawOptions{}); err == nil {
		t.Error("n larger than the pool: no error")
	}
}

// BenchmarkFSDDSpectrograms reports the throughput of reading FSDD recordings and
// computing their spectrograms over GOMAXPROCS workers (files/s).
func BenchmarkFSDDSpectrograms(b *testing.B) {
	c, err := ReadFSDD(fsddDir(b), "fsdd")
	if err != nil {
		b.Fatal(err)
	}
	items := c.Items
	units := make([]int, len(items))
	for b.Loop() {
		if _, err := AudioDataset(context.Background(), "fsdd", items, units, AudioOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(items))*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}

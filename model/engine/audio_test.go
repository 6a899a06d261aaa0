package engine

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gitui/model"
)

// TestAudioSpecBadInput: each mistake is refused with one line naming the field and the fix.
func TestAudioSpecBadInput(t *testing.T) {
	base := func() *model.Spec {
		return &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "fsdd", Audio: &model.AudioSpec{Split: "utterance"}},
			Group: model.GroupSpec{Kind: "pitch-tempo"}, Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}}, Sizes: []int{100}, Seed: 1}
	}
	cases := []struct {
		want string
		edit func(s *model.Spec)
	}{
		{"multiple of 10", func(s *model.Spec) { s.Sizes = []int{105} }},
		{"data.audio.split \"pitchy\" is unknown", func(s *model.Spec) { s.Data.Audio.Split = "pitchy" }},
		{"data.audio applies to spoken-digit data", func(s *model.Spec) {
			s.Data.Name = "mnist"
			s.Group.Kind = "none"
			s.Methods[0] = model.Method{Features: "raw"}
		}},
		{"group pitch-tempo acts on spectrograms of spoken digits", func(s *model.Spec) { s.Data = model.DataSpec{Name: "mnist"} }},
		{"test_process \"speed\" is unknown", func(s *model.Spec) { s.Data.Audio.TestProcess = "speed" }},
		{"needs 12 bands per octave", func(s *model.Spec) { s.Data.Audio.BandsPerOctave = 24; s.Data.Audio.Bands = 24 }},
		{"above the Nyquist frequency", func(s *model.Spec) { s.Data.Audio.Bands = 80 }},
		{"test_corpus \"\" is unknown", func(s *model.Spec) { s.Data.Audio.Split = "corpus" }},
		{"data.path is empty", func(s *model.Spec) { s.Data.Name = "audiomnist" }},
		{"group applies to features cdf and moments, not raw", func(s *model.Spec) {
			s.Methods = append(s.Methods, model.Method{Features: "raw", Group: &model.GroupSpec{Kind: "none"}})
		}},
	}
	for _, c := range cases {
		s := base()
		c.edit(s)
		err := resolve(s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want %q, got %v", c.want, err)
		}
	}
	if err := resolve(base()); err != nil {
		t.Errorf("the base spec is refused: %v", err)
	}
}

// TestLoadAudioErrors: data problems are *InputError with a message naming the fix.
func TestLoadAudioErrors(t *testing.T) {
	empty := t.TempDir()
	_, _, err := LoadData(model.DataSpec{Name: "spoken-digits"}, empty, 1)
	var ie *model.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "gitui data synth spoken-digits") {
		t.Errorf("missing synthetic corpus: %v", err)
	}
	d := os.Getenv("GITUI_DATA")
	if _, err := os.Stat(filepath.Join(d, "fsdd", "recordings")); d == "" || err != nil {
		t.Skip("GITUI_DATA has no fsdd/: the FSDD cases are skipped")
	}
	_, _, err = LoadData(model.DataSpec{Name: "fsdd", Audio: &model.AudioSpec{Split: "gender"}}, d, 1)
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "gender split needs both") {
		t.Errorf("gender split of an all-male corpus: %v", err)
	}
	_, _, err = LoadData(model.DataSpec{Name: "fsdd", Audio: &model.AudioSpec{Split: "speaker", TestSpeakers: []string{"nobody"}}}, d, 1)
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), `"nobody" is not a speaker`) {
		t.Errorf("unknown test speaker: %v", err)
	}
	// The speaker split holds out exactly the named speaker; pools keep whole units.
	pool, test, err := LoadData(model.DataSpec{Name: "fsdd", Pool: 200, TestSize: 100, Audio: &model.AudioSpec{Split: "speaker", TestSpeakers: []string{"theo"}}}, d, 1)
	if err != nil {
		t.Fatal(err)
	}
	if pool.Len() != 200 || test.Len() != 100 || len(pool.Units) != 200 || pool.Dim() != 4096 {
		t.Fatalf("pool %d (units %d), test %d, dim %d", pool.Len(), len(pool.Units), test.Len(), pool.Dim())
	}
	per := map[int]int{}
	for _, u := range pool.Units {
		per[u]++
	}
	for u, k := range per {
		if k != 10 {
			t.Errorf("unit %d has %d recordings, want its 10 digits", u, k)
		}
	}
}

// TestAudioListingSize checks that a listing sizes an audio run as its load does (the
// same split, caps and seed: the recordings kept and the spectrogram's shape) without
// reading a recording, and knows nothing of a corpus that is not there or of other data.
func TestAudioListingSize(t *testing.T) {
	if _, ok := AudioListingSize(model.DataSpec{Name: "spoken-digits"}, t.TempDir(), 1); ok {
		t.Error("a size for a synthetic corpus that was never made")
	}
	if _, ok := AudioListingSize(model.DataSpec{Name: "mnist"}, t.TempDir(), 1); ok {
		t.Error("an audio size for mnist")
	}
	d := os.Getenv("GITUI_DATA")
	if _, err := os.Stat(filepath.Join(d, "fsdd", "recordings")); d == "" || err != nil {
		t.Skip("GITUI_DATA has no fsdd/: the FSDD cases are skipped")
	}
	for _, ds := range []model.DataSpec{
		{Name: "fsdd", Pool: 200, TestSize: 100, Audio: &model.AudioSpec{Split: "speaker", TestSpeakers: []string{"theo"}}},
		{Name: "fsdd", Pool: 150, TestSize: 60, Audio: &model.AudioSpec{Split: "utterance", TestFraction: 0.2}},
	} {
		size, ok := AudioListingSize(ds, d, 3)
		pool, test, err := LoadData(ds, d, 3)
		if err != nil || !ok {
			t.Fatalf("%+v: load %v, listing ok %v", ds.Audio, err, ok)
		}
		if size.Pool != pool.Len() || size.Test != test.Len() || !slices.Equal(size.Shape, pool.Shape) || size.Classes != len(pool.Classes) {
			t.Errorf("%+v: listing %+v, load pool %d test %d shape %v classes %d", ds.Audio, size, pool.Len(), test.Len(), pool.Shape, len(pool.Classes))
		}
	}
}

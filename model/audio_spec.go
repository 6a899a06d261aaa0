package model

import (
	"fmt"
	"slices"
	"strings"

	"gitui/core/audio"
	"gitui/core/data"
)

// AudioSpec configures spoken-digit data (data.name spoken-digits, fsdd, audiomnist,
// tidigits): the train/test split, a signal-processing step on the test recordings, and
// the representation. Zero values mean the defaults given per field; the spectrogram
// parameters default to audio.DefaultSpec (8 kHz; 32 ms Hann frames every 16 ms; 64
// semitone bands from 100 Hz; dB above the peak minus 60, clipped at 0; 64 frames).
type AudioSpec struct {
	// Split: "speaker" (test on unseen speakers: TestSpeakers, else a seeded TestFraction
	// of them; the default), "gender" (train on TrainGender, test on the other gender),
	// "rate" (train at espeak-ng speed TrainSpeed, test at the other two; synthetic corpus),
	// "utterance" (the same speakers, other renderings or repetitions: FSDD's own test
	// repetitions 0-4, else a seeded TestFraction of each speaker's units), "corpus" (train
	// on all of data.name, test on all of TestCorpus).
	Split        string   `json:"split,omitempty" yaml:"split,omitempty"`
	TestSpeakers []string `json:"test_speakers,omitempty" yaml:"test_speakers,omitempty"`
	TestFraction float64  `json:"test_fraction,omitempty" yaml:"test_fraction,omitempty"` // 0.25
	TrainGender  string   `json:"train_gender,omitempty" yaml:"train_gender,omitempty"`   // "male"
	TrainSpeed   int      `json:"train_speed,omitempty" yaml:"train_speed,omitempty"`     // 175
	TestCorpus   string   `json:"test_corpus,omitempty" yaml:"test_corpus,omitempty"`     // split corpus: fsdd, spoken-digits, ...
	// TestProcess transforms every test recording by real signal processing before its
	// spectrogram: "tempo" (audio.TimeStretch at speed 0.5 or 2, alternately) or "pitch"
	// (audio.PitchShift by -400 or +400 cents, alternately).
	TestProcess string `json:"test_process,omitempty" yaml:"test_process,omitempty"`
	// Representation: "spectrogram" (the default) or "waveform" (the trimmed waveform
	// centred in one second, a baseline).
	Representation string  `json:"representation,omitempty" yaml:"representation,omitempty"`
	Rate           int     `json:"rate,omitempty" yaml:"rate,omitempty"`
	FrameMs        float64 `json:"frame_ms,omitempty" yaml:"frame_ms,omitempty"`
	HopMs          float64 `json:"hop_ms,omitempty" yaml:"hop_ms,omitempty"`
	Bands          int     `json:"bands,omitempty" yaml:"bands,omitempty"`
	MinHz          float64 `json:"min_hz,omitempty" yaml:"min_hz,omitempty"`
	BandsPerOctave int     `json:"bands_per_octave,omitempty" yaml:"bands_per_octave,omitempty"`
	Frames         int     `json:"frames,omitempty" yaml:"frames,omitempty"`
	FloorDB        float64 `json:"floor_db,omitempty" yaml:"floor_db,omitempty"`
}

// AudioDataNames are the spoken-digit data sets; AudioSplits the splits of AudioSpec.
var (
	AudioDataNames = []string{"spoken-digits", "fsdd", "audiomnist", "tidigits"}
	AudioSplits    = []string{"speaker", "gender", "rate", "utterance", "corpus"}
)

// AudioDefaults returns a with its defaults filled in (a may be nil).
func AudioDefaults(a *AudioSpec) AudioSpec {
	var out AudioSpec
	if a != nil {
		out = *a
	}
	if out.Split == "" {
		out.Split = "speaker"
	}
	if out.TestFraction == 0 {
		out.TestFraction = 0.25
	}
	if out.TrainGender == "" {
		out.TrainGender = "male"
	}
	if out.TrainSpeed == 0 {
		out.TrainSpeed = 175
	}
	if out.Representation == "" {
		out.Representation = "spectrogram"
	}
	return out
}

func (a AudioSpec) Params() audio.SpecParams {
	return audio.SpecParams{Rate: a.Rate, FrameMs: a.FrameMs, HopMs: a.HopMs, Bands: a.Bands, MinHz: a.MinHz,
		BandsPerOctave: a.BandsPerOctave, Frames: a.Frames, FloorDB: a.FloorDB}.WithDefaults()
}

// validateAudio checks data.audio and the fields that spoken-digit data constrain.
func (s *Spec) validateAudio(bad func(field, format string, a ...any)) {
	isAudio := in(s.Data.Name, AudioDataNames)
	for i, m := range s.Methods {
		if m.Group == nil {
			continue
		}
		if !in(m.Group.Kind, GroupKinds) {
			bad(fmt.Sprintf("methods.%d.group.kind", i), "methods.%d (%s): group.kind %q is unknown: use one of %s", i, m.Name, m.Group.Kind, strings.Join(GroupKinds, ", "))
		}
		validateFileGroup(*m.Group, fmt.Sprintf("methods.%d.group", i), bad)
		if m.Group.Size < 0 {
			bad(fmt.Sprintf("methods.%d.group.size", i), "methods.%d (%s): group.size %d is negative: use 0 for the whole set or 1 for the identity only", i, m.Name, m.Group.Size)
		}
		if m.Group.Kind == GroupRotationShift {
			for _, p := range affineProblems(*m.Group, fmt.Sprintf("methods.%d.group", i)) {
				bad(p.Field, "%s", p.Msg)
			}
		} else if m.Group.Shears != nil || m.Group.Scales != nil {
			bad(fmt.Sprintf("methods.%d.group.%s", i, affineKey(*m.Group)), "methods.%d (%s): group.shears and group.scales apply to group kind rotation+shift, not %s: drop them", i, m.Name, m.Group.Kind)
		}
	}
	ptKind := IsPitchTempo
	usesPT := ptKind(s.Group.Kind)
	for _, m := range s.Methods {
		usesPT = usesPT || (m.Group != nil && ptKind(m.Group.Kind))
	}
	if !isAudio {
		if s.Data.Audio != nil {
			bad("data.audio", "data.audio applies to spoken-digit data (%s), not %q: drop it", strings.Join(AudioDataNames, ", "), s.Data.Name)
		}
		if usesPT {
			bad("data.name", "group pitch-tempo acts on spectrograms of spoken digits: use data %s", strings.Join(AudioDataNames, ", "))
		}
		return
	}
	a := AudioDefaults(s.Data.Audio)
	if !in(a.Split, AudioSplits) {
		bad("data.audio.split", "data.audio.split %q is unknown: use one of %s", a.Split, strings.Join(AudioSplits, ", "))
	}
	if !(a.TestFraction > 0 && a.TestFraction < 1) {
		bad("data.audio.test_fraction", "data.audio.test_fraction %g is out of range: use a fraction strictly between 0 and 1, e.g. 0.25", a.TestFraction)
	}
	if !in(a.TrainGender, []string{"male", "female"}) {
		bad("data.audio.train_gender", "data.audio.train_gender %q is unknown: use male or female", a.TrainGender)
	}
	if !in(a.TestProcess, []string{"", "tempo", "pitch"}) {
		bad("data.audio.test_process", "data.audio.test_process %q is unknown: use tempo or pitch (or leave it out)", a.TestProcess)
	}
	if !in(a.Representation, []string{"spectrogram", "waveform"}) {
		bad("data.audio.representation", "data.audio.representation %q is unknown: use spectrogram or waveform", a.Representation)
	}
	if a.Split == "corpus" && !in(a.TestCorpus, AudioDataNames) {
		bad("data.audio.test_corpus", "data.audio.test_corpus %q is unknown: a corpus split names the test corpus, one of %s", a.TestCorpus, strings.Join(AudioDataNames, ", "))
	}
	if a.Split != "corpus" && a.TestCorpus != "" {
		bad("data.audio.test_corpus", "data.audio.test_corpus is set but the split is %s: use split corpus or drop test_corpus", a.Split)
	}
	if a.Split == "rate" && !slices.Contains(data.SynthSpeeds, a.TrainSpeed) {
		bad("data.audio.train_speed", "data.audio.train_speed %d is not a speed of the corpus: use one of %v", a.TrainSpeed, data.SynthSpeeds)
	}
	if (s.Data.Name == "audiomnist" || s.Data.Name == "tidigits") && s.Data.Path == "" {
		bad("data.path", "data.path is empty: %s is not shipped; point data.path at your copy of it", s.Data.Name)
	}
	if err := a.Params().Check(); err != nil {
		bad("data.audio", "data.%v", err)
	}
	if usesPT && a.Params().BandsPerOctave != 12 {
		bad("data.audio.bands_per_octave", "data.audio.bands_per_octave %d: group pitch-tempo shifts by semitones and needs 12 bands per octave: drop bands_per_octave", a.Params().BandsPerOctave)
	}
	if usesPT && a.Representation == "waveform" {
		bad("data.audio.representation", "group pitch-tempo acts on spectrograms, not waveforms: drop representation waveform, or use group none with raw features")
	}
	unitSize := func(n int, field, key string) {
		if n%10 != 0 {
			bad(key, "%s %d: spoken-digit draws take whole (speaker, rendering) units of 10 digits: use a multiple of 10", field, n)
		}
	}
	if s.Protocol == ProtocolCurve {
		for _, n := range s.Sizes {
			unitSize(n, "training size", "sizes")
		}
	}
	if s.Grid != nil {
		unitSize(s.Grid.Size, "grid.size", "grid.size")
	}
	if s.Protocol == ProtocolGroupSize && len(s.Sizes) == 1 {
		unitSize(s.Sizes[0], "training size", "sizes")
	}
}

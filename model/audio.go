package model

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
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

// audioDefaults returns a with its defaults filled in (a may be nil).
func audioDefaults(a *AudioSpec) AudioSpec {
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

func (a AudioSpec) params() audio.SpecParams {
	return audio.SpecParams{Rate: a.Rate, FrameMs: a.FrameMs, HopMs: a.HopMs, Bands: a.Bands, MinHz: a.MinHz,
		BandsPerOctave: a.BandsPerOctave, Frames: a.Frames, FloorDB: a.FloorDB}.WithDefaults()
}

// validateAudio checks data.audio and the fields that spoken-digit data constrain.
func (s *Spec) validateAudio(bad func(string, ...any)) {
	isAudio := in(s.Data.Name, AudioDataNames)
	for i, m := range s.Methods {
		if m.Group == nil {
			continue
		}
		if !in(m.Group.Kind, GroupKinds) {
			bad("methods.%d (%s): group.kind %q is unknown: use one of %s", i, m.Name, m.Group.Kind, strings.Join(GroupKinds, ", "))
		}
		validateFileGroup(*m.Group, fmt.Sprintf("methods.%d.group", i), bad)
		if m.Group.Size < 0 {
			bad("methods.%d (%s): group.size %d is negative: use 0 for the whole set or 1 for the identity only", i, m.Name, m.Group.Size)
		}
		if m.Group.Kind == "rotation+shift" {
			for _, p := range affineProblems(*m.Group, fmt.Sprintf("methods.%d.group", i)) {
				bad("%s", p)
			}
		} else if m.Group.Shears != nil || m.Group.Scales != nil {
			bad("methods.%d (%s): group.shears and group.scales apply to group kind rotation+shift, not %s: drop them", i, m.Name, m.Group.Kind)
		}
	}
	ptKind := func(k string) bool { return k == "pitch-tempo" || k == "pitch-tempo-paper" }
	usesPT := ptKind(s.Group.Kind)
	for _, m := range s.Methods {
		usesPT = usesPT || (m.Group != nil && ptKind(m.Group.Kind))
	}
	if !isAudio {
		if s.Data.Audio != nil {
			bad("data.audio applies to spoken-digit data (%s), not %q: drop it", strings.Join(AudioDataNames, ", "), s.Data.Name)
		}
		if usesPT {
			bad("group pitch-tempo acts on spectrograms of spoken digits: use data %s", strings.Join(AudioDataNames, ", "))
		}
		return
	}
	a := audioDefaults(s.Data.Audio)
	if !in(a.Split, AudioSplits) {
		bad("data.audio.split %q is unknown: use one of %s", a.Split, strings.Join(AudioSplits, ", "))
	}
	if !(a.TestFraction > 0 && a.TestFraction < 1) {
		bad("data.audio.test_fraction %g is out of range: use a fraction strictly between 0 and 1, e.g. 0.25", a.TestFraction)
	}
	if !in(a.TrainGender, []string{"male", "female"}) {
		bad("data.audio.train_gender %q is unknown: use male or female", a.TrainGender)
	}
	if !in(a.TestProcess, []string{"", "tempo", "pitch"}) {
		bad("data.audio.test_process %q is unknown: use tempo or pitch (or leave it out)", a.TestProcess)
	}
	if !in(a.Representation, []string{"spectrogram", "waveform"}) {
		bad("data.audio.representation %q is unknown: use spectrogram or waveform", a.Representation)
	}
	if a.Split == "corpus" && !in(a.TestCorpus, AudioDataNames) {
		bad("data.audio.test_corpus %q is unknown: a corpus split names the test corpus, one of %s", a.TestCorpus, strings.Join(AudioDataNames, ", "))
	}
	if a.Split != "corpus" && a.TestCorpus != "" {
		bad("data.audio.test_corpus is set but the split is %s: use split corpus or drop test_corpus", a.Split)
	}
	if a.Split == "rate" && !slices.Contains(data.SynthSpeeds, a.TrainSpeed) {
		bad("data.audio.train_speed %d is not a speed of the corpus: use one of %v", a.TrainSpeed, data.SynthSpeeds)
	}
	if (s.Data.Name == "audiomnist" || s.Data.Name == "tidigits") && s.Data.Path == "" {
		bad("data.path is empty: %s is not shipped; point data.path at your copy of it", s.Data.Name)
	}
	if err := a.params().Check(); err != nil {
		bad("data.%v", err)
	}
	if usesPT && a.params().BandsPerOctave != 12 {
		bad("data.audio.bands_per_octave %d: group pitch-tempo shifts by semitones and needs 12 bands per octave: drop bands_per_octave", a.params().BandsPerOctave)
	}
	if usesPT && a.Representation == "waveform" {
		bad("group pitch-tempo acts on spectrograms, not waveforms: drop representation waveform, or use group none with raw features")
	}
	unitSize := func(n int, field string) {
		if n%10 != 0 {
			bad("%s %d: spoken-digit draws take whole (speaker, rendering) units of 10 digits: use a multiple of 10", field, n)
		}
	}
	if s.Protocol == ProtocolCurve {
		for _, n := range s.Sizes {
			unitSize(n, "training size")
		}
	}
	if s.Grid != nil {
		unitSize(s.Grid.Size, "grid.size")
	}
	if s.Protocol == ProtocolGroupSize && len(s.Sizes) == 1 {
		unitSize(s.Sizes[0], "training size")
	}
}

// audioCorpus reads the corpus called name: spoken-digits and fsdd from the data
// directory (or path), audiomnist and tidigits from path.
func audioCorpus(name, path, dataDir string) (*data.AudioCorpus, error) {
	dir := path
	switch name {
	case "spoken-digits", "fsdd":
		if dir == "" {
			d, err := data.ResolveDir(dataDir)
			if err != nil {
				return nil, err
			}
			sub := name
			if name == "spoken-digits" {
				sub = data.SpokenDigitsDir
			}
			dir = filepath.Join(d, sub)
		}
		c, err := data.ReadFSDD(dir, name)
		if err != nil && name == "spoken-digits" {
			return nil, fmt.Errorf("%w: make the corpus with `gitui data synth spoken-digits --data %s`", err, filepath.Dir(dir))
		}
		if err != nil {
			return nil, fmt.Errorf("%w: put the Free Spoken Digit Dataset's recordings/ in %s (or pass --data)", err, dir)
		}
		return c, nil
	case "audiomnist":
		return data.ReadAudioMNIST(dir)
	case "tidigits":
		return data.ReadTIDIGITSTree(dir)
	}
	return nil, fmt.Errorf("data.name %q is not a spoken-digit corpus: use one of %v", name, AudioDataNames)
}

// unitKey is a sampling unit: a speaker's repetition or rendering index.
type unitKey struct {
	speaker string
	index   int
}

// loadAudio reads the spoken-digit corpus of d, splits it by d.Audio, caps the pool and
// the test set by whole units (data.pool, data.test_size; seeded), and computes the
// spectrograms (or waveforms) of what is kept. The pool carries its sampling units. A
// cancelled ctx stops the reading and returns ctx.Err() as it is; progress (may be nil)
// gets the recordings read over those of the pool and the test set.
func loadAudio(ctx context.Context, d DataSpec, dataDir string, seed uint64, progress func(done, total int)) (pool, test *data.Dataset, err error) {
	a := audioDefaults(d.Audio)
	c, err := audioCorpus(d.Name, d.Path, dataDir)
	if err != nil {
		return nil, nil, inputErr(err)
	}
	rng := rand.New(rand.NewPCG(seed, 0xa0d10))
	var trainItems, testItems []data.AudioItem
	speakers := make([]string, 0, len(c.Speakers))
	for id := range c.Speakers {
		speakers = append(speakers, id)
	}
	slices.Sort(speakers)
	switch a.Split {
	case "speaker":
		test := map[string]bool{}
		for _, s := range a.TestSpeakers {
			if _, ok := c.Speakers[s]; !ok {
				return nil, nil, inputErr(fmt.Errorf("data.audio.test_speakers: %q is not a speaker of %s: use some of %s", s, d.Name, strings.Join(firstFew(speakers, 8), ", ")))
			}
			test[s] = true
		}
		if len(test) == 0 {
			k := max(1, int(a.TestFraction*float64(len(speakers))+0.5))
			for _, i := range rng.Perm(len(speakers))[:k] {
				test[speakers[i]] = true
			}
		}
		if len(test) == len(speakers) {
			return nil, nil, inputErr(fmt.Errorf("data.audio: every speaker of %s is a test speaker: leave some for training", d.Name))
		}
		for _, it := range c.Items {
			if test[it.Speaker] {
				testItems = append(testItems, it)
			} else {
				trainItems = append(trainItems, it)
			}
		}
	case "gender":
		for _, it := range c.Items {
			switch g := c.Speakers[it.Speaker].Gender; {
			case g == a.TrainGender:
				trainItems = append(trainItems, it)
			case g == "male" || g == "female":
				testItems = append(testItems, it)
			}
		}
		if len(trainItems) == 0 || len(testItems) == 0 {
			return nil, nil, inputErr(fmt.Errorf("data.audio.split gender: %s has %d recordings of %s speakers and %d of the other gender: a gender split needs both (use spoken-digits, or a corpus whose speakers.csv gives genders)", d.Name, len(trainItems), a.TrainGender, len(testItems)))
		}
	case "rate":
		if c.Renders == nil {
			return nil, nil, inputErr(fmt.Errorf("data.audio.split rate: %s has no renders.csv giving each rendering's speed: use spoken-digits, or split speaker or utterance with test_process tempo", d.Name))
		}
		for _, it := range c.Items {
			if c.Renders[it.Index].Speed == a.TrainSpeed {
				trainItems = append(trainItems, it)
			} else {
				testItems = append(testItems, it)
			}
		}
	case "utterance":
		test := map[unitKey]bool{}
		if d.Name == "fsdd" && (d.Audio == nil || d.Audio.TestFraction == 0) {
			for _, it := range c.Items {
				test[unitKey{it.Speaker, it.Index}] = it.Index < 5 // the dataset's own test repetitions
			}
		} else {
			bySpeaker := map[string][]int{}
			for _, it := range c.Items {
				u := bySpeaker[it.Speaker]
				if !slices.Contains(u, it.Index) {
					bySpeaker[it.Speaker] = append(u, it.Index)
				}
			}
			for _, s := range speakers {
				idx := bySpeaker[s]
				slices.Sort(idx)
				k := max(1, int(a.TestFraction*float64(len(idx))+0.5))
				if k >= len(idx) {
					continue
				}
				for _, i := range rng.Perm(len(idx))[:k] {
					test[unitKey{s, idx[i]}] = true
				}
			}
		}
		for _, it := range c.Items {
			if test[unitKey{it.Speaker, it.Index}] {
				testItems = append(testItems, it)
			} else {
				trainItems = append(trainItems, it)
			}
		}
	case "corpus":
		tc, err := audioCorpus(a.TestCorpus, d.TestPath, dataDir)
		if err != nil {
			return nil, nil, inputErr(err)
		}
		trainItems, testItems = c.Items, tc.Items
	}
	if len(trainItems) == 0 || len(testItems) == 0 {
		return nil, nil, inputErr(fmt.Errorf("data.audio.split %s of %s leaves %d training and %d test recordings: choose another split", a.Split, d.Name, len(trainItems), len(testItems)))
	}
	trainItems, trainUnits := capUnits(trainItems, d.Pool, rng)
	testItems, _ = capUnits(testItems, d.TestSize, rng)
	opt := data.AudioOptions{Spec: a.params(), Waveform: a.Representation == "waveform"}
	total := len(trainItems) + len(testItems)
	if progress != nil {
		opt.Progress = func(done, _ int) { progress(done, total) }
	}
	if pool, err = data.AudioDataset(ctx, d.Name+"-"+a.Split+"-train", trainItems, trainUnits, opt); err != nil {
		return nil, nil, audioErr(ctx, err)
	}
	if progress != nil {
		opt.Progress = func(done, _ int) { progress(len(trainItems)+done, total) }
	}
	rate := opt.Spec.Rate
	switch a.TestProcess {
	case "tempo":
		opt.Process = func(i int, x []float64) []float64 {
			return audio.TimeStretch(x, rate, []float64{0.5, 2}[i%2])
		}
	case "pitch":
		opt.Process = func(i int, x []float64) []float64 {
			return audio.PitchShift(x, rate, []float64{-400, 400}[i%2])
		}
	}
	name := d.Name + "-" + a.Split + "-test"
	if a.Split == "corpus" {
		name = a.TestCorpus + "-test"
	}
	if test, err = data.AudioDataset(ctx, name, testItems, nil, opt); err != nil {
		return nil, nil, audioErr(ctx, err)
	}
	test.Units = nil
	return pool, test, nil
}

// audioErr returns ctx's error as it is when the reading stopped because ctx was
// cancelled (not bad input), else err as an *InputError (a file that cannot be read).
func audioErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return err
	}
	return inputErr(err)
}

// capUnits returns the items of a seeded random selection of whole units holding at most
// n items (all of them when n is 0 or covers them), in their original order, and the unit
// number of each returned item.
func capUnits(items []data.AudioItem, n int, rng *rand.Rand) ([]data.AudioItem, []int) {
	ids := map[unitKey]int{}
	var sizes []int
	for _, it := range items {
		k := unitKey{it.Speaker, it.Index}
		if _, ok := ids[k]; !ok {
			ids[k] = len(sizes)
			sizes = append(sizes, 0)
		}
		sizes[ids[k]]++
	}
	keep := make([]bool, len(sizes))
	if n <= 0 || n >= len(items) {
		for i := range keep {
			keep[i] = true
		}
	} else {
		total := 0
		for _, u := range rng.Perm(len(sizes)) {
			if total+sizes[u] <= n {
				keep[u] = true
				total += sizes[u]
			}
		}
	}
	var out []data.AudioItem
	var units []int
	for _, it := range items {
		u := ids[unitKey{it.Speaker, it.Index}]
		if keep[u] {
			out = append(out, it)
			units = append(units, u)
		}
	}
	return out, units
}

func firstFew(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), "...")
	}
	return s
}

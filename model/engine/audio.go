package engine

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
	"gitui/model"
)

func init() {
	for _, name := range model.AudioDataNames {
		data.Register(name, func(ctx context.Context, r data.LoadRequest) (pool, test *data.Dataset, err error) {
			d, _ := r.Options.(model.DataSpec)
			d.Name = r.Name
			return loadAudio(ctx, d, r.Dir, r.Seed, r.Progress)
		})
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
	return nil, fmt.Errorf("data.name %q is not a spoken-digit corpus: use one of %v", name, model.AudioDataNames)
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
func loadAudio(ctx context.Context, d model.DataSpec, dataDir string, seed uint64, progress func(done, total int)) (pool, test *data.Dataset, err error) {
	a := model.AudioDefaults(d.Audio)
	sp, err := splitAudio(d, dataDir, seed)
	if err != nil {
		return nil, nil, err
	}
	trainItems, trainUnits, testItems := sp.train, sp.units, sp.test
	opt := data.AudioOptions{Spec: a.Params(), Waveform: a.Representation == "waveform"}
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

// audioSplit is the recordings a run of an audio data set reads: the training and test
// items after the split and the caps, and the training items' sampling units.
type audioSplit struct {
	train, test []data.AudioItem
	units       []int
}

// splitAudio reads the corpus of d (its file list and speakers, no recording) and splits
// it by d.Audio and caps the pool and the test set by whole units (data.pool,
// data.test_size), seeded: what loadAudio then reads, and what a listing's size counts.
func splitAudio(d model.DataSpec, dataDir string, seed uint64) (audioSplit, error) {
	a := model.AudioDefaults(d.Audio)
	c, err := audioCorpus(d.Name, d.Path, dataDir)
	if err != nil {
		return audioSplit{}, inputErr(err)
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
				return audioSplit{}, inputErr(fmt.Errorf("data.audio.test_speakers: %q is not a speaker of %s: use some of %s", s, d.Name, strings.Join(firstFew(speakers, 8), ", ")))
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
			return audioSplit{}, inputErr(fmt.Errorf("data.audio: every speaker of %s is a test speaker: leave some for training", d.Name))
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
			return audioSplit{}, inputErr(fmt.Errorf("data.audio.split gender: %s has %d recordings of %s speakers and %d of the other gender: a gender split needs both (use spoken-digits, or a corpus whose speakers.csv gives genders)", d.Name, len(trainItems), a.TrainGender, len(testItems)))
		}
	case "rate":
		if c.Renders == nil {
			return audioSplit{}, inputErr(fmt.Errorf("data.audio.split rate: %s has no renders.csv giving each rendering's speed: use spoken-digits, or split speaker or utterance with test_process tempo", d.Name))
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
			return audioSplit{}, inputErr(err)
		}
		trainItems, testItems = c.Items, tc.Items
	}
	if len(trainItems) == 0 || len(testItems) == 0 {
		return audioSplit{}, inputErr(fmt.Errorf("data.audio.split %s of %s leaves %d training and %d test recordings: choose another split", a.Split, d.Name, len(trainItems), len(testItems)))
	}
	trainItems, trainUnits := capUnits(trainItems, d.Pool, rng)
	testItems, _ = capUnits(testItems, d.TestSize, rng)
	return audioSplit{train: trainItems, test: testItems, units: trainUnits}, nil
}

// AudioListingSize is the DataSize of a run of an audio data set (d one of
// model.AudioDataNames) on the corpus in dataDir: the recordings its split and caps keep
// (the corpus's file list and speakers are read, no recording) and the shape of a
// spectrogram or waveform by d.Audio; ok is false when d is not audio or the corpus is
// not there.
func AudioListingSize(d model.DataSpec, dataDir string, seed uint64) (DataSize, bool) {
	if !slices.Contains(model.AudioDataNames, d.Name) {
		return DataSize{}, false
	}
	sp, err := splitAudio(d, dataDir, seed)
	if err != nil {
		return DataSize{}, false
	}
	a := model.AudioDefaults(d.Audio)
	p := a.Params()
	shape := []int{p.Bands, p.Frames}
	if a.Representation == "waveform" {
		shape = []int{p.Rate}
	}
	return DataSize{Pool: len(sp.train), Test: len(sp.test), Shape: shape, Classes: 10}, true
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

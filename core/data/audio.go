package data

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"gitui/core/audio"
)

// AudioItem is one recording of a spoken digit.
type AudioItem struct {
	Path    string // the WAV file
	Digit   int    // 0..9
	Speaker string // speaker id, as in the file name
	Index   int    // repetition (FSDD, AudioMNIST) or rendering (synthetic corpus) index
}

// Speaker is what a corpus says about one speaker; empty fields are unknown.
type Speaker struct {
	ID      string
	Gender  string // "male", "female" (lower case)
	Age     string // e.g. "adult", "child", or years
	Accent  string
	Variant string // synthetic corpus: the espeak-ng voice variant
}

// Render is one rendering of the synthetic corpus: espeak-ng's pitch (-p) and speed
// (-s, words per minute).
type Render struct {
	Index, Pitch, Speed int
}

// AudioCorpus is a corpus of spoken digits: its recordings, its speakers and, for the
// synthetic corpus, its renderings.
type AudioCorpus struct {
	Name     string
	Dir      string
	Items    []AudioItem
	Speakers map[string]Speaker
	Renders  map[int]Render // nil unless the corpus has renders.csv
}

// fsddName matches FSDD file names, {digit}_{speaker}_{index}.wav.
var fsddName = regexp.MustCompile(`^([0-9])_([A-Za-z0-9-]+)_([0-9]+)\.wav$`)

// ReadFSDD reads a corpus in the layout of the Free Spoken Digit Dataset: dir/recordings/
// holds {digit}_{speaker}_{index}.wav; dir/speakers.csv (optional) has a header naming
// the columns speaker and, optionally, gender, age, accent and variant; dir/renders.csv
// (the synthetic corpus) has index, pitch, speed. Files whose names do not match are an
// error naming one of them; a missing folder is an error wrapping ErrNotFound. Items are
// sorted by speaker, index, digit.
func ReadFSDD(dir, name string) (*AudioCorpus, error) {
	rec := filepath.Join(dir, "recordings")
	ents, err := os.ReadDir(rec)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: no folder %s: %w", name, rec, ErrNotFound)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	c := &AudioCorpus{Name: name, Dir: dir, Speakers: map[string]Speaker{}}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(strings.ToLower(e.Name()), ".wav") {
			continue
		}
		m := fsddName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("%s: file name %s is not {digit}_{speaker}_{index}.wav: rename or remove it", name, filepath.Join(rec, e.Name()))
		}
		d, _ := strconv.Atoi(m[1])
		idx, err := strconv.Atoi(m[3])
		if err != nil {
			return nil, fmt.Errorf("%s: index of %s is too large", name, e.Name())
		}
		c.Items = append(c.Items, AudioItem{Path: filepath.Join(rec, e.Name()), Digit: d, Speaker: m[2], Index: idx})
	}
	if len(c.Items) == 0 {
		return nil, fmt.Errorf("%s: %s holds no WAV recordings: %w", name, rec, ErrNotFound)
	}
	if err := c.readSpeakers(filepath.Join(dir, "speakers.csv")); err != nil {
		return nil, err
	}
	if err := c.readRenders(filepath.Join(dir, "renders.csv")); err != nil {
		return nil, err
	}
	c.sort()
	return c, nil
}

func (c *AudioCorpus) sort() {
	slices.SortFunc(c.Items, func(a, b AudioItem) int {
		if a.Speaker != b.Speaker {
			return strings.Compare(a.Speaker, b.Speaker)
		}
		if a.Index != b.Index {
			return a.Index - b.Index
		}
		return a.Digit - b.Digit
	})
	for _, it := range c.Items {
		if _, ok := c.Speakers[it.Speaker]; !ok {
			c.Speakers[it.Speaker] = Speaker{ID: it.Speaker}
		}
	}
}

// readCSV reads a CSV file with a header; a missing file gives (nil, nil).
func readMetaCSV(path string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.TrimLeadingSpace = true
	head, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header line (%v): the first line names the columns", path, err)
	}
	for i := range head {
		head[i] = strings.ToLower(strings.TrimSpace(head[i]))
	}
	var rows []map[string]string
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %v: fix the CSV", path, line, err)
		}
		row := map[string]string{}
		for i, v := range rec {
			if i < len(head) {
				row[head[i]] = strings.TrimSpace(v)
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}

func (c *AudioCorpus) readSpeakers(path string) error {
	rows, err := readMetaCSV(path)
	if err != nil {
		return err
	}
	for i, r := range rows {
		id := r["speaker"]
		if id == "" {
			return fmt.Errorf("%s: line %d has no speaker: give a speaker column", path, i+2)
		}
		c.Speakers[id] = Speaker{ID: id, Gender: normGender(r["gender"]), Age: r["age"], Accent: r["accent"], Variant: r["variant"]}
	}
	return nil
}

func (c *AudioCorpus) readRenders(path string) error {
	rows, err := readMetaCSV(path)
	if err != nil || rows == nil {
		return err
	}
	c.Renders = map[int]Render{}
	for i, r := range rows {
		idx, e1 := strconv.Atoi(r["index"])
		p, e2 := strconv.Atoi(r["pitch"])
		s, e3 := strconv.Atoi(r["speed"])
		if e1 != nil || e2 != nil || e3 != nil {
			return fmt.Errorf("%s: line %d: index, pitch and speed must be whole numbers", path, i+2)
		}
		c.Renders[idx] = Render{Index: idx, Pitch: p, Speed: s}
	}
	return nil
}

func normGender(g string) string {
	switch strings.ToLower(strings.TrimSpace(g)) {
	case "m", "male", "man", "boy":
		return "male"
	case "f", "female", "woman", "girl":
		return "female"
	}
	return strings.ToLower(strings.TrimSpace(g))
}

// ReadAudioMNIST reads the AudioMNIST layout (Becker et al. 2018): dir/data/{speaker}/
// {digit}_{speaker}_{index}.wav with the speakers' metadata in
// dir/data/audioMNIST_meta.txt (or dir/audioMNIST_meta.txt), a JSON object of speaker
// id → {"gender", "age", "accent", ...}. Recordings are 48 kHz and are resampled by the
// spectrogram step.
func ReadAudioMNIST(dir string) (*AudioCorpus, error) {
	root := filepath.Join(dir, "data")
	if _, err := os.Stat(root); err != nil {
		root = dir
	}
	spk, err := os.ReadDir(root)
	if err != nil {
		return nil, fmt.Errorf("audiomnist: %w: point data.path at the AudioMNIST folder (holding data/01..60)", err)
	}
	c := &AudioCorpus{Name: "audiomnist", Dir: dir, Speakers: map[string]Speaker{}}
	for _, s := range spk {
		if !s.IsDir() {
			continue
		}
		files, err := os.ReadDir(filepath.Join(root, s.Name()))
		if err != nil {
			return nil, fmt.Errorf("audiomnist: %w", err)
		}
		for _, f := range files {
			m := fsddName.FindStringSubmatch(f.Name())
			if m == nil {
				continue
			}
			d, _ := strconv.Atoi(m[1])
			idx, _ := strconv.Atoi(m[3])
			c.Items = append(c.Items, AudioItem{Path: filepath.Join(root, s.Name(), f.Name()), Digit: d, Speaker: m[2], Index: idx})
		}
	}
	if len(c.Items) == 0 {
		return nil, fmt.Errorf("audiomnist: no {digit}_{speaker}_{index}.wav under %s: %w", root, ErrNotFound)
	}
	for _, meta := range []string{filepath.Join(root, "audioMNIST_meta.txt"), filepath.Join(dir, "audioMNIST_meta.txt")} {
		b, err := os.ReadFile(meta)
		if err != nil {
			continue
		}
		var m map[string]map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("audiomnist: %s is not the JSON metadata object (%v): restore the original file", meta, err)
		}
		for id, f := range m {
			str := func(k string) string {
				if v, ok := f[k]; ok {
					return strings.TrimSpace(fmt.Sprint(v))
				}
				return ""
			}
			c.Speakers[id] = Speaker{ID: id, Gender: normGender(str("gender")), Age: str("age"), Accent: str("accent")}
		}
		break
	}
	c.sort()
	return c, nil
}

// tidigitsName matches one-digit utterance files of a TIDIGITS-style tree: the digit
// (0-9, "z" for zero, "o" for oh, read as 0), an optional take letter, ".wav".
var tidigitsName = regexp.MustCompile(`^(?i)([0-9zo])([a-z]?)\.wav$`)

// ReadTIDIGITSTree reads a TIDIGITS-style tree: a folder per speaker (at any depth under
// dir) holding one-digit utterances named {digit}[take].wav ("z" or "0" for zero, "o" for
// oh, also 0), and a metadata CSV dir/speakers.csv with columns speaker, gender and age.
// Multi-digit utterances (longer names) are skipped. The repetition index counts a
// speaker's takes of a digit in name order. TIDIGITS itself is licensed (LDC93S10):
// convert its SPHERE files to WAV first (e.g. `sox in.wav out.wav`).
func ReadTIDIGITSTree(dir string) (*AudioCorpus, error) {
	c := &AudioCorpus{Name: "tidigits", Dir: dir, Speakers: map[string]Speaker{}}
	takes := map[[2]string]int{}
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			return nil
		}
		m := tidigitsName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil
		}
		d := 0
		if ch := strings.ToLower(m[1]); ch != "z" && ch != "o" {
			d, _ = strconv.Atoi(ch)
		}
		spk := filepath.Base(filepath.Dir(p))
		k := [2]string{spk, strconv.Itoa(d)}
		c.Items = append(c.Items, AudioItem{Path: p, Digit: d, Speaker: spk, Index: takes[k]})
		takes[k]++
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("tidigits: %w: point data.path at the tree's root", err)
	}
	if len(c.Items) == 0 {
		return nil, fmt.Errorf("tidigits: no one-digit utterances ({digit}[take].wav) under %s: %w", dir, ErrNotFound)
	}
	if err := c.readSpeakers(filepath.Join(dir, "speakers.csv")); err != nil {
		return nil, err
	}
	c.sort()
	return c, nil
}

// AudioOptions configures AudioDataset.
type AudioOptions struct {
	Spec audio.SpecParams // spectrogram parameters (zero fields: defaults)
	// Waveform, when true, represents each recording by its waveform at Spec.Rate instead:
	// trimmed of silence (40 dB below the peak), centred in a window of one second, unit
	// norm (a baseline: inner products of waveforms carry little digit information).
	Waveform bool
	// Process, when not nil, transforms recording i's waveform (at Spec.Rate) before its
	// spectrogram, e.g. a tempo or pitch change (audio.TimeStretch, audio.PitchShift).
	Process func(i int, x []float64) []float64
	// Progress, when not nil, is called with the number of recordings read so far and
	// len(items), at most about a hundred times and once with done == len(items), never
	// concurrently.
	Progress func(done, total int)
}

// AudioDataset returns the data set of the recordings items: row i is the spectrogram
// (Shape [Bands, Frames]) or waveform (Shape [Rate]) of items[i], label its digit
// (classes "0".."9"), Units[i] = units[i]. Recordings are read, resampled to Spec.Rate,
// processed and transformed over GOMAXPROCS workers. A file that cannot be read gives an
// error naming it. ctx is checked before each recording: once it is cancelled the workers
// stop after the recording they hold (milliseconds) and ctx.Err() is returned.
func AudioDataset(ctx context.Context, name string, items []AudioItem, units []int, opt AudioOptions) (*Dataset, error) {
	p := opt.Spec.WithDefaults()
	if err := p.Check(); err != nil {
		return nil, err
	}
	d := p.Bands * p.Frames
	shape := []int{p.Bands, p.Frames}
	if opt.Waveform {
		d, shape = p.Rate, []int{p.Rate}
	}
	x := make([]float64, len(items)*d)
	var (
		mu         sync.Mutex
		done, last int
	)
	report := func() {
		if opt.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		if step := max(1, len(items)/100); done-last >= step || done == len(items) {
			last = done
			opt.Progress(done, len(items))
		}
	}
	load := func(i int) (*audio.Sound, error) {
		s, err := audio.ReadWAV(items[i].Path)
		if err != nil {
			return nil, err
		}
		if len(s.Samples) == 0 {
			return nil, fmt.Errorf("%s: the recording is empty: remove it", items[i].Path)
		}
		if s.Rate != p.Rate {
			s = &audio.Sound{Rate: p.Rate, Samples: audio.Resample(s.Samples, s.Rate, p.Rate)}
		}
		if opt.Process != nil {
			s.Samples = opt.Process(i, s.Samples)
		}
		report()
		return s, nil
	}
	var err error
	if opt.Waveform {
		err = waveforms(ctx, x, len(items), p.Rate, load)
	} else {
		err = audio.SpectrogramAll(ctx, x, len(items), p, load)
	}
	if err != nil {
		return nil, err
	}
	y := make([]int, len(items))
	for i, it := range items {
		y[i] = it.Digit
	}
	ds := &Dataset{Name: name, X: mat.NewDense(max(len(items), 1), d, x[:max(len(items), 1)*d:max(len(items), 1)*d]), Y: y, Classes: slices.Clone(digitClasses), Shape: shape, Units: slices.Clone(units)}
	if len(items) == 0 {
		ds.X = &mat.Dense{}
	}
	return ds, nil
}

// waveforms fills the rows of dst (n rows of rate values) with the trimmed waveforms,
// centred and scaled to unit norm.
func waveforms(ctx context.Context, dst []float64, n, rate int, load func(int) (*audio.Sound, error)) error {
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		s, err := load(i)
		if err != nil {
			return err
		}
		w := audio.Trim(s.Samples, s.Rate, 40, 10)
		if len(w) > rate {
			w = w[(len(w)-rate)/2:][:rate]
		}
		row := dst[i*rate : (i+1)*rate]
		off := (rate - len(w)) / 2
		copy(row[off:], w)
		var ss float64
		for _, v := range row {
			ss += v * v
		}
		if ss > 0 {
			inv := 1 / math.Sqrt(ss)
			for j := range row {
				row[j] *= inv
			}
		}
	}
	return nil
}

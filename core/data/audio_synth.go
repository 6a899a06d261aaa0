package data

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gitui/core/audio"
)

// SpokenDigitsDir is the folder of the synthetic corpus under a data directory.
const SpokenDigitsDir = "spoken-digits"

// SynthAccents are espeak-ng's English accent voices used for the synthetic corpus (the
// built-in ones, not MBROLA voices, which need separate packages).
var SynthAccents = []string{"en-us", "en", "en-gb-scotland", "en-029", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-us-nyc"}

// synthQuickVariants are the variants of the small default corpus: four declared male
// and four declared female voices, so that the quick corpus has a gender split
// (4 accents × 8 variants = 32 speakers).
var synthQuickVariants = []string{"m1", "m2", "m3", "m4", "f1", "f2", "f3", "f4"}

// SynthPitches and SynthSpeeds are the renderings of each speaker: espeak-ng -p (pitch,
// 0..99) and -s (words per minute); rendering index = 3·pitch index + speed index.
var (
	SynthPitches = []int{25, 50, 75}
	SynthSpeeds  = []int{120, 175, 240}
)

// SynthOptions configures SynthSpokenDigits.
type SynthOptions struct {
	Dir      string // the data directory: the corpus goes to Dir/spoken-digits
	Full     bool   // every accent × every variant (about 800 speakers), else 32 speakers
	Espeak   string // the espeak-ng program ("" finds it on PATH)
	Progress func(done, total int)
}

// SynthReport says what SynthSpokenDigits wrote.
type SynthReport struct {
	Dir      string
	Speakers int
	Files    int
	Dropped  []string // "speaker render": renderings whose cut did not give ten words
	Version  string   // espeak-ng's version line
}

// ErrNoEspeak is returned when espeak-ng is not installed.
var ErrNoEspeak = errors.New("espeak-ng is not installed: install it with `sudo apt-get install espeak-ng` (Debian, Ubuntu) and run the command again")

// digitWords are the words said for the digits 0..9.
var digitWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}

// synthSpeaker is one voice: an accent and a variant.
type synthSpeaker struct {
	id, accent, variant, gender string
}

// SynthSpokenDigits generates the synthetic spoken-digit corpus with espeak-ng in the FSDD
// layout under opt.Dir/spoken-digits (replacing the recordings of an earlier corpus there): recordings/{digit}_{speaker}_{render}.wav (8 kHz,
// 16-bit, trimmed of silence), speakers.csv (speaker, accent, variant, gender),
// renders.csv (index, pitch, speed) and a README.md that labels it synthetic. Speakers are
// the English accent voices × espeak-ng's voice variants (all of them with Full, 32
// otherwise); each says the ten digits at 3 pitches × 3 speeds. The ten digits of a
// rendering are said in one call, with pauses, and cut at the silences (audio.Words);
// a rendering that does not give exactly ten words is said again with longer pauses,
// and dropped (listed in the report) if it still does not. A speaker's gender is the
// variant's declared gender, else "female" when the variant's base pitch is 150 Hz or
// more, else "male" (espeak-ng's default voice is male). The corpus is deterministic for
// one espeak-ng build. Work is spread over GOMAXPROCS workers and stops on ctx.
func SynthSpokenDigits(ctx context.Context, opt SynthOptions) (*SynthReport, error) {
	prog := opt.Espeak
	if prog == "" {
		p, err := exec.LookPath("espeak-ng")
		if err != nil {
			return nil, ErrNoEspeak
		}
		prog = p
	}
	verOut, err := exec.CommandContext(ctx, prog, "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("%s --version: %w: reinstall espeak-ng", prog, err)
	}
	version := strings.TrimSpace(string(verOut))
	dataDir := ""
	if m := regexp.MustCompile(`Data at:\s*(\S+)`).FindStringSubmatch(version); m != nil {
		dataDir = m[1]
	}
	speakers, err := synthSpeakers(dataDir, opt.Full)
	if err != nil {
		return nil, err
	}
	out := filepath.Join(opt.Dir, SpokenDigitsDir)
	rec := filepath.Join(out, "recordings")
	// A corpus made before (quick or full) is replaced, not mixed with this one.
	if err := os.RemoveAll(rec); err != nil {
		return nil, fmt.Errorf("synth: %w: remove %s by hand", err, rec)
	}
	if err := os.MkdirAll(rec, 0o755); err != nil {
		return nil, fmt.Errorf("synth: %w: choose a writable --data directory", err)
	}
	type job struct{ s, p, v int }
	var jobs []job
	for s := range speakers {
		for p := range SynthPitches {
			for v := range SynthSpeeds {
				jobs = append(jobs, job{s, p, v})
			}
		}
	}
	rep := &SynthReport{Dir: out, Speakers: len(speakers), Version: version}
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
		done  int
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if first != nil || next >= len(jobs) {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				if err := ctx.Err(); err != nil {
					mu.Lock()
					first = err
					mu.Unlock()
					return
				}
				sp := speakers[j.s]
				render := 3*j.p + j.v
				words, err := synthRender(ctx, prog, sp, SynthPitches[j.p], SynthSpeeds[j.v])
				mu.Lock()
				if err != nil && first == nil {
					if errors.Is(err, errTenWords) {
						rep.Dropped = append(rep.Dropped, fmt.Sprintf("%s %d", sp.id, render))
						err = nil
					} else {
						first = err
					}
				}
				mu.Unlock()
				if err != nil {
					return
				}
				for d, w := range words {
					p := filepath.Join(rec, fmt.Sprintf("%d_%s_%d.wav", d, sp.id, render))
					if err := audio.WriteWAV(p, &audio.Sound{Rate: 8000, Samples: w}, audio.PCM16); err != nil {
						mu.Lock()
						if first == nil {
							first = fmt.Errorf("synth: %w", err)
						}
						mu.Unlock()
						return
					}
				}
				mu.Lock()
				rep.Files += len(words)
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return rep, first
	}
	slices.Sort(rep.Dropped)
	if err := writeSynthMeta(out, speakers, rep); err != nil {
		return rep, err
	}
	return rep, nil
}

var errTenWords = errors.New("not ten words")

// synthRender says the ten digits with one espeak-ng call and cuts them at the pauses;
// it tries a word gap of 200 ms, then 400 ms. Each word is resampled to 8 kHz and
// trimmed (40 dB below its peak, 10 ms margin).
func synthRender(ctx context.Context, prog string, sp synthSpeaker, pitch, speed int) ([][]float64, error) {
	text := strings.Join(digitWords, ", ")
	var last error
	tmp, err := os.CreateTemp("", "gitui-espeak-*.wav")
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	for _, gap := range []string{"20", "40"} {
		// -w writes a complete file (with --stdout espeak-ng cannot fill in the sizes).
		cmd := exec.CommandContext(ctx, prog, "-v", sp.accent+"+"+sp.variant, "-p", strconv.Itoa(pitch), "-s", strconv.Itoa(speed), "-g", gap, "-w", tmp.Name(), text)
		if b, err := cmd.CombinedOutput(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("espeak-ng -v %s+%s: %w: %s", sp.accent, sp.variant, err, strings.TrimSpace(string(b)))
		}
		s, err := audio.ReadWAV(tmp.Name())
		if err != nil {
			return nil, fmt.Errorf("espeak-ng -v %s+%s output: %w", sp.accent, sp.variant, err)
		}
		segs, err := audio.Words(s.Samples, s.Rate, 10)
		if err != nil {
			last = err
			continue
		}
		words := make([][]float64, 10)
		for i, g := range segs {
			w := audio.Resample(s.Samples[g.Start:g.End], s.Rate, 8000)
			words[i] = append([]float64(nil), audio.Trim(w, 8000, 40, 10)...)
		}
		return words, nil
	}
	return nil, fmt.Errorf("%w: %v", errTenWords, last)
}

// synthSpeakers lists the speakers: accents × variants (all variants found in
// dataDir/voices/!v with Full, else the quick ones on the first 4 accents).
func synthSpeakers(dataDir string, full bool) ([]synthSpeaker, error) {
	accents, variants := SynthAccents[:4], synthQuickVariants
	vdir := filepath.Join(dataDir, "voices", "!v")
	if full {
		accents = SynthAccents
		ents, err := os.ReadDir(vdir)
		if err != nil {
			return nil, fmt.Errorf("synth --full: cannot list espeak-ng's voice variants in %s (%v): reinstall espeak-ng-data", vdir, err)
		}
		variants = nil
		for _, e := range ents {
			if !e.IsDir() {
				variants = append(variants, e.Name())
			}
		}
		slices.Sort(variants)
	}
	safe := regexp.MustCompile(`[^A-Za-z0-9]+`)
	var out []synthSpeaker
	for _, a := range accents {
		for _, v := range variants {
			out = append(out, synthSpeaker{
				id:      safe.ReplaceAllString(a, "") + "-" + safe.ReplaceAllString(v, ""),
				accent:  a,
				variant: v,
				gender:  variantGender(filepath.Join(vdir, v)),
			})
		}
	}
	return out, nil
}

// variantGender reads a variant file's "gender" line, else judges by its "pitch" line
// (base pitch >= 150 Hz: female); a missing file or neither line gives "male", the
// default voice's.
func variantGender(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "male"
	}
	defer f.Close()
	g := ""
	pitch := -1.0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(strings.ToLower(sc.Text()))
		if len(fields) >= 2 && fields[0] == "gender" {
			g = fields[1]
		}
		if len(fields) >= 2 && fields[0] == "pitch" {
			if p, err := strconv.ParseFloat(fields[1], 64); err == nil {
				pitch = p
			}
		}
	}
	switch {
	case g == "female" || g == "male":
		return g
	case pitch >= 150:
		return "female"
	}
	return "male"
}

func writeSynthMeta(out string, speakers []synthSpeaker, rep *SynthReport) error {
	var s strings.Builder
	s.WriteString("speaker,accent,variant,gender\n")
	for _, sp := range speakers {
		fmt.Fprintf(&s, "%s,%s,%s,%s\n", sp.id, sp.accent, sp.variant, sp.gender)
	}
	var r strings.Builder
	r.WriteString("index,pitch,speed\n")
	for p, pv := range SynthPitches {
		for v, sv := range SynthSpeeds {
			fmt.Fprintf(&r, "%d,%d,%d\n", 3*p+v, pv, sv)
		}
	}
	readme := fmt.Sprintf(`# spoken-digits: a SYNTHETIC corpus of spoken digits

Made by `+"`gitui data synth spoken-digits`"+` with espeak-ng (%s).
This is synthetic speech, not recordings of people. Do not commit it; make it again on any Debian machine.

- %d speakers: English accent voices x espeak-ng voice variants (speakers.csv: speaker, accent, variant, gender;
  gender is the variant's declared gender, else judged by its base pitch).
- Each speaker says the ten digits at pitches -p %v x speeds -s %v (renders.csv: index, pitch, speed):
  one espeak-ng call per rendering, cut at the pauses into exactly ten words.
- Layout of the Free Spoken Digit Dataset: recordings/{digit}_{speaker}_{render}.wav, 8 kHz, 16-bit PCM, trimmed.
- %d files. Renderings dropped because the cut did not give ten words: %d %v.
- Deterministic for one espeak-ng build.
`, strings.Split(rep.Version, "  Data at:")[0], len(speakers), SynthPitches, SynthSpeeds, rep.Files, len(rep.Dropped), rep.Dropped)
	for name, body := range map[string]string{"speakers.csv": s.String(), "renders.csv": r.String(), "README.md": readme} {
		if err := os.WriteFile(filepath.Join(out, name), []byte(body), 0o644); err != nil {
			return fmt.Errorf("synth: %w", err)
		}
	}
	return nil
}

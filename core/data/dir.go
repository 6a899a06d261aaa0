package data

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotFound is wrapped by Open's error when a data set's files are in none of the
// places it looks; callers branch on it with errors.Is (for example to offer a fetch).
var ErrNotFound = errors.New("data set not found")

// EnvDataDir is the environment variable naming the data directory (a directory
// holding mnist/, fashion-mnist/, ...).
const EnvDataDir = "GITUI_DATA"

// ResolveDir returns the data directory: flag when it is not empty, else the value of
// the environment variable GITUI_DATA, else os.UserCacheDir()/gitui. The directory need
// not exist. It returns an error only when none of the three is available.
func ResolveDir(flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if env := os.Getenv(EnvDataDir); env != "" {
		return env, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no data directory (%v): pass --data DIR or set %s", err, EnvDataDir)
	}
	return filepath.Join(cache, "gitui"), nil
}

// Names lists the image data sets that Open knows, in display order.
var Names = []string{"mnist", "fashion-mnist"}

// fashionClasses are the ten Fashion-MNIST class names in label order (Xiao et al. 2017).
var fashionClasses = []string{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"}

// SystemDirs returns, by data set name, the directories outside the data directory where a
// distribution installs a data set: Debian's dataset-fashion-mnist puts Fashion-MNIST in
// /usr/share/datasets/fashion-mnist. A new map on every call.
func SystemDirs() map[string][]string {
	return map[string][]string{"fashion-mnist": {"/usr/share/datasets/fashion-mnist"}}
}

// Locations says where Open and Available look for a data set name: Dir/<name>/ first,
// then each of System[name] in order. The zero System looks in Dir alone, which is what a
// hermetic test wants; In(dir) adds the machine's SystemDirs.
type Locations struct {
	Dir    string              // the data directory, holding mnist/, fashion-mnist/, ...
	System map[string][]string // directories outside Dir, by data set name
}

// In returns the Locations of the data directory dir together with this machine's
// SystemDirs: where the CLI and the workbench look.
func In(dir string) Locations { return Locations{Dir: dir, System: SystemDirs()} }

// Source is one pair of IDX files found on disk.
type Source struct {
	Name   string // data set: "mnist" or "fashion-mnist"
	Split  string // "train" or "test"
	Prefix string // file prefix: "train" (full), "train10k" (the 10k training pool) or "t10k"
	Images string // path of the images file
	Labels string // path of the labels file
	N      int    // number of images the header declares (0 when Err is set)
	Rows   int    // image height in pixels
	Cols   int    // image width in pixels
	Err    error  // non-nil when the files exist but their headers cannot be read
	// Note says how the reader transforms the values ("" for none): USPS's scaling.
	Note string
}

// prefixes returns the file prefixes tried for split, in order of preference.
func prefixes(split string) []string {
	if split == "train" {
		return []string{"train", "train10k"}
	}
	return []string{"t10k"}
}

// searchDirs returns the directories searched for name, in order: Dir/<name>, then System[name].
func (l Locations) searchDirs(name string) []string {
	dirs := []string{filepath.Join(l.Dir, name)}
	return append(dirs, l.System[name]...)
}

// findFile returns the first of base+".gz" and base that exists in dir.
func findFile(dir, base string) string {
	for _, p := range []string{filepath.Join(dir, base+".gz"), filepath.Join(dir, base)} {
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// find returns the image and label files of one prefix in dir, or "" for each that is absent.
func find(dir, prefix string) (images, labels string) {
	return findFile(dir, prefix+"-images-idx3-ubyte"), findFile(dir, prefix+"-labels-idx1-ubyte")
}

// Open loads split ("train" or "test") of the data set name ("mnist" or
// "fashion-mnist") from dir/<name>/, holding the official IDX file names, each gzipped
// (.gz) or raw:
//
//	train-images-idx3-ubyte[.gz]  train-labels-idx1-ubyte[.gz]   split "train"
//	train10k-images-idx3-ubyte[.gz] ...                           split "train", when the above are absent
//	t10k-images-idx3-ubyte[.gz]   t10k-labels-idx1-ubyte[.gz]    split "test"
//
// For fashion-mnist it then looks in /usr/share/datasets/fashion-mnist (Debian's
// dataset-fashion-mnist): Open(dir, ...) is In(dir).Open(...). The Dataset is named "<name>-<prefix>" ("mnist-train10k",
// "fashion-mnist-t10k"); MNIST classes are "0".."9", Fashion-MNIST's are its class
// names. An unknown name or split is an error; missing files give an error wrapping
// ErrNotFound that lists the paths looked in and how to get the data.
func Open(dir, name, split string) (*Dataset, error) { return In(dir).Open(name, split) }

// Open loads split of the data set name from l's directories, as the package's Open
// describes, looking in l.Dir/<name>/ and then l.System[name] only.
func (l Locations) Open(name, split string) (*Dataset, error) {
	if !knownName(name) {
		return nil, fmt.Errorf("unknown data set %q: use one of %s", name, strings.Join(Names, ", "))
	}
	if split != "train" && split != "test" {
		return nil, fmt.Errorf("unknown split %q of %s: use train or test", split, name)
	}
	var classes []string
	if name == "fashion-mnist" {
		classes = fashionClasses
	}
	var looked []string
	for _, d := range l.searchDirs(name) {
		for _, p := range prefixes(split) {
			img, lab := find(d, p)
			if img != "" && lab != "" {
				return loadIDX(img, lab, name+"-"+p, classes)
			}
			if img != "" || lab != "" {
				have, miss := img, p+"-labels-idx1-ubyte[.gz]"
				if img == "" {
					have, miss = lab, p+"-images-idx3-ubyte[.gz]"
				}
				return nil, fmt.Errorf("%w: %s %s: found %s but not %s beside it: add the missing file", ErrNotFound, name, split, have, miss)
			}
			looked = append(looked, filepath.Join(d, p+"-{images-idx3,labels-idx1}-ubyte[.gz]"))
		}
	}
	return nil, fmt.Errorf("%w: %s %s: looked for %s: %s", ErrNotFound, name, split, strings.Join(looked, ", "), howToGet(name))
}

// howToGet says how to obtain a data set.
func howToGet(name string) string {
	if name == "fashion-mnist" {
		return "pass --data DIR holding fashion-mnist/, or run `apt-get install dataset-fashion-mnist`"
	}
	return "pass --data DIR holding " + name + "/, or run `gitui data fetch " + name + "`"
}

func knownName(name string) bool {
	for _, n := range Names {
		if n == name {
			return true
		}
	}
	return false
}

// Available lists what In(dir).Available lists: the data sets in dir and in this machine's
// SystemDirs.
func Available(dir string) []Source { return In(dir).Available() }

// Available lists the IDX file pairs present for every known data set, searching as
// Open does (l.Dir/<name>/, then l.System[name]), then EMNIST Letters' pairs in
// dir/emnist-letters/ and the USPS files that OpenUSPS reads (dir/usps/; Images and
// Labels are the one file, N its number of non-blank lines, Note the pixel scaling).
// For each name and split the first Source listed is the one Open loads. Only headers are read, so it is fast even
// for gzipped files; a pair whose header is unreadable is listed with Err set.
func (l Locations) Available() []Source {
	dir := l.Dir
	var out []Source
	for _, name := range Names {
		for _, split := range []string{"train", "test"} {
			for _, d := range l.searchDirs(name) {
				for _, p := range prefixes(split) {
					img, lab := find(d, p)
					if img == "" || lab == "" {
						continue
					}
					s := Source{Name: name, Split: split, Prefix: p, Images: img, Labels: lab}
					sz, err := idxCount(img, idxImagesMagic, 3)
					if err == nil {
						var ls []uint64
						ls, err = idxCount(lab, idxLabelsMagic, 1)
						if err == nil && ls[0] != sz[0] {
							err = fmt.Errorf("%d images but %d labels: pass a matching pair", sz[0], ls[0])
						}
					}
					if err != nil {
						s.Err = fmt.Errorf("%s: %w", img, err)
					} else {
						s.N, s.Rows, s.Cols = int(sz[0]), int(sz[1]), int(sz[2])
					}
					out = append(out, s)
				}
			}
		}
	}
	out = append(out, availableEMNIST(dir)...)
	for _, split := range []string{"train", "test"} {
		p := findUSPS(dir, split)
		if p == "" {
			continue
		}
		s := Source{Name: "usps", Split: split, Prefix: strings.TrimSuffix(filepath.Base(p), ".gz"), Images: p, Labels: p, Note: USPSScaleNote}
		if n, err := countUSPS(p); err != nil {
			s.Err = fmt.Errorf("%s: %w", p, err)
		} else {
			s.N, s.Rows, s.Cols = n, USPSSide, USPSSide
		}
		out = append(out, s)
	}
	return out
}

// String formats s as tab-separated columns for a tabwriter (`gitui data list`):
//
//	mnist	train	train10k	10000 × 28x28	/path/train10k-images-idx3-ubyte.gz
//
// with the error in place of the sizes when Err is set, and Note (if any) last.
func (s Source) String() string {
	what := fmt.Sprintf("%d × %dx%d", s.N, s.Rows, s.Cols)
	if s.Err != nil {
		what = "unreadable: " + s.Err.Error()
	}
	line := s.Name + "\t" + s.Split + "\t" + s.Prefix + "\t" + what + "\t" + s.Images
	if s.Note != "" {
		line += "\t" + s.Note
	}
	return line
}

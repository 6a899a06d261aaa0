package data

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gitui/internal/ctxio"
)

// LoadOptions are the choices a Format's loader takes beside the path.
type LoadOptions struct {
	// Label chooses the label column of a format with columns (Format.LabelColumn): a
	// header name, or a 0-based index as a decimal number; "" is the format's default
	// (the last column). Loaders of other formats are never called with a Label.
	Label string
}

// Format describes one kind of data file that LoadFile reads, in the manner of
// image.RegisterFormat: how its files are recognised, how they are loaded and sized,
// and how the format is named to the user. Every field but Magic, Fragments, Family and
// LabelColumn is required (RegisterFormat panics without them).
type Format struct {
	// Name names the format in messages ("CSV"); it is unique among the formats.
	Name string
	// Family is the name the format shares with its kin in short lists ("CSV" for
	// TSV, "NPY" for NPZ); "" means Name.
	Family string
	// Extensions are the lower-case name endings of the format's files, with the dot
	// (".csv"), matched case-insensitively against the file name less a trailing .gz
	// (compression is detected from the content).
	Extensions []string
	// Fragments are parts of a file name that identify the format when no extension
	// of any format matches ("-images-idx3-ubyte"), matched case-sensitively against
	// the base name.
	Fragments []string
	// Magic is the prefix of the file's stored bytes (not decompressed) that
	// identifies the format when no name rule of any format matches; nil for none.
	Magic []byte
	// Help is the phrase naming the format's files in the list of supported kinds
	// (".npy (x/y pair)").
	Help string
	// LabelColumn reports whether LoadOptions.Label chooses a column of the format's
	// files (data.label_column).
	LabelColumn bool
	// Load reads the file at path into a Dataset, stopping with ctx's error once ctx
	// is done. Its errors name the file, the problem and the fix.
	Load func(ctx context.Context, path string, opt LoadOptions) (*Dataset, error)
	// Size returns the size of the data set Load would read from path, without loading
	// it (from a header, or a first pass that keeps nothing), for the memory guard
	// (CheckFileMemory). Its errors are those of Load; a zero FileSize means the size
	// is unknown until the load (which then names the problem).
	Size func(ctx context.Context, path string) (FileSize, error)
}

// family returns Family, or Name when Family is empty.
func (f *Format) family() string {
	if f.Family != "" {
		return f.Family
	}
	return f.Name
}

// registry is an ordered set of formats; the package's one (formats) is filled by
// RegisterFormat.
type registry struct {
	mu   sync.RWMutex
	list []*Format
}

// formats holds the registered formats in the order of registration.
var formats registry

// RegisterFormat adds f to the formats LoadFile, SizeOfFile and the messages that list
// the supported kinds know. It is meant for init functions. RegisterFormat panics (a
// programmer error) when f lacks a Name, a Help, a Load or a Size function, or any
// rule to recognise its files (Extensions, Fragments or Magic), when an extension is
// not lower case with a leading dot, or when the name or an extension is registered
// already.
func RegisterFormat(f Format) { formats.register(f) }

func (r *registry) register(f Format) {
	missing := ""
	switch {
	case f.Name == "":
		missing = "Name"
	case f.Help == "":
		missing = "Help"
	case f.Load == nil:
		missing = "Load"
	case f.Size == nil:
		missing = "Size (the memory guard's size function)"
	case len(f.Extensions) == 0 && len(f.Fragments) == 0 && len(f.Magic) == 0:
		missing = "Extensions, Fragments or Magic"
	}
	if missing != "" {
		panic(fmt.Sprintf("data: RegisterFormat(%q): %s is not set", f.Name, missing))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range f.Extensions {
		if len(e) < 2 || e[0] != '.' || e != strings.ToLower(e) {
			panic(fmt.Sprintf("data: RegisterFormat(%q): extension %q is not lower case with a leading dot", f.Name, e))
		}
	}
	for _, g := range r.list {
		if g.Name == f.Name {
			panic(fmt.Sprintf("data: RegisterFormat(%q): the name is registered already", f.Name))
		}
		for _, e := range f.Extensions {
			for _, ge := range g.Extensions {
				if e == ge {
					panic(fmt.Sprintf("data: RegisterFormat(%q): extension %s is registered already by %s", f.Name, e, g.Name))
				}
			}
		}
	}
	f.Extensions = append([]string(nil), f.Extensions...)
	f.Fragments = append([]string(nil), f.Fragments...)
	f.Magic = append([]byte(nil), f.Magic...)
	r.list = append(r.list, &f)
}

// snapshot returns the registered formats in order.
func (r *registry) snapshot() []*Format {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*Format(nil), r.list...)
}

// Formats returns copies of the registered formats in the order of registration.
func Formats() []Format {
	var out []Format
	for _, f := range formats.snapshot() {
		out = append(out, *f)
	}
	return out
}

// byName returns the format whose name rules match path: the first whose extension
// ends the base name (less a trailing .gz, case-insensitively), else the first one of
// whose fragments the base name contains; nil if none.
func (r *registry) byName(path string) *Format {
	name := filepath.Base(path)
	lower := strings.ToLower(strings.TrimSuffix(name, ".gz"))
	list := r.snapshot()
	for _, f := range list {
		for _, e := range f.Extensions {
			if strings.HasSuffix(lower, e) {
				return f
			}
		}
	}
	for _, f := range list {
		for _, s := range f.Fragments {
			if strings.Contains(name, s) {
				return f
			}
		}
	}
	return nil
}

// lookup returns the format of the file at path: by its name (byName), else by the
// first stored bytes (Magic); nil if neither tells.
func (r *registry) lookup(path string) *Format {
	if f := r.byName(path); f != nil {
		return f
	}
	var magic []*Format
	n := 0
	for _, f := range r.snapshot() {
		if len(f.Magic) > 0 {
			magic = append(magic, f)
			n = max(n, len(f.Magic))
		}
	}
	if len(magic) == 0 {
		return nil
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	head := make([]byte, n)
	k, _ := io.ReadFull(fh, head)
	for _, f := range magic {
		if bytes.HasPrefix(head[:k], f.Magic) {
			return f
		}
	}
	return nil
}

// FormatOf returns the registered format of the file at path, chosen by its name (an
// extension, less a trailing .gz, then a name fragment) or else its first bytes, and
// ok false when no format claims it.
func FormatOf(path string) (f Format, ok bool) {
	if p := formats.lookup(path); p != nil {
		return *p, true
	}
	return Format{}, false
}

// HasLabelColumn reports whether path names a file (gzipped or not) of a format whose
// label column data.label_column chooses (Format.LabelColumn), by name alone.
func HasLabelColumn(path string) bool {
	f := formats.byName(path)
	return f != nil && f.LabelColumn
}

// FormatFamilies returns the families of the registered formats (Format.Family, else
// Name) in order, each once: "CSV", "NPY", "LIBSVM", "IDX" for the built-in ones.
func FormatFamilies() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range formats.snapshot() {
		if k := f.family(); !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// LabelColumnFormats returns the names of the formats whose label column is chosen by
// data.label_column, and their extensions, in order ("CSV", "TSV"; ".csv", ".tsv").
func LabelColumnFormats() (names, exts []string) {
	for _, f := range formats.snapshot() {
		if f.LabelColumn {
			names = append(names, f.Name)
			exts = append(exts, f.Extensions...)
		}
	}
	return names, exts
}

// JoinOr joins words as a list in prose: "a", "a or b", "a, b or c".
func JoinOr(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// SupportedFormats returns the phrase listing what LoadFile reads, for messages: the
// registered formats' Help phrases, then a folder of edge lists.
func SupportedFormats() string {
	var b strings.Builder
	for _, f := range formats.snapshot() {
		b.WriteString(f.Help)
		b.WriteString(", ")
	}
	b.WriteString("or a folder of edge lists (one graph per file)")
	return b.String()
}

// unknownKind is the error of a path no registered format claims.
func unknownKind(path string) error {
	return fmt.Errorf("%s: unknown file kind: use %s", path, SupportedFormats())
}

// stripExtensions returns name without its trailing .gz and registered extensions, any
// number of them, compared case-insensitively ("a.CSV.gz" gives "a").
func stripExtensions(name string) string {
	exts := []string{".gz"}
	for _, f := range formats.snapshot() {
		exts = append(exts, f.Extensions...)
	}
	for {
		ext := strings.ToLower(filepath.Ext(name))
		found := false
		for _, e := range exts {
			if ext == e {
				found = true
				break
			}
		}
		if !found {
			return name
		}
		name = name[:len(name)-len(ext)]
	}
}

// The built-in formats, in the order the list of supported kinds names them.
func init() {
	for _, f := range []Format{
		{
			Name: "CSV", Extensions: []string{".csv"}, Help: ".csv", LabelColumn: true,
			Load: func(ctx context.Context, path string, o LoadOptions) (*Dataset, error) {
				return loadCSV(ctx, path, CSVOptions{Label: o.Label})
			},
			Size: func(ctx context.Context, path string) (FileSize, error) {
				c, err := countCSV(ctx, path, 0)
				return FileSize{Rows: c.Lines, Dim: c.Dim}, err
			},
		},
		{
			Name: "TSV", Family: "CSV", Extensions: []string{".tsv"}, Help: ".tsv", LabelColumn: true,
			Load: func(ctx context.Context, path string, o LoadOptions) (*Dataset, error) {
				return loadCSV(ctx, path, CSVOptions{Comma: '\t', Label: o.Label})
			},
			Size: func(ctx context.Context, path string) (FileSize, error) {
				c, err := countCSV(ctx, path, '\t')
				return FileSize{Rows: c.Lines, Dim: c.Dim}, err
			},
		},
		{
			Name: "NPY", Extensions: []string{".npy"}, Help: ".npy (x/y pair)",
			Load: func(ctx context.Context, path string, _ LoadOptions) (*Dataset, error) {
				y, err := npyLabelsPath(path)
				if err != nil {
					return nil, err
				}
				return loadNPY(ctx, path, y)
			},
			Size: npyFileSize,
		},
		{
			Name: "NPZ", Family: "NPY", Extensions: []string{".npz"}, Help: ".npz",
			Load: func(ctx context.Context, path string, _ LoadOptions) (*Dataset, error) {
				return loadNPZ(ctx, path)
			},
			Size: npzFileSize,
		},
		{
			Name: "LIBSVM", Extensions: []string{".libsvm", ".svm", ".svmlight", ".txt"}, Help: ".libsvm/.svm/.txt",
			Load: func(ctx context.Context, path string, _ LoadOptions) (*Dataset, error) {
				return loadLIBSVM(ctx, path)
			},
			Size: func(ctx context.Context, path string) (FileSize, error) {
				c, err := countLIBSVM(ctx, path, 0)
				return FileSize{Rows: c.Lines, Dim: c.Dim}, err
			},
		},
		{
			Name: "IDX", Fragments: []string{"-images-idx3-ubyte"}, Help: "an IDX *-images-idx3-ubyte[.gz] file",
			Load: func(ctx context.Context, path string, _ LoadOptions) (*Dataset, error) {
				return loadIDXContext(ctx, path, idxLabelsPath(path), baseName(path), nil)
			},
			Size: idxFileSize,
		},
		parquetFormat,
	} {
		RegisterFormat(f)
	}
}

// npyFileSize is the NPY format's Size: the samples array's header, once the labels
// file beside it is found.
func npyFileSize(ctx context.Context, path string) (FileSize, error) {
	if _, err := npyLabelsPath(path); err != nil {
		return FileSize{}, err
	}
	h, err := openRead(path, ".npy samples", func(r io.Reader) (*npyHeader, error) { return readNPYHeader(r) })
	if err != nil {
		return FileSize{}, fmt.Errorf("load %s: %w", path, err)
	}
	return npySize(h), nil
}

// npzFileSize is the NPZ format's Size: the header of the archive's x (or X) entry; a
// zero FileSize when there is none (the load names the missing key).
func npzFileSize(ctx context.Context, path string) (FileSize, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return FileSize{}, fmt.Errorf("load %s: not an .npz archive (%v): save with numpy.savez", path, err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if k := npzKey(f.Name); k == "x" || k == "X" {
			rc, err := f.Open()
			if err != nil {
				return FileSize{}, fmt.Errorf("load %s: entry %s: %v: the archive is corrupt, save it again", path, f.Name, err)
			}
			h, err := readNPYHeader(rc)
			rc.Close()
			if err != nil {
				return FileSize{}, fmt.Errorf("load %s: entry %s: %w", path, f.Name, err)
			}
			return npySize(h), nil
		}
	}
	return FileSize{}, nil
}

// idxFileSize is the IDX format's Size: the images file's header.
func idxFileSize(ctx context.Context, path string) (FileSize, error) {
	f, err := openData(path, "IDX images")
	if err != nil {
		return FileSize{}, err
	}
	defer f.Close()
	r, err := maybeGunzip(ctxio.Reader(ctx, f))
	if err != nil {
		return FileSize{}, fmt.Errorf("load %s: %w", path, err)
	}
	sz, err := readHeader(r, idxImagesMagic, "images", 3)
	if err != nil {
		return FileSize{}, fmt.Errorf("load %s: %w", path, err)
	}
	return FileSize{Rows: int(sz[0]), Dim: satMul(sz[1], sz[2])}, nil
}

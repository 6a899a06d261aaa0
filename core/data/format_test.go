package data

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFormatsComplete checks every registered format has what LoadFile, the memory
// guard (SizeOfFile) and the messages need: a forgotten Size would let a file past the
// memory through unchecked.
func TestFormatsComplete(t *testing.T) {
	fs := Formats()
	if len(fs) < 6 {
		t.Fatalf("%d formats registered, want at least the 6 built-in ones", len(fs))
	}
	for _, f := range fs {
		if f.Name == "" || f.Help == "" || f.Load == nil || f.Size == nil {
			t.Errorf("format %q: Name, Help, Load and Size must all be set", f.Name)
		}
		if len(f.Extensions)+len(f.Fragments)+len(f.Magic) == 0 {
			t.Errorf("format %q has no rule to recognise its files", f.Name)
		}
	}
}

// TestRegisterFormatRefuses checks that a format without a size function, or one
// taking a name or extension already taken, panics at registration.
func TestRegisterFormatRefuses(t *testing.T) {
	load := func(context.Context, string, LoadOptions) (*Dataset, error) { return nil, nil }
	size := func(context.Context, string) (FileSize, error) { return FileSize{}, nil }
	ok := Format{Name: "A", Extensions: []string{".a"}, Help: ".a", Load: load, Size: size}
	for _, c := range []struct {
		name string
		f    Format
		want string
	}{
		{"no size", Format{Name: "B", Extensions: []string{".b"}, Help: ".b", Load: load}, "Size"},
		{"no load", Format{Name: "B", Extensions: []string{".b"}, Help: ".b", Size: size}, "Load"},
		{"no rule", Format{Name: "B", Help: ".b", Load: load, Size: size}, "Extensions, Fragments or Magic"},
		{"same name", Format{Name: "A", Extensions: []string{".b"}, Help: ".b", Load: load, Size: size}, "registered already"},
		{"same extension", Format{Name: "B", Extensions: []string{".a"}, Help: ".b", Load: load, Size: size}, "registered already by A"},
		{"upper case", Format{Name: "B", Extensions: []string{".B"}, Help: ".b", Load: load, Size: size}, "lower case"},
	} {
		var r registry
		r.register(ok)
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.HasPrefix(msg, "data: RegisterFormat") || !strings.Contains(msg, c.want) {
					t.Errorf("%s: panic %q, want one naming %q", c.name, msg, c.want)
				}
			}()
			r.register(c.f)
		}()
	}
}

// TestFormatLookup checks the order of the rules: an extension (less .gz, any case),
// then a name fragment, then the magic bytes.
func TestFormatLookup(t *testing.T) {
	load := func(context.Context, string, LoadOptions) (*Dataset, error) { return nil, nil }
	size := func(context.Context, string) (FileSize, error) { return FileSize{}, nil }
	var r registry
	r.register(Format{Name: "T", Extensions: []string{".t"}, Help: ".t", Load: load, Size: size})
	r.register(Format{Name: "F", Fragments: []string{"-frag"}, Help: "-frag", Load: load, Size: size})
	r.register(Format{Name: "M", Magic: []byte("MAG1"), Help: "MAG1", Load: load, Size: size})
	dir := t.TempDir()
	writeFile(t, dir, "m.bin", []byte("MAG1 and more"))
	writeFile(t, dir, "n.bin", []byte("MA"))
	writeFile(t, dir, "x-frag.t", []byte("MAG1"))
	for name, want := range map[string]string{
		"a.t": "T", "a.T.gz": "T", "x-frag.t": "T", "x-frag": "F", "x-frag.gz": "F", "X-FRAG": "", "m.bin": "M", "n.bin": "", "missing.bin": "",
	} {
		got := ""
		if f := r.lookup(filepath.Join(dir, name)); f != nil {
			got = f.Name
		}
		if got != want {
			t.Errorf("lookup(%s) = %q, want %q", name, got, want)
		}
	}
}

// TestSupportedFormatsMessage checks the list of supported kinds derived from the
// registry reads as the message written by hand before it, and that the short lists of
// the spec's help name the families.
func TestSupportedFormatsMessage(t *testing.T) {
	_, err := LoadFile("x.unknown")
	want := "x.unknown: unknown file kind: use .csv, .tsv, .npy (x/y pair), .npz, .libsvm/.svm/.txt, an IDX *-images-idx3-ubyte[.gz] file, or a folder of edge lists (one graph per file)"
	if err == nil || !strings.HasPrefix(err.Error(), strings.TrimSuffix(want, "or a folder of edge lists (one graph per file)")) || !strings.HasSuffix(err.Error(), "or a folder of edge lists (one graph per file)") {
		t.Errorf("err = %v, want %q (and any later formats before the folder)", err, want)
	}
	if got := strings.Join(FormatFamilies()[:4], "/"); got != "CSV/NPY/LIBSVM/IDX" {
		t.Errorf("FormatFamilies = %s, want CSV/NPY/LIBSVM/IDX first", got)
	}
	if got := JoinOr([]string{"a", "b", "c"}); got != "a, b or c" {
		t.Errorf("JoinOr = %q", got)
	}
	if _, err := SizeOfFile(context.Background(), "x.unknown"); err == nil || !strings.Contains(err.Error(), "unknown file kind") {
		t.Errorf("SizeOfFile of an unknown kind: err = %v, want the load's unknown kind (the memory guard must not skip it quietly)", err)
	}
}

// extensionAllowed lists the non-test files outside format.go that may compare a name
// with a registered extension, and why: they do not choose a data format.
var extensionAllowed = map[string]string{
	"model/result.go": "AtomicTemp recognises the run store's own temporary files (.json, .csv, .sbatch), not data files",
}

// TestNoExtensionSwitches fails when a non-test Go file of the module, outside the
// registry (format.go), chooses by a registered data extension or name fragment (case
// ".csv", == ".npy", strings.HasSuffix(p, ".tsv"), strings.Contains(n,
// "-images-idx3-ubyte")): such a choice is a second list of the formats that can drift
// from the registry. Ask FormatOf, HasLabelColumn or the Format itself instead.
func TestNoExtensionSwitches(t *testing.T) {
	var alts []string
	for _, f := range Formats() {
		for _, e := range append(append([]string(nil), f.Extensions...), f.Fragments...) {
			alts = append(alts, regexp.QuoteMeta(e))
		}
	}
	lit := `"[^"]*(` + strings.Join(alts, "|") + `)"`
	re := regexp.MustCompile(`(?i)(case\s[^:]*|[=!]=\s*|(strings|bytes)\.(HasSuffix|HasPrefix|Contains|EqualFold|Index|LastIndex)\([^)]*)` + lit + `|` + lit + `\s*[=!]=`)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found at %s: %v", root, err)
	}
	found := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || rel == "core/data/format.go" || extensionAllowed[rel] != "" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if code, _, _ := strings.Cut(line, "//"); re.MatchString(code) {
				found++
				t.Errorf("%s:%d chooses by a data file's extension outside the format registry: %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d comparisons on data extensions outside core/data/format.go", found)
}

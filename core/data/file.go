package data

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gitui/internal/printable"
)

// ParseError reports a problem at a place in a text file (CSV, LIBSVM). Line is
// 1-based; Field is the 1-based field number on that line (CSV columns; LIBSVM's
// whitespace-separated fields, the label being field 1), 0 when the problem concerns
// the whole line.
type ParseError struct {
	File  string // path, or the name given to a Read function ("" if none)
	Line  int
	Field int
	Msg   string // the problem and the fix
}

// Error formats the error as "file:line: field k: msg", leaving out the parts that are unset.
func (e *ParseError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	if e.Field > 0 {
		fmt.Fprintf(&b, "field %d: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// maxAbs is the largest magnitude a value may have; Validate treats larger ones as
// non-finite, so the readers reject them with the same rule.
const maxAbs = 1e300

// checkFinite returns "" for a usable value and otherwise the problem and its fix.
func checkFinite(v float64) string {
	switch {
	case math.IsNaN(v):
		return "value is NaN: remove or impute missing values"
	case math.IsInf(v, 0):
		return "value is infinite: remove or clip it"
	case v > maxAbs || v < -maxAbs:
		return fmt.Sprintf("value %g exceeds 1e300 in magnitude: rescale the data", v)
	}
	return ""
}

// baseName returns the file name of path without directory and without its trailing
// .gz and registered extensions (.csv, .npy, ...: stripExtensions).
func baseName(path string) string {
	return stripExtensions(printable.String(filepath.Base(path)))
}

// classIndex maps label strings to class indices in order of first appearance. Labels
// are matched by value (LabelKey: "7" and "7.0" are one class), and a class is named as
// its first occurrence is written, its control characters as visible escapes
// (printable.String: a label is shown in panes and tables, never obeyed).
type classIndex struct {
	idx     map[string]int
	classes []string
}

func (c *classIndex) add(s string) int {
	if c.idx == nil {
		c.idx = map[string]int{}
	}
	key := LabelKey(s)
	k, ok := c.idx[key]
	if !ok {
		k = len(c.classes)
		c.idx[key] = k
		c.classes = append(c.classes, printable.String(s)) // shown in panes and tables
	}
	return k
}

// LoadFile reads a user data file with the reader of its registered format (Formats,
// FormatOf: chosen by the file name, a trailing .gz being ignored for the choice, else
// by the first bytes; compression itself is detected from the content). The built-in
// formats:
//
//	*.csv, *.tsv                       LoadCSV with default options (tab-separated for .tsv)
//	*.npz                              LoadNPZ (keys x and y, or X and y)
//	*x.npy, *X.npy                     LoadNPY with the labels in the same name ending in y
//	*.libsvm, *.svm, *.svmlight, *.txt LoadLIBSVM
//	*-images-idx3-ubyte[.gz]           LoadIDX with the labels in *-labels-idx1-ubyte[.gz]
//	a folder                           LoadEdgeLists: one edge-list file per graph
//
// Any other name is an error listing the supported kinds (SupportedFormats).
func LoadFile(path string) (*Dataset, error) {
	return LoadFileContext(context.Background(), path)
}

// LoadFileContext is LoadFile whose reads stop, with ctx's error, once ctx is done: a
// load nobody waits for any more (the TUI's preview of a path since edited) ends at its
// next read and drops what it allocated.
func LoadFileContext(ctx context.Context, path string) (*Dataset, error) {
	return loadFileOptions(ctx, path, LoadOptions{})
}

// loadFileOptions is LoadFileContext with the loader's options o; o.Label is set only
// for a format with LabelColumn.
func loadFileOptions(ctx context.Context, path string, o LoadOptions) (*Dataset, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return LoadEdgeLists(ctx, path)
	}
	f := formats.lookup(path)
	if f == nil {
		return nil, unknownKind(path)
	}
	return f.Load(ctx, path, o)
}

// npyLabelsPath returns the labels file beside the samples file path (…x.npy or
// …x.npy.gz: the same name ending in y, with the same extensions), or an error naming
// the fix when path is not named so or the labels file is missing.
func npyLabelsPath(path string) (string, error) {
	name := filepath.Base(path)
	gz := ""
	if strings.HasSuffix(strings.ToLower(name), ".gz") {
		gz = name[len(name)-3:]
		name = name[:len(name)-3]
	}
	ext := filepath.Ext(name) // ".npy", any case
	stem := strings.TrimSuffix(name, ext)
	if stem == "" || (stem[len(stem)-1] != 'x' && stem[len(stem)-1] != 'X') {
		return "", fmt.Errorf("%s: a .npy file holds only the samples: name it ..._x%s%s with ..._y%s%s beside it, or save both in an .npz with keys x and y", path, ext, gz, ext, gz)
	}
	y := filepath.Join(filepath.Dir(path), stem[:len(stem)-1]+"y"+ext+gz)
	if _, err := os.Stat(y); err != nil {
		return "", fmt.Errorf("%s: no labels file %s beside it: save the labels there, or use an .npz with keys x and y", path, y)
	}
	return y, nil
}

// idxLabelsPath returns the IDX labels file beside the images file path.
func idxLabelsPath(path string) string {
	name := filepath.Base(path)
	return filepath.Join(filepath.Dir(path), strings.Replace(name, "-images-idx3-ubyte", "-labels-idx1-ubyte", 1))
}

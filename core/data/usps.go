package data

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// USPSSide is the side of a USPS digit image (16×16, 256 pixels).
const USPSSide = 16

// USPSScaleNote says how the USPS readers scale pixels; `gitui data list` prints it.
const USPSScaleNote = "pixels (v+1)/2: [-1, 1] -> [0, 1]"

// uspsFiles are the file names the usps data set is read from, in order of preference
// for each split: the ESL text files (gzipped or plain), then LIBSVM's copy.
var uspsFiles = map[string][]string{
	"train": {"zip.train.gz", "zip.train", "usps.gz", "usps"},
	"test":  {"zip.test.gz", "zip.test", "usps.t.gz", "usps.t"},
}

// uspsClasses are the class names of USPS, the digits in label order.
var uspsClasses = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// ReadUSPS reads the USPS digits in the text form of The Elements of Statistical
// Learning (zip.train, zip.test; gzipped or plain, detected from the first bytes): one
// digit a line, whitespace-separated, the label first (a number equal to a digit 0..9,
// written "6.0000" or "9"), then the 256 grey values of the 16×16 image in row-major
// order, top row first, upright, each in [-1, 1] (-1 background, 1 ink). Blank lines are
// skipped. The pixels are scaled to [0, 1] by (v+1)/2, as every image reader of gitui
// scales them; Shape is [16, 16] and the classes are "0".."9". file names the source in
// errors and the Dataset. A line with another number of fields, a label that is not a
// digit, or a value outside [-1, 1] (or not a number) is a *ParseError naming file, line
// and field; an empty file is an error too.
func ReadUSPS(r io.Reader, file string) (*Dataset, error) {
	return readUSPS(context.Background(), r, file)
}

func readUSPS(ctx context.Context, r io.Reader, file string) (*Dataset, error) {
	zr, err := maybeGunzip(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	limit, limitMsg, capErr := valueCap()
	if capErr != nil {
		return nil, capErr
	}
	const d = USPSSide * USPSSide
	br := bufio.NewReaderSize(zr, 1<<16)
	var (
		x    []float64
		y    []int
		line int
	)
	for {
		s, rerr := br.ReadString('\n')
		if rerr != nil && rerr != io.EOF {
			return nil, fmt.Errorf("%s: read after line %d: %w", file, line, rerr)
		}
		if s == "" && rerr == io.EOF {
			break
		}
		line++
		if line%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		f := strings.Fields(s)
		if len(f) == 0 {
			if rerr == io.EOF {
				break
			}
			continue
		}
		if len(f) != d+1 {
			return nil, &ParseError{File: file, Line: line, Msg: fmt.Sprintf("%d fields, want 257 (a label and 256 pixels): the file is not USPS in the ESL text form, or it is damaged (re-download it with `gitui data fetch usps`)", len(f))}
		}
		if uint64(len(y)+1)*d > limit {
			return nil, fmt.Errorf("%s: more than %s: use a smaller file", file, limitMsg)
		}
		lab, err := strconv.ParseFloat(f[0], 64)
		if err != nil || lab != math.Trunc(lab) || lab < 0 || lab > 9 {
			return nil, &ParseError{File: file, Line: line, Field: 1, Msg: fmt.Sprintf("label %q is not a digit 0..9: the file is not USPS, or it is damaged", f[0])}
		}
		for j, t := range f[1:] {
			v, err := strconv.ParseFloat(t, 64)
			p, ok := uspsPixel(v)
			if err != nil || !ok {
				return nil, &ParseError{File: file, Line: line, Field: j + 2, Msg: fmt.Sprintf("pixel %q is not a number in [-1, 1]: the file is not USPS in the ESL text form, or it is damaged", t)}
			}
			x = append(x, p)
		}
		y = append(y, int(lab))
		if rerr == io.EOF {
			break
		}
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%s: no digit in the file: pass a USPS file (ESL zip.train / zip.test)", file)
	}
	return &Dataset{Name: uspsName(file), X: mat.NewDense(len(y), d, x), Y: y, Classes: append([]string(nil), uspsClasses...), Shape: []int{USPSSide, USPSSide}}, nil
}

// ReadUSPSLIBSVM reads LIBSVM's copy of USPS (usps, usps.t; gzipped or plain): LIBSVM
// text with feature indices 1..256 (row-major 16×16, upright) and values in [-1, 1], an
// absent feature being 0. Labels 0..9 are the digits; a file whose labels are 1..10 (no
// 0, some 10: LIBSVM's numbering, digit + 1) is shifted down by one. Pixels are scaled
// to [0, 1] by (v+1)/2, so an absent feature becomes 0.5. Errors name file, line and
// field as ReadLIBSVM's do; a value outside [-1, 1] or a label outside these ranges is an
// error naming the file.
func ReadUSPSLIBSVM(r io.Reader, file string) (*Dataset, error) {
	zr, err := maybeGunzip(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ds, err := ReadLIBSVM(zr, file, USPSSide*USPSSide)
	if err != nil {
		return nil, err
	}
	labels := make([]int, len(ds.Classes))
	zero, ten := false, false
	for c, name := range ds.Classes {
		v, err := strconv.ParseFloat(name, 64)
		if err != nil || v != math.Trunc(v) || v < 0 || v > 10 {
			return nil, fmt.Errorf("%s: label %s is not a digit 0..9 (or 1..10, LIBSVM's numbering): pass a USPS file", file, name)
		}
		labels[c] = int(v)
		zero = zero || v == 0
		ten = ten || v == 10
	}
	shift := 0
	switch {
	case zero && ten:
		return nil, fmt.Errorf("%s: labels run from 0 to 10, eleven classes: pass a USPS file (digits 0..9, or 1..10)", file)
	case ten:
		shift = 1
	}
	n := ds.Len()
	y := make([]int, n)
	for i, c := range ds.Y {
		y[i] = labels[c] - shift
	}
	raw := ds.X.RawMatrix()
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		for j, v := range row {
			p, ok := uspsPixel(v)
			if !ok {
				return nil, fmt.Errorf("%s: sample %d: feature %d is %g, outside [-1, 1]: pass LIBSVM's USPS (values scaled to [-1, 1])", file, i+1, j+1, v)
			}
			row[j] = p
		}
	}
	return &Dataset{Name: uspsName(file), X: ds.X, Y: y, Classes: append([]string(nil), uspsClasses...), Shape: []int{USPSSide, USPSSide}}, nil
}

// uspsPixel scales a USPS value v in [-1, 1] (within 1e-9) to [0, 1] by (v+1)/2; ok is
// false outside that range or for NaN.
func uspsPixel(v float64) (float64, bool) {
	if !(v >= -1-1e-9 && v <= 1+1e-9) {
		return 0, false
	}
	return min(1, max(0, (v+1)/2)), true
}

// uspsName is the Dataset name of a USPS file: "usps-" and the file's base name without
// its compression suffix ("usps-zip.train", "usps-usps.t").
func uspsName(file string) string {
	return "usps-" + strings.TrimSuffix(filepath.Base(file), ".gz")
}

// isUSPSLIBSVM reports whether a USPS file name is LIBSVM's copy (usps, usps.t).
func isUSPSLIBSVM(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "usps")
}

// findUSPS returns the file of split ("train" or "test") in dir/usps/, "" if none.
func findUSPS(dir, split string) string {
	for _, f := range uspsFiles[split] {
		p := filepath.Join(dir, "usps", f)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p
		}
	}
	return ""
}

// OpenUSPS loads split ("train" or "test") of USPS from dir/usps/: zip.train[.gz] or
// zip.test[.gz] (ReadUSPS), else LIBSVM's usps[.gz] or usps.t[.gz] (ReadUSPSLIBSVM).
// Missing files give an error wrapping ErrNotFound that names the paths looked for and
// the fetch command; a bad file an error naming the file (and line, where there is one).
func OpenUSPS(ctx context.Context, dir, split string) (*Dataset, error) {
	p := findUSPS(dir, split)
	if p == "" {
		return nil, fmt.Errorf("%w: usps %s: looked for %s in %s: run `gitui data fetch usps`, or pass --data DIR holding usps/", ErrNotFound, split, strings.Join(uspsFiles[split], ", "), filepath.Join(dir, "usps"))
	}
	read := func(r io.Reader) (*Dataset, error) { return readUSPS(ctx, r, p) }
	if isUSPSLIBSVM(p) {
		read = func(r io.Reader) (*Dataset, error) { return ReadUSPSLIBSVM(r, p) }
	}
	return openReadContext(ctx, p, "USPS", read)
}

// countUSPS returns the number of non-blank lines of a USPS file (gzipped or plain):
// its number of digits, for `gitui data list`, without parsing the values.
func countUSPS(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	zr, err := maybeGunzip(f)
	if err != nil {
		return 0, err
	}
	br := bufio.NewReaderSize(zr, 1<<16)
	n, blank := 0, true
	for {
		b, err := br.ReadByte()
		if err != nil {
			if !blank {
				n++
			}
			if errors.Is(err, io.EOF) {
				return n, nil
			}
			return 0, err
		}
		switch b {
		case '\n':
			if !blank {
				n++
			}
			blank = true
		case ' ', '\t', '\r':
		default:
			blank = false
		}
	}
}

// uspsBinaryClasses are the two classes of "usps-binary", Chapelle and Schoelkopf's task.
var uspsBinaryClasses = []string{"0-4", "5-9"}

// USPSBinary returns ds (USPS, classes "0".."9") relabelled for Chapelle and
// Schoelkopf's binary task: digits 0-4 become class "0-4" (0), digits 5-9 class "5-9"
// (1). The pixels are shared with ds.
func USPSBinary(ds *Dataset) *Dataset {
	y := make([]int, len(ds.Y))
	for i, c := range ds.Y {
		if c >= 5 {
			y[i] = 1
		}
	}
	return &Dataset{Name: ds.Name + "-binary", X: ds.X, Y: y, Classes: append([]string(nil), uspsBinaryClasses...), Shape: append([]int(nil), ds.Shape...), Units: ds.Units}
}

// loadUSPS is the loader of the data sets "usps" (ten digits) and "usps-binary" (0-4
// against 5-9): dir/usps/'s training and test files (OpenUSPS).
func loadUSPS(ctx context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	if pool, err = OpenUSPS(ctx, r.Dir, "train"); err != nil {
		return nil, nil, loadErr(ctx, err)
	}
	if test, err = OpenUSPS(ctx, r.Dir, "test"); err != nil {
		return nil, nil, loadErr(ctx, err)
	}
	if r.Name == "usps-binary" {
		pool, test = USPSBinary(pool), USPSBinary(test)
	}
	return pool, test, nil
}

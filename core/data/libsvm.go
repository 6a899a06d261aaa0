package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// LoadLIBSVM reads a LIBSVM / svmlight text file (gzipped or raw), one sample a line:
//
//	label index:value index:value ...   # optional comment
//
// with 1-based feature indices in any order. The sparse rows become a dense n×d matrix
// with d the largest index seen (absent features are 0) and Shape [d]. Labels are
// numbers; they become classes in order of first appearance (as LIBSVM orders them),
// named by their shortest decimal form ("+1" and "1" are one class "1"). svmlight's
// qid:N tokens are skipped. Errors are *ParseError values naming the line and field (the
// label is field 1) for a bad number, index 0 or below, a repeated index, a NaN or
// infinite value; an empty file and a matrix past the size limit are errors too.
func LoadLIBSVM(path string) (*Dataset, error) {
	return openRead(path, "LIBSVM", func(r io.Reader) (*Dataset, error) { return ReadLIBSVM(r, path, 0) })
}

// ReadLIBSVM reads LIBSVM text from r as LoadLIBSVM does; file names the source in
// errors and the Dataset. dim > 0 fixes the dimension (use it when trailing features
// are zero in every row, e.g. 784 for MNIST); an index above dim is then an error.
// dim < 0 panics.
func ReadLIBSVM(r io.Reader, file string, dim int) (*Dataset, error) {
	if dim < 0 {
		panic("data: negative LIBSVM dimension")
	}
	br := bufio.NewReaderSize(newLineLimiter(r, file, maxLIBSVMLineBytes), 1<<16)
	var (
		rowStart = []int{0}
		idx      []int
		val      []float64
		y        []int
		classes  classIndex
		maxIdx   int
	)
	perr := func(line, field int, msg string) error {
		return &ParseError{File: file, Line: line, Field: field, Msg: msg}
	}
	err := labelledLines(br, file, func(line int, lv float64, rest []string) error {
		start := len(idx)
		for k, t := range rest {
			c := strings.IndexByte(t, ':')
			if c < 0 {
				return perr(line, k+2, fmt.Sprintf("%q is not index:value: write features as index:value", t))
			}
			if t[:c] == "qid" {
				continue
			}
			j, err := strconv.Atoi(t[:c])
			if err != nil || j < 1 || uint64(j) > MaxValues {
				return perr(line, k+2, fmt.Sprintf("feature index %q is not an integer in 1..%d: indices are 1-based (0:... appears only in precomputed-kernel files)", t[:c], MaxValues))
			}
			if dim > 0 && j > dim {
				return perr(line, k+2, fmt.Sprintf("feature index %d exceeds the dimension %d: raise the dimension or fix the file", j, dim))
			}
			v, err := strconv.ParseFloat(t[c+1:], 64)
			if err != nil {
				return perr(line, k+2, fmt.Sprintf("value %q is not a number: write features as index:value", t[c+1:]))
			}
			if msg := checkFinite(v); msg != "" {
				return perr(line, k+2, msg)
			}
			idx = append(idx, j-1)
			val = append(val, v)
			maxIdx = max(maxIdx, j)
		}
		if row := idx[start:]; !slices.IsSorted(row) {
			ord := make([]int, len(row))
			for i := range ord {
				ord[i] = i
			}
			rv := val[start:]
			slices.SortFunc(ord, func(a, b int) int { return row[a] - row[b] })
			ri, vv := slices.Clone(row), slices.Clone(rv)
			for i, o := range ord {
				row[i], rv[i] = ri[o], vv[o]
			}
		}
		for i := start + 1; i < len(idx); i++ {
			if idx[i] == idx[i-1] {
				return perr(line, 0, fmt.Sprintf("feature index %d appears twice: give each index once per line", idx[i]+1))
			}
		}
		// The rows stay sparse while they are read; the dense matrix they make has at
		// least lines × the largest index so far, which is checked as it grows (as
		// svm-train reads a sparse file), so a few lines with a huge index stop here.
		if dense := uint64(len(y)+1) * uint64(max(maxIdx, dim)); dense > MaxValues {
			return perr(line, 0, fmt.Sprintf("%d lines with feature indices up to %d make a dense matrix above %s: reduce the largest feature index or the number of lines", len(y)+1, max(maxIdx, dim), valuesLimitMsg()))
		}
		y = append(y, classes.add(strconv.FormatFloat(lv, 'g', -1, 64)))
		rowStart = append(rowStart, len(idx))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%s: no samples: write one line per sample, label index:value ...", file)
	}
	d := dim
	if d == 0 {
		d = maxIdx
	}
	if d == 0 {
		return nil, fmt.Errorf("%s: no features on any line: write features as index:value", file)
	}
	dense := uint64(len(y)) * uint64(d)
	if dense > MaxValues {
		return nil, fmt.Errorf("%s: a dense %d×%d matrix exceeds %s: reduce the largest feature index or the number of lines", file, len(y), d, valuesLimitMsg())
	}
	if dense > 1<<24 && dense > 1024*uint64(len(idx)+len(y)) {
		return nil, fmt.Errorf("%s: the dense %d×%d matrix would be over 1024 times larger than the %d values in the file: check the feature indices (the largest is %d)", file, len(y), d, len(idx), maxIdx)
	}
	x := mat.NewDense(len(y), d, nil)
	for i := range y {
		row := x.RawRowView(i)
		for k := rowStart[i]; k < rowStart[i+1]; k++ {
			row[idx[k]] = val[k]
		}
	}
	return &Dataset{Name: baseName(file), X: x, Y: y, Classes: classes.classes, Shape: []int{d}}, nil
}

// labelledLines calls fn for every sample line of LIBSVM-style text from br: the line
// number, its numeric label and the tokens after it (a comment after '#' dropped, blank
// lines skipped). A label that is not a finite number is a *ParseError (field 1); an
// error from fn stops the scan and is returned; a read error is wrapped with file.
func labelledLines(br *bufio.Reader, file string, fn func(line int, label float64, rest []string) error) error {
	for line := 1; ; line++ {
		text, err := br.ReadString('\n')
		var pe *ParseError
		if errors.As(err, &pe) {
			return err // a line past maxLIBSVMLineBytes: already names the file and line
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", file, err)
		}
		if text == "" && err == io.EOF {
			return nil
		}
		if c := strings.IndexByte(text, '#'); c >= 0 {
			text = text[:c]
		}
		if toks := strings.Fields(text); len(toks) > 0 {
			lv, perr := strconv.ParseFloat(toks[0], 64)
			if perr != nil || strings.Contains(toks[0], ":") {
				return &ParseError{File: file, Line: line, Field: 1, Msg: fmt.Sprintf("label %q is not a number: each line starts with a numeric label", toks[0])}
			}
			if msg := checkFinite(lv); msg != "" {
				return &ParseError{File: file, Line: line, Field: 1, Msg: "label " + msg}
			}
			if err := fn(line, lv, toks[1:]); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

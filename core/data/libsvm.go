package data

import (
	"bufio"
	"bytes"
	"context"
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
	return loadLIBSVM(context.Background(), path)
}

// loadLIBSVM is LoadLIBSVM in two passes: the first counts the sample lines and the
// largest index (refusing a matrix past the value cap before holding any of it), the
// second parses every line straight into the dense matrix, allocated once at that size.
func loadLIBSVM(ctx context.Context, path string) (*Dataset, error) {
	c, err := countLIBSVM(ctx, path, 0)
	if err != nil {
		return nil, err
	}
	if nd := uint64(c.Lines) * uint64(c.Dim); nd > 1<<24 && nd > 1024*uint64(c.Values+c.Lines) {
		return nil, fmt.Errorf("%s: the dense %d×%d matrix would be over 1024 times larger than the %d values in the file: check the feature indices (the largest is %d)", path, c.Lines, c.Dim, c.Values, c.Dim)
	}
	return openReadContext(ctx, path, "LIBSVM", func(r io.Reader) (*Dataset, error) { return readLIBSVM(r, path, 0, c) })
}

// ReadLIBSVM reads LIBSVM text from r as LoadLIBSVM does; file names the source in
// errors and the Dataset. dim > 0 fixes the dimension (use it when trailing features
// are zero in every row, e.g. 784 for MNIST); an index above dim is then an error.
// dim < 0 panics. The rows stay sparse while they are read (one pass), then become the
// dense matrix.
func ReadLIBSVM(r io.Reader, file string, dim int) (*Dataset, error) {
	if dim < 0 {
		panic("data: negative LIBSVM dimension")
	}
	return readLIBSVM(r, file, dim, textCount{})
}

// readLIBSVM parses LIBSVM text. With hint.Lines > 0 (a first pass's count) the lines go
// straight into a dense hint.Lines × hint.Dim matrix (rows past the count, or an index
// past the dimension, mean the file changed between the passes: an error); otherwise
// they are kept sparse and made dense at the end. Lines are read into one reused buffer.
func readLIBSVM(r io.Reader, file string, dim int, hint textCount) (*Dataset, error) {
	limit, limitMsg, capErr := valueCap()
	if capErr != nil {
		return nil, capErr
	}
	var (
		rowStart = []int{0}
		idx      []int
		val      []float64
		dense    []float64
		y        []int
		classes  classIndex
		maxIdx   int
		lineIdx  []int // the indices of the current line, to find a repeated one
		labels   = map[float64]string{}
	)
	if hint.Lines > 0 {
		dim = hint.Dim
		dense, y = make([]float64, hint.Lines*dim), make([]int, 0, hint.Lines)
	}
	perr := func(line, field int, msg string) error {
		return &ParseError{File: file, Line: line, Field: field, Msg: msg}
	}
	err := forEachLine(r, file, maxLIBSVMLineBytes, func(line int, b []byte) error {
		if c := bytes.IndexByte(b, '#'); c >= 0 {
			b = b[:c]
		}
		field := 0
		var lv float64
		row := len(y)
		var drow []float64
		lineIdx = lineIdx[:0]
		for t := range fieldsSeq(b) {
			field++
			if field == 1 {
				v, err := strconv.ParseFloat(string(t), 64)
				if err != nil || bytes.IndexByte(t, ':') >= 0 {
					return perr(line, 1, fmt.Sprintf("label %q is not a number: each line starts with a numeric label", t))
				}
				if msg := checkFinite(v); msg != "" {
					return perr(line, 1, "label "+msg)
				}
				lv = v
				if dense != nil {
					if row >= hint.Lines {
						return fmt.Errorf("%s: more sample lines than a moment ago: the file changed while it was read, load it again", file)
					}
					drow = dense[row*dim : (row+1)*dim]
				}
				continue
			}
			c := bytes.IndexByte(t, ':')
			if c < 0 {
				return perr(line, field, fmt.Sprintf("%q is not index:value: write features as index:value", t))
			}
			if string(t[:c]) == "qid" {
				continue
			}
			j, err := strconv.Atoi(string(t[:c]))
			if err != nil || j < 1 || uint64(j) > MaxValues {
				return perr(line, field, fmt.Sprintf("feature index %q is not an integer in 1..%d: indices are 1-based (0:... appears only in precomputed-kernel files)", t[:c], MaxValues))
			}
			if dim > 0 && j > dim {
				if hint.Lines > 0 {
					return fmt.Errorf("%s: feature index %d above the %d of a moment ago: the file changed while it was read, load it again", file, j, dim)
				}
				return perr(line, field, fmt.Sprintf("feature index %d exceeds the dimension %d: raise the dimension or fix the file", j, dim))
			}
			v, err := strconv.ParseFloat(string(t[c+1:]), 64)
			if err != nil {
				return perr(line, field, fmt.Sprintf("value %q is not a number: write features as index:value", t[c+1:]))
			}
			if msg := checkFinite(v); msg != "" {
				return perr(line, field, msg)
			}
			lineIdx = append(lineIdx, j)
			maxIdx = max(maxIdx, j)
			if drow != nil {
				drow[j-1] = v
				continue
			}
			if len(idx) == cap(idx) {
				idx, val = slices.Grow(idx, growth(len(idx), limit)), slices.Grow(val, growth(len(val), limit))
			}
			idx = append(idx, j-1)
			val = append(val, v)
		}
		if field == 0 {
			return nil // blank or a comment
		}
		if !slices.IsSorted(lineIdx) {
			slices.Sort(lineIdx)
		}
		for i := 1; i < len(lineIdx); i++ {
			if lineIdx[i] == lineIdx[i-1] {
				return perr(line, 0, fmt.Sprintf("feature index %d appears twice: give each index once per line", lineIdx[i]))
			}
		}
		// Sparse rows: the dense matrix they make has at least lines × the largest index
		// so far, checked as it grows (as svm-train reads a sparse file), so a few lines
		// with a huge index stop here.
		if d := uint64(row+1) * uint64(max(maxIdx, dim)); d > limit {
			return perr(line, 0, fmt.Sprintf("%d lines with feature indices up to %d make a dense matrix above %s: reduce the largest feature index or the number of lines", row+1, max(maxIdx, dim), limitMsg))
		}
		name, ok := labels[lv]
		if !ok {
			name = strconv.FormatFloat(lv, 'g', -1, 64)
			labels[lv] = name
		}
		y = append(y, classes.add(name))
		if dense == nil {
			rowStart = append(rowStart, len(idx))
		}
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
	if dense != nil {
		// The first pass's count is an upper bound; the matrix keeps the rows read.
		return &Dataset{Name: baseName(file), X: mat.NewDense(len(y), d, dense[:len(y)*d:len(y)*d]), Y: y, Classes: classes.classes, Shape: []int{d}}, nil
	}
	nd := uint64(len(y)) * uint64(d)
	if nd > limit {
		return nil, fmt.Errorf("%s: a dense %d×%d matrix exceeds %s: reduce the largest feature index or the number of lines", file, len(y), d, limitMsg)
	}
	if nd > 1<<24 && nd > 1024*uint64(len(idx)+len(y)) {
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

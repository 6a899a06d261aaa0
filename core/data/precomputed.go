package data

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// LoadPrecomputedKernel reads a training file in LIBSVM's precomputed-kernel format
// (gzipped or raw); see [ReadPrecomputedKernel].
func LoadPrecomputedKernel(path string) (*Dataset, error) {
	return openRead(path, "precomputed-kernel", func(r io.Reader) (*Dataset, error) { return ReadPrecomputedKernel(r, path) })
}

// ReadPrecomputedKernel reads the training file of `svm-train -t 4` (LIBSVM's
// precomputed kernel), one sample a line:
//
//	label 0:i 1:K(x_i, x_1) 2:K(x_i, x_2) ... n:K(x_i, x_n)   # optional comment
//
// where i is the 1-based serial number of the line's sample. It returns a Dataset
// whose X is the n×n kernel matrix (row i from the i-th sample line, column j from
// index j), Shape [n], and labels as [ReadLIBSVM] makes them (classes in order of
// first appearance, named by their shortest decimal form). The matrix is returned as
// written: callers that need symmetry check it themselves.
//
// Every line must carry 0:i with i equal to its sample number and exactly the indices
// 1..n in increasing order, n being the number of sample lines; anything else, a bad
// number, or a NaN or infinite value is a *ParseError naming the line and field (the
// label is field 1). An empty file and n² above the size limit are errors too.
func ReadPrecomputedKernel(r io.Reader, file string) (*Dataset, error) {
	br := bufio.NewReaderSize(newLineLimiter(r, file, maxLIBSVMLineBytes), 1<<16)
	perr := func(line, field int, msg string) error {
		return &ParseError{File: file, Line: line, Field: field, Msg: msg}
	}
	var (
		vals    []float64
		y       []int
		classes classIndex
		n       = -1 // columns per row, fixed by the first sample line
		first   int  // line number of the first sample
	)
	err := labelledLines(br, file, func(line int, lv float64, toks []string) error {
		serial := len(y) + 1
		if len(toks) < 1 || toks[0] != "0:"+strconv.Itoa(serial) {
			got := "nothing"
			if len(toks) >= 1 {
				got = strconv.Quote(toks[0])
			}
			return perr(line, 2, fmt.Sprintf("want 0:%d (the sample's serial number), got %s: precomputed-kernel lines read label 0:i 1:K(i,1) ... n:K(i,n)", serial, got))
		}
		row := toks[1:]
		if n < 0 {
			n, first = len(row), line
			if n == 0 {
				return perr(line, 0, "no kernel values after 0:1: write 1:K(1,1) ... n:K(1,n)")
			}
			if uint64(n)*uint64(n) > MaxValues {
				return perr(line, 0, fmt.Sprintf("%d kernel values a line make a matrix above %s: use fewer samples", n, valuesLimitMsg()))
			}
		}
		if len(row) != n {
			return perr(line, 0, fmt.Sprintf("%d kernel values, line %d has %d: every line holds K(i,1) ... K(i,n) for the same n", len(row), first, n))
		}
		if len(y) == n {
			return perr(line, 0, fmt.Sprintf("more than %d sample lines for %d kernel values a line: the matrix must be square (one line per training sample)", n, n))
		}
		for k, t := range row {
			c := strings.IndexByte(t, ':')
			if j, err := strconv.Atoi(t[:max(c, 0)]); c < 0 || err != nil || j != k+1 {
				return perr(line, k+3, fmt.Sprintf("%q does not start with %d: (write the indices 1..n in order)", t, k+1))
			}
			v, err := strconv.ParseFloat(t[c+1:], 64)
			if err != nil {
				return perr(line, k+3, fmt.Sprintf("value %q is not a number: write index:value", t[c+1:]))
			}
			if msg := checkFinite(v); msg != "" {
				return perr(line, k+3, msg)
			}
			vals = append(vals, v)
		}
		y = append(y, classes.add(strconv.FormatFloat(lv, 'g', -1, 64)))
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%s: no samples: write one line per sample, label 0:i 1:K(i,1) ... n:K(i,n)", file)
	}
	if len(y) != n {
		return nil, fmt.Errorf("%s: %d sample lines but %d kernel values a line: the matrix must be square (one line per training sample)", file, len(y), n)
	}
	return &Dataset{Name: baseName(file), X: mat.NewDense(n, n, vals), Y: y, Classes: classes.classes, Shape: []int{n}}, nil
}

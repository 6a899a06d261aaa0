package data

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// HeaderMode says whether the first row of a CSV file holds column names.
type HeaderMode int

const (
	// HeaderAuto treats the first row as a header when one of its feature fields is not a
	// number (or when the label column is chosen by name).
	HeaderAuto HeaderMode = iota
	// HeaderYes says the first row is a header.
	HeaderYes
	// HeaderNo says the first row is data.
	HeaderNo
)

// CSVOptions configures LoadCSV and ReadCSV. The zero value reads a comma-separated
// file (or semicolon/tab-separated, detected from the first line) with an optional
// header and the labels in the last column.
type CSVOptions struct {
	// Comma is the field separator; 0 picks the most frequent of ',', ';' and '\t' on
	// the first line (',' when none occurs).
	Comma rune
	// Label chooses the label column: a header name, or a 0-based index as a decimal
	// string (negative counts from the end, "-1" is the last column). "" means the
	// last column.
	Label string
	// Header says whether the first row is a header (HeaderAuto by default).
	Header HeaderMode
	// Shape is the shape of one sample, e.g. [28, 28]; nil means [d]. Its product
	// must equal the number of feature columns.
	Shape []int
	// Name is the Dataset's name; "" means the file's base name.
	Name string
}

// LoadCSV reads a CSV file (gzipped or raw) with one sample per row: the feature
// columns are numbers, the label column (see CSVOptions.Label) holds strings ("cat") or
// numbers, which are mapped to class indices in order of first appearance; numbers are
// matched by value ("7", "7.0" and "+7" are one class, see LabelKey), and Classes keeps
// each label as first written. Errors are *ParseError values naming the line and field
// for a non-number, a NaN or infinite value, a ragged row or a missing label; a
// missing file, an empty file or a bad option give a one-line error.
func LoadCSV(path string, opts CSVOptions) (*Dataset, error) {
	return loadCSV(context.Background(), path, opts)
}

// loadCSV is LoadCSV in two passes: the first counts the lines (and refuses a file past
// the value cap before holding any of it), the second parses into arrays allocated once
// at that size, so the load never holds more than its final arrays. ctx stops either.
func loadCSV(ctx context.Context, path string, opts CSVOptions) (*Dataset, error) {
	if opts.Name == "" {
		opts.Name = baseName(path)
	}
	c, err := countCSV(ctx, path, opts.Comma)
	if err != nil {
		return nil, err
	}
	return openReadContext(ctx, path, "CSV", func(r io.Reader) (*Dataset, error) { return readCSV(r, path, opts, c.Lines) })
}

// ReadCSV reads CSV data from r as LoadCSV does; file names the source in errors.
func ReadCSV(r io.Reader, file string, opts CSVOptions) (*Dataset, error) {
	if opts.Name == "" {
		opts.Name = baseName(file)
	}
	return readCSV(r, file, opts, 0)
}

// sniffComma returns the most frequent separator on the first line of br.
func sniffComma(br *bufio.Reader) rune {
	head, _ := br.Peek(1 << 16)
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	best, n := ',', bytes.Count(head, []byte{','})
	for _, c := range []rune{';', '\t'} {
		if k := bytes.Count(head, []byte{byte(c)}); k > n {
			best, n = c, k
		}
	}
	return best
}

// readCSV parses CSV text from r. rows > 0 is an upper bound on the records (the lines
// countCSV found): the arrays are then allocated once at that size (untouched pages of
// a bound above the true count cost no memory); rows 0 grows them as rows arrive, by at
// most a quarter at a time and never far past the value cap.
func readCSV(r io.Reader, file string, opts CSVOptions, rows int) (*Dataset, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
		br.Discard(3)
	}
	comma := opts.Comma
	if comma == 0 {
		comma = sniffComma(br)
	}
	cr := csv.NewReader(newLineLimiter(br, file, maxCSVLineBytes))
	cr.Comma = comma
	cr.ReuseRecord = true
	cr.TrimLeadingSpace = comma != '\t'
	if !validDelim(comma) {
		return nil, fmt.Errorf("%s: separator %q cannot be used: choose another, such as ',' or ';'", file, comma)
	}
	perr := func(line, field int, msg string) error {
		return &ParseError{File: file, Line: line, Field: field, Msg: msg}
	}
	read := func() ([]string, int, error) {
		rec, err := cr.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				msg := pe.Err.Error()
				if errors.Is(pe.Err, csv.ErrFieldCount) {
					msg = fmt.Sprintf("row has %d fields, the first row has %d: make every row the same length", len(rec), cr.FieldsPerRecord)
				} else {
					msg += ": fix the quoting"
				}
				return nil, 0, &ParseError{File: file, Line: pe.Line, Msg: msg}
			}
			return rec, 0, err
		}
		line, _ := cr.FieldPos(0)
		return rec, line, nil
	}

	first, line, err := read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: no rows: the file is empty, give one sample per row with the label in one column", file)
	}
	if err != nil {
		return nil, err
	}
	ncol := len(first)
	if ncol < 2 {
		return nil, perr(line, 0, fmt.Sprintf("row has %d field: need at least one feature and a label; check the separator (got %q)", ncol, comma))
	}

	// Resolve the label column and the header.
	label := ncol - 1
	byName := false
	if opts.Label != "" {
		if k, err := strconv.Atoi(opts.Label); err == nil {
			if k < 0 {
				k += ncol
			}
			if k < 0 || k >= ncol {
				return nil, fmt.Errorf("%s: label column %s is outside the %d columns: give an index in 0..%d or a header name", file, opts.Label, ncol, ncol-1)
			}
			label = k
		} else {
			byName = true
		}
	}
	header := opts.Header == HeaderYes || byName
	if opts.Header == HeaderAuto && !byName {
		for j, f := range first {
			if j == label {
				continue
			}
			if _, err := parseDecimal(strings.TrimSpace(f)); err != nil {
				header = true
				break
			}
		}
	}
	if byName {
		if opts.Header == HeaderNo {
			return nil, fmt.Errorf("%s: label column %q is chosen by name but the file has no header: give a 0-based index instead", file, opts.Label)
		}
		label = -1
		for j, f := range first {
			if strings.TrimSpace(f) == opts.Label {
				label = j
				break
			}
		}
		if label < 0 {
			return nil, fmt.Errorf("%s: no column named %q in the header %q: pass one of these names or a 0-based index", file, opts.Label, first)
		}
	}

	d := ncol - 1
	limit, limitMsg, capErr := valueCap()
	if capErr != nil {
		return nil, capErr
	}
	var (
		x       []float64
		y       []int
		classes classIndex
	)
	if rows > 0 && uint64(rows)*uint64(d) <= limit+uint64(d) {
		x, y = make([]float64, 0, rows*d), make([]int, 0, rows)
	}
	row := func(rec []string, line int) error {
		for j, f := range rec {
			f = strings.TrimSpace(f)
			if j == label {
				if f == "" {
					return perr(line, j+1, "empty label: give every row a label")
				}
				y = append(y, classes.add(f))
				continue
			}
			if f == "" {
				return perr(line, j+1, "empty value: fill in or remove missing values")
			}
			v, err := parseDecimal(f)
			if err != nil {
				if errors.Is(err, errNotDecimal) {
					return perr(line, j+1, fmt.Sprintf("%q is not a decimal number: write values as plain decimals such as 0.25, 1000 or 1e-3 (no hexadecimal, no digit separators)", f))
				}
				if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
					return perr(line, j+1, fmt.Sprintf("value %q is out of range: rescale the data", f))
				}
				return perr(line, j+1, fmt.Sprintf("%q is not a number: features must be numeric (labels are in field %d)", f, label+1))
			}
			if msg := checkFinite(v); msg != "" {
				return perr(line, j+1, msg)
			}
			if len(x) == cap(x) {
				x = slices.Grow(x, growth(len(x), limit))
			}
			x = append(x, v)
		}
		return nil
	}
	if !header {
		if err := row(first, line); err != nil {
			return nil, err
		}
	}
	for {
		rec, line, err := read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if err := row(rec, line); err != nil {
			return nil, err
		}
		if uint64(len(x)) > limit {
			return nil, fmt.Errorf("%s: more than %s: split the file or use a binary format", file, limitMsg)
		}
	}
	if len(y) == 0 {
		return nil, fmt.Errorf("%s: no data rows after the header: give one sample per row", file)
	}
	shape, err := checkShape(opts.Shape, d)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &Dataset{Name: opts.Name, X: mat.NewDense(len(y), d, x), Y: y, Classes: classes.classes, Shape: shape}, nil
}

// errNotDecimal marks a field that strconv.ParseFloat would read but that is Go syntax,
// not a decimal number: hexadecimal floats (0x1p-2) and digit separators (1_000).
var errNotDecimal = errors.New("not a decimal number")

// parseDecimal parses a decimal float as CSV writers (numpy, pandas, R, spreadsheets)
// write them: digits, a point, an exponent, a sign, and the names NaN and Inf (which
// checkFinite then refuses with their own fix). strconv.ParseFloat's Go-only syntax
// is refused with errNotDecimal.
func parseDecimal(s string) (float64, error) {
	if strings.ContainsAny(s, "_xXpP") {
		return 0, errNotDecimal
	}
	return strconv.ParseFloat(s, 64)
}

// validDelim mirrors encoding/csv's rule for a usable separator.
func validDelim(r rune) bool {
	return r != 0 && r != '"' && r != '\r' && r != '\n' && r != 0xFFFD && r >= 0 && r <= 0x10FFFF
}

// checkShape returns shape (or [d] when nil) after checking that its product is d.
func checkShape(shape []int, d int) ([]int, error) {
	if shape == nil {
		return []int{d}, nil
	}
	p := 1
	for _, s := range shape {
		if s <= 0 {
			return nil, fmt.Errorf("sample shape %v has a non-positive size: give positive sizes", shape)
		}
		p *= s
		if p > d {
			break
		}
	}
	if p != d {
		return nil, fmt.Errorf("sample shape %v does not match the %d feature columns: give sizes whose product is %d", shape, d, d)
	}
	return append([]int(nil), shape...), nil
}

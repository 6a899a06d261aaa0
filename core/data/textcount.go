package data

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// textCount is what a first pass over a text data file finds, without keeping any of
// it: Lines, the lines holding something other than blanks (for LIBSVM, other than a
// comment), an upper bound on the samples; Dim, the dimension (CSV: the separators of
// the first line, so the fields but the label; LIBSVM: the largest feature index);
// Values, LIBSVM's index:value pairs.
type textCount struct {
	Lines  int
	Dim    int
	Values int // LIBSVM: the index:value pairs
}

// forEachLine calls fn on every line of r (without its '\n'), reusing one buffer: a
// line longer than max bytes is a *ParseError naming it. fn's error stops the scan.
func forEachLine(r io.Reader, file string, max int, fn func(line int, b []byte) error) error {
	tooLong := func(line int) error {
		return &ParseError{File: file, Line: line, Msg: fmt.Sprintf("line is longer than %d MiB: write one sample a line (a longer row is a corrupt file, or needs a binary format such as .npy)", max>>20)}
	}
	br := bufio.NewReaderSize(r, 1<<16)
	var long []byte // a line longer than the buffer, assembled here
	for line := 1; ; line++ {
		b, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], b...)
			for errors.Is(err, bufio.ErrBufferFull) {
				b, err = br.ReadSlice('\n')
				long = append(long, b...)
				if len(long) > max {
					return tooLong(line)
				}
			}
			b = long
		}
		if err != nil && err != io.EOF {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return fmt.Errorf("%s: %w", file, err)
		}
		if len(b) > max+1 {
			return tooLong(line)
		}
		if len(b) > 0 {
			if ferr := fn(line, bytes.TrimSuffix(b, []byte{'\n'})); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// countCSV is the first pass over a CSV file: it counts its non-blank lines and the
// separators of its first line, and refuses the file, as soon as lines × dimension
// passes the value cap, with the error the parse would give there. comma 0 sniffs the
// separator as readCSV does.
func countCSV(ctx context.Context, path string, comma rune) (textCount, error) {
	return cachedCount(path, fmt.Sprintf("csv%q", comma), func() (textCount, error) { return countCSVFile(ctx, path, comma) })
}

func countCSVFile(ctx context.Context, path string, comma rune) (textCount, error) {
	return openReadContext(ctx, path, "CSV", func(r io.Reader) (textCount, error) {
		br := bufio.NewReaderSize(r, 1<<16)
		if bom, _ := br.Peek(3); bytes.Equal(bom, []byte{0xef, 0xbb, 0xbf}) {
			br.Discard(3)
		}
		if comma == 0 {
			comma = sniffComma(br)
		}
		sep := []byte(string(comma))
		limit, msg, capErr := valueCap()
		if capErr != nil {
			return textCount{}, capErr
		}
		var c textCount
		err := forEachLine(br, path, maxCSVLineBytes, func(line int, b []byte) error {
			if len(bytes.TrimSpace(b)) == 0 {
				return nil
			}
			if c.Lines == 0 {
				c.Dim = bytes.Count(b, sep)
			}
			c.Lines++
			if uint64(c.Lines)*uint64(c.Dim) > limit {
				return fmt.Errorf("%s: more than %s: split the file or use a binary format", path, msg)
			}
			return nil
		})
		return c, err
	})
}

// countLIBSVM is the first pass over a LIBSVM file: its sample lines and largest feature
// index (dim > 0 fixes the dimension), refused as soon as the dense matrix they make
// passes the value cap, with the error the parse would give there. Tokens are not
// checked here: the second pass does that.
func countLIBSVM(ctx context.Context, path string, dim int) (textCount, error) {
	return cachedCount(path, fmt.Sprintf("libsvm%d", dim), func() (textCount, error) { return countLIBSVMFile(ctx, path, dim) })
}

func countLIBSVMFile(ctx context.Context, path string, dim int) (textCount, error) {
	return openReadContext(ctx, path, "LIBSVM", func(r io.Reader) (textCount, error) {
		limit, msg, capErr := valueCap()
		if capErr != nil {
			return textCount{}, capErr
		}
		c := textCount{Dim: dim}
		err := forEachLine(r, path, maxLIBSVMLineBytes, func(line int, b []byte) error {
			if k := bytes.IndexByte(b, '#'); k >= 0 {
				b = b[:k]
			}
			first := true
			for tok := range fieldsSeq(b) {
				if first {
					first = false
					continue
				}
				k := bytes.IndexByte(tok, ':')
				if k <= 0 || string(tok[:k]) == "qid" {
					continue
				}
				c.Values++
				if j, err := strconv.Atoi(string(tok[:k])); err == nil && j > c.Dim && dim == 0 {
					c.Dim = j
				}
			}
			if first {
				return nil // blank or a comment
			}
			c.Lines++
			if dense := uint64(c.Lines) * uint64(c.Dim); dense > limit {
				return &ParseError{File: path, Line: line, Msg: fmt.Sprintf("%d lines with feature indices up to %d make a dense matrix above %s: reduce the largest feature index or the number of lines", c.Lines, c.Dim, msg)}
			}
			return nil
		})
		return c, err
	})
}

// fieldsSeq yields the whitespace-separated fields of b (as bytes.Fields, without
// allocating a slice of them).
func fieldsSeq(b []byte) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		i := 0
		for i < len(b) {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			j := i
			for j < len(b) && !isSpace(b[j]) {
				j++
			}
			if j > i && !yield(b[i:j]) {
				return
			}
			i = j
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// cachedCount returns count() for path, or the count kept in countCache for the same
// kind of pass over the same content; a successful count replaces the kept one. (The
// parse that follows checks the value cap again as it goes.)
func cachedCount(path, kind string, count func() (textCount, error)) (textCount, error) {
	key := cacheKey(path, kind)
	countCache.Lock()
	if key != "" && countCache.key == key {
		c := countCache.count
		countCache.Unlock()
		return c, nil
	}
	countCache.Unlock()
	c, err := count()
	if err == nil && key != "" {
		countCache.Lock()
		countCache.key, countCache.count = key, c
		countCache.Unlock()
	}
	return c, err
}

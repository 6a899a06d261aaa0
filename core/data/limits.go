package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Environment variables that override the readers' limits at start-up (whole numbers;
// an unparsable or non-positive value leaves the default).
const (
	MaxValuesEnv       = "GITUI_MAX_VALUES"
	MaxDecompressedEnv = "GITUI_MAX_DECOMPRESSED_BYTES"
)

// MaxValues bounds the values (matrix entries) a reader builds from one file, like
// Pillow's MAX_IMAGE_PIXELS: 2^28 = 268,435,456 values, 2 GiB as float64 (full MNIST has
// 4.7e7). A header claiming more (IDX, .npy), a text file holding more (CSV), or a
// LIBSVM file whose dense matrix (lines × largest index) would be larger is refused
// before the allocation. $GITUI_MAX_VALUES overrides it; set it before reading.
var MaxValues uint64 = envLimit(MaxValuesEnv, 1<<28)

// MaxDecompressedBytes bounds the bytes read out of one gzip stream: 2 GiB by default,
// room for MaxValues bytes of IDX pixels or about 8 characters of text per value. A
// stream that expands further (a decompression bomb: 1 MB of gzipped zeros is 1 GB) is
// refused as soon as it crosses the limit, with an error wrapping
// ErrDecompressedTooLarge. $GITUI_MAX_DECOMPRESSED_BYTES overrides it.
var MaxDecompressedBytes = int64(envLimit(MaxDecompressedEnv, 2<<30))

// ErrDecompressedTooLarge is wrapped by the error of a read past MaxDecompressedBytes.
var ErrDecompressedTooLarge = errors.New("decompressed data too large")

// Bounds on one line of a text file, checked while it is read, before it is split into
// fields: a CSV row of 2 MiB holds about 200,000 values (encoding/csv still splits the
// part read when it fails, so the bound is also what that costs: about 50 bytes a
// field); a LIBSVM line of 16 MiB about a million index:value pairs. One CSV line of 1e8
// fields (194 KB gzipped) stops at 2 MiB.
const (
	maxCSVLineBytes    = 2 << 20
	maxLIBSVMLineBytes = 16 << 20
)

func envLimit(name string, def uint64) uint64 {
	if v, err := strconv.ParseUint(os.Getenv(name), 10, 64); err == nil && v > 0 {
		return v
	}
	return def
}

// valuesLimitMsg names the values limit and its override, for error messages.
func valuesLimitMsg() string {
	return fmt.Sprintf("the limit of %d values (%s raises it)", MaxValues, MaxValuesEnv)
}

// limitedReader returns the bytes of r, then an error wrapping ErrDecompressedTooLarge
// once more than n were asked for: unlike io.LimitReader it does not end the stream
// quietly, so a truncated read cannot pass for a short file.
type limitedReader struct {
	r    io.Reader
	left int64
	n    int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		// One byte more tells a stream of exactly n bytes from a longer one.
		var one [1]byte
		if k, err := l.r.Read(one[:]); k == 0 {
			return 0, err
		}
		return 0, fmt.Errorf("the gzip stream expands to more than %d bytes (%s raises the limit): a decompression bomb, or a file too large to load: %w", l.n, MaxDecompressedEnv, ErrDecompressedTooLarge)
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	k, err := l.r.Read(p)
	l.left -= int64(k)
	return k, err
}

// lineLimiter passes the bytes of r through and fails (with a message naming the line)
// once a line grows past max bytes.
type lineLimiter struct {
	r    *bufio.Reader
	max  int // bytes a line may have
	cur  int // bytes of the current line so far
	line int // 1-based line number of the current line
	file string
}

// newLineLimiter returns r with lines bounded by max bytes; file names it in errors.
func newLineLimiter(r io.Reader, file string, max int) *lineLimiter {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	return &lineLimiter{r: br, max: max, line: 1, file: file}
}

func (l *lineLimiter) Read(p []byte) (int, error) {
	k, err := l.r.Read(p)
	for i, b := range p[:k] {
		if b == '\n' {
			l.cur = 0
			l.line++
			continue
		}
		l.cur++
		if l.cur > l.max {
			return i, &ParseError{File: l.file, Line: l.line, Msg: fmt.Sprintf("line is longer than %d MiB: write one sample a line (a longer row is a corrupt file, or needs a binary format such as .npy)", l.max>>20)}
		}
	}
	return k, err
}

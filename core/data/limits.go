package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"

	"gitui/internal/bytefmt"
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

// MemoryEnv names the environment variable that sets the memory a run may use (the
// same variable the run estimate reads, e.g. GITUI_MEMORY_LIMIT=8GiB).
const MemoryEnv = "GITUI_MEMORY_LIMIT"

// AvailableMemory returns the bytes the process may still allocate and where that
// figure comes from, the one rule of gitui's memory guards (the readers' value cap, the
// data guard, the run estimate, the workers of a study):
//
//	$GITUI_MEMORY_LIMIT                  when set (8GiB, 512MiB, 2e9: ParseBytes)
//	min(MemAvailable,                    /proc/meminfo
//	    memory.max - memory.current,     the process's cgroup v2
//	    RLIMIT_AS - VmSize)              ulimit -v: past it the Go runtime dies
//	1 TiB                                when nothing is known, refusing only the absurd
//
// A malformed $GITUI_MEMORY_LIMIT is an *InputError naming the variable and the accepted
// units (bytes and source are then 0 and ""). It reads /proc and /sys on each call.
func AvailableMemory() (bytes int64, source string, err error) {
	if v := strings.TrimSpace(os.Getenv(MemoryEnv)); v != "" {
		b, err := ParseBytes(v)
		if err != nil {
			return 0, "", InputErr(fmt.Errorf("%s: %w", MemoryEnv, err))
		}
		return b, MemoryEnv, nil
	}
	limit, source := int64(1<<40), "no memory information"
	if avail, ok := MeminfoBytes("MemAvailable:"); ok {
		limit, source = avail, "MemAvailable"
	}
	if room, ok := CgroupRoom(); ok && room < limit {
		limit, source = room, "cgroup memory.max"
	}
	if room, ok := addressSpaceRoom(); ok && room < limit {
		limit, source = room, "RLIMIT_AS (ulimit -v)"
	}
	return limit, source, nil
}

// addressSpaceRoom returns the address space the process may still map under its
// RLIMIT_AS (ulimit -v): the limit less VmSize (/proc/self/status); ok is false
// without a limit. Allocating past it is not a refusal but the Go runtime's fatal
// "out of memory", so the readers count it as memory that is not there.
func addressSpaceRoom() (int64, bool) {
	var rl syscall.Rlimit
	// RLIM_INFINITY is all ones: no limit.
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur > 1<<62 {
		return 0, false
	}
	size, ok := procStatus("VmSize:")
	if !ok {
		return 0, false
	}
	return max(0, int64(rl.Cur)-size), true
}

// procStatus returns the /proc/self/status field key (kB) in bytes.
func procStatus(key string) (int64, bool) {
	return kBField("/proc/self/status", key)
}

// kBField returns the field key (a line "key value kB", as in /proc/meminfo and
// /proc/self/status) of the file at path in bytes, ok false where it cannot be read.
func kBField(path, key string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	for _, l := range strings.Split(string(b), "\n") {
		fs := strings.Fields(l)
		if len(fs) >= 2 && fs[0] == key {
			v, err := strconv.ParseInt(fs[1], 10, 64)
			return v << 10, err == nil
		}
	}
	return 0, false
}

// ParseBytes parses a memory size: a number with an optional unit B, K/KB, M/MB, G/GB,
// T/TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), case-insensitive, e.g.
// "8GiB", "512 MiB", "2e9". Sizes below 1 MiB or above 4 EiB are errors.
func ParseBytes(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	mult := map[string]float64{"": 1, "b": 1, "k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}[unit]
	v, err := strconv.ParseFloat(num, 64)
	if mult == 0 || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a memory size: give a number with a unit B, K/KB, M/MB, G/GB, T/TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), e.g. 8GiB or 512MiB", s)
	}
	b := v * mult
	if b < 1<<20 || b > 1<<62 {
		return 0, fmt.Errorf("%q is out of range: give a size from 1MiB to 4EiB", s)
	}
	return int64(b), nil
}

// MeminfoBytes returns the /proc/meminfo field key ("MemAvailable:", "MemTotal:"; kB)
// in bytes, ok false where it cannot be read.
func MeminfoBytes(key string) (int64, bool) {
	return kBField("/proc/meminfo", key)
}

// CgroupRoom returns memory.max - memory.current of the cgroup v2 the process runs in
// (ok false without a limit).
func CgroupRoom() (int64, bool) {
	mx, err := os.ReadFile("/sys/fs/cgroup/memory.max")
	if err != nil {
		return 0, false
	}
	lim, err := strconv.ParseInt(strings.TrimSpace(string(mx)), 10, 64)
	if err != nil { // "max": no limit
		return 0, false
	}
	cur := int64(0)
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.current"); err == nil {
		cur, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	return max(0, lim-cur), true
}

// loadOverhead is the most memory a load is allowed beside its final array (buffers,
// labels, the runtime): 200 MB, or an eighth of the memory when that is smaller.
const loadOverhead = 200 << 20

// valueCap returns the most values (float64 matrix entries) one file may load: the
// smaller of MaxValues and what the available memory holds as one float64 array beside
// the load's overhead, with a phrase naming the binding limit and how to raise it, for
// errors. Its error is AvailableMemory's (a malformed $GITUI_MEMORY_LIMIT).
func valueCap() (uint64, string, error) {
	avail, source, err := AvailableMemory()
	if err != nil {
		return 0, "", err
	}
	fit := uint64(max(0, avail-min(loadOverhead, avail/8))) / 8
	if fit < MaxValues {
		where := source
		if source != MemoryEnv {
			where += "; " + MemoryEnv + " sets it"
		}
		return fit, fmt.Sprintf("the %d values (%s as float64) that fit in the %s of memory available (%s)", fit, bytefmt.IEC(float64(fit*8)), bytefmt.IEC(float64(avail)), where), nil
	}
	return MaxValues, valuesLimitMsg(), nil
}

// growth returns how many elements to add to a full slice of n elements that may not
// pass limit by much: a quarter of n (at least 4096), but no more than limit+4096-n, so
// that the slice never grows past the cap (the running check refuses it there) and never
// doubles.
func growth(n int, limit uint64) int {
	g := max(n/4, 4096)
	if room := int64(limit) + 4096 - int64(n); room > 0 && int64(g) > room {
		g = int(room)
	}
	return g
}

// overMsg is the limit phrase for a claim of count values past the cap of valueCap
// (limit, msg): the values limit when the claim passes it too (no memory would do),
// else msg.
func overMsg(count uint64, msg string) string {
	if count > MaxValues {
		return valuesLimitMsg()
	}
	return msg
}

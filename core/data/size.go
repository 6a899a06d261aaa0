package data

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gitui/internal/bytefmt"
)

// FileSize is the size of the data set in a file, known before it is loaded: Rows
// samples (an upper bound for text files: their non-blank lines) of Dim values.
type FileSize struct {
	Rows, Dim int
}

// Bytes returns the memory of the loaded Dataset: the float64 matrix and the labels
// (at most math.MaxInt64: an absurd header's claim saturates rather than wraps).
func (s FileSize) Bytes() int64 {
	b := float64(s.Rows) * (float64(s.Dim) + 1) * 8
	if b >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(b)
}

// satMul returns a·b for non-negative a, b, or math.MaxInt when it overflows.
func satMul(a, b uint64) int {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > math.MaxInt {
		return math.MaxInt
	}
	return int(lo)
}

// SizeOfFile returns the size of the data set LoadFile would read from path, without
// loading it, with the Size function of the path's registered format: from the header
// of an IDX, .npy or .npz file, or from a first pass over a CSV or LIBSVM file that
// keeps nothing (that pass refuses a file past the value cap as the load would, and the
// load reuses its count). Errors are those of the load, the unknown kind included; a
// folder (of edge lists) gives a zero FileSize, as does a file whose size only its load
// finds.
func SizeOfFile(ctx context.Context, path string) (FileSize, error) {
	if err := CheckRegular(path); err != nil {
		return FileSize{}, err
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return FileSize{}, nil // a folder of edge lists is sized by its load
	}
	f := formats.lookup(path)
	if f == nil {
		return FileSize{}, unknownKind(path)
	}
	return f.Size(ctx, path)
}

// npySize returns the size of a samples array of header h: (n, d) or (n, h, w).
func npySize(h *npyHeader) FileSize {
	if len(h.shape) == 0 {
		return FileSize{}
	}
	d := 1
	for _, s := range h.shape[1:] {
		d = satMul(uint64(d), uint64(s))
	}
	return FileSize{Rows: h.shape[0], Dim: d}
}

// CheckFileMemory refuses, before anything is loaded, data files whose data sets
// (SizeOfFile) do not fit in the memory available (AvailableMemory) when held copies
// times (a load, its split and its normalized copy): the error names the files' sizes,
// the memory and the fix. It returns the bytes of one copy of the data sets. "" paths
// are skipped.
func CheckFileMemory(ctx context.Context, copies int, paths ...string) (int64, error) {
	var total int64
	var dims []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		s, err := SizeOfFile(ctx, p)
		if err != nil {
			return 0, err
		}
		if b := s.Bytes(); total > math.MaxInt64-b {
			total = math.MaxInt64
		} else {
			total += b
		}
		dims = append(dims, fmt.Sprintf("%s: %d×%d", filepath.Base(p), s.Rows, s.Dim))
	}
	avail, source, err := AvailableMemory()
	if err != nil {
		return 0, err
	}
	if need := float64(total) * float64(copies); need > float64(avail) {
		return total, fmt.Errorf("the data set (%s) takes %s as float64, about %s while it is loaded, split and normalized, more than the %s available (%s): use a smaller file, or set %s=SIZE if more memory is free", strings.Join(dims, ", "), bytefmt.IEC(float64(total)), bytefmt.IEC(need), bytefmt.IEC(float64(avail)), source, MemoryEnv)
	}
	return total, nil
}

// countCache keeps the last first-pass count of a text file, so that the load after
// SizeOfFile does not read the file a third time. The key holds the file's size and
// modification time: a file changed since is counted again.
var countCache struct {
	sync.Mutex
	key   string
	count textCount
}

// cacheKey identifies path's current content for countCache ("" if it cannot be
// stated).
func cacheKey(path, kind string) string {
	st, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s\x00%s\x00%d\x00%d", kind, path, st.Size(), st.ModTime().UnixNano())
}

package data

import (
	"archive/zip"
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"gitui/internal/ctxio"
)

// npyMagic opens every .npy file (NEP 1).
var npyMagic = []byte("\x93NUMPY")

// ndarray is a decoded .npy array: data in C (row-major) order.
type ndarray struct {
	shape []int
	data  []float64
	kind  byte // the dtype's kind: 'b', 'i', 'u' or 'f'
	// exact holds, by element index, the decimal text of each 64-bit integer whose
	// magnitude is above 2^53, where float64 would merge neighbours (2^53 and 2^53+1):
	// labels read from it stay distinct (nil when there is none).
	exact map[int]string
}

// readNPY decodes one .npy array of a numeric dtype (bool, int8..int64, uint8..uint64,
// float16/32/64, either byte order, C or Fortran order) into float64 values in C order.
//
// The header is parsed here rather than by npyio's reader: on hostile input that reader
// slices with unchecked indices (a panic), allocates from the header's claims, and
// fills a truncated body with zeros without an error.
//
// bound is the most bytes the source can hold (0: unknown): a body within it is decoded
// into an array allocated once, any other as it arrives.
func readNPY(r io.Reader, bound uint64) (*ndarray, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	h, dt, err := readNPYHead(br)
	if err != nil {
		return nil, err
	}
	limit, limitMsg, capErr := valueCap()
	if capErr != nil {
		return nil, capErr
	}
	count := uint64(1)
	for _, s := range h.shape {
		var hi uint64
		hi, count = bits.Mul64(count, uint64(s))
		if hi != 0 || count > limit {
			if hi != 0 {
				count = math.MaxUint64
			}
			if count > MaxValues {
				limit = MaxValues
			}
			return nil, fmt.Errorf(".npy shape %v has more than %d elements, %s: split the array", h.shape, limit, overMsg(count, limitMsg))
		}
	}
	want := count * uint64(dt.size)
	// The values are decoded as the bytes arrive. When the source can hold the body
	// (want <= bound) they go straight into the one array they fill; otherwise (a header
	// that may lie) into blocks that grow with the data, joined at the end.
	var data []float64
	var blocks [][]float64
	if want <= bound {
		data = make([]float64, count)
	}
	const blockValues = 1 << 17
	chunk := make([]byte, blockValues*dt.size)
	var got uint64
	var exact map[int]string
	for got < want {
		k := uint64(len(chunk))
		if want-got < k {
			k = want - got
		}
		n, err := io.ReadFull(br, chunk[:k])
		if err != nil {
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("reading .npy data: %w", err)
			}
			return nil, fmt.Errorf(".npy data is truncated: expected %d bytes for shape %v of %s, got %d: save the array again", want, h.shape, h.descr, got+uint64(n))
		}
		at := int(got / uint64(dt.size))
		var dst []float64
		if data != nil {
			dst = data[at:]
		} else {
			dst = make([]float64, n/dt.size)
			blocks = append(blocks, dst)
		}
		if err := dt.decodeInto(dst, chunk[:n], at); err != nil {
			return nil, err
		}
		exact = dt.exactInts(exact, chunk[:n], at)
		got += uint64(n)
	}
	if data == nil {
		data = make([]float64, 0, count)
		for i, b := range blocks {
			data = append(data, b...)
			blocks[i] = nil
		}
	}
	if _, err := br.ReadByte(); err == nil {
		return nil, fmt.Errorf(".npy file has bytes after the %d its header declares: the file is corrupt, save the array again", want)
	} else if err != io.EOF {
		return nil, fmt.Errorf("reading .npy data: %w", err)
	}
	if h.fortran && len(h.shape) > 1 {
		data = fortranToC(data, h.shape)
	}
	if h.fortran && len(h.shape) > 1 {
		exact = nil // only a 1-D labels array reads it, and 1-D order is the same
	}
	return &ndarray{shape: h.shape, data: data, kind: dt.kind, exact: exact}, nil
}

// readNPYHead reads the magic, version and header dictionary of a .npy stream from br
// and returns the header and its dtype; br is left at the first data byte.
func readNPYHead(br *bufio.Reader) (*npyHeader, dtype, error) {
	var pre [10]byte
	if n, _ := io.ReadFull(br, pre[:8]); n < 8 || !bytes.Equal(pre[:6], npyMagic) {
		return nil, dtype{}, errors.New("not a .npy file (no \\x93NUMPY magic): save arrays with numpy.save")
	}
	var hlen uint64
	switch pre[6] {
	case 1:
		if _, err := io.ReadFull(br, pre[8:10]); err != nil {
			return nil, dtype{}, errors.New(".npy header is truncated: save the array again")
		}
		hlen = uint64(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, dtype{}, errors.New(".npy header is truncated: save the array again")
		}
		hlen = uint64(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, dtype{}, fmt.Errorf(".npy format version %d.%d is not supported: save with numpy.save (versions 1-3)", pre[6], pre[7])
	}
	if hlen > 1<<20 {
		return nil, dtype{}, fmt.Errorf(".npy header claims %d bytes, more than 1 MiB: the file is corrupt", hlen)
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(br, hdr); err != nil {
		return nil, dtype{}, errors.New(".npy header is truncated: save the array again")
	}
	h, err := parseNPYHeader(string(hdr))
	if err != nil {
		return nil, dtype{}, fmt.Errorf(".npy header: %w", err)
	}
	dt, err := parseDtype(h.descr)
	if err != nil {
		return nil, dtype{}, err
	}
	return h, dt, nil
}

// readNPYHeader reads only the header of the .npy stream r.
func readNPYHeader(r io.Reader) (*npyHeader, error) {
	h, _, err := readNPYHead(bufio.NewReaderSize(r, 1<<10))
	return h, err
}

// NPYShape returns the shape the header of the .npy file at path declares, reading the
// header only (a few hundred bytes, however large the array): for estimates that need
// an array's size before it is loaded.
func NPYShape(path string) ([]int, error) {
	h, err := openRead(path, ".npy array", func(r io.Reader) (*npyHeader, error) { return readNPYHeader(r) })
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return h.shape, nil
}

// npyHeader is the dictionary of a .npy header.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int
}

// parseNPYHeader parses the Python dict literal of a .npy header, e.g.
//
//	{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
func parseNPYHeader(s string) (*npyHeader, error) {
	p := &pyLit{s: strings.TrimRight(s, " \n\x00")}
	h := &npyHeader{}
	seen := map[string]bool{}
	if !p.eat('{') {
		return nil, errors.New("not a dictionary: the file is corrupt")
	}
	for {
		if p.eat('}') {
			break
		}
		key, ok := p.str()
		if !ok || !p.eat(':') {
			return nil, errors.New("malformed dictionary: the file is corrupt")
		}
		switch key {
		case "descr":
			v, ok := p.str()
			if !ok {
				return nil, errors.New("descr is not a simple dtype string: save a plain numeric array (structured dtypes are not supported)")
			}
			h.descr = v
		case "fortran_order":
			v, ok := p.boolean()
			if !ok {
				return nil, errors.New("fortran_order is not True or False: the file is corrupt")
			}
			h.fortran = v
		case "shape":
			v, ok, big := p.tuple()
			if big != "" {
				return nil, fmt.Errorf("shape size %s is too large to load (a size may be at most %d): split the array", big, math.MaxInt32)
			}
			if !ok {
				return nil, errors.New("shape is not a tuple of sizes: the file is corrupt")
			}
			h.shape = v
		default:
			return nil, fmt.Errorf("unknown key %q: the file is corrupt", key)
		}
		seen[key] = true
		if !p.eat(',') {
			if !p.eat('}') {
				return nil, errors.New("malformed dictionary: the file is corrupt")
			}
			break
		}
	}
	p.skip()
	if p.i != len(p.s) {
		return nil, errors.New("text after the dictionary: the file is corrupt")
	}
	if !seen["descr"] || !seen["fortran_order"] || !seen["shape"] {
		return nil, errors.New("descr, fortran_order or shape is missing: the file is corrupt")
	}
	return h, nil
}

// pyLit scans the small subset of Python literals used by .npy headers.
type pyLit struct {
	s string
	i int
}

func (p *pyLit) skip() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *pyLit) eat(c byte) bool {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *pyLit) str() (string, bool) {
	p.skip()
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", false
	}
	q := p.s[p.i]
	j := strings.IndexByte(p.s[p.i+1:], q)
	if j < 0 {
		return "", false
	}
	v := p.s[p.i+1 : p.i+1+j]
	p.i += j + 2
	return v, true
}

func (p *pyLit) boolean() (bool, bool) {
	p.skip()
	for _, w := range []string{"True", "False"} {
		if strings.HasPrefix(p.s[p.i:], w) {
			p.i += len(w)
			return w == "True", true
		}
	}
	return false, false
}

// tuple scans a tuple of sizes. ok is false when the text is not one; big names a
// size written as digits but above math.MaxInt32 (the shape is then too large, not
// malformed).
func (p *pyLit) tuple() (out []int, ok bool, big string) {
	if !p.eat('(') {
		return nil, false, ""
	}
	for {
		if p.eat(')') {
			return out, true, ""
		}
		p.skip()
		j := p.i
		for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
			j++
		}
		digits := p.s[p.i:j]
		v, err := strconv.Atoi(digits)
		if digits != "" && (v > math.MaxInt32 || errors.Is(err, strconv.ErrRange)) {
			return nil, false, digits
		}
		if err != nil {
			return nil, false, ""
		}
		p.i = j
		if p.i < len(p.s) && p.s[p.i] == 'L' {
			p.i++
		}
		out = append(out, v)
		if !p.eat(',') {
			if !p.eat(')') {
				return nil, false, ""
			}
			return out, true, ""
		}
	}
}

// dtype is a parsed numeric numpy dtype.
type dtype struct {
	kind  byte // 'b', 'i', 'u', 'f'
	size  int
	order binary.ByteOrder
}

// parseDtype parses a descr such as "<f4", "|u1", ">i8", "|b1".
func parseDtype(descr string) (dtype, error) {
	bad := fmt.Errorf("dtype %q is not supported: save a numeric array (bool, int, uint or float)", descr)
	if len(descr) < 3 {
		return dtype{}, bad
	}
	dt := dtype{kind: descr[1], order: binary.LittleEndian}
	switch descr[0] {
	case '<', '|', '=':
	case '>':
		dt.order = binary.BigEndian
	default:
		return dtype{}, bad
	}
	size, err := strconv.Atoi(descr[2:])
	if err != nil {
		return dtype{}, bad
	}
	dt.size = size
	ok := false
	switch dt.kind {
	case 'b':
		ok = size == 1
	case 'i', 'u':
		ok = size == 1 || size == 2 || size == 4 || size == 8
	case 'f':
		ok = size == 2 || size == 4 || size == 8
	}
	if !ok {
		return dtype{}, bad
	}
	return dt, nil
}

// decodeInto converts the elements of raw bytes b into out (which holds at least
// len(b)/size values), rejecting non-finite ones; first is the index of b's first
// element in the array, for errors.
func (dt dtype) decodeInto(out []float64, b []byte, first int) error {
	o := dt.order
	for i := range len(b) / dt.size {
		e := b[i*dt.size : (i+1)*dt.size]
		var v float64
		switch dt.kind {
		case 'b':
			if e[0] != 0 {
				v = 1
			}
		case 'i':
			switch dt.size {
			case 1:
				v = float64(int8(e[0]))
			case 2:
				v = float64(int16(o.Uint16(e)))
			case 4:
				v = float64(int32(o.Uint32(e)))
			case 8:
				v = float64(int64(o.Uint64(e)))
			}
		case 'u':
			switch dt.size {
			case 1:
				v = float64(e[0])
			case 2:
				v = float64(o.Uint16(e))
			case 4:
				v = float64(o.Uint32(e))
			case 8:
				v = float64(o.Uint64(e))
			}
		case 'f':
			switch dt.size {
			case 2:
				v = halfToFloat(o.Uint16(e))
			case 4:
				v = float64(math.Float32frombits(o.Uint32(e)))
			case 8:
				v = math.Float64frombits(o.Uint64(e))
			}
			if msg := checkFinite(v); msg != "" {
				return fmt.Errorf("element %d: %s", first+i, msg)
			}
		}
		out[i] = v
	}
	return nil
}

// maxExact is 2^53: every integer of at most this magnitude is exact in float64.
const maxExact = 1 << 53

// exactInts adds to m (allocated on first need) the decimal text of each element of b,
// a block of 8-byte integers starting at element first, whose magnitude is above 2^53,
// and returns m. Other dtypes add nothing.
func (dt dtype) exactInts(m map[int]string, b []byte, first int) map[int]string {
	if dt.size != 8 || dt.kind != 'i' && dt.kind != 'u' {
		return m
	}
	for i := range len(b) / 8 {
		u := dt.order.Uint64(b[i*8:])
		var s string
		switch {
		case dt.kind == 'u' && u > maxExact:
			s = strconv.FormatUint(u, 10)
		case dt.kind == 'i' && (int64(u) > maxExact || int64(u) < -maxExact):
			s = strconv.FormatInt(int64(u), 10)
		default:
			continue
		}
		if m == nil {
			m = map[int]string{}
		}
		m[first+i] = s
	}
	return m
}

// halfToFloat converts an IEEE 754 binary16 value to float64.
func halfToFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * frac * math.Ldexp(1, -24)
	case 0x1f:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * (1 + frac/1024) * math.Ldexp(1, exp-15)
}

// fortranToC reorders data stored in Fortran (column-major) order into C order.
func fortranToC(data []float64, shape []int) []float64 {
	out := make([]float64, len(data))
	nd := len(shape)
	idx := make([]int, nd)
	for c := range out { // c walks C order; compute the Fortran offset of idx.
		f, stride := 0, 1
		for k := 0; k < nd; k++ {
			f += idx[k] * stride
			stride *= shape[k]
		}
		out[c] = data[f]
		for k := nd - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return out
}

// newArrayDataset builds a Dataset from a samples array (n,d) or (n,h,w) and a label
// array (n) or (n,1). Labels are mapped to classes in increasing order of value (the
// order of numpy.unique), named by the shortest decimal form of the value.
func newArrayDataset(name string, x, y *ndarray) (*Dataset, error) {
	var shape []int
	switch len(x.shape) {
	case 2, 3:
		shape = append([]int(nil), x.shape[1:]...)
	default:
		return nil, fmt.Errorf("samples array has shape %v: reshape it to (n, d) or (n, height, width)", x.shape)
	}
	n := x.shape[0]
	d := len(x.data) / max(n, 1)
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("samples array has shape %v: it holds no data", x.shape)
	}
	if !(len(y.shape) == 1 || (len(y.shape) == 2 && y.shape[1] == 1)) {
		return nil, fmt.Errorf("labels array has shape %v: save the labels as a 1-D array", y.shape)
	}
	if len(y.data) != n {
		return nil, fmt.Errorf("%d samples but %d labels: save arrays of matching length", n, len(y.data))
	}
	classes, labels := npyClasses(y)
	return &Dataset{Name: name, X: mat.NewDense(n, d, x.data), Y: labels, Classes: classes, Shape: shape}, nil
}

// maxDeflateRatio bounds what deflate (gzip, zip) expands a byte into: about 1032.
const maxDeflateRatio = 1032

// readNPYFile opens and decodes one .npy file (gzipped or raw); ctx stops the read.
func readNPYFile(ctx context.Context, path, what string) (*ndarray, error) {
	var bound uint64
	if st, err := os.Stat(path); err == nil {
		bound = uint64(st.Size()) * maxDeflateRatio
	}
	return openReadContext(ctx, path, what, func(r io.Reader) (*ndarray, error) {
		a, err := readNPY(r, bound)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", path, err)
		}
		return a, nil
	})
}

// LoadNPY reads samples and labels from two NumPy .npy files. xPath holds a 2-D array
// (n, d), giving Shape [d], or a 3-D array (n, h, w), giving Shape [h, w]; yPath a 1-D
// array of n labels. Any bool, int, uint or float dtype in either byte order, C or
// Fortran order, is read (values become float64). Labels become classes in
// increasing order of value (numpy.unique's order), named by their decimal form, so
// labels 0..9 map to themselves. NaN or infinite samples, mismatched lengths and other
// shapes are errors naming the fix.
func LoadNPY(xPath, yPath string) (*Dataset, error) {
	return loadNPY(context.Background(), xPath, yPath)
}

func loadNPY(ctx context.Context, xPath, yPath string) (*Dataset, error) {
	x, err := readNPYFile(ctx, xPath, ".npy samples")
	if err != nil {
		return nil, err
	}
	y, err := readNPYFile(ctx, yPath, ".npy labels")
	if err != nil {
		return nil, err
	}
	ds, err := newArrayDataset(baseName(xPath), x, y)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", xPath, err)
	}
	return ds, nil
}

// ReadNPY reads a samples array and a labels array in .npy format from two readers,
// as LoadNPY does; name becomes the Dataset's Name.
func ReadNPY(x, y io.Reader, name string) (*Dataset, error) {
	xa, err := readNPY(x, 0)
	if err != nil {
		return nil, fmt.Errorf("samples: %w", err)
	}
	ya, err := readNPY(y, 0)
	if err != nil {
		return nil, fmt.Errorf("labels: %w", err)
	}
	return newArrayDataset(name, xa, ya)
}

// LoadNPZ reads a NumPy .npz archive (numpy.savez or savez_compressed) holding the
// samples under the key x or X and the labels under y or Y (each with or without the
// .npy suffix). Arrays are read as LoadNPY reads them.
func LoadNPZ(path string) (*Dataset, error) {
	return loadNPZ(context.Background(), path)
}

func loadNPZ(ctx context.Context, path string) (*Dataset, error) {
	f, err := openData(path, ".npz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	ds, err := ReadNPZ(ctxio.ReaderAt(ctx, f), st.Size(), baseName(path))
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return ds, nil
}

// npzKey returns the key of the .npz entry name: numpy.savez names the array of key k
// "k.npy".
func npzKey(name string) string { return strings.TrimSuffix(name, ".npy") }

// ReadNPZ reads an .npz archive of size bytes from r as LoadNPZ does; name becomes the
// Dataset's Name.
func ReadNPZ(r io.ReaderAt, size int64, name string) (*Dataset, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not an .npz archive (%v): save with numpy.savez", err)
	}
	var xf, yf *zip.File
	var keys []string
	for _, f := range zr.File {
		k := npzKey(f.Name)
		keys = append(keys, k)
		switch k {
		case "x", "X":
			if xf == nil {
				xf = f
			}
		case "y", "Y":
			if yf == nil {
				yf = f
			}
		}
	}
	if xf == nil || yf == nil {
		return nil, fmt.Errorf("archive holds keys [%s], not x and y: save with numpy.savez(path, x=X, y=y)", strings.Join(keys, " "))
	}
	read := func(f *zip.File) (*ndarray, error) {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("entry %s: %v: the archive is corrupt, save it again", f.Name, err)
		}
		defer rc.Close()
		a, err := readNPY(rc, f.CompressedSize64*maxDeflateRatio)
		if err != nil {
			return nil, fmt.Errorf("entry %s: %w", f.Name, err)
		}
		return a, nil
	}
	x, err := read(xf)
	if err != nil {
		return nil, err
	}
	y, err := read(yf)
	if err != nil {
		return nil, err
	}
	return newArrayDataset(name, x, y)
}

// npyClasses returns the classes of a labels array, in increasing order of value, and
// each element's class index. An integer dtype's classes are written as integers
// ("9007199254740993", never "9.007199254740993e+15"), and 64-bit integers above 2^53
// keep their exact value (ndarray.exact), so 2^53 and 2^53+1 are two classes; a float
// label is written as the shortest text that reads back to it.
func npyClasses(y *ndarray) ([]string, []int) {
	integer := y.kind == 'i' || y.kind == 'u' || y.kind == 'b'
	text := func(i int) string {
		if s, ok := y.exact[i]; ok {
			return s
		}
		v := y.data[i]
		if v == 0 {
			v = 0 // -0 and 0 are one label
		}
		if integer {
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	// Distinct labels by text; their order is by value, exact integers by big.Int.
	index := map[string]int{}
	var names []string
	var first []int // an element holding each name
	labels := make([]int, len(y.data))
	for i := range y.data {
		s := text(i)
		k, ok := index[s]
		if !ok {
			k = len(names)
			index[s] = k
			names = append(names, s)
			first = append(first, i)
		}
		labels[i] = k
	}
	order := make([]int, len(names))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		va, vb := y.data[first[a]], y.data[first[b]]
		if va != vb {
			return cmp.Compare(va, vb)
		}
		ba, _ := new(big.Int).SetString(names[a], 10)
		bb, _ := new(big.Int).SetString(names[b], 10)
		if ba == nil || bb == nil {
			return strings.Compare(names[a], names[b])
		}
		return ba.Cmp(bb)
	})
	rank := make([]int, len(names))
	classes := make([]string, len(names))
	for r, k := range order {
		rank[k] = r
		classes[r] = names[k]
	}
	for i, k := range labels {
		labels[i] = rank[k]
	}
	return classes, labels
}

package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"

	"gonum.org/v1/gonum/mat"

	"gitui/internal/ctxio"
)

// IDX magic numbers: two zero bytes, the element type (0x08 = unsigned byte) and the
// number of dimensions (LeCun's MNIST format).
const (
	idxImagesMagic = 0x00000803
	idxLabelsMagic = 0x00000801
)

// Images holds the pixels of an IDX images file: N images of Rows×Cols unsigned bytes,
// row-major, image after image (len(Pix) == N*Rows*Cols).
type Images struct {
	N, Rows, Cols int
	Pix           []uint8
}

// gzipMagic is the first two bytes of every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// maybeGunzip returns a reader of the decompressed stream when r starts with the gzip
// magic bytes, and of r itself otherwise. The decision uses the content, not a file name.
func maybeGunzip(r io.Reader) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if bytes.Equal(head, gzipMagic) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("bad gzip header (%v): the file is corrupt, re-download it", err)
		}
		return bufio.NewReaderSize(&limitedReader{r: gzipErrReader{zr}, left: MaxDecompressedBytes, n: MaxDecompressedBytes}, 1<<16), nil
	}
	return br, nil
}

// GzipError is a gzip stream that ends early or fails its checks (a truncated
// download, a bad CRC, damaged deflate data): its message names the damage and the fix,
// and it wraps the decompressor's error.
type GzipError struct {
	Err error
}

func (e *GzipError) Error() string {
	what, file := "is corrupt", "damaged"
	switch {
	case errors.Is(e.Err, io.ErrUnexpectedEOF):
		what, file = "ends early", "truncated"
	case errors.Is(e.Err, gzip.ErrChecksum):
		what = "fails its checksum"
	}
	return fmt.Sprintf("the gzip stream %s (%v), the file is %s: re-download it or check the copy", what, e.Err, file)
}

func (e *GzipError) Unwrap() error { return e.Err }

// gzipErrReader turns the errors of a gzip reader, other than io.EOF, into *GzipError.
type gzipErrReader struct {
	r io.Reader
}

func (g gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		err = &GzipError{Err: err}
	}
	return n, err
}

// readHeader reads the 4-byte magic and the dims big-endian uint32 sizes of an IDX file.
func readHeader(r io.Reader, magic uint32, what string, dims int) ([]uint64, error) {
	var buf [4 * 4]byte
	hdr := buf[:4*(dims+1)]
	n, err := io.ReadFull(r, hdr)
	if n < 4 {
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("reading IDX %s header: %w", what, err)
		}
		return nil, fmt.Errorf("not an IDX %s file: only %d bytes: check the path, or re-download the file", what, n)
	}
	if got := binary.BigEndian.Uint32(hdr); got != magic {
		return nil, fmt.Errorf("not an IDX %s file: magic number 0x%08x, want 0x%08x: check that the path names the %s file", what, got, magic, what)
	}
	if n < len(hdr) {
		if err != io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("reading IDX %s header: %w", what, err)
		}
		return nil, fmt.Errorf("IDX %s file is truncated: header has %d of %d bytes: re-download it", what, n, len(hdr))
	}
	sz := make([]uint64, dims)
	for i := range sz {
		sz[i] = uint64(binary.BigEndian.Uint32(hdr[4*(i+1):]))
	}
	return sz, nil
}

// bodyBlock is the size of the blocks readBodyBlocks reads a body into.
const bodyBlock = 1 << 20

// readBodyBlocks reads exactly want bytes from r into blocks of bodyBlock bytes and
// checks that nothing follows. Memory grows with the bytes actually read, so a header
// that lies about the size cannot force a large allocation, and nothing is copied as
// the body grows (no doubling).
func readBodyBlocks(r io.Reader, want uint64, what string) ([][]byte, error) {
	var blocks [][]byte
	var got uint64
	for got < want {
		b := make([]byte, min(want-got, bodyBlock))
		k, err := io.ReadFull(r, b)
		got += uint64(k)
		if err != nil {
			var gz *GzipError
			if errors.As(err, &gz) {
				return nil, fmt.Errorf("reading IDX %s: %w", what, err)
			}
			if err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, fmt.Errorf("reading IDX %s: %w: the file is corrupt, re-download it", what, err)
			}
			return nil, fmt.Errorf("IDX %s file is truncated: expected %d bytes after the header, got %d: re-download it", what, want, got)
		}
		blocks = append(blocks, b)
	}
	var one [1]byte
	if k, _ := io.ReadFull(r, one[:]); k > 0 {
		extra, _ := io.Copy(io.Discard, r)
		return nil, fmt.Errorf("IDX %s file has %d bytes after the %d its header declares: the file is corrupt, re-download it", what, extra+1, want)
	}
	return blocks, nil
}

// readBody is readBodyBlocks joined into one array.
func readBody(r io.Reader, want uint64, what string) ([]byte, error) {
	blocks, err := readBodyBlocks(r, want, what)
	if err != nil {
		return nil, err
	}
	return joinBlocks(blocks, int(want)), nil
}

// joinBlocks returns the n bytes of blocks in one array, allocated once they are all
// read; each block is dropped as soon as it is copied.
func joinBlocks(blocks [][]byte, n int) []byte {
	if len(blocks) == 1 {
		return blocks[0]
	}
	out := make([]byte, 0, n)
	for i, b := range blocks {
		out = append(out, b...)
		blocks[i] = nil
	}
	return out
}

// ReadIDXImages reads an IDX images file (magic 0x00000803: n, rows, cols as big-endian
// uint32, then n*rows*cols unsigned bytes) from r, gzipped or raw (detected by the gzip
// magic bytes 1f 8b). It returns an error naming the problem for a wrong magic number,
// an empty or absurd header, a truncated body or bytes after the body. Memory is
// allocated as data arrives, never from the header's claim alone.
func ReadIDXImages(r io.Reader) (*Images, error) {
	img, blocks, err := readIDXImageBlocks(r)
	if err != nil {
		return nil, err
	}
	img.Pix = joinBlocks(blocks, img.N*img.Rows*img.Cols)
	return img, nil
}

// readIDXImageBlocks is ReadIDXImages that keeps the pixels in blocks (see
// readBodyBlocks): for loads that turn them into float64 at once.
func readIDXImageBlocks(r io.Reader) (img *Images, blocks [][]byte, err error) {
	r, err = maybeGunzip(r)
	if err != nil {
		return nil, nil, err
	}
	sz, err := readHeader(r, idxImagesMagic, "images", 3)
	if err != nil {
		return nil, nil, err
	}
	n, rows, cols := sz[0], sz[1], sz[2]
	if n == 0 || rows == 0 || cols == 0 {
		return nil, nil, fmt.Errorf("IDX images header declares %d images of %dx%d pixels: the file holds no data, re-download it", n, rows, cols)
	}
	hi, d := bits.Mul64(rows, cols)
	hi2, total := bits.Mul64(n, d)
	limit, msg, capErr := valueCap()
	if capErr != nil {
		return nil, nil, capErr
	}
	if hi != 0 || hi2 != 0 || total > limit {
		if hi != 0 || hi2 != 0 {
			total = math.MaxUint64
		}
		return nil, nil, fmt.Errorf("IDX images header declares %d images of %dx%d pixels, more than %s: the file is corrupt, not an images file, or too large to load", n, rows, cols, overMsg(total, msg))
	}
	blocks, err = readBodyBlocks(r, total, "images")
	if err != nil {
		return nil, nil, err
	}
	return &Images{N: int(n), Rows: int(rows), Cols: int(cols)}, blocks, nil
}

// ReadIDXLabels reads an IDX labels file (magic 0x00000801: n as big-endian uint32, then
// n unsigned bytes) from r, gzipped or raw. Errors are as for ReadIDXImages.
func ReadIDXLabels(r io.Reader) ([]uint8, error) {
	r, err := maybeGunzip(r)
	if err != nil {
		return nil, err
	}
	sz, err := readHeader(r, idxLabelsMagic, "labels", 1)
	if err != nil {
		return nil, err
	}
	if sz[0] == 0 {
		return nil, errors.New("IDX labels header declares 0 labels: the file holds no data, re-download it")
	}
	if sz[0] > MaxValues {
		return nil, fmt.Errorf("IDX labels header declares %d labels, more than %s: the file is corrupt or too large to load", sz[0], valuesLimitMsg())
	}
	return readBody(r, sz[0], "labels")
}

// WriteIDXImages writes img as a raw (uncompressed) IDX images file. It panics if
// len(img.Pix) != img.N*img.Rows*img.Cols or a size does not fit in a uint32.
func WriteIDXImages(w io.Writer, img *Images) error {
	if img.N < 0 || img.Rows < 0 || img.Cols < 0 || len(img.Pix) != img.N*img.Rows*img.Cols ||
		uint64(img.N) > 1<<32-1 || uint64(img.Rows) > 1<<32-1 || uint64(img.Cols) > 1<<32-1 {
		panic(fmt.Sprintf("data: %d pixels for %d images of %dx%d", len(img.Pix), img.N, img.Rows, img.Cols))
	}
	var hdr [16]byte
	binary.BigEndian.PutUint32(hdr[0:], idxImagesMagic)
	binary.BigEndian.PutUint32(hdr[4:], uint32(img.N))
	binary.BigEndian.PutUint32(hdr[8:], uint32(img.Rows))
	binary.BigEndian.PutUint32(hdr[12:], uint32(img.Cols))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(img.Pix)
	return err
}

// WriteIDXLabels writes labels as a raw (uncompressed) IDX labels file. It panics if
// there are 2^32 labels or more.
func WriteIDXLabels(w io.Writer, labels []uint8) error {
	if uint64(len(labels)) > 1<<32-1 {
		panic("data: too many labels for an IDX file")
	}
	var hdr [8]byte
	binary.BigEndian.PutUint32(hdr[0:], idxLabelsMagic)
	binary.BigEndian.PutUint32(hdr[4:], uint32(len(labels)))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(labels)
	return err
}

// digitClasses are the class names of MNIST: "0".."9".
var digitClasses = []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// NewIDXDataset builds a Dataset from decoded IDX images and labels: X[i, r*Cols+c] =
// Pix[i, r, c] / 255, Shape [Rows, Cols], Y[i] = labels[i]. classes names the classes
// (nil means "0".."9"). It returns an error if the counts differ or a label is not
// below len(classes). X is allocated once.
func NewIDXDataset(name string, img *Images, labels []uint8, classes []string) (*Dataset, error) {
	return newIDXDataset(name, img, [][]byte{img.Pix}, labels, classes)
}

// newIDXDataset is NewIDXDataset on pixels held in blocks (img.Pix unused), which are
// dropped as they are converted: the load holds the pixels and the float64 matrix once.
func newIDXDataset(name string, img *Images, blocks [][]byte, labels []uint8, classes []string) (*Dataset, error) {
	if classes == nil {
		classes = digitClasses
	}
	if img.N != len(labels) {
		return nil, fmt.Errorf("%d images but %d labels: the images and labels files belong to different sets, pass a matching pair", img.N, len(labels))
	}
	d := img.Rows * img.Cols
	npix := 0
	for _, b := range blocks {
		npix += len(b)
	}
	if npix != img.N*d || img.N == 0 || d == 0 {
		panic(fmt.Sprintf("data: %d pixels for %d images of %dx%d", npix, img.N, img.Rows, img.Cols))
	}
	y := make([]int, len(labels))
	for i, l := range labels {
		if int(l) >= len(classes) {
			return nil, fmt.Errorf("label %d of image %d is outside 0..%d: the labels file is corrupt or of another data set", l, i, len(classes)-1)
		}
		y[i] = int(l)
	}
	var lut [256]float64
	for v := range lut {
		lut[v] = float64(v) / 255
	}
	x := make([]float64, npix)
	at := 0
	for k, b := range blocks {
		for i, p := range b {
			x[at+i] = lut[p]
		}
		at += len(b)
		blocks[k] = nil
	}
	return &Dataset{
		Name:    name,
		X:       mat.NewDense(img.N, d, x),
		Y:       y,
		Classes: append([]string(nil), classes...),
		Shape:   []int{img.Rows, img.Cols},
	}, nil
}

// openData opens path for reading and turns a missing file into an error that says
// where it was looked for.
func openData(path, what string) (*os.File, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s file not found at %s: check the path (%w)", what, path, fs.ErrNotExist)
		}
		return nil, err
	}
	return f, nil
}

// openRead opens the file at path (what names its format in the error for a missing
// file), decompresses it if it is gzipped and returns read's result on the content. A
// gzip error is wrapped with "load path"; read's error is returned as it is.
func openRead[T any](path, what string, read func(io.Reader) (T, error)) (T, error) {
	return openReadContext(context.Background(), path, what, read)
}

// openReadContext is openRead whose reads fail with ctx's error once ctx is done, so a
// load that is no longer wanted stops at its next read and drops what it allocated.
func openReadContext[T any](ctx context.Context, path, what string, read func(io.Reader) (T, error)) (T, error) {
	f, err := openData(path, what)
	if err != nil {
		var zero T
		return zero, err
	}
	defer f.Close()
	r, err := maybeGunzip(ctxio.Reader(ctx, f))
	if err != nil {
		var zero T
		return zero, fmt.Errorf("load %s: %w", path, err)
	}
	return read(r)
}

// LoadIDX reads an MNIST-style pair of IDX files (each gzipped or raw) into a Dataset
// with pixels scaled to [0,1], Shape [rows, cols] and classes "0".."9". The Dataset's
// Name is the images file's base name. Errors name the file and the fix: a missing
// file, a file that is not an IDX images/labels file, a truncated file, a count
// mismatch, a label above 9.
func LoadIDX(imagesPath, labelsPath string) (*Dataset, error) {
	return loadIDX(imagesPath, labelsPath, baseName(imagesPath), nil)
}

func loadIDX(imagesPath, labelsPath, name string, classes []string) (*Dataset, error) {
	return loadIDXContext(context.Background(), imagesPath, labelsPath, name, classes)
}

// loadIDXContext is loadIDX whose reads stop once ctx is done.
func loadIDXContext(ctx context.Context, imagesPath, labelsPath, name string, classes []string) (*Dataset, error) {
	type pixels struct {
		img    *Images
		blocks [][]byte
	}
	im, err := readIDXFile(ctx, imagesPath, "images", func(r io.Reader) (any, error) {
		img, blocks, err := readIDXImageBlocks(r)
		return pixels{img, blocks}, err
	})
	if err != nil {
		return nil, err
	}
	lab, err := readIDXFile(ctx, labelsPath, "labels", func(r io.Reader) (any, error) { return ReadIDXLabels(r) })
	if err != nil {
		return nil, err
	}
	px := im.(pixels)
	ds, err := newIDXDataset(name, px.img, px.blocks, lab.([]uint8), classes)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", imagesPath, err)
	}
	return ds, nil
}

func readIDXFile(ctx context.Context, path, what string, read func(io.Reader) (any, error)) (any, error) {
	f, err := openData(path, "IDX "+what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	v, err := read(ctxio.Reader(ctx, f))
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	return v, nil
}

// idxCount reads only the header of an IDX file (gzipped or raw) and returns its sizes,
// after checking the header's claim against the file: a raw file must hold exactly the
// header and the bytes its sizes declare; a gzip file must say so in its trailer (ISIZE,
// the decompressed size modulo 2^32, RFC 1952). So `gitui data list` never shows a
// header's claim of 2^31 images as if it were real.
func idxCount(path string, magic uint32, dims int) ([]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var head [2]byte
	k, _ := io.ReadFull(f, head[:])
	gz := k == 2 && bytes.Equal(head[:], gzipMagic)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	r, err := maybeGunzip(f)
	if err != nil {
		return nil, err
	}
	what := "images"
	if magic == idxLabelsMagic {
		what = "labels"
	}
	sz, err := readHeader(r, magic, what, dims)
	if err != nil {
		return nil, err
	}
	claim := uint64(4 * (dims + 1))
	body := uint64(1)
	for _, s := range sz {
		hi, lo := bits.Mul64(body, s)
		if hi != 0 {
			return nil, fmt.Errorf("IDX %s header declares sizes %v, more than any file holds: the file is corrupt, re-download it", what, sz)
		}
		body = lo
	}
	claim += body
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var have uint64
	var ok bool
	if gz {
		var tail [4]byte
		if fi.Size() < 18 {
			return nil, fmt.Errorf("IDX %s file is a truncated gzip stream: re-download it", what)
		}
		if _, err := f.ReadAt(tail[:], fi.Size()-4); err != nil {
			return nil, err
		}
		have = uint64(binary.LittleEndian.Uint32(tail[:]))
		ok = have == claim%(1<<32) && claim/1032 <= uint64(fi.Size()) // deflate expands at most ~1032:1
	} else {
		have = uint64(fi.Size())
		ok = have == claim
	}
	if !ok {
		return nil, fmt.Errorf("IDX %s header declares %v (%d bytes with the header) but the file holds %d bytes: the file is corrupt or truncated, re-download it", what, sz, claim, have)
	}
	return sz, nil
}

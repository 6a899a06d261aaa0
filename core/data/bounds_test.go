package data

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// idxHeader returns an IDX images header declaring n images of rows×cols.
func idxHeader(n, rows, cols uint32) []byte {
	h := make([]byte, 16)
	binary.BigEndian.PutUint32(h, idxImagesMagic)
	binary.BigEndian.PutUint32(h[4:], n)
	binary.BigEndian.PutUint32(h[8:], rows)
	binary.BigEndian.PutUint32(h[12:], cols)
	return h
}

// TestIDXBombClaim checks an IDX bomb: a gzipped file of zeros whose header
// claims 1.07e9 pixels (1369 × 28 × 28 × 1000) is refused from its header, naming the
// values limit and its override, having allocated under 4 MiB (the claim would be
// 8.6 GB as float64).
func TestIDXBombClaim(t *testing.T) {
	body := append(idxHeader(1369000, 28, 28), make([]byte, 1<<20)...)
	file := gz(body)
	var err error
	if a := allocated(func() { _, err = ReadIDXImages(bytes.NewReader(file)) }); a > 4<<20 {
		t.Errorf("allocated %d bytes", a)
	}
	if err == nil || !strings.Contains(err.Error(), MaxValuesEnv) {
		t.Fatalf("err = %v, want a refusal naming %s", err, MaxValuesEnv)
	}
}

// TestDecompressedCap checks MaxDecompressedBytes on every gzip reader: with the cap at
// 1 MiB, an IDX body of 2 MiB of zeros (a claim within MaxValues), a CSV and a LIBSVM
// file of 2 MiB are refused with an error wrapping ErrDecompressedTooLarge that names
// the override, and a 0.5 MiB file under the cap still loads.
func TestDecompressedCap(t *testing.T) {
	old := MaxDecompressedBytes
	MaxDecompressedBytes = 1 << 20
	defer func() { MaxDecompressedBytes = old }()
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, gz(b), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	csvText := func(rows int) []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < rows; i++ {
			b.WriteString("0.25,0.5,0.75,1\n0.5,0.25,1,0\n")
		}
		return b.Bytes()
	}
	_, err := ReadIDXImages(bytes.NewReader(gz(append(idxHeader(2048, 32, 32), make([]byte, 2<<20)...))))
	if !errors.Is(err, ErrDecompressedTooLarge) || !strings.Contains(err.Error(), MaxDecompressedEnv) {
		t.Errorf("IDX: %v, want ErrDecompressedTooLarge naming %s", err, MaxDecompressedEnv)
	}
	if _, err := LoadCSV(write("big.csv.gz", csvText(2<<20)), CSVOptions{}); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Errorf("CSV: %v, want ErrDecompressedTooLarge", err)
	}
	var svm bytes.Buffer
	for svm.Len() < 2<<20 {
		svm.WriteString("1 1:0.5 2:0.25\n-1 1:1 3:2\n")
	}
	if _, err := LoadLIBSVM(write("big.svm.gz", svm.Bytes())); !errors.Is(err, ErrDecompressedTooLarge) {
		t.Errorf("LIBSVM: %v, want ErrDecompressedTooLarge", err)
	}
	if ds, err := LoadCSV(write("ok.csv.gz", csvText(1<<19)), CSVOptions{}); err != nil || ds.Len() < 1000 {
		t.Errorf("CSV under the cap: %v", err)
	}
}

// endless is a reader of "0," repeated forever: one CSV line without end.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "0,"[i%2]
	}
	return len(p) &^ 1, nil
}

// TestCSVLineBound checks a CSV bomb (one line of 1e8 fields, 194 KB
// gzipped): the line is refused once it passes maxCSVLineBytes (2 MiB), as a *ParseError
// on line 1, having allocated a bounded amount (under 256 MiB: the 2 MiB read and the
// 1e6 fields encoding/csv splits from it, never the 1e8 fields).
func TestCSVLineBound(t *testing.T) {
	var err error
	a := allocated(func() { _, err = ReadCSV(io.LimitReader(endless{}, 2e8), "bomb.csv", CSVOptions{}) })
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "longer than 2 MiB") {
		t.Fatalf("err = %v, want a line-1 *ParseError about the line length", err)
	}
	if a > 256<<20 {
		t.Errorf("allocated %d MiB", a>>20)
	}
}

// TestLIBSVMSparseBound checks a LIBSVM bomb (max index 1e6 on few lines): the
// rows stay sparse, and the scan stops at the first line whose count × the largest index
// passes MaxValues (2^28: line 269 at index 1e6, since 268 × 1e6 < 2^28 < 269 × 1e6),
// naming the line and the limit, having allocated under 8 MiB (the dense matrix would
// be 2.1 GB at that line, 8 GB at 1000 lines).
func TestLIBSVMSparseBound(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 1000; i++ {
		b.WriteString("1 1000000:1\n")
	}
	var err error
	a := allocated(func() { _, err = ReadLIBSVM(bytes.NewReader(b.Bytes()), "bomb.svm", 0) })
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 269 || !strings.Contains(err.Error(), MaxValuesEnv) {
		t.Fatalf("err = %v, want a *ParseError on line 269 naming %s", err, MaxValuesEnv)
	}
	if a > 8<<20 {
		t.Errorf("allocated %d bytes", a)
	}
}

// TestAvailableChecksIDXClaims checks `gitui data list`: a raw IDX file whose header
// claims 2^31 images of 28×28 while holding 20 bytes, and a gzipped one whose trailer
// (ISIZE) disagrees with its header, are listed with an error, not with the claimed
// count; a consistent pair is listed with its count.
func TestAvailableChecksIDXClaims(t *testing.T) {
	dir := t.TempDir()
	m := filepath.Join(dir, "mnist")
	os.MkdirAll(m, 0o755)
	labels := func(n int) []byte {
		h := make([]byte, 8+n)
		binary.BigEndian.PutUint32(h, idxLabelsMagic)
		binary.BigEndian.PutUint32(h[4:], uint32(n))
		return h
	}
	os.WriteFile(filepath.Join(m, "train-images-idx3-ubyte"), append(idxHeader(1<<31, 28, 28), 1, 2, 3, 4), 0o644)
	os.WriteFile(filepath.Join(m, "train-labels-idx1-ubyte"), labels(3), 0o644)
	// A gzipped header claiming 1000 images in a stream of 12 pixels.
	liar := gz(append(idxHeader(1000, 2, 2), make([]byte, 12)...))
	os.WriteFile(filepath.Join(m, "t10k-images-idx3-ubyte.gz"), liar, 0o644)
	os.WriteFile(filepath.Join(m, "t10k-labels-idx1-ubyte.gz"), gz(labels(1000)), 0o644)
	srcs := Locations{Dir: dir}.Available()
	var train, test *Source
	for i := range srcs {
		if srcs[i].Name == "mnist" && srcs[i].Split == "train" {
			train = &srcs[i]
		}
		if srcs[i].Name == "mnist" && srcs[i].Split == "test" {
			test = &srcs[i]
		}
	}
	if train == nil || train.Err == nil || !strings.Contains(train.Err.Error(), "file holds 20 bytes") {
		t.Errorf("raw 2^31 claim: %+v, want an error saying the file holds 20 bytes", train)
	}
	if test == nil || test.Err == nil || !strings.Contains(test.Err.Error(), "corrupt or truncated") {
		t.Errorf("gzip claim of 1000 images in 12 pixels: %+v, want an error", test)
	}
	// A consistent pair lists its count.
	os.WriteFile(filepath.Join(m, "t10k-images-idx3-ubyte.gz"), gz(append(idxHeader(3, 2, 2), make([]byte, 12)...)), 0o644)
	os.WriteFile(filepath.Join(m, "t10k-labels-idx1-ubyte.gz"), gz(labels(3)), 0o644)
	for _, s := range (Locations{Dir: dir}).Available() {
		if s.Name == "mnist" && s.Split == "test" && (s.Err != nil || s.N != 3) {
			t.Errorf("consistent pair: %+v, want 3 images", s)
		}
	}
}

// TestCSVDecimalOnly checks that CSV values are decimal numbers only: strconv's Go
// syntax (0x1p-2 = 0.25, 1_000 = 1000) is refused naming line, field and the fix, while
// decimals with signs and exponents still load.
func TestCSVDecimalOnly(t *testing.T) {
	for _, bad := range []string{"0x1p-2", "1_000", "0X10", "-0x1.8p1"} {
		_, err := ReadCSV(strings.NewReader("1,2,a\n3,"+bad+",b\n"), "t.csv", CSVOptions{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != 2 || !strings.Contains(err.Error(), "decimal") {
			t.Errorf("%s: err = %v, want a *ParseError at 2:2 asking for a decimal", bad, err)
		}
	}
	ds, err := ReadCSV(strings.NewReader("1,-2.5e-3,a\n+3,.5,b\n"), "t.csv", CSVOptions{})
	if err != nil || ds.X.At(0, 1) != -2.5e-3 || ds.X.At(1, 0) != 3 || ds.X.At(1, 1) != 0.5 {
		t.Errorf("decimals: %v", err)
	}
}

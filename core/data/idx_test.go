package data

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gitui/internal/testenv"
)

// tinyImages returns n random images of rows×cols and n labels in 0..9 (seeded).
func tinyImages(n, rows, cols int, seed uint64) (*Images, []uint8) {
	rng := rand.New(rand.NewPCG(seed, 1))
	img := &Images{N: n, Rows: rows, Cols: cols, Pix: make([]uint8, n*rows*cols)}
	for i := range img.Pix {
		img.Pix[i] = uint8(rng.IntN(256))
	}
	lab := make([]uint8, n)
	for i := range lab {
		lab[i] = uint8(rng.IntN(10))
	}
	return img, lab
}

func idxBytes(t testing.TB, img *Images, lab []uint8, gz bool) (imgB, labB []byte) {
	t.Helper()
	enc := func(write func(*bytes.Buffer) error) []byte {
		var raw bytes.Buffer
		if err := write(&raw); err != nil {
			t.Fatal(err)
		}
		if !gz {
			return raw.Bytes()
		}
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(raw.Bytes())
		zw.Close()
		return z.Bytes()
	}
	imgB = enc(func(b *bytes.Buffer) error { return WriteIDXImages(b, img) })
	labB = enc(func(b *bytes.Buffer) error { return WriteIDXLabels(b, lab) })
	return imgB, labB
}

func writeFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIDXRoundTrip(t *testing.T) {
	for _, gz := range []bool{false, true} {
		img, lab := tinyImages(7, 3, 5, 1)
		ib, lb := idxBytes(t, img, lab, gz)
		dir := t.TempDir()
		// Names without .gz on gzipped content: detection must use the magic bytes.
		ip := writeFile(t, dir, "a-images-idx3-ubyte", ib)
		lp := writeFile(t, dir, "a-labels-idx1-ubyte", lb)
		ds, err := LoadIDX(ip, lp)
		if err != nil {
			t.Fatalf("gz=%v: %v", gz, err)
		}
		if err := ds.Validate(); err != nil {
			t.Fatal(err)
		}
		if ds.Len() != 7 || ds.Dim() != 15 || ds.Shape[0] != 3 || ds.Shape[1] != 5 {
			t.Fatalf("gz=%v: got n=%d d=%d shape=%v", gz, ds.Len(), ds.Dim(), ds.Shape)
		}
		for i := range 7 {
			if ds.Y[i] != int(lab[i]) {
				t.Fatalf("label %d = %d, want %d", i, ds.Y[i], lab[i])
			}
			for j := range 15 {
				// Exact: p/255 is the same float64 division on both sides.
				if got, want := ds.X.At(i, j), float64(img.Pix[i*15+j])/255; got != want {
					t.Fatalf("X[%d,%d] = %v, want %v", i, j, got, want)
				}
			}
		}
		if len(ds.Classes) != 10 || ds.Classes[9] != "9" {
			t.Fatalf("classes %v", ds.Classes)
		}
	}
}

func TestIDXErrors(t *testing.T) {
	img, lab := tinyImages(4, 2, 2, 2)
	ib, lb := idxBytes(t, img, lab, false)
	dir := t.TempDir()
	good := writeFile(t, dir, "good-images", ib)
	goodL := writeFile(t, dir, "good-labels", lb)

	imgOther, labOther := tinyImages(5, 2, 2, 3)
	ib5, lb5 := idxBytes(t, imgOther, labOther, true)
	bad9 := append([]uint8(nil), lab...)
	bad9[2] = 10
	_, lb10 := idxBytes(t, img, bad9, false)

	cases := []struct {
		name       string
		images     string
		labels     string
		want       []string
		isNotExist bool
	}{
		{"missing images", filepath.Join(dir, "nope"), goodL, []string{"not found", filepath.Join(dir, "nope")}, true},
		{"missing labels", good, filepath.Join(dir, "nolab"), []string{"not found", "nolab"}, true},
		{"labels as images", goodL, goodL, []string{"not an IDX images file", "0x00000801"}, false},
		{"images as labels", good, good, []string{"not an IDX labels file"}, false},
		{"truncated body", writeFile(t, dir, "trunc", ib[:len(ib)-3]), goodL, []string{"truncated", "expected 16 bytes", "got 13", "re-download"}, false},
		{"truncated header", writeFile(t, dir, "trunch", ib[:10]), goodL, []string{"truncated", "header"}, false},
		{"tiny", writeFile(t, dir, "tiny", ib[:2]), goodL, []string{"not an IDX images file", "only 2 bytes"}, false},
		{"trailing bytes", writeFile(t, dir, "extra", append(append([]byte(nil), ib...), 1, 2)), goodL, []string{"2 bytes after", "corrupt"}, false},
		{"count mismatch", good, writeFile(t, dir, "l5.gz", lb5), []string{"4 images but 5 labels", "matching pair"}, false},
		{"count mismatch gz", writeFile(t, dir, "i5.gz", ib5), goodL, []string{"5 images but 4 labels"}, false},
		{"label above 9", good, writeFile(t, dir, "l10", lb10), []string{"label 10 of image 2", "outside 0..9"}, false},
		{"empty", writeFile(t, dir, "zero", []byte{0, 0, 8, 3, 0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0, 28}), goodL, []string{"declares 0 images", "no data"}, false},
		{"bad gzip", writeFile(t, dir, "badgz", []byte{0x1f, 0x8b, 0, 0}), goodL, []string{"gzip", "re-download"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ds, err := LoadIDX(c.images, c.labels)
			if err == nil {
				t.Fatalf("no error, got %d samples", ds.Len())
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("error is not one line: %q", msg)
			}
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not mention %q", msg, w)
				}
			}
			if got := errors.Is(err, fs.ErrNotExist); got != c.isNotExist {
				t.Errorf("errors.Is(err, fs.ErrNotExist) = %v", got)
			}
		})
	}
}

// TestIDXHugeHeaderNoAlloc checks that a header claiming 2^18 images of 28×28 (206 MB,
// under MaxValues)
// followed by a few bytes fails as truncated without allocating anything near the claim.
func TestIDXHugeHeaderNoAlloc(t *testing.T) {
	hdr := []byte{0, 0, 8, 3, 0, 0x04, 0, 0, 0, 0, 0, 28, 0, 0, 0, 28, 1, 2, 3}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadIDXImages(bytes.NewReader(hdr))
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "expected 205520896 bytes") || !strings.Contains(err.Error(), "got 3") {
		t.Fatalf("err = %v", err)
	}
	// Budget: the 1 MiB initial buffer plus bufio buffers; 8 MiB leaves room for the runtime.
	if d := after.TotalAlloc - before.TotalAlloc; d > 8<<20 {
		t.Fatalf("allocated %d bytes for a 19-byte input", d)
	}
	// Past MaxValues the header alone is rejected.
	huge := []byte{0, 0, 8, 3, 0x80, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0, 28}
	if _, err := ReadIDXImages(bytes.NewReader(huge)); err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("err = %v", err)
	}
}

func TestRealMNIST(t *testing.T) {
	dir := testenv.MNISTDir(t)
	test, err := Open(dir, "mnist", "test")
	if err != nil {
		t.Fatal(err)
	}
	if err := test.Validate(); err != nil {
		t.Fatal(err)
	}
	if test.Len() != 10000 || test.Dim() != 784 || test.Name != "mnist-t10k" {
		t.Fatalf("test: n=%d d=%d name=%s", test.Len(), test.Dim(), test.Name)
	}
	train, err := Open(dir, "mnist", "train")
	if err != nil {
		t.Fatal(err)
	}
	// Class counts of train10k from shared/data/README.md.
	want := []int{1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978}
	got := ClassCounts(train.Y, 10)
	for c := range want {
		if got[c] != want[c] {
			t.Fatalf("train10k class counts %v, want %v", got, want)
		}
	}
	// Official MNIST order: the first training digits are 5, 0, 4, 1, 9 and the first
	// test digits 7, 2, 1, 0, 4 (LeCun's files).
	for i, w := range []int{5, 0, 4, 1, 9} {
		if train.Y[i] != w {
			t.Fatalf("train label %d = %d, want %d", i, train.Y[i], w)
		}
	}
	for i, w := range []int{7, 2, 1, 0, 4} {
		if test.Y[i] != w {
			t.Fatalf("test label %d = %d, want %d", i, test.Y[i], w)
		}
	}
	var lo, hi float64 = 1, 0
	for _, v := range test.X.RawMatrix().Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo != 0 || hi != 1 {
		t.Fatalf("pixel range [%v, %v], want [0, 1]", lo, hi)
	}
}

func BenchmarkLoadMNISTTest(b *testing.B) {
	dir := testenv.MNISTDir(b)
	for b.Loop() {
		if _, err := Open(dir, "mnist", "test"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(10000*float64(b.N)/b.Elapsed().Seconds(), "images/s")
}

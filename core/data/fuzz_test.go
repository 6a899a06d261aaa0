package data

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkResult is the fuzz invariant: an error that is one line, or a Dataset that
// passes Validate.
func checkResult(t *testing.T, ds *Dataset, err error) {
	t.Helper()
	if err != nil {
		if ds != nil {
			t.Fatalf("both a Dataset and an error (%v)", err)
		}
		if strings.ContainsAny(err.Error(), "\n\r") {
			t.Fatalf("multi-line error %q", err)
		}
		return
	}
	if ds == nil {
		t.Fatal("nil Dataset without an error")
	}
	if verr := ds.Validate(); verr != nil {
		t.Fatalf("reader returned an invalid Dataset: %v", verr)
	}
}

func gz(b []byte) []byte {
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

func FuzzIDX(f *testing.F) {
	img, lab := tinyImages(3, 2, 2, 1)
	ib, lb := idxBytes(f, img, lab, false)
	f.Add(ib, lb)
	f.Add(gz(ib), gz(lb))
	f.Add(ib[:len(ib)-1], lb)                                                                            // truncated
	f.Add(ib, lb[:len(lb)-1])                                                                            // count mismatch
	f.Add(lb, ib)                                                                                        // swapped
	f.Add([]byte{0, 0, 8, 3, 0x7f, 0, 0, 0, 0, 0, 0, 28, 0, 0, 0, 28}, lb)                               // 2^31 images
	f.Add([]byte{0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 5}, []byte{0, 0, 8, 1, 0, 0, 0, 1, 11}) // label 11
	f.Add([]byte{0x1f, 0x8b}, []byte{})
	f.Fuzz(func(t *testing.T, images, labels []byte) {
		im, err := ReadIDXImages(bytes.NewReader(images))
		if err != nil {
			checkResult(t, nil, err)
			return
		}
		if len(im.Pix) != im.N*im.Rows*im.Cols || im.N == 0 {
			t.Fatalf("%d pixels for %d images of %dx%d", len(im.Pix), im.N, im.Rows, im.Cols)
		}
		lb, err := ReadIDXLabels(bytes.NewReader(labels))
		if err != nil {
			checkResult(t, nil, err)
			return
		}
		ds, err := NewIDXDataset("fuzz", im, lb, nil)
		checkResult(t, ds, err)
	})
}

func FuzzCSV(f *testing.F) {
	for _, s := range []string{
		"a,b,label\n1,2,x\n3,4,y\n", "1,2,3\n4,5,6\n", "1;2;a\n3;4;b\n", "1\t2\tz\n",
		"a,b\n1,2\n3\n", "1,NaN,x\n", "1,1e400,x\n", "\"1,2\n", "", "\ufeffx,y\n1,c\n", "1,2,\n",
		"a,b,c\n\"1\",\"2\",\"x\"\n",
	} {
		f.Add([]byte(s), "", uint8(0))
		f.Add([]byte(s), "0", uint8(1))
		f.Add([]byte(s), "a", uint8(2))
	}
	f.Fuzz(func(t *testing.T, text []byte, label string, mode uint8) {
		opts := CSVOptions{Label: label, Header: HeaderMode(mode % 3)}
		if mode&4 != 0 {
			opts.Shape = []int{1, 2}
		}
		ds, err := ReadCSV(bytes.NewReader(text), "fuzz.csv", opts)
		checkResult(t, ds, err)
	})
}

func FuzzNPY(f *testing.F) {
	le := binary.LittleEndian
	enc := func(v any) []byte {
		var b bytes.Buffer
		binary.Write(&b, le, v)
		return b.Bytes()
	}
	x := rawNPY("<f8", false, "(2, 2)", enc([]float64{1, 2, 3, 4}))
	y := rawNPY("<i8", false, "(2,)", enc([]int64{0, 1}))
	f.Add(x, y)
	f.Add(rawNPY(">f4", true, "(2, 1, 2)", enc([]float32{1, 2, 3, 4})), rawNPY("|u1", false, "(2,)", []byte{1, 1}))
	f.Add(rawNPY("<f2", false, "(2, 1)", enc([]uint16{0x7c00, 0})), y) // +Inf in float16
	f.Add(rawNPY("<f8", false, "(2, 2)", enc([]float64{1, 2, 3})), y)  // truncated
	f.Add(rawNPY("<f8", false, "(4294967296, 4294967296)", nil), y)
	f.Add([]byte("\x93NUMPY\x01\x00\xff\xff{"), y)
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\xff"), y)
	f.Add([]byte("\x93NUMPY\x01\x00\x05\x00{'a'}"), y)
	f.Add(x, x)
	f.Add(rawNPY("<i8", false, "(2, 3)", enc([]int64{0, 1, 2, 2, 0, 1})), y) // permutation rows
	f.Add(rawNPY(">u2", true, "(1, 2, 2)", enc([]uint16{1, 0, 0, 1})), y)
	f.Fuzz(func(t *testing.T, xb, yb []byte) {
		ds, err := ReadNPY(bytes.NewReader(xb), bytes.NewReader(yb), "fuzz")
		checkResult(t, ds, err)
		// The single-array readers of group files (permutation rows, matrices).
		checkArray(t, xb)
		// The same arrays inside an .npz archive.
		var z bytes.Buffer
		zw := zip.NewWriter(&z)
		w, _ := zw.Create("x.npy")
		w.Write(xb)
		w, _ = zw.Create("y.npy")
		w.Write(yb)
		zw.Close()
		ds2, err2 := ReadNPZ(bytes.NewReader(z.Bytes()), int64(z.Len()), "fuzz")
		checkResult(t, ds2, err2)
		if (err == nil) != (err2 == nil) {
			t.Fatalf(".npy and .npz disagree: %v / %v", err, err2)
		}
	})
}

func FuzzLIBSVM(f *testing.F) {
	for _, s := range []string{
		"+1 1:0.5 3:2\n-1 2:1\n", "1 qid:2 1:1 # c\n", "1 0:1\n", "1 2:1 2:3\n", "x 1:1\n",
		"1 1:nan\n", "1 999999999:1\n", "1\n", "", "1 1:1e308\n2 3:-1e-308\n", "1 1: 2\n",
	} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(3))
	}
	f.Fuzz(func(t *testing.T, text []byte, dim uint16) {
		ds, err := ReadLIBSVM(bytes.NewReader(text), "fuzz.svm", int(dim))
		checkResult(t, ds, err)
	})
}

// FuzzEdgeList: an edge-list folder of two classes whose graph files hold arbitrary
// bytes, and a labels file of arbitrary bytes, load or fail with one line.
func FuzzEdgeList(f *testing.F) {
	f.Add([]byte("0 1\n1 2\n"), []byte("# star\n0,1\n0\t2\n"), []byte(""))
	f.Add([]byte("0 x\n"), []byte("1 1\n"), []byte("a/g.txt,ring\nb/h.txt,star\n"))
	f.Add([]byte("4095 0\n"), []byte("-1 2\n"), []byte("file,label\na/g.txt,1\n"))
	f.Add([]byte("\r\n0 1\r\n"), []byte("0 1 2\n"), []byte("a/g.txt\n"))
	f.Fuzz(func(t *testing.T, g1, g2, labels []byte) {
		dir := t.TempDir()
		for rel, body := range map[string][]byte{"a/g.txt": g1, "b/h.txt": g2} {
			p := filepath.Join(dir, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ds, err := LoadEdgeLists(context.Background(), dir)
		checkResult(t, ds, err)
		if len(labels) > 0 {
			if err := os.WriteFile(filepath.Join(dir, EdgeListLabels), labels, 0o644); err != nil {
				t.Fatal(err)
			}
			ds, err = LoadEdgeLists(context.Background(), dir)
			checkResult(t, ds, err)
		}
	})
}

// uspsLine is one ESL USPS line: label then 256 values, value(i) for pixel i.
func uspsLine(label string, value func(i int) string) string {
	var b strings.Builder
	b.WriteString(label)
	for i := range 256 {
		b.WriteByte(' ')
		b.WriteString(value(i))
	}
	return b.String() + "\n"
}

func FuzzUSPS(f *testing.F) {
	one := func(int) string { return "-1" }
	good := uspsLine("6.0000", one) + uspsLine("9", func(i int) string { return "0.5" })
	f.Add([]byte(good))
	f.Add(gz([]byte(good)))
	f.Add([]byte(good[:len(good)/2]))                               // truncated line
	f.Add([]byte(uspsLine("10", one)))                              // not a digit
	f.Add([]byte(uspsLine("3", func(int) string { return "1.5" }))) // out of range
	f.Add([]byte(uspsLine("3", func(int) string { return "NaN" }))) // not a number
	f.Add([]byte("\n\n"))                                           // empty
	f.Add([]byte("7 1:-1 256:1\n10 3:0.5\n"))                       // LIBSVM, 1..10
	f.Add([]byte("0 1:-1 256:1\n10 3:0.5\n"))                       // eleven classes
	f.Add([]byte("3 257:1\n"))                                      // index past 256
	f.Fuzz(func(t *testing.T, text []byte) {
		ds, err := ReadUSPS(bytes.NewReader(text), "fuzz.zip")
		checkResult(t, ds, err)
		if err == nil && (ds.Dim() != 256 || len(ds.Classes) != 10) {
			t.Fatalf("USPS dataset of %d features, %d classes", ds.Dim(), len(ds.Classes))
		}
		ds, err = ReadUSPSLIBSVM(bytes.NewReader(text), "fuzz.usps")
		checkResult(t, ds, err)
		if err == nil {
			for _, v := range ds.X.RawMatrix().Data {
				if v < 0 || v > 1 {
					t.Fatalf("LIBSVM USPS pixel %g outside [0, 1]", v)
				}
			}
		}
	})
}

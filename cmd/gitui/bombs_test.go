package main

import (
	"archive/zip"
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// bombInputs writes four compressed inputs, scaled so that each one's final
// float64 array (about 1 GB) passes a 1 GiB memory limit, into dir and returns a run
// spec for each: a CSV.gz of 3e7 rows "0,0,0,0,1" (1.2e8 values), a LIBSVM .gz of 1.2e6
// lines with index 100 (1.2e8 values), an .npz of 160,000 zero 784-vectors (1.25e8
// values in 1 MB) and an IDX.gz of 160,000 blank 28×28 images (110 KB).
func bombInputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	gz := func(name string, write func(w *bufio.Writer)) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
		bw := bufio.NewWriterSize(zw, 1<<20)
		write(bw)
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		zw.Close()
		f.Close()
		return p
	}
	csv := gz("rows.csv.gz", func(w *bufio.Writer) {
		for range 30_000_000 {
			w.WriteString("0,0,0,0,1\n")
		}
	})
	svm := gz("lines.svm.gz", func(w *bufio.Writer) {
		for i := range 1_200_000 {
			fmt.Fprintf(w, "%d 1:1 100:1\n", i%2)
		}
	})
	const n = 160_000
	npyHeader := func(descr, shape string) []byte {
		h := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, shape)
		for (10+len(h)+1)%64 != 0 {
			h += " "
		}
		b := binary.LittleEndian.AppendUint16([]byte("\x93NUMPY\x01\x00"), uint16(len(h)+1))
		return append(append(b, h...), '\n')
	}
	npz := filepath.Join(dir, "z.npz")
	f, err := os.Create(npz)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for _, e := range []struct {
		name, descr, shape string
		bytes              int
	}{{"x.npy", "<f8", fmt.Sprintf("(%d, 784)", n), n * 784 * 8}, {"y.npy", "|u1", fmt.Sprintf("(%d,)", n), n}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(npyHeader(e.descr, e.shape))
		if _, err := io.CopyN(w, zeros{}, int64(e.bytes)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	idx := gz("blank-images-idx3-ubyte.gz", func(w *bufio.Writer) {
		binary.Write(w, binary.BigEndian, []uint32{0x803, n, 28, 28})
		io.CopyN(w, zeros{}, n*784)
	})
	gz("blank-labels-idx1-ubyte.gz", func(w *bufio.Writer) {
		binary.Write(w, binary.BigEndian, []uint32{0x801, n})
		for i := range n {
			w.WriteByte(byte(i % 10))
		}
	})
	specs := map[string]string{}
	for name, path := range map[string]string{"csv": csv, "svm": svm, "npz": npz, "idx": idx} {
		specs[name] = writeSpec(t, dir, "bomb-"+name, `{"name": "bomb-`+name+`", "protocol": "sample-complexity",
  "data": {"name": "file", "path": "`+path+`"}, "methods": [{"features": "raw"}], "sizes": [100]}`)
	}
	return specs
}

// zeros reads as an endless stream of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestBoundsCompressedBombs runs four compressed inputs (scaled to a 1 GiB limit, see
// bombInputs) in child processes under GITUI_MEMORY_LIMIT=1GiB, the cap that the run
// estimate and the readers obey, with a hard RLIMIT_AS
// of 3 GiB behind it: a Go process here maps about 1 GiB of address space before it
// allocates anything (thread stacks, OpenBLAS buffers, heap reservations), so a hard
// limit of 1 GiB leaves no room to start threads (pthread_create fails), while 3 GiB
// turns any load of these 1 GB arrays (let alone a copy) into the runtime's fatal
// "out of memory", which fails the test. Each input must be refused before the load:
// exit 2, one line naming the problem, no fatal error or panic, nothing written, a
// small peak RSS.
func TestBoundsCompressedBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes")
	}
	specs := bombInputs(t, t.TempDir())
	want := map[string]string{"csv": "split the file", "svm": "dense matrix above", "npz": "the data set", "idx": "the data set"}
	var cases []boundsCase
	for _, k := range []string{"csv", "svm", "npz", "idx"} {
		cases = append(cases, boundsCase{name: k, args: []string{"run", specs[k]}, want: want[k],
			env: []string{"GITUI_MEMORY_LIMIT=1GiB", boundsASEnv + "=" + strconv.Itoa(3<<30)}})
	}
	runBoundsTable(t, cases)
}

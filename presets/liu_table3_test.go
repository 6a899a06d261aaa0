package presets

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/model/engine"
)

// writeLetters writes n EMNIST-format images (gzip IDX, stored transposed as EMNIST
// stores them) of 26 synthetic letters into dir/emnist-letters/: each class is three
// strokes at seeded places, each image its class's strokes shifted by up to ±2 pixels.
func writeLetters(t *testing.T, dir, split string, n int, rng *rand.Rand, protos [][]byte) {
	t.Helper()
	const s = 28
	img := &data.Images{N: n, Rows: s, Cols: s}
	labels := make([]uint8, n)
	for i := range n {
		k := rng.IntN(26)
		labels[i] = uint8(k + 1)
		dy, dx := rng.IntN(5)-2, rng.IntN(5)-2
		st := make([]byte, s*s)
		for r := range s {
			for c := range s {
				if rr, cc := r-dy, c-dx; rr >= 0 && rr < s && cc >= 0 && cc < s {
					st[c*s+r] = protos[k][rr*s+cc] // transposed
				}
			}
		}
		img.Pix = append(img.Pix, st...)
	}
	write := func(name string, w func(*bytes.Buffer) error) {
		var raw, z bytes.Buffer
		if err := w(&raw); err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(&z)
		zw.Write(raw.Bytes())
		zw.Close()
		if err := os.WriteFile(filepath.Join(dir, "emnist-letters", name), z.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("emnist-letters-"+split+"-images-idx3-ubyte.gz", func(b *bytes.Buffer) error { return data.WriteIDXImages(b, img) })
	write("emnist-letters-"+split+"-labels-idx1-ubyte.gz", func(b *bytes.Buffer) error { return data.WriteIDXLabels(b, labels) })
}

// TestLiuTable3QuickGenerated runs liu-table3 --quick end to end on generated
// EMNIST-format files (600 training, 300 test images of 26 synthetic letters that move by
// up to ±2 pixels): every row of Table III is there, on emnist-letters, and the
// translation-invariant kernels beat the plain SVM by a wide margin. Measured: SVM 5.0,
// TI-SVM 50.0, L-TI-SVM 80.5%.
func TestLiuTable3QuickGenerated(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "emnist-letters"), 0o755)
	rng := rand.New(rand.NewPCG(1, 3))
	protos := make([][]byte, 26)
	for k := range protos {
		p := make([]byte, 28*28)
		for range 3 {
			r0, c0 := 5+rng.IntN(18), 5+rng.IntN(18)
			d := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}[rng.IntN(4)]
			for t := -6; t <= 6; t++ {
				if r, c := r0+d[0]*t, c0+d[1]*t; r >= 0 && r < 28 && c >= 0 && c < 28 {
					p[r*28+c] = 255
				}
			}
		}
		protos[k] = p
	}
	writeLetters(t, dir, "train", 600, rng, protos)
	writeLetters(t, dir, "test", 300, rng, protos)
	out := runQuick(t, "liu-table3", dir)
	if out.Data != "emnist-letters" {
		t.Errorf("data %q", out.Data)
	}
	s := series(out)
	for _, name := range []string{"SVM", "TI-SVM", "RI-SVM", "L-SVM", "TI-RI-SVM", "L-TI-SVM", "L-RI-SVM", "L-TI-RI-SVM", "RI-SVM (average fit)"} {
		if len(s[name]) != 1 {
			t.Fatalf("row %s: %d points, want 1", name, len(s[name]))
		}
	}
	if svm, ti, lti := s["SVM"][0].Mean, s["TI-SVM"][0].Mean, s["L-TI-SVM"][0].Mean; ti < svm+0.2 || lti < svm+0.2 {
		t.Errorf("SVM %.3f, TI-SVM %.3f, L-TI-SVM %.3f: want the TI kernels 20 points above", svm, ti, lti)
	}
}

// TestLiuTable3Estimate checks that the full liu-table3 has a memory estimate from the
// official EMNIST Letters counts (what `gitui presets -v` prints) and that it stays
// under 2.5 GiB: about 1.14 GiB of kernels and features, and the 145,600 images
// themselves as float64 (0.85 GiB), which the estimate counts since it counts the data.
func TestLiuTable3Estimate(t *testing.T) {
	s := LiuTable3(false)
	ds, ok := engine.KnownDataSize(s.Data)
	if !ok || ds.Pool != 124800 || ds.Test != 20800 {
		t.Fatalf("KnownDataSize = %+v, %v", ds, ok)
	}
	est := engine.EstimateBytes(s, ds)
	if est.Bytes <= 0 || est.Bytes > 2.5*(1<<30) {
		t.Errorf("estimate %.0f bytes, want (0, 2.5 GiB]", est.Bytes)
	}
	if line := engine.EstimateLine(est, ds); !strings.Contains(line, "124800 training and 20800 test") {
		t.Errorf("line %q", line)
	}
}

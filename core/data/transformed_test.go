package data

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
)

// blobDigits returns n synthetic h×w "digits": a random blob of ink in [0, 1] on a zero
// background that touches all four borders of the image (so that cutting any row or
// column would be visible), labels cycling through the ten MNIST classes.
func blobDigits(n, h, w int, rng *rand.Rand) *Dataset {
	x := mat.NewDense(n, h*w, nil)
	y := make([]int, n)
	for i := range n {
		row := x.RawRowView(i)
		for p := range row {
			if rng.Float64() < 0.3 {
				row[p] = rng.Float64()
			}
		}
		// Ink on every border, so a cut is always detected.
		row[0], row[h*w-1], row[(h/2)*w], row[(h/2)*w+w-1] = 1, 1, 1, 1
		y[i] = i % 10
	}
	return &Dataset{Name: "blobs", X: x, Y: y, Classes: slices.Clone(digitClasses), Shape: []int{h, w}}
}

// meanStd returns the mean and (population) standard deviation of v.
func meanStd(v []float64) (mean, std float64) {
	for _, a := range v {
		mean += a
	}
	mean /= float64(len(v))
	for _, a := range v {
		std += (a - mean) * (a - mean)
	}
	return mean, math.Sqrt(std / float64(len(v)))
}

func TestTranslateKeepsDigitWhole(t *testing.T) {
	src := blobDigits(400, 28, 28, rand.New(rand.NewPCG(1, 2)))
	ds, off := Translate(src, 64, 0, rand.New(rand.NewPCG(3, 4)))
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ds.Shape, []int{64, 64}) || ds.Len() != 400 || !slices.Equal(ds.Y, src.Y) || !slices.Equal(ds.Classes, src.Classes) {
		t.Fatalf("shape %v, n %d, labels or classes changed", ds.Shape, ds.Len())
	}
	seenY, seenX := map[int]bool{}, map[int]bool{}
	for i, o := range off {
		oy, ox := o[0], o[1]
		if oy < 0 || oy > 36 || ox < 0 || ox > 36 {
			t.Fatalf("sample %d: offset (%d, %d) outside 0..36", i, oy, ox)
		}
		seenY[oy], seenX[ox] = true, true
		x, out := src.X.RawRowView(i), ds.X.RawRowView(i)
		// Without noise the canvas is exactly the digit at (oy, ox) and zero elsewhere.
		for r := range 64 {
			for c := range 64 {
				want := 0.0
				if r >= oy && r < oy+28 && c >= ox && c < ox+28 {
					want = x[(r-oy)*28+c-ox]
				}
				if out[r*64+c] != want {
					t.Fatalf("sample %d pixel (%d,%d) = %v, want %v", i, r, c, out[r*64+c], want)
				}
			}
		}
	}
	// 400 uniform draws from 37 offsets miss one with probability 37·(36/37)^400 < 1e-3.
	if len(seenY) != 37 || len(seenX) != 37 {
		t.Errorf("offsets not spread over 0..36: %d row and %d column values seen", len(seenY), len(seenX))
	}
}

func TestTranslated64Noise(t *testing.T) {
	src := blobDigits(60, 28, 28, rand.New(rand.NewPCG(5, 6)))
	ds := Translated64(src, rand.New(rand.NewPCG(7, 8)))
	if ds.Name != "blobs-translated64" {
		t.Errorf("name %q", ds.Name)
	}
	// The same seed gives the same offsets; subtracting the pasted digit leaves the noise.
	_, off := Translate(src, 64, TransformNoise, rand.New(rand.NewPCG(7, 8)))
	var noise []float64
	for i := range ds.Len() {
		x, out := src.X.RawRowView(i), ds.X.RawRowView(i)
		for r := range 64 {
			for c := range 64 {
				v := out[r*64+c]
				if r >= off[i][0] && r < off[i][0]+28 && c >= off[i][1] && c < off[i][1]+28 {
					v -= x[(r-off[i][0])*28+c-off[i][1]]
				}
				noise = append(noise, v)
			}
		}
	}
	mean, std := meanStd(noise)
	// N = 245,760 normals: the sample std has standard error 0.1/sqrt(2N) = 1.4e-4 and the
	// mean 0.1/sqrt(N) = 2e-4, so 0.002 and 0.001 are > 5 standard errors.
	if math.Abs(std-0.1) > 0.002 || math.Abs(mean) > 0.001 {
		t.Errorf("noise mean %.5f std %.5f, want 0 and 0.1", mean, std)
	}
}

func TestTranslateDeterministic(t *testing.T) {
	src := blobDigits(5, 28, 28, rand.New(rand.NewPCG(1, 1)))
	a := Translated64(src, rand.New(rand.NewPCG(9, 9)))
	b := Translated64(src, rand.New(rand.NewPCG(9, 9)))
	c := Translated64(src, rand.New(rand.NewPCG(9, 10)))
	if !mat.Equal(a.X, b.X) {
		t.Error("same seed, different data")
	}
	if mat.Equal(a.X, c.X) {
		t.Error("different seeds, same data")
	}
}

func TestRotateLabelsAndPixels(t *testing.T) {
	src := blobDigits(300, 28, 28, rand.New(rand.NewPCG(11, 12)))
	ds, angles := Rotate(src, 0, rand.New(rand.NewPCG(13, 14)))
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []string{"0", "1", "2", "3", "4", "5", "7", "8"}
	if !slices.Equal(ds.Classes, want) {
		t.Fatalf("classes %v, want %v", ds.Classes, want)
	}
	if !slices.Equal(ds.Shape, []int{28, 28}) || ds.Name != "blobs-rotated" {
		t.Fatalf("shape %v name %q", ds.Shape, ds.Name)
	}
	// 300 samples with labels i%10: 60 of them are 6 or 9.
	if ds.Len() != 240 || len(angles) != 240 {
		t.Fatalf("%d samples, %d angles, want 240", ds.Len(), len(angles))
	}
	k := 0
	dst := make([]float64, 784)
	for i, y := range src.Y {
		name := src.Classes[y]
		if name == "6" || name == "9" {
			continue
		}
		if got := ds.Classes[ds.Y[k]]; got != name {
			t.Fatalf("sample %d: class %q became %q", i, name, got)
		}
		a := angles[k]
		if a < 0 || a >= 360 {
			t.Fatalf("angle %v outside [0, 360)", a)
		}
		// Without noise the image is the bilinear rotation of group.Rotations (scipy's
		// convention); both compute the same gather, so they agree to rounding.
		group.Rotations(28, 28, []float64{a}).Apply(dst, src.X.RawRowView(i), 0)
		for p, v := range ds.X.RawRowView(k) {
			if math.Abs(v-dst[p]) > 1e-12 {
				t.Fatalf("sample %d, angle %.3f: pixel %d = %v, group.Rotations gives %v", i, a, p, v, dst[p])
			}
		}
		k++
	}
	// Angles spread over [0, 360): each quarter holds about 60 of 240.
	var q [4]int
	for _, a := range angles {
		q[int(a/90)]++
	}
	for i, c := range q {
		if c < 30 { // binomial(240, 1/4): mean 60, sd 6.7; 30 is 4.5 sd below
			t.Errorf("quarter %d holds %d of 240 angles", i, c)
		}
	}
}

func TestRotatedNoiseAndDeterminism(t *testing.T) {
	src := blobDigits(200, 28, 28, rand.New(rand.NewPCG(15, 16)))
	ds := Rotated(src, rand.New(rand.NewPCG(17, 18)))
	again := Rotated(src, rand.New(rand.NewPCG(17, 18)))
	if !mat.Equal(ds.X, again.X) {
		t.Fatal("same seed, different data")
	}
	// The same seed gives the same angles; subtracting the clean rotation leaves the noise.
	_, angles := Rotate(src, TransformNoise, rand.New(rand.NewPCG(17, 18)))
	var noise []float64
	dst := make([]float64, 784)
	k := 0
	for i, y := range src.Y {
		if n := src.Classes[y]; n == "6" || n == "9" {
			continue
		}
		rotateBilinear(dst, src.X.RawRowView(i), 28, 28, angles[k])
		for p, v := range ds.X.RawRowView(k) {
			noise = append(noise, v-dst[p])
		}
		k++
	}
	mean, std := meanStd(noise)
	// N = 160·784 = 125,440: standard errors 2e-4 (std) and 2.8e-4 (mean).
	if math.Abs(std-0.1) > 0.002 || math.Abs(mean) > 0.0015 {
		t.Errorf("noise mean %.5f std %.5f, want 0 and 0.1", mean, std)
	}
}

func TestRotateKeepsClassesWithoutSixNine(t *testing.T) {
	src := blobDigits(12, 8, 8, rand.New(rand.NewPCG(1, 3)))
	src.Classes = []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	ds, _ := Rotate(src, 0, rand.New(rand.NewPCG(2, 3)))
	if ds.Len() != 12 || !slices.Equal(ds.Y, src.Y) || !slices.Equal(ds.Classes, src.Classes) {
		t.Errorf("classes without 6 and 9 changed: %v %v", ds.Classes, ds.Y)
	}
	// A rotation by 90 degrees of a square image is exact (a permutation of pixels)
	// (sines and cosines of multiples of 90 degrees are taken exactly).
	x := src.X.RawRowView(0)
	dst := make([]float64, 64)
	rotateBilinear(dst, x, 8, 8, 90)
	for r := range 8 {
		for c := range 8 {
			// Rotation by +90 (counter-clockwise as displayed): out[r][c] = x[c][7-r].
			if want := x[c*8+7-r]; math.Abs(dst[r*8+c]-want) > 1e-12 {
				t.Fatalf("90° rotation pixel (%d,%d) = %v, want %v", r, c, dst[r*8+c], want)
			}
		}
	}
}

func TestTransformPanics(t *testing.T) {
	flat := &Dataset{Name: "flat", X: mat.NewDense(2, 4, nil), Y: []int{0, 1}, Classes: []string{"a", "b"}, Shape: []int{4}}
	big := blobDigits(1, 70, 70, rand.New(rand.NewPCG(1, 1)))
	rng := rand.New(rand.NewPCG(1, 1))
	for name, f := range map[string]func(){
		"translate 1-D":  func() { Translated64(flat, rng) },
		"rotate 1-D":     func() { Rotated(flat, rng) },
		"too large":      func() { Translated64(big, rng) },
		"negative sigma": func() { Translate(big, 80, -1, rng) },
		"NaN sigma":      func() { Rotate(big, math.NaN(), rng) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				} else if s, ok := r.(string); !ok || s[:6] != "data: " {
					t.Errorf("%s: panic %v lacks the data: prefix", name, r)
				}
			}()
			f()
		}()
	}
}

// mnistTestOrSkip loads the official MNIST test digits from $GITUI_DATA/mnist or skips.
func mnistTestOrSkip(t *testing.T) *Dataset {
	t.Helper()
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("GITUI_DATA is not set: point it at a directory containing mnist/ to run the MNIST checks")
	}
	ds, err := Open(dir, "mnist", "test")
	if err != nil {
		t.Skipf("MNIST not available under GITUI_DATA=%s: %v", dir, err)
	}
	return ds
}

func TestTransformedMNIST(t *testing.T) {
	src := mnistTestOrSkip(t)
	idx := make([]int, 500)
	for i := range idx {
		idx[i] = i
	}
	sub := src.Subset(idx)
	tr, off := Translate(sub, 64, 0, rand.New(rand.NewPCG(1, 2)))
	for i := range tr.Len() {
		// The whole digit is on the canvas: the ink sums agree exactly (same values, copied).
		var a, b float64
		for _, v := range sub.X.RawRowView(i) {
			a += v
		}
		for _, v := range tr.X.RawRowView(i) {
			b += v
		}
		if math.Abs(a-b) > 1e-9 || off[i][0] > 36 || off[i][1] > 36 {
			t.Fatalf("digit %d: ink %v on the canvas, %v in the source (offset %v)", i, b, a, off[i])
		}
	}
	rot := Rotated(sub, rand.New(rand.NewPCG(3, 4)))
	if err := rot.Validate(); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, y := range sub.Y {
		if y != 6 && y != 9 {
			want++
		}
	}
	if rot.Len() != want || len(rot.Classes) != 8 {
		t.Errorf("rotated: %d samples in %d classes, want %d in 8", rot.Len(), len(rot.Classes), want)
	}
	for _, y := range rot.Y {
		if n := rot.Classes[y]; n == "6" || n == "9" {
			t.Fatalf("class %q in the rotated set", n)
		}
	}
}

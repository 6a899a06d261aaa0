package data

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"gitui/core/group"
)

// Settings of the transformed MNIST sets of Liu, Kumar, Zhou and Liu ("Learning from
// Small Samples: Transformation-Invariant SVMs with Composition and Locality at Multiple
// Scales", Sec. IV-A): the translated digits live on a TranslatedSide × TranslatedSide
// canvas, and both sets get additive Gaussian noise of standard deviation
// TransformNoise.
const (
	TranslatedSide = 64
	TransformNoise = 0.1
)

// Translated64 returns Liu et al.'s Translated MNIST made from the images of src: each
// h×w image pasted at a uniformly random position of a 64×64 zero canvas that keeps it
// whole, plus N(0, 0.1²) noise on every canvas pixel (not clipped). It is
// Translate(src, TranslatedSide, TransformNoise, rng) without the offsets; see
// [Translate] for the contract.
func Translated64(src *Dataset, rng *rand.Rand) *Dataset {
	ds, _ := Translate(src, TranslatedSide, TransformNoise, rng)
	return ds
}

// Translate pastes every h×w image of src (Shape [h, w]) onto a side×side canvas of
// zeros at a random offset and adds Gaussian noise:
//
//	out[oy + r, ox + c] = x[r, c],      oy uniform in {0..side-h}, ox uniform in {0..side-w},
//	out[p]            += sigma · N(0, 1)  for every canvas pixel p,
//
// so the image is always whole on the canvas. The noise is not clipped: the values keep
// an exact N(0, sigma²) perturbation and may leave [0, 1]. It returns the new Dataset
// (Shape [side, side], labels and classes copied, name "<src>-translated<side>") and
// the offsets (oy, ox) of each sample.
//
// Random numbers are drawn sample by sample from rng (oy, ox, then side² normals), so a
// seed fixes the result. The result holds n·side² float64s (328 MB for 10,000 digits
// on 64×64). Translate panics (prefix "data: ") if src is not a set of 2-D images, if
// an image does not fit (h > side or w > side), or if sigma is negative or not finite.
func Translate(src *Dataset, side int, sigma float64, rng *rand.Rand) (*Dataset, [][2]int) {
	h, w := imageShape("Translate", src)
	if h > side || w > side {
		panic(fmt.Sprintf("data: Translate: %dx%d images do not fit on a %dx%d canvas", h, w, side, side))
	}
	checkSigma("Translate", sigma)
	n := src.Len()
	d := side * side
	out := &mat.Dense{}
	if n > 0 {
		out = mat.NewDense(n, d, nil)
	}
	off := make([][2]int, n)
	for i := range n {
		oy, ox := rng.IntN(side-h+1), rng.IntN(side-w+1)
		off[i] = [2]int{oy, ox}
		x := src.X.RawRowView(i)
		row := out.RawRowView(i)
		for r := range h {
			copy(row[(oy+r)*side+ox:(oy+r)*side+ox+w], x[r*w:(r+1)*w])
		}
		addNoise(row, sigma, rng)
	}
	return &Dataset{
		Name:    fmt.Sprintf("%s-translated%d", src.Name, side),
		X:       out,
		Y:       slices.Clone(src.Y),
		Classes: slices.Clone(src.Classes),
		Shape:   []int{side, side},
	}, off
}

// Rotated returns Liu et al.'s Rotated MNIST made from the images of src: the digits of
// classes "6" and "9" dropped, every other image rotated about its centre by an angle
// uniform in [0, 360) degrees (bilinear, zero fill, same size) plus N(0, 0.1²) noise
// (not clipped). It is Rotate(src, TransformNoise, rng) without the angles; see
// [Rotate] for the contract.
func Rotated(src *Dataset, rng *rand.Rand) *Dataset {
	ds, _ := Rotate(src, TransformNoise, rng)
	return ds
}

// Rotate rotates every h×w image of src (Shape [h, w]) by a random angle and adds
// Gaussian noise, skipping the classes named "6" and "9" (which a rotation confuses).
// For the angle θ, uniform in [0, 360) degrees, output pixel (r, c) reads the source
// point
//
//	sr = cy + cos θ·(r - cy) + sin θ·(c - cx),   sc = cx - sin θ·(r - cy) + cos θ·(c - cx),
//
// (cy, cx) = ((h-1)/2, (w-1)/2), interpolated bilinearly between its four neighbours
// when it lies inside the image and 0 otherwise: the convention of group.Rotations and
// scipy.ndimage.rotate(img, θ, reshape=False, order=1) (a positive θ turns the picture
// counter-clockwise). Corners of the source that leave the h×w frame are cut (MNIST
// digits sit in a centred 20×20 box, whose corners rarely hold ink). Then
//
//	out[p] += sigma · N(0, 1)  for every pixel p   (not clipped).
//
// The kept classes are relabelled 0..k'-1 in their original order and keep their names
// (MNIST: "0".."5", "7", "8"); if src has no class named "6" or "9", every class is
// kept. It returns the Dataset (name "<src>-rotated", Shape [h, w]) and the angle in
// degrees of each kept sample, in order.
//
// Random numbers are drawn for kept samples only, in order (the angle, then h·w
// normals). Rotate panics (prefix "data: ") if src is not a set of 2-D images or sigma
// is negative or not finite.
func Rotate(src *Dataset, sigma float64, rng *rand.Rand) (*Dataset, []float64) {
	h, w := imageShape("Rotate", src)
	checkSigma("Rotate", sigma)
	relabel := make([]int, len(src.Classes))
	var classes []string
	for c, name := range src.Classes {
		if name == "6" || name == "9" {
			relabel[c] = -1
			continue
		}
		relabel[c] = len(classes)
		classes = append(classes, name)
	}
	var keep []int
	for i, y := range src.Y {
		if relabel[y] >= 0 {
			keep = append(keep, i)
		}
	}
	d := h * w
	out := &mat.Dense{}
	if len(keep) > 0 {
		out = mat.NewDense(len(keep), d, nil)
	}
	y := make([]int, len(keep))
	angles := make([]float64, len(keep))
	for k, i := range keep {
		a := 360 * rng.Float64()
		angles[k] = a
		y[k] = relabel[src.Y[i]]
		row := out.RawRowView(k)
		rotateBilinear(row, src.X.RawRowView(i), h, w, a)
		addNoise(row, sigma, rng)
	}
	return &Dataset{
		Name:    src.Name + "-rotated",
		X:       out,
		Y:       y,
		Classes: classes,
		Shape:   []int{h, w},
	}, angles
}

// rotateBilinear writes x (h×w, row-major) rotated by deg degrees about its centre into
// dst, with bilinear interpolation and zero fill: group.Rotations' action (scipy's
// ndimage.rotate convention, exact at multiples of 90 degrees).
func rotateBilinear(dst, x []float64, h, w int, deg float64) {
	group.Rotations(h, w, []float64{deg}).Apply(dst, x, 0)
}

func addNoise(row []float64, sigma float64, rng *rand.Rand) {
	if sigma == 0 {
		return
	}
	for p := range row {
		row[p] += sigma * rng.NormFloat64()
	}
}

// imageShape returns (h, w) of a set of 2-D images and panics otherwise.
func imageShape(fn string, src *Dataset) (h, w int) {
	if len(src.Shape) != 2 || src.Shape[0] < 1 || src.Shape[1] < 1 {
		panic(fmt.Sprintf("data: %s: data set %q has shape %v, want 2-D images [h, w]", fn, src.Name, src.Shape))
	}
	h, w = src.Shape[0], src.Shape[1]
	if src.Len() > 0 && src.Dim() != h*w {
		panic(fmt.Sprintf("data: %s: data set %q has %d columns, shape %v needs %d", fn, src.Name, src.Dim(), src.Shape, h*w))
	}
	return h, w
}

func checkSigma(fn string, sigma float64) {
	if !(sigma >= 0) || math.IsInf(sigma, 1) {
		panic(fmt.Sprintf("data: %s: noise sigma %v must be finite and non-negative", fn, sigma))
	}
}

package learn

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// svmProblem is a labelled training set with its Gram matrix and a test-vs-train kernel.
type svmProblem struct {
	name  string
	k     *mat.SymDense // n×n training Gram
	y     []int
	kt    *mat.Dense // m×n test-versus-train kernel
	yt    []int
	c     float64
	xs    [][]float64 // training inputs (for kernels computed on the fly)
	kfunc func(a, b []float64) float64
}

func gramOf(x [][]float64, k func(a, b []float64) float64) *mat.SymDense {
	n := len(x)
	g := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			g.SetSym(i, j, k(x[i], x[j]))
		}
	}
	return g
}

func crossOf(xt, x [][]float64, k func(a, b []float64) float64) *mat.Dense {
	g := mat.NewDense(len(xt), len(x), nil)
	for i := range xt {
		for j := range x {
			g.Set(i, j, k(xt[i], x[j]))
		}
	}
	return g
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func rbf(gamma float64) func(a, b []float64) float64 {
	return func(a, b []float64) float64 {
		var s float64
		for i := range a {
			d := a[i] - b[i]
			s += d * d
		}
		return math.Exp(-gamma * s)
	}
}

// circlePoints draws n points uniform in [-1,1]^2 labelled +1 outside the circle
// ||x||^2 = 0.7 and -1 inside (the toy problem of Chapelle & Schoelkopf).
func circlePoints(n int, rng *rand.Rand) ([][]float64, []int) {
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range n {
		a, b := 2*rng.Float64()-1, 2*rng.Float64()-1
		x[i] = []float64{a, b}
		y[i] = -1
		if a*a+b*b > 0.7 {
			y[i] = 1
		}
	}
	return x, y
}

func circleProblem(n, m int, gamma, c float64, seed uint64) svmProblem {
	rng := rand.New(rand.NewPCG(seed, 1))
	x, y := circlePoints(n, rng)
	xt, yt := circlePoints(m, rng)
	k := rbf(gamma)
	return svmProblem{name: "circle", k: gramOf(x, k), y: y, kt: crossOf(xt, x, k), yt: yt, c: c, xs: x, kfunc: k}
}

// blobs draws n points in d dimensions from k Gaussian blobs with random centres
// (standard normal times spread) and unit noise; labels are the blob numbers plus off.
func blobs(n, d, k int, spread float64, off int, rng *rand.Rand) ([][]float64, []int) {
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, d)
		for j := range centres[c] {
			centres[c][j] = spread * rng.NormFloat64()
		}
	}
	return blobsAt(n, centres, off, rng)
}

func blobsAt(n int, centres [][]float64, off int, rng *rand.Rand) ([][]float64, []int) {
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range n {
		c := rng.IntN(len(centres))
		x[i] = make([]float64, len(centres[c]))
		for j := range x[i] {
			x[i][j] = centres[c][j] + rng.NormFloat64()
		}
		y[i] = c + off
	}
	return x, y
}

// readIDX reads a gzipped IDX file (magic 0x0000 0x08 ndim, big-endian dims, bytes).
func readIDX(path string) (dims []int, data []byte, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, err
	}
	var magic [4]byte
	if _, err := io.ReadFull(z, magic[:]); err != nil {
		return nil, nil, err
	}
	if magic[0] != 0 || magic[1] != 0 || magic[2] != 8 {
		return nil, nil, fmt.Errorf("%s: not an unsigned-byte IDX file", path)
	}
	total := 1
	for range int(magic[3]) {
		var d uint32
		if err := binary.Read(z, binary.BigEndian, &d); err != nil {
			return nil, nil, err
		}
		dims = append(dims, int(d))
		total *= int(d)
	}
	data = make([]byte, total)
	_, err = io.ReadFull(z, data)
	return dims, data, err
}

// mnist returns the first n images (pixels scaled to [0,1]) and labels of the IDX pair
// prefix ("train10k" or "t10k") under $GITUI_DATA/mnist, or skips the test.
func mnist(tb testing.TB, prefix string, n int) ([][]float64, []int) {
	dir := os.Getenv("GITUI_DATA")
	if dir == "" {
		tb.Skip("GITUI_DATA is not set: point it at a directory holding mnist/ to run the MNIST comparison")
	}
	_, img, err := readIDX(filepath.Join(dir, "mnist", prefix+"-images-idx3-ubyte.gz"))
	if err != nil {
		tb.Skipf("MNIST images not readable under GITUI_DATA=%s: %v", dir, err)
	}
	_, lab, err := readIDX(filepath.Join(dir, "mnist", prefix+"-labels-idx1-ubyte.gz"))
	if err != nil {
		tb.Skipf("MNIST labels not readable under GITUI_DATA=%s: %v", dir, err)
	}
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range n {
		x[i] = make([]float64, 784)
		for j := range 784 {
			x[i][j] = float64(img[i*784+j]) / 255
		}
		y[i] = int(lab[i])
	}
	return x, y
}

// poly8 is the polynomial kernel (1 + <x,z>/scale)^8 of Liu et al.
func poly8(scale float64) func(a, b []float64) float64 {
	return func(a, b []float64) float64 { return math.Pow(1+dot(a, b)/scale, 8) }
}

// kktViolation returns, for the binary subproblem of pair p of model m, the maximal
// violation m(a) - M(a) of the KKT conditions with the gradient recomputed in float64
// from k, and the largest distance of y_i G_i of a free variable from rho.
func kktViolation(m *SVC, p int, k mat.Symmetric, y []int, cPos, cNeg float64) (gap, rhoDev, eqSum float64, boxErr bool) {
	pr := m.Pairs[p]
	li, lj := m.Labels[pr.I], m.Labels[pr.J]
	var idx []int
	var ys []float64
	for i, lab := range y {
		switch lab {
		case li:
			idx = append(idx, i)
			ys = append(ys, 1)
		case lj:
			idx = append(idx, i)
			ys = append(ys, -1)
		}
	}
	alpha := make(map[int]float64)
	for s, i := range pr.SV {
		alpha[i] = pr.Coef[s] * func() float64 {
			if y[i] == li {
				return 1
			}
			return -1
		}()
	}
	up, low := math.Inf(-1), math.Inf(-1) // max -y G over I_up, max y G over I_low
	for a, i := range idx {
		g := -1.0
		for b, j := range idx {
			if al := alpha[j]; al != 0 {
				g += ys[a] * ys[b] * k.At(i, j) * al
			}
		}
		c := cPos
		if ys[a] < 0 {
			c = cNeg
		}
		al := alpha[i]
		if al < 0 || al > c {
			boxErr = true
		}
		eqSum += ys[a] * al
		inUp := (ys[a] > 0 && al < c) || (ys[a] < 0 && al > 0)
		inLow := (ys[a] > 0 && al > 0) || (ys[a] < 0 && al < c)
		if inUp {
			up = max(up, -ys[a]*g)
		}
		if inLow {
			low = max(low, ys[a]*g)
		}
		if al > 0 && al < c {
			rhoDev = max(rhoDev, math.Abs(ys[a]*g-pr.Rho))
		}
	}
	return up + low, rhoDev, eqSum, boxErr
}

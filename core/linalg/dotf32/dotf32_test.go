package dotf32

import (
	"math"
	"math/rand/v2"
	"testing"
)

// reference is Σ x[p] b[t][p] in float64, and Σ |x[p] b[t][p]|, the scale of the
// rounding bound.
func reference(x, b []float32, t, d int) (sum, abs float64) {
	for p := range d {
		v := float64(x[p]) * float64(b[t*d+p])
		sum += v
		abs += math.Abs(v)
	}
	return sum, abs
}

func randVec(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

// TestRowsAgainstFloat64: for every d from 1 to 80 (every block and tail case: blocks
// of 32, of 8, and 0..7 last values) and 784 (an MNIST image), and 1..9 rows, each
// value is within (d+2)·2⁻²⁴·Σ|x_p b_p| of the float64 sum (the summation bound of
// float32 with one rounding a step), for the build's kernel and the Go twin.
func TestRowsAgainstFloat64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := []int{784}
	for d := 1; d <= 80; d++ {
		ds = append(ds, d)
	}
	for _, d := range ds {
		for n := 1; n <= 9; n += 4 {
			x, b := randVec(rng, d), randVec(rng, n*d)
			for name, fn := range map[string]func([]float64, []float32, []float32, int){"Rows": Rows, "rowsGo": rowsGo} {
				dst := make([]float64, n)
				fn(dst, x, b, d)
				for r := range n {
					want, abs := reference(x, b, r, d)
					if tol := float64(d+2) * math.Ldexp(abs, -24); math.Abs(dst[r]-want) > tol {
						t.Fatalf("%s d=%d n=%d row %d: %.9g, float64 %.9g (tolerance %.3g)", name, d, n, r, dst[r], want, tol)
					}
				}
			}
		}
	}
}

// TestRowsFixedOrder: a row's value does not depend on the rows computed with it: the
// rows of B one at a time, all at once, and B's rows in reverse order give the same bits.
func TestRowsFixedOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range []int{7, 33, 784} {
		n := 37
		x, b := randVec(rng, d), randVec(rng, n*d)
		all := make([]float64, n)
		Rows(all, x, b, d)
		rev := make([]float32, n*d)
		for r := range n {
			copy(rev[(n-1-r)*d:], b[r*d:(r+1)*d])
		}
		back := make([]float64, n)
		Rows(back, x, rev, d)
		one := make([]float64, 1)
		for r := range n {
			Rows(one, x, b[r*d:(r+1)*d], d)
			if one[0] != all[r] || back[n-1-r] != all[r] {
				t.Fatalf("d=%d row %d: alone %v, with the others %v, reversed %v", d, r, one[0], all[r], back[n-1-r])
			}
		}
	}
}

// TestRowsEdges: no rows and d = 0 write nothing or zeros; short inputs panic; NaN and
// Inf propagate as in the sum.
func TestRowsEdges(t *testing.T) {
	Rows(nil, make([]float32, 5), nil, 5)
	dst := []float64{1, 2}
	Rows(dst, nil, nil, 0)
	if dst[0] != 0 || dst[1] != 0 {
		t.Errorf("d = 0: %v, want zeros", dst)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("b shorter than the rows: no panic")
			}
		}()
		Rows(make([]float64, 2), make([]float32, 4), make([]float32, 7), 4)
	}()
	x := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9}
	b := []float32{1, 1, 1, 1, 1, 1, 1, 1, float32(math.NaN()), 1, 1, float32(math.Inf(1)), 1, 1, 1, 1, 1, 1}
	out := make([]float64, 2)
	Rows(out, x, b, 9)
	if !math.IsNaN(out[0]) || !math.IsInf(out[1], 1) {
		t.Errorf("NaN and +Inf rows: %v", out)
	}
}

// BenchmarkRows: one x against 512 rows of 784 values (an SVM kernel row on MNIST),
// in GFLOP/s (2 flops a value), for the build's kernel and the Go twin.
func BenchmarkRows(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d = 512, 784
	x, m := randVec(rng, d), randVec(rng, n*d)
	dst := make([]float64, n)
	for name, fn := range map[string]func([]float64, []float32, []float32, int){"kernel=" + Kernel(): Rows, "kernel=go": rowsGo} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				fn(dst, x, m, d)
			}
			b.ReportMetric(2*n*d*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
)

// TestSgemmPackedMatchesGonum checks Float32's packed path, on every micro-kernel of
// this build (the Go twin everywhere), against gonum's Sgemm computed in float64 terms:
// every transpose pair, alpha 1 / -0.5, beta 0 / 1 / 0.25, tile-edge and prime sizes,
// leading dimensions wider than the operands, GOMAXPROCS 1 and 3 (row blocks split
// unevenly). Tolerance: |C - ref| <= 1e-5·(|alpha|·Σ|A||B| + |beta·C₀|), float32
// rounding of k terms. With beta = 0, C starts as NaN and none may survive; the stride
// padding of C stays NaN (never written).
func TestSgemmPackedMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	kerns := append([]gemmPath{{"go-kernel", true, kernelGo}}, asmKernels()...)
	for _, procs := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(procs)
		for _, sz := range [][3]int{{6, 16, 1}, {7, 17, 33}, {37, 41, 29}, {97, 16, 300}, {300, 53, 61}, {12, 130, 257}, {4, 10, 900}, {500, 10, 300}, {301, 4, 77}} {
			m, n, k := sz[0], sz[1], sz[2]
			for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans} {
				for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
					for _, ab := range [][2]float32{{1, 0}, {-0.5, 1}, {1, 0.25}} {
						for _, kp := range kerns {
							name := fmt.Sprintf("%s procs=%d m=%d n=%d k=%d tA=%c tB=%c alpha=%g beta=%g", kp.name, procs, m, n, k, tA, tB, ab[0], ab[1])
							checkSgemmCase(t, rng, name, kp.kern, tA, tB, m, n, k, ab[0], ab[1])
						}
					}
				}
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}

func checkSgemmCase(t *testing.T, rng *rand.Rand, name string, kern kernelFunc, tA, tB blas.Transpose, m, n, k int, alpha, beta float32) {
	t.Helper()
	ar, ac := m, k
	if tA == blas.Trans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB == blas.Trans {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+rng.IntN(3), bc+rng.IntN(3), n+1+rng.IntN(3)
	fill := func(r, ld int) []float32 {
		s := make([]float32, r*ld)
		for i := range s {
			s[i] = float32(rng.Float64()*2 - 1)
		}
		return s
	}
	a, b, c0 := fill(ar, lda), fill(br, ldb), fill(m, ldc)
	at := func(x []float32, ld int, trans bool, i, j int) float64 {
		if trans {
			return float64(x[j*ld+i])
		}
		return float64(x[i*ld+j])
	}
	c := make([]float32, len(c0))
	for i := range c {
		c[i] = float32(math.NaN())
		if beta != 0 && i%ldc < n {
			c[i] = c0[i]
		}
	}
	sgemmPacked(kern, tA == blas.Trans, tB == blas.Trans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	for i := range m {
		for j := range ldc {
			v := float64(c[i*ldc+j])
			if j >= n {
				if !math.IsNaN(v) {
					t.Fatalf("%s: wrote C[%d][%d] past n", name, i, j)
				}
				continue
			}
			var s, sa float64
			for p := range k {
				x, y := at(a, lda, tA == blas.Trans, i, p), at(b, ldb, tB == blas.Trans, p, j)
				s += x * y
				sa += math.Abs(x * y)
			}
			want := float64(alpha) * s
			scale := math.Abs(float64(alpha)) * sa
			if beta != 0 {
				want += float64(beta) * float64(c0[i*ldc+j])
				scale += math.Abs(float64(beta) * float64(c0[i*ldc+j]))
			}
			if math.IsNaN(v) || math.Abs(v-want) > 1e-5*scale+1e-30 {
				t.Fatalf("%s: C[%d][%d] = %g, want %g ± %g", name, i, j, v, want, 1e-5*scale)
			}
		}
	}
}

// TestFloat32Installed checks that the default build's blas32 runs on Float32 where the
// micro-kernel exists, and that Float32.Sgemm agrees with gonum's on a product that
// takes the packed path and on one too small for it.
func TestFloat32Installed(t *testing.T) {
	_, isF32 := blas32.Implementation().(Float32)
	if useAsmSgemm && !isF32 {
		t.Fatalf("blas32 runs on %T; want linalg.Float32 where the micro-kernel exists (SgemmImpl %s)", blas32.Implementation(), SgemmImpl())
	}
	rng := rand.New(rand.NewPCG(3, 5))
	for _, sz := range [][3]int{{64, 64, 64}, {4, 4, 4}} {
		m, n, k := sz[0], sz[1], sz[2]
		a, b := make([]float32, m*k), make([]float32, k*n)
		for i := range a {
			a[i] = float32(rng.Float64() - 0.5)
		}
		for i := range b {
			b[i] = float32(rng.Float64() - 0.5)
		}
		got, want := make([]float32, m*n), make([]float32, m*n)
		Float32{}.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, got, n)
		gonum.Implementation{}.Sgemm(blas.NoTrans, blas.NoTrans, m, n, k, 1, a, k, b, n, 0, want, n)
		for i := range got {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(k) {
				t.Fatalf("%dx%dx%d: C[%d] = %g, gonum %g", m, n, k, i, got[i], want[i])
			}
		}
	}
}

// TestFloat32Panics checks that Float32.Sgemm refuses bad arguments with gonum's
// messages on the packed path.
func TestFloat32Panics(t *testing.T) {
	if !useAsmSgemm {
		t.Skip("no packed float32 path in this build")
	}
	a, b, c := make([]float32, 64*64), make([]float32, 64*64), make([]float32, 64*64)
	for _, tc := range []struct {
		want string
		f    func()
	}{
		{badLdA, func() { Float32{}.Sgemm(blas.NoTrans, blas.NoTrans, 64, 64, 64, 1, a, 63, b, 64, 0, c, 64) }},
		{badLdB, func() { Float32{}.Sgemm(blas.NoTrans, blas.NoTrans, 64, 64, 64, 1, a, 64, b, 63, 0, c, 64) }},
		{shortC, func() { Float32{}.Sgemm(blas.NoTrans, blas.NoTrans, 64, 64, 64, 1, a, 64, b, 64, 0, c[:100], 64) }},
		{badTranspose, func() { Float32{}.Sgemm('x', blas.NoTrans, 64, 64, 64, 1, a, 64, b, 64, 0, c, 64) }},
	} {
		func() {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("panic %v, want %q", r, tc.want)
				}
			}()
			tc.f()
		}()
	}
}

// TestMulNTChunked covers MulNT's order for a packed A larger than L2 (sgemmAFits):
// column groups in chunks, k block by k block, with a partial last group and a partial
// last panel, on every path of this build.
func TestMulNTChunked(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, sz := range [][3]int{{300, 250, 1000}, {97, 53, 3000}, {7, 40, 40000}} {
		m, n, k := sz[0], sz[1], sz[2]
		if (m+mr-1)/mr*mr*k*4 <= sgemmAFits {
			t.Fatalf("m=%d k=%d: packed A fits sgemmAFits; the case does not reach the chunked order", m, k)
		}
		g := newGemmCase(rng, m, n, k)
		for _, p := range paths() {
			g.check(t, p.name, p.packed, p.kern)
		}
	}
}

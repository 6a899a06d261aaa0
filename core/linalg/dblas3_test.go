package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
)

var uplos = []blas.Uplo{blas.Upper, blas.Lower}

// level3s are the blocked routines on every micro-kernel under test.
func level3s() []level3 {
	var ls []level3
	for _, kn := range dkerns() {
		ls = append(ls, level3{kn}, level3{withBlocks(kn, 5, 2, 2)})
	}
	return ls
}

// sizes3 are the orders of the level-3 tests: 0, 1, primes, the tile edges of both
// micro-kernels, the diagonal block of 192 ± 1 and more than one block.
var sizes3 = []int{0, 1, 2, 7, 8, 9, 23, 24, 25, 191, 193, 400}

// compare checks got against want entry by entry over the rows×cols matrix at stride
// ld: where in(i, j) (the part the routine writes) |got - want| <= f·ulp·scale, NaN
// only where want is NaN; elsewhere (and in the padding) got must equal orig bit for
// bit, NaN included.
func compare(t *testing.T, name string, rows, cols, ld int, got, want, orig, scale []float64, f float64, in func(i, j int) bool) {
	t.Helper()
	for i := range rows {
		for j := range ld {
			x := i*ld + j
			if x >= len(got) {
				break
			}
			if j >= cols || !in(i, j) {
				if math.Float64bits(got[x]) != math.Float64bits(orig[x]) {
					t.Fatalf("%s: wrote [%d][%d] outside its part: %v, was %v", name, i, j, got[x], orig[x])
				}
				continue
			}
			if math.IsNaN(want[x]) != math.IsNaN(got[x]) || math.Abs(got[x]-want[x]) > f*ulp*scale[x] {
				t.Fatalf("%s: [%d][%d] = %v, gonum %v (tolerance %g)", name, i, j, got[x], want[x], f*ulp*scale[x])
			}
		}
	}
}

// noNaN returns |s| with the NaN padding set to 0, for error scales.
func noNaN(s []float64) []float64 {
	t := absAll(s)
	for i, v := range t {
		if math.IsNaN(v) {
			t[i] = 0
		}
	}
	return t
}

// TestDsyrkDsyr2k compares the blocked Dsyrk and Dsyr2k with gonum for both triangles,
// both transposes, the orders of sizes3 with k in 0, 1, 7, 25, 300, padded strides,
// alpha in {1, -0.7, 0}, beta in {0 (C all NaN), 1, 0.3}: the triangle within (4k+6) ulps
// of |alpha|·Σ|a||b| + |beta||c|, the other triangle untouched.
func TestDsyrkDsyr2k(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 33))
	scalars := [][2]float64{{1, 0}, {-0.7, 1}, {1, 0.3}, {0, 0.3}, {2, 0}}
	for li, l := range level3s() {
		for _, ul := range uplos {
			for _, tA := range transposes {
				for _, n := range sizes3 {
					if n > 200 && li%2 == 1 { // small blocks: the small orders suffice
						continue
					}
					k := []int{0, 1, 7, 25, 300}[rng.IntN(5)]
					s := scalars[rng.IntN(len(scalars))]
					ar, ac := n, k
					if tA != blas.NoTrans {
						ar, ac = k, n
					}
					lda, ldb, ldc := max(1, ac)+rng.IntN(3), max(1, ac)+rng.IntN(3), max(1, n)+rng.IntN(3)
					a, b, c := randMat(rng, ar, ac, lda), randMat(rng, ar, ac, ldb), randMat(rng, n, n, ldc)
					if s[1] == 0 {
						for i := range c {
							if i%ldc < n {
								c[i] = math.NaN()
							}
						}
					}
					in := func(i, j int) bool { return (ul == blas.Upper) == (j >= i) || i == j }
					name := fmt.Sprintf("%s ul=%c tA=%c n=%d k=%d alpha=%g beta=%g", l.kn.name, ul, tA, n, k, s[0], s[1])
					cs := noNaN(c)
					c0 := slices.Clone(c) // gonum's input: with beta = 0, C zero (gonum multiplies some NaN by 0)
					if s[1] == 0 {
						clear(cs)
						for i := range c0 {
							if i%ldc < n {
								c0[i] = 0
							}
						}
					}
					// Dsyrk
					got, want, sc := slices.Clone(c), slices.Clone(c0), slices.Clone(cs)
					l.dsyrk(ul, tA, n, k, s[0], a, lda, s[1], got, ldc)
					ref.Dsyrk(ul, tA, n, k, s[0], a, lda, s[1], want, ldc)
					ref.Dsyrk(ul, tA, n, k, math.Abs(s[0]), noNaN(a), lda, math.Abs(s[1]), sc, ldc)
					compare(t, "Dsyrk "+name, n, n, ldc, got, want, c, sc, float64(2*k+4), in)
					// Dsyr2k
					got, want, sc = slices.Clone(c), slices.Clone(c0), slices.Clone(cs)
					l.dsyr2k(ul, tA, n, k, s[0], a, lda, b, ldb, s[1], got, ldc)
					ref.Dsyr2k(ul, tA, n, k, s[0], a, lda, b, ldb, s[1], want, ldc)
					ref.Dsyr2k(ul, tA, n, k, math.Abs(s[0]), noNaN(a), lda, noNaN(b), ldb, math.Abs(s[1]), sc, ldc)
					compare(t, "Dsyr2k "+name, n, n, ldc, got, want, c, sc, float64(4*k+6), in)
				}
			}
		}
	}
}

var (
	sides = []blas.Side{blas.Left, blas.Right}
	diags = []blas.Diag{blas.NonUnit, blas.Unit}
)

// triMat returns a k×k triangular A at stride lda for Dtrmm and Dtrsm tests: the ul
// triangle off the diagonal uniform in [-1, 1)/k (so that T = op(A) is well
// conditioned), the diagonal ±[1, 2) (NaN when unit: it must not be read), the other
// triangle and the padding NaN (never read).
func triMat(rng *rand.Rand, ul blas.Uplo, unit bool, k, lda int) []float64 {
	a := make([]float64, 1+max(0, (k-1)*lda+k))[1:]
	fillNaN(a)
	for i := range k {
		for j := range k {
			switch {
			case i == j && !unit:
				a[i*lda+j] = (1 + rng.Float64()) * float64(1-2*rng.IntN(2))
			case i != j && (ul == blas.Upper) == (j > i):
				a[i*lda+j] = (rng.Float64()*2 - 1) / float64(k)
			}
		}
	}
	return a
}

// TestDtrmmDtrsm compares the blocked Dtrmm and Dtrsm with gonum for every side,
// triangle, transpose and diagonal, m, n over 0, 1, primes, tile and block edges,
// padded strides, alpha in {1, -0.7, 0} (alpha = 0 with B all NaN: not read). A's other
// triangle (and its diagonal when unit) is NaN: never read. Dtrmm within (2k+4) ulps of
// |alpha|·|op(A)|·|B|; Dtrsm within (4k+8) ulps of M⁻¹·|op(A)|·|X| (M: op(A) with its
// off-diagonal entries negated in magnitude, the bound of a triangular solve's error),
// k the order of A.
func TestDtrmmDtrsm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 33))
	sizes := []int{0, 1, 7, 9, 24, 25, 63, 65, 193, 300}
	for li, l := range level3s() {
		for _, s := range sides {
			for _, ul := range uplos {
				for _, tA := range transposes {
					for _, d := range diags {
						for _, m := range sizes {
							n := sizes[rng.IntN(len(sizes))]
							if li%2 == 1 && (m > 100 || n > 100) {
								continue
							}
							alpha := []float64{1, -0.7, 0}[rng.IntN(3)]
							k := n
							if s == blas.Left {
								k = m
							}
							lda, ldb := max(1, k)+rng.IntN(3), max(1, n)+rng.IntN(3)
							a := triMat(rng, ul, d == blas.Unit, k, lda)
							b := randMat(rng, m, n, ldb)
							if alpha == 0 {
								fillNaN(b)
							}
							name := fmt.Sprintf("%s s=%c ul=%c tA=%c d=%c m=%d n=%d alpha=%g", l.kn.name, s, ul, tA, d, m, n, alpha)
							all := func(i, j int) bool { return true }
							b0 := slices.Clone(b) // gonum's input: zero for alpha = 0 (gonum reads B then)
							if alpha == 0 {
								for i := range b0 {
									if i%ldb < n {
										b0[i] = 0
									}
								}
							}
							absA := noNaN(a)
							// Dtrmm
							got, want := slices.Clone(b), slices.Clone(b0)
							l.dtrmm(s, ul, tA, d, m, n, alpha, a, lda, got, ldb)
							ref.Dtrmm(s, ul, tA, d, m, n, alpha, a, lda, want, ldb)
							sc := noNaN(b0)
							ref.Dtrmm(s, ul, tA, d, m, n, math.Abs(alpha), absA, lda, sc, ldb)
							compare(t, "Dtrmm "+name, m, n, ldb, got, want, b, sc, float64(2*k+4), all)
							// Dtrsm
							got, want = slices.Clone(b), slices.Clone(b0)
							l.dtrsm(s, ul, tA, d, m, n, alpha, a, lda, got, ldb)
							ref.Dtrsm(s, ul, tA, d, m, n, alpha, a, lda, want, ldb)
							mm := slices.Clone(absA) // the comparison matrix M
							for i := range k {
								for j := range k {
									if i != j {
										mm[i*lda+j] = -mm[i*lda+j]
									}
								}
							}
							sc = noNaN(want)
							ref.Dtrmm(s, ul, tA, d, m, n, 1, absA, lda, sc, ldb)
							ref.Dtrsm(s, ul, tA, d, m, n, 1, mm, lda, sc, ldb)
							compare(t, "Dtrsm "+name, m, n, ldb, got, want, b, sc, float64(4*k+8), all)
						}
					}
				}
			}
		}
	}
}

// TestDsymm compares the blocked Dsymm with gonum for both sides and triangles, m, n
// over 0, 1, primes, tile and block edges, padded strides, alpha in {1, -0.7, 0}, beta
// in {0 (C all NaN), 1, 0.3}, A's other triangle NaN (never read): within (2k+4) ulps of
// |alpha|·|A|·|B| + |beta|·|C|.
func TestDsymm(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 33))
	sizes := []int{0, 1, 7, 9, 24, 25, 191, 193, 300}
	scalars := [][2]float64{{1, 0}, {-0.7, 1}, {1, 0.3}, {0, 0.3}, {0, 0}}
	for li, l := range level3s() {
		for _, s := range sides {
			for _, ul := range uplos {
				for _, m := range sizes {
					n := sizes[rng.IntN(len(sizes))]
					if li%2 == 1 && (m > 100 || n > 100) {
						continue
					}
					sc2 := scalars[rng.IntN(len(scalars))]
					alpha, beta := sc2[0], sc2[1]
					k := n
					if s == blas.Left {
						k = m
					}
					lda, ldb, ldc := max(1, k)+rng.IntN(3), max(1, n)+rng.IntN(3), max(1, n)+rng.IntN(3)
					a := randMat(rng, k, k, lda)
					for i := range k {
						for j := range k {
							if i != j && (ul == blas.Upper) != (j > i) {
								a[i*lda+j] = math.NaN()
							}
						}
					}
					b, c := randMat(rng, m, n, ldb), randMat(rng, m, n, ldc)
					c0 := slices.Clone(c)
					if beta == 0 {
						for i := range c {
							if i%ldc < n {
								c[i], c0[i] = math.NaN(), 0
							}
						}
					}
					name := fmt.Sprintf("Dsymm %s s=%c ul=%c m=%d n=%d alpha=%g beta=%g", l.kn.name, s, ul, m, n, alpha, beta)
					got, want := slices.Clone(c), slices.Clone(c0)
					l.dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, got, ldc)
					ref.Dsymm(s, ul, m, n, alpha, a, lda, b, ldb, beta, want, ldc)
					sc := noNaN(c0)
					ref.Dsymm(s, ul, m, n, math.Abs(alpha), noNaN(a), lda, noNaN(b), ldb, math.Abs(beta), sc, ldc)
					compare(t, name, m, n, ldc, got, want, c, sc, float64(2*k+4), func(i, j int) bool { return true })
				}
			}
		}
	}
}

package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/gonum"
)

// ref is gonum's pure-Go BLAS, the reference of every test here.
var ref gonum.Implementation

// ulp is the unit roundoff of float64, 2⁻⁵³.
const ulp = 0x1p-53

// dkerns lists the micro-kernels under test: the Go twins and the assembly this build
// and CPU can run.
func dkerns() []*dkern { return append([]*dkern{dkernGo8x24, dkernGo6x8}, dkernAsmAll()...) }

// withBlocks returns a copy of kn with small cache blocks, so that small products take
// several k, row and column blocks.
func withBlocks(kn *dkern, kc, ncTiles, mcTiles int) *dkern {
	s := *kn
	s.name = fmt.Sprintf("%s kc=%d nc=%d mc=%d", kn.name, kc, ncTiles*kn.nr, mcTiles*kn.mr)
	s.kc, s.nc, s.mc = kc, ncTiles*kn.nr, mcTiles*kn.mr
	return &s
}

// randMat returns r×c values uniform in [-1, 1) at stride ld >= c, the padding NaN, in a
// slice that starts at an odd offset of its allocation (so rows are not 64-byte aligned).
func randMat(rng *rand.Rand, r, c, ld int) []float64 {
	s := make([]float64, 1+max(0, (r-1)*ld+c))[1:]
	for i := range s {
		if i%ld < c {
			s[i] = rng.Float64()*2 - 1
		} else {
			s[i] = math.NaN()
		}
	}
	return s
}

func absAll(s []float64) []float64 {
	t := make([]float64, len(s))
	for i, v := range s {
		t[i] = math.Abs(v)
	}
	return t
}

// gemmProblem is one Dgemm call's operands.
type gemmProblem struct {
	tA, tB        blas.Transpose
	m, n, k       int
	alpha, beta   float64
	a, b, c       []float64
	lda, ldb, ldc int
}

func newGemmProblem(rng *rand.Rand, tA, tB blas.Transpose, m, n, k int, alpha, beta float64, pad int) gemmProblem {
	p := gemmProblem{tA: tA, tB: tB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	ar, ac := m, k
	if tA != blas.NoTrans {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB != blas.NoTrans {
		br, bc = n, k
	}
	p.lda, p.ldb, p.ldc = max(1, ac)+rng.IntN(pad+1), max(1, bc)+rng.IntN(pad+1), max(1, n)+rng.IntN(pad+1)
	p.a, p.b, p.c = randMat(rng, ar, ac, p.lda), randMat(rng, br, bc, p.ldb), randMat(rng, m, n, p.ldc)
	if beta == 0 { // beta = 0 must not read C
		fillNaN(p.c)
	}
	return p
}

// fillNaN sets every element of s to NaN (what a routine must not read, or read through).
func fillNaN(s []float64) {
	for i := range s {
		s[i] = math.NaN()
	}
}

// run returns C after Dgemm on kn (nil: gonum's reference).
func (p gemmProblem) run(kn *dkern) []float64 {
	c := slices.Clone(p.c)
	if kn == nil {
		ref.Dgemm(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc)
	} else {
		dgemm(kn, p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc)
	}
	return c
}

// scale returns |alpha|·|op(A)|·|op(B)| + |beta|·|C| (0 where C is NaN and beta = 0),
// the size that bounds the rounding error of every entry.
func (p gemmProblem) scale() []float64 {
	c := absAll(p.c)
	if p.beta == 0 {
		clear(c)
	}
	aa, ab := absAll(p.a), absAll(p.b)
	for i := range aa { // the NaN padding of A and B is never read: keep it out
		if math.IsNaN(aa[i]) {
			aa[i] = 0
		}
	}
	for i := range ab {
		if math.IsNaN(ab[i]) {
			ab[i] = 0
		}
	}
	ref.Dgemm(p.tA, p.tB, p.m, p.n, p.k, math.Abs(p.alpha), aa, p.lda, ab, p.ldb, math.Abs(p.beta), c, p.ldc)
	return c
}

// check compares got with gonum's result entry by entry: |got - want| <= (2k+4) ulps of
// |alpha|·Σ|a||b| + |beta||c| (the sum of k products rounds by at most k ulps of that
// size in either implementation, alpha and beta by one or two more); C's padding past n
// must stay untouched (NaN).
func (p gemmProblem) check(t *testing.T, name string, got []float64) {
	t.Helper()
	want, sc := p.run(nil), p.scale()
	for i := range p.m {
		for j := range p.ldc {
			if i*p.ldc+j >= len(got) {
				break
			}
			x := got[i*p.ldc+j]
			if j >= p.n {
				if !math.IsNaN(x) && !(math.IsNaN(p.c[i*p.ldc+j]) == false && x == p.c[i*p.ldc+j]) {
					t.Fatalf("%s: wrote C[%d][%d] past n = %d", name, i, j, p.n)
				}
				continue
			}
			y := want[i*p.ldc+j]
			tol := float64(2*p.k+4) * ulp * sc[i*p.ldc+j]
			if math.IsNaN(x) || math.Abs(x-y) > tol {
				t.Fatalf("%s tA=%c tB=%c m=%d n=%d k=%d lda=%d ldb=%d ldc=%d alpha=%g beta=%g: C[%d][%d] = %v, gonum %v (tolerance %g)",
					name, p.tA, p.tB, p.m, p.n, p.k, p.lda, p.ldb, p.ldc, p.alpha, p.beta, i, j, x, y, tol)
			}
		}
	}
}

var transposes = []blas.Transpose{blas.NoTrans, blas.Trans}

// TestDgemmShapes compares the packed Dgemm with gonum on every kernel, every pair of
// transposes, sizes 0, 1, primes and the tile edges (mr, nr ± 1 of both tiles), padded
// leading dimensions, with the default and with small cache blocks (several k, row and
// column blocks), for alpha in {1, -0.7, 0} and beta in {0 (C all NaN), 1, 0.3}.
func TestDgemmShapes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 33))
	sizes := []int{0, 1, 2, 5, 6, 7, 8, 9, 13, 23, 24, 25, 31, 47, 49}
	scalars := [][2]float64{{1, 0}, {-0.7, 1}, {1, 0.3}, {0, 0.3}, {0, 0}, {2.5, -1}}
	for _, kn0 := range dkerns() {
		for _, kn := range []*dkern{kn0, withBlocks(kn0, 5, 2, 2)} {
			for _, tA := range transposes {
				for _, tB := range transposes {
					for _, m := range sizes {
						for _, n := range sizes {
							k := sizes[rng.IntN(len(sizes))]
							s := scalars[rng.IntN(len(scalars))]
							p := newGemmProblem(rng, tA, tB, m, n, k, s[0], s[1], 3)
							p.check(t, kn.name, p.run(kn))
						}
					}
				}
			}
		}
	}
}

// TestDgemmLarge: products of a few hundred in each dimension (many tiles, k blocks,
// column and row blocks, the parallel split over both dimensions) on the assembly kernel
// this CPU runs, or the Go twin, against gonum.
func TestDgemmLarge(t *testing.T) {
	kn := dkernAsm
	if kn == nil {
		kn = dkernGo8x24
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	rng := rand.New(rand.NewPCG(2, 33))
	for _, s := range [][3]int{{257, 811, 300}, {900, 50, 513}, {130, 1601, 7}} {
		for _, tA := range transposes {
			for _, tB := range transposes {
				p := newGemmProblem(rng, tA, tB, s[0], s[1], s[2], 0.9, 0.5, 2)
				p.check(t, kn.name, p.run(kn))
			}
		}
	}
}

// TestDgemmAsmMatchesTwin: each assembly micro-kernel gives its Go twin's result bit
// for bit (the same fused multiply-adds in the same order), through the whole driver
// (k = 1..5 and 301: the tails after the 4-way unrolled loop; k = 642 with kc = 320:
// three blocks of 214, tail 2; m, n off the tile).
func TestDgemmAsmMatchesTwin(t *testing.T) {
	twins := map[string]*dkern{"avx512": dkernGo8x24, "avx2": dkernGo6x8}
	if len(dkernAsmAll()) == 0 {
		t.Skip("no float64 assembly in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(3, 33))
	for _, kn := range dkernAsmAll() {
		tw := *twins[kn.name]
		tw.kc, tw.nc, tw.mc = kn.kc, kn.nc, kn.mc
		for _, k := range []int{1, 2, 3, 4, 5, 301, 642} {
			for _, tA := range transposes {
				for _, tB := range transposes {
					p := newGemmProblem(rng, tA, tB, 53, 75, k, -1.3, 0.7, 2)
					x, y := p.run(kn), p.run(&tw)
					for i := range x {
						if math.Float64bits(x[i]) != math.Float64bits(y[i]) && !(math.IsNaN(x[i]) && math.IsNaN(y[i])) {
							t.Fatalf("%s k=%d tA=%c tB=%c: c[%d] = %v, Go twin %v", kn.name, k, tA, tB, i, x[i], y[i])
						}
					}
				}
			}
		}
	}
}

// TestDgemmParallelSplit: the product split over goroutines (by columns and by rows)
// equals the serial one bit for bit: the split falls on tile boundaries.
func TestDgemmParallelSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 33))
	kn := dkernGo6x8
	if dkernAsm != nil {
		kn = dkernAsm
	}
	for _, s := range [][3]int{{40, 700, 200}, {700, 40, 200}} {
		p := newGemmProblem(rng, blas.NoTrans, blas.Trans, s[0], s[1], s[2], 1, 0, 1)
		prev := runtime.GOMAXPROCS(1)
		serial := p.run(kn)
		runtime.GOMAXPROCS(5)
		par := p.run(kn)
		runtime.GOMAXPROCS(prev)
		if !slices.EqualFunc(serial, par, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) }) {
			t.Fatalf("%v: the parallel product differs from the serial one", s)
		}
	}
}

// TestDgemmNaNInf: a NaN in A and an Inf in B reach the entries of C they feed, as in
// gonum (no entry of A or B is zero here, so gonum's skipping of zeros does not apply);
// alpha = 0 reads neither A nor B (as the reference BLAS; gonum reads them, and its
// 0·NaN reaches C); beta = 0 leaves no NaN of C behind; an Inf in C with
// beta = 1 stays.
func TestDgemmNaNInf(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 33))
	class := func(v float64) string {
		switch {
		case math.IsNaN(v):
			return "NaN"
		case math.IsInf(v, 1):
			return "+Inf"
		case math.IsInf(v, -1):
			return "-Inf"
		}
		return "finite"
	}
	for _, kn := range dkerns() {
		for _, tA := range transposes {
			for _, tB := range transposes {
				for si, s := range [][2]float64{{1, 0}, {1, 1}, {0, 1}, {0, 0}, {-2, 0.5}, {1, 0}, {1, 1}} {
					m, n := 19, 29
					if si >= 5 { // narrow C: computed as Cᵀ
						m, n = 60, 9
					}
					p := newGemmProblem(rng, tA, tB, m, n, 37, s[0], s[1], 0)
					p.a[3*p.lda+5] = math.NaN()
					p.b[7*p.ldb+2] = math.Inf(1)
					br, bc := p.k, p.n // B's rows and columns as stored
					if tB != blas.NoTrans {
						br, bc = p.n, p.k
					}
					p.b[min(11, br-1)*p.ldb+min(20, bc-1)] = math.Inf(-1)
					if s[1] != 0 {
						p.c[2*p.ldc+3] = math.Inf(1)
					}
					got, want := p.run(kn), p.run(nil)
					if s[0] == 0 { // C = beta·C without reading A (gonum multiplies its NaN by 0)
						want = slices.Clone(p.c)
						scaleC(p.m, p.n, p.beta, want, p.ldc)
					}
					nan := 0
					for i := range got {
						if class(got[i]) != class(want[i]) {
							t.Fatalf("%s tA=%c tB=%c alpha=%g beta=%g: c[%d] = %v, gonum %v", kn.name, tA, tB, s[0], s[1], i, got[i], want[i])
						}
						if math.IsNaN(got[i]) {
							nan++
						}
					}
					if s[0] != 0 && nan == 0 {
						t.Fatalf("%s: the NaN of A reached no entry of C", kn.name)
					}
				}
			}
		}
	}
}

// TestDgemmPanics: bad arguments panic with gonum's messages.
func TestDgemmPanics(t *testing.T) {
	kn := dkernGo8x24
	msg := func(f func()) (s string) {
		defer func() { s = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	a, b, c := make([]float64, 12), make([]float64, 12), make([]float64, 12)
	for _, tc := range []struct {
		tA, tB        blas.Transpose
		m, n, k       int
		la, lb, lc    int
		lda, ldb, ldc int
	}{
		{'x', blas.NoTrans, 2, 2, 2, 4, 4, 4, 2, 2, 2},
		{blas.NoTrans, blas.NoTrans, -1, 2, 2, 4, 4, 4, 2, 2, 2},
		{blas.NoTrans, blas.NoTrans, 2, 2, 3, 6, 6, 4, 2, 2, 2},
		{blas.NoTrans, blas.Trans, 2, 2, 3, 6, 6, 4, 3, 2, 2},
		{blas.NoTrans, blas.NoTrans, 2, 2, 2, 4, 4, 4, 2, 2, 1},
		{blas.NoTrans, blas.NoTrans, 3, 2, 2, 4, 4, 6, 2, 2, 2},
		{blas.Trans, blas.NoTrans, 2, 2, 3, 6, 5, 4, 2, 2, 2},
		{blas.NoTrans, blas.NoTrans, 2, 2, 2, 4, 4, 3, 2, 2, 2},
	} {
		got := msg(func() {
			dgemm(kn, tc.tA, tc.tB, tc.m, tc.n, tc.k, 1, a[:tc.la], tc.lda, b[:tc.lb], tc.ldb, 0, c[:tc.lc], tc.ldc)
		})
		want := msg(func() {
			ref.Dgemm(tc.tA, tc.tB, tc.m, tc.n, tc.k, 1, a[:tc.la], tc.lda, b[:tc.lb], tc.ldb, 0, c[:tc.lc], tc.ldc)
		})
		if got != want || !strings.HasPrefix(want, "blas: ") {
			t.Errorf("%+v: panic %q, gonum %q", tc, got, want)
		}
	}
}

// TestFloat64Installed: the default build routes blas64 through Float64 where a
// micro-kernel runs, and DgemmImpl names it.
func TestFloat64Installed(t *testing.T) {
	_, ours := blas64.Implementation().(Float64)
	switch {
	case dkernAsm != nil && (!ours || DgemmImpl() != dkernAsm.name):
		t.Fatalf("micro-kernel %s, but blas64 is %T and DgemmImpl %q", dkernAsm.name, blas64.Implementation(), DgemmImpl())
	case dkernAsm == nil && (ours || !strings.HasPrefix(DgemmImpl(), "blas64 (")):
		t.Fatalf("no micro-kernel, but blas64 is %T and DgemmImpl %q", blas64.Implementation(), DgemmImpl())
	}
	t.Logf("blas64: %T, dgemm: %s", blas64.Implementation(), DgemmImpl())
}

// FuzzDgemm compares the packed Dgemm (the AVX-512/AVX2 kernel where it runs, else the
// Go twin; small cache blocks) with gonum over shapes, strides, transposes and scalars.
func FuzzDgemm(f *testing.F) {
	f.Add(uint8(7), uint8(9), uint8(13), uint8(1), uint8(0), uint8(2), uint8(0), uint8(3), uint64(1))
	f.Add(uint8(25), uint8(24), uint8(1), uint8(0), uint8(3), uint8(0), uint8(3), uint8(0), uint64(2))
	f.Add(uint8(0), uint8(5), uint8(5), uint8(0), uint8(0), uint8(0), uint8(1), uint8(1), uint64(3))
	kn := dkernAsm
	if kn == nil {
		kn = dkernGo8x24
	}
	kn = withBlocks(kn, 7, 2, 2)
	f.Fuzz(func(t *testing.T, m, n, k, pa, pb, pc, tr, sc uint8, seed uint64) {
		rng := rand.New(rand.NewPCG(seed, 33))
		tA, tB := transposes[tr&1], transposes[tr>>1&1]
		s := [][2]float64{{1, 0}, {-0.7, 1}, {1, 0.3}, {0, 0.3}, {0, 0}, {2.5, -1}}[int(sc)%6]
		p := newGemmProblem(rng, tA, tB, int(m%80), int(n%80), int(k%80), s[0], s[1], 0)
		// Widen the strides by pa, pb, pc (values NaN in the padding).
		p2 := p
		p2.lda, p2.ldb, p2.ldc = p.lda+int(pa%5), p.ldb+int(pb%5), p.ldc+int(pc%5)
		ar, ac := p.m, p.k
		if tA != blas.NoTrans {
			ar, ac = p.k, p.m
		}
		br, bc := p.k, p.n
		if tB != blas.NoTrans {
			br, bc = p.n, p.k
		}
		p2.a, p2.b, p2.c = randMat(rng, ar, ac, p2.lda), randMat(rng, br, bc, p2.ldb), randMat(rng, p.m, p.n, p2.ldc)
		if s[1] == 0 {
			fillNaN(p2.c)
		}
		p2.check(t, kn.name, p2.run(kn))
	})
}

// TestFloat64Dgemm: the public Dgemm (gonum's loops below 1024 multiply-adds, the packed
// kernel above, gonum everywhere without the assembly) agrees with gonum on both sides of
// the threshold, every pair of transposes.
func TestFloat64Dgemm(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 33))
	for _, s := range [][3]int{{2, 3, 4}, {8, 8, 15}, {8, 8, 16}, {10, 11, 12}, {40, 33, 70}} {
		for _, tA := range transposes {
			for _, tB := range transposes {
				p := newGemmProblem(rng, tA, tB, s[0], s[1], s[2], 1.5, 0.5, 2)
				c := slices.Clone(p.c)
				Float64{}.Dgemm(p.tA, p.tB, p.m, p.n, p.k, p.alpha, p.a, p.lda, p.b, p.ldb, p.beta, c, p.ldc)
				p.check(t, "Float64", c)
			}
		}
	}
}

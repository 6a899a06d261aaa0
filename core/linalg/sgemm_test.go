package linalg

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// gemmCase is one random product C = A·Bᵀ with its float64 reference and error scale.
type gemmCase struct {
	m, n, k       int
	lda, ldb, ldc int
	a, b          []float32 // b as generated (row-major, stride ldb)
	ref, scale    []float64 // m×n: Σ A·B in float64, Σ |A|·|B|
}

// newGemmCase draws A and B uniform in [-1, 1) with strides padded by 0..3 and slices
// starting at an odd offset (so rows are not 32-byte aligned).
func newGemmCase(rng *rand.Rand, m, n, k int) gemmCase {
	g := gemmCase{m: m, n: n, k: k, lda: k + rng.IntN(4), ldb: k + rng.IntN(4), ldc: n + rng.IntN(4)}
	g.lda, g.ldb = max(g.lda, 1), max(g.ldb, 1)
	fill := func(rows, ld int) []float32 {
		s := make([]float32, 1+rows*ld)
		for i := range s {
			s[i] = float32(rng.Float64()*2 - 1)
		}
		return s[1:]
	}
	g.a, g.b = fill(m, g.lda), fill(n, g.ldb)
	g.ref, g.scale = make([]float64, m*n), make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, sa float64
			for p := range k {
				x, y := float64(g.a[i*g.lda+p]), float64(g.b[j*g.ldb+p])
				s += x * y
				sa += math.Abs(x * y)
			}
			g.ref[i*n+j], g.scale[i*n+j] = s, sa
		}
	}
	return g
}

// check multiplies with a PackB'd copy of B on the given path and compares every entry
// with the float64 reference: |C - ref| <= 1e-5·Σ|A||B| (float32 rounding of k terms).
// Entries of C's stride padding must stay untouched (NaN).
func (g gemmCase) check(t *testing.T, name string, packed bool, kern kernelFunc) {
	t.Helper()
	b := slices.Clone(g.b)
	pb := packB(g.n, g.k, b, g.ldb, packed, kern)
	c := make([]float32, g.m*g.ldc)
	for i := range c {
		c[i] = float32(math.NaN())
	}
	pb.MulNT(g.m, g.a, g.lda, c, g.ldc)
	for i := range g.m {
		for j := range g.ldc {
			v := c[i*g.ldc+j]
			if j >= g.n {
				if !math.IsNaN(float64(v)) {
					t.Fatalf("%s m=%d n=%d k=%d: wrote C[%d][%d] past n (ldc=%d)", name, g.m, g.n, g.k, i, j, g.ldc)
				}
				continue
			}
			want, tol := g.ref[i*g.n+j], 1e-5*g.scale[i*g.n+j]+1e-30
			if math.Abs(float64(v)-want) > tol || math.IsNaN(float64(v)) {
				t.Fatalf("%s m=%d n=%d k=%d lda=%d ldb=%d ldc=%d: C[%d][%d] = %g, want %g ± %g",
					name, g.m, g.n, g.k, g.lda, g.ldb, g.ldc, i, j, v, want, tol)
			}
		}
	}
}

// gemmPath is a GEMM path under test: a micro-kernel on packed operands, or (packed
// false, kern nil) the blas32 fallback.
type gemmPath struct {
	name   string
	packed bool
	kern   kernelFunc
}

// paths lists the GEMM paths of this build: the Go twins of the micro-kernels, the
// assembly kernels where the CPU has them, and the blas32 fallback.
func paths() []gemmPath {
	return append([]gemmPath{{"go-kernel", true, kernelGo}, {"go-kernel-split", true, kernelGoSplit}, {"blas32", false, nil}}, asmKernels()...)
}

// asmKernels are the assembly micro-kernels this build and CPU can run.
func asmKernels() []gemmPath {
	var ks []gemmPath
	if useAsmSgemm {
		ks = append(ks, gemmPath{"avx2", true, kernelAVX2})
	}
	if useAVX512 {
		ks = append(ks, gemmPath{"avx512", true, kernelAVX512})
	}
	return ks
}

// TestMulNTEdges covers every m, n in 1..17 (partial 6-row panels, partial 16-column
// groups, both at once) with k not a multiple of 8, odd strides and offsets, and k split
// into several blocks.
func TestMulNTEdges(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	defer func(kc int) { sgemmKC = kc }(sgemmKC)
	for _, kc := range []int{256, 5} {
		sgemmKC = kc
		for m := 1; m <= 17; m++ {
			for n := 1; n <= 17; n++ {
				k := []int{1, 3, 7, 9, 13, 31}[rng.IntN(6)]
				g := newGemmCase(rng, m, n, k)
				for _, p := range paths() {
					g.check(t, fmt.Sprintf("%s kc=%d", p.name, kc), p.packed, p.kern)
				}
			}
		}
	}
}

// TestMulNTLarger covers shapes with many panels and groups, several k blocks and the
// projection's depth (784 = MNIST pixels) on every path.
func TestMulNTLarger(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range [][3]int{{37, 100, 784}, {64, 48, 257}, {13, 35, 515}, {6, 16, 8}, {1, 33, 1000}} {
		g := newGemmCase(rng, s[0], s[1], s[2])
		for _, p := range paths() {
			g.check(t, p.name, p.packed, p.kern)
		}
	}
}

// TestMulNTKZero: k = 0 gives an all-zero C on every path.
func TestMulNTKZero(t *testing.T) {
	for _, p := range paths() {
		pb := packB(5, 0, nil, 1, p.packed, p.kern)
		c := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
		pb.MulNT(2, nil, 1, c, 5)
		for i, v := range c {
			if v != 0 {
				t.Fatalf("%s: k=0: c[%d] = %g, want 0", p.name, i, v)
			}
		}
	}
}

// TestAsmMatchesGoTwin: the assembly and the Go twin agree to float32 rounding on the
// same packed panels: they add the same products in the same order and differ only where
// the Go compiler does not fuse a·b + c into one FMA. The tolerance 4e-7·Σ|A||B| is about
// 7 units of float32 rounding (2⁻²⁴ ≈ 6e-8); this case differs by at most 6e-8·Σ|A||B|,
// 3500 entries, 829 of them bit-identical.
// The AVX-512 kernel is checked the same way against its own twin, kernelGoSplit, on k
// = 301 (odd, so the last k block ends on an even index).
func TestAsmMatchesGoTwin(t *testing.T) {
	if !useAsmSgemm {
		t.Skip("no AVX2+FMA assembly in this build or on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct {
		name      string
		asm, twin kernelFunc
		k         int
		run       bool
	}{
		{"avx2", kernelAVX2, kernelGo, 300, true},
		{"avx512", kernelAVX512, kernelGoSplit, 301, useAVX512},
	} {
		if !c.run {
			t.Logf("%s: not on this CPU", c.name)
			continue
		}
		g := newGemmCase(rng, 50, 70, c.k)
		run := func(kern kernelFunc) []float32 {
			pb := packB(g.n, g.k, slices.Clone(g.b), g.ldb, true, kern)
			out := make([]float32, g.m*g.ldc)
			pb.MulNT(g.m, g.a, g.lda, out, g.ldc)
			return out
		}
		ca, cg := run(c.asm), run(c.twin)
		same := 0
		for i := range g.m {
			for j := range g.n {
				x, y := ca[i*g.ldc+j], cg[i*g.ldc+j]
				if tol := 4e-7 * g.scale[i*g.n+j]; math.Abs(float64(x-y)) > tol {
					t.Fatalf("%s: C[%d][%d]: asm %g, Go twin %g (tolerance %g)", c.name, i, j, x, y, tol)
				}
				if x == y {
					same++
				}
			}
		}
		t.Logf("%s: %d of %d entries bit-identical to the Go twin", c.name, same, g.m*g.n)
	}
}

// TestSgemmNTLeavesB: SgemmNT gives the reference product and does not change b, on
// whatever path this build and CPU select.
func TestSgemmNTLeavesB(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	g := newGemmCase(rng, 11, 40, 29)
	b := slices.Clone(g.b)
	c := make([]float32, g.m*g.ldc)
	SgemmNT(g.m, g.n, g.k, g.a, g.lda, b, g.ldb, c, g.ldc)
	if !slices.Equal(b, g.b) {
		t.Fatal("SgemmNT changed b")
	}
	for i := range g.m {
		for j := range g.n {
			if d := math.Abs(float64(c[i*g.ldc+j]) - g.ref[i*g.n+j]); d > 1e-5*g.scale[i*g.n+j] {
				t.Fatalf("C[%d][%d] = %g, want %g", i, j, c[i*g.ldc+j], g.ref[i*g.n+j])
			}
		}
	}
}

// TestPackBLayout: a packed full group holds B transposed in 16-wide panels and the
// tail rows are untouched.
func TestPackBLayout(t *testing.T) {
	const n, k, ldb = 19, 5, 7
	b := make([]float32, (n-1)*ldb+k)
	for i := range b {
		b[i] = float32(i)
	}
	orig := slices.Clone(b)
	packB(n, k, b, ldb, true, kernelGo)
	for p := range k {
		for j := range nr {
			if got, want := b[p*nr+j], orig[j*ldb+p]; got != want {
				t.Fatalf("packed[%d][%d] = %g, want B[%d][%d] = %g", p, j, got, j, p, want)
			}
		}
	}
	if !slices.Equal(b[nr*ldb:], orig[nr*ldb:]) {
		t.Fatal("PackB changed the tail rows")
	}
}

// TestMulNTConcurrent: concurrent products on one PackedB equal the serial ones.
func TestMulNTConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	g := newGemmCase(rng, 20, 50, 40)
	pb := PackB(g.n, g.k, slices.Clone(g.b), g.ldb)
	want := make([]float32, g.m*g.ldc)
	pb.MulNT(g.m, g.a, g.lda, want, g.ldc)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			c := make([]float32, g.m*g.ldc)
			for range 20 {
				pb.MulNT(g.m, g.a, g.lda, c, g.ldc)
				if !slices.Equal(c, want) {
					errs <- "concurrent MulNT differs from the serial product"
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestMulNTBadShapePanics: a short C panics with a message naming the shapes.
func TestMulNTBadShapePanics(t *testing.T) {
	pb := PackB(4, 3, make([]float32, 12), 3)
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "linalg: MulNT(m=2, k=3, n=4") {
			t.Fatalf("panic %v, want the MulNT shape message", r)
		}
	}()
	pb.MulNT(2, make([]float32, 6), 3, make([]float32, 5), 4)
}

// TestPackedBTail checks that MulNT with Tail(j0) gives the columns j0.. of A·Bᵀ on every
// path (n = 45: two full 16-row panels and a partial one; j0 = 0, 16, 32, 45 is refused
// unless a multiple of 16, and n itself gives an empty product).
func TestPackedBTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	g := newGemmCase(rng, 7, 45, 19)
	for _, p := range paths() {
		pb := packB(g.n, g.k, slices.Clone(g.b), g.ldb, p.packed, p.kern)
		for _, j0 := range []int{0, 16, 32} {
			tl := pb.Tail(j0)
			if n, k := tl.Dims(); n != g.n-j0 || k != g.k {
				t.Fatalf("%s Tail(%d).Dims() = %d, %d, want %d, %d", p.name, j0, n, k, g.n-j0, g.k)
			}
			w := g.n - j0
			c := make([]float32, g.m*w)
			tl.MulNT(g.m, g.a, g.lda, c, w)
			for i := range g.m {
				for j := range w {
					want, tol := g.ref[i*g.n+j0+j], 1e-5*g.scale[i*g.n+j0+j]
					if math.Abs(float64(c[i*w+j])-want) > tol {
						t.Fatalf("%s Tail(%d): C[%d][%d] = %g, want %g ± %g", p.name, j0, i, j, c[i*w+j], want, tol)
					}
				}
			}
		}
		// Negative, not a multiple of 16, or past n: refused.
		for _, j0 := range []int{-16, 8, 45, 48} {
			func() {
				defer func() {
					if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "Tail") {
						t.Errorf("%s Tail(%d): panic %v, want a Tail panic", p.name, j0, r)
					}
				}()
				pb.Tail(j0)
			}()
		}
	}
	// j0 = n (a multiple of 16) is an empty operand.
	pb := packB(32, 3, make([]float32, 96), 3, true, kernelGo)
	tl := pb.Tail(32)
	if n, _ := tl.Dims(); n != 0 {
		t.Fatalf("Tail(32) of 32 rows has %d rows", n)
	}
	c := []float32{7, 7}
	tl.MulNT(2, make([]float32, 6), 3, c, 1)
	if c[0] != 7 || c[1] != 7 {
		t.Fatalf("an empty Tail wrote C: %v", c)
	}
}

// TestPackedBSliceRowSwap checks, on every path, that Row returns B's rows, that SwapRows
// exchanges two rows (one in a full panel, one in the partial tail: n = 45) so that Row
// and MulNT then see the swapped B exactly, and that MulNT with Slice(j0, j1) gives the
// columns j0..j1-1 of the full product bit for bit (the same sums: a slice shares the
// panels); bad slices panic.
func TestPackedBSliceRowSwap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	g := newGemmCase(rng, 3, 45, 19)
	for _, p := range paths() {
		pb := packB(g.n, g.k, slices.Clone(g.b), g.ldb, p.packed, p.kern)
		row := make([]float32, g.k)
		for j := range g.n {
			pb.Row(row, j)
			if !slices.Equal(row, g.b[j*g.ldb:j*g.ldb+g.k]) {
				t.Fatalf("%s Row(%d) = %v, want B's row", p.name, j, row)
			}
		}
		swapped := slices.Clone(g.b)
		for _, s := range [][2]int{{3, 40}, {17, 5}, {44, 41}, {9, 9}} {
			i, j := s[0], s[1]
			pb.SwapRows(i, j)
			for q := range g.k {
				swapped[i*g.ldb+q], swapped[j*g.ldb+q] = swapped[j*g.ldb+q], swapped[i*g.ldb+q]
			}
		}
		for j := range g.n {
			pb.Row(row, j)
			if !slices.Equal(row, swapped[j*g.ldb:j*g.ldb+g.k]) {
				t.Fatalf("%s after SwapRows, Row(%d) differs from the swapped B", p.name, j)
			}
		}
		ref := packB(g.n, g.k, slices.Clone(swapped), g.ldb, p.packed, p.kern)
		full := make([]float32, g.m*g.n)
		ref.MulNT(g.m, g.a, g.lda, full, g.n)
		got := make([]float32, g.m*g.n)
		pb.MulNT(g.m, g.a, g.lda, got, g.n)
		if !slices.Equal(got, full) {
			t.Fatalf("%s MulNT after SwapRows differs from the product with the swapped B", p.name)
		}
		for _, r := range [][2]int{{0, 16}, {16, 32}, {16, 45}, {32, 45}, {0, 45}, {32, 32}} {
			s := pb.Slice(r[0], r[1])
			w := r[1] - r[0]
			c := make([]float32, g.m*max(w, 1))
			s.MulNT(g.m, g.a, g.lda, c, max(w, 1))
			for i := range g.m {
				for j := range w {
					if c[i*max(w, 1)+j] != full[i*g.n+r[0]+j] {
						t.Fatalf("%s Slice(%d, %d): C[%d][%d] = %g, want %g", p.name, r[0], r[1], i, j, c[i*w+j], full[i*g.n+r[0]+j])
					}
				}
			}
		}
		for _, r := range [][2]int{{8, 16}, {0, 40}, {32, 16}, {0, 48}} {
			func() {
				defer func() {
					if rec := recover(); rec == nil || !strings.Contains(fmt.Sprint(rec), "Slice") && !strings.Contains(fmt.Sprint(rec), "Tail") {
						t.Errorf("%s Slice(%d, %d): panic %v, want a Slice or Tail panic", p.name, r[0], r[1], rec)
					}
				}()
				pb.Slice(r[0], r[1])
			}()
		}
	}
}

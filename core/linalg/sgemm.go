package linalg

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// Register block of the packed GEMM: a micro-kernel call updates an mr×nr tile of C.
const (
	mr = 6
	nr = 16
)

// sgemmKC is the target depth of a k block: a micro-kernel call reads kc·nr floats of
// packed B (16 KiB at 256, kept in L1) and kc·mr of packed A. k is split into equal
// blocks of at most sgemmKC. A variable so tests can force several blocks.
var sgemmKC = 256

// kernelFunc is the micro-kernel contract: for i < mr, j < nr
//
//	C[i·ldc+j] (+)= Σ_{p<kc} a[p·mr+i]·b[p·nr+j]
//
// overwriting C when acc is false, adding to it when acc is true. kc >= 1, ldc >= nr.
type kernelFunc func(kc int, a, b, c []float32, ldc int, acc bool)

// kernelGo is the Go twin of the AVX2 micro-kernel (sgemm_amd64.s): the same sums in
// the same order, one k index at a time.
func kernelGo(kc int, a, b, c []float32, ldc int, acc bool) { kernelGoSets(kc, a, b, c, ldc, acc, 1) }

// kernelGoSplit is the Go twin of the AVX-512 micro-kernel: kernelGo's sums with the even
// and the odd k indices accumulated apart, then added (even + odd).
func kernelGoSplit(kc int, a, b, c []float32, ldc int, acc bool) {
	kernelGoSets(kc, a, b, c, ldc, acc, 2)
}

// kernelGoSets is the micro-kernel contract in Go with the k indices accumulated in sets
// (1 or 2) interleaved sums, p mod sets, added in order at the end and then to C when acc.
func kernelGoSets(kc int, a, b, c []float32, ldc int, acc bool, sets int) {
	var t [2][mr][nr]float32
	a = a[:kc*mr]
	b = b[:kc*nr]
	for p := range kc {
		ap := a[p*mr : p*mr+mr : p*mr+mr]
		bp := b[p*nr : p*nr+nr : p*nr+nr]
		tp := &t[p%sets]
		for i, av := range ap {
			ti := &tp[i]
			for j, bv := range bp {
				ti[j] += av * bv
			}
		}
	}
	for i := range mr {
		row := c[i*ldc : i*ldc+nr : i*ldc+nr]
		for j := range row {
			v := t[0][i][j]
			if sets == 2 {
				v += t[1][i][j]
			}
			if acc {
				v += row[j]
			}
			row[j] = v
		}
	}
}

// PackedB is the right-hand operand B (n×k, row-major) of the products C = A·Bᵀ, prepared
// once by [PackB] and then multiplied by any number of left-hand operands, concurrently.
type PackedB struct {
	n, k, ldb int
	b         []float32  // B's storage; rows 16g..16g+15 rearranged to [p][j] when kern != nil
	kern      kernelFunc // nil: B is untouched and MulNT calls blas32.Gemm
}

// PackB prepares the n×k row-major matrix B (B[j][p] = b[j·ldb+p], ldb >= k) for
// [PackedB.MulNT]. Where the packed AVX2+FMA GEMM runs (amd64 with AVX2 and FMA, not the
// openblas or purego builds), it rearranges b IN PLACE: each full group of 16 rows
// becomes k×16 column-interleaved panels (b[16g·ldb + p·16 + j] = B[16g+j][p]); the last
// n mod 16 rows stay as they are. Elsewhere b is left untouched. Either way b belongs to
// the returned PackedB until the caller is done with it: read or write it only through
// MulNT. It panics (programming error) if n < 0, k < 0, ldb < max(1, k) or b is shorter
// than (n-1)·ldb + k.
func PackB(n, k int, b []float32, ldb int) PackedB {
	return packB(n, k, b, ldb, useAsmSgemm, kernelAsm)
}

// RowMajorB wraps the n×k row-major matrix B (stride ldb >= k) as a PackedB without
// packing it, in every build: b stays row-major (Row reads a row, SwapRows swaps two in
// place), and MulNT calls blas32.Gemm. For products one row of A at a time, which would
// fill one row of the packed path's 6-row tile, multiply b's rows directly (dotf32.Rows).
func RowMajorB(n, k int, b []float32, ldb int) PackedB {
	return packB(n, k, b, ldb, false, nil)
}

// packB is PackB with the path chosen by the caller (tests pack for kernelGo).
func packB(n, k int, b []float32, ldb int, packed bool, kern kernelFunc) PackedB {
	if n < 0 || k < 0 || ldb < max(1, k) || (n > 0 && k > 0 && len(b) < (n-1)*ldb+k) {
		panic(fmt.Sprintf("linalg: PackB(n=%d, k=%d, len(b)=%d, ldb=%d): need n, k >= 0, ldb >= max(1, k), len(b) >= (n-1)·ldb+k", n, k, len(b), ldb))
	}
	pb := PackedB{n: n, k: k, ldb: ldb, b: b}
	if !packed || k == 0 {
		return pb
	}
	pb.kern = kern
	scratch := make([]float32, nr*k)
	for g := range n / nr {
		grp := b[g*nr*ldb:]
		for j := range nr {
			copy(scratch[j*k:(j+1)*k], grp[j*ldb:j*ldb+k])
		}
		packPanel(grp[:k*nr], scratch, k, k, nr)
	}
	return pb
}

// packPanel writes dst[p·16+j] = src[j·ld+p] for p < k, j < rows (rows <= 16) and zeros
// for rows <= j < 16.
func packPanel(dst, src []float32, k, ld, rows int) {
	for p := range k {
		d := dst[p*nr : p*nr+nr : p*nr+nr]
		for j := range rows {
			d[j] = src[j*ld+p]
		}
		for j := rows; j < nr; j++ {
			d[j] = 0
		}
	}
}

// Tail returns the operand of rows j0..n-1 of B (n-j0 rows, k columns), sharing B's
// storage, so that MulNT with it computes the columns j0..n-1 of A·Bᵀ (for example the
// upper triangle of a Gram matrix by row blocks). j0 must be a multiple of 16 in
// [0, n]: it panics (programming error) otherwise.
func (pb *PackedB) Tail(j0 int) PackedB {
	if j0 < 0 || j0 > pb.n || j0%nr != 0 {
		panic(fmt.Sprintf("linalg: Tail(%d) of a %d-row operand: need a multiple of %d in [0, %d]", j0, pb.n, nr, pb.n))
	}
	t := *pb
	t.n = pb.n - j0
	if t.n > 0 && pb.k > 0 {
		t.b = pb.b[j0*pb.ldb:]
	}
	return t
}

// Dims returns B's shape n×k.
func (pb *PackedB) Dims() (n, k int) { return pb.n, pb.k }

// sgemmWork is one MulNT call's scratch: packed A, the tiles of the last column group
// (ct) and of the rows past the last full panel (ce), and the packed tail rows of B.
type sgemmWork struct{ a, ct, ce, bt []float32 }

var sgemmPool = sync.Pool{New: func() any { return new(sgemmWork) }}

// grow returns s resliced or reallocated to length n.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// MulNT computes
//
//	C = A·Bᵀ,   C[i][j] = Σ_{p<k} A[i][p]·B[j][p],   i < m, j < n,
//
// with A m×k row-major (A[i][p] = a[i·lda+p], lda >= k), B the packed n×k operand and
// C m×n row-major (C[i][j] = c[i·ldc+j], ldc >= n), overwriting C (k = 0 gives zeros).
// Accumulation is in float32. C must not overlap A or B. It runs on the calling goroutine
// only; any number of MulNT calls on the same PackedB may run concurrently. Where
// [PackB] packed B it uses the AVX2+FMA micro-kernel (6×16 register tile over packed
// panels of A and B, k in blocks of about 256); elsewhere it calls blas32.Gemm (gonum,
// or OpenBLAS in the openblas build). It panics (programming error) on a bad shape,
// stride or a slice too short.
func (pb *PackedB) MulNT(m int, a []float32, lda int, c []float32, ldc int) {
	n, k := pb.n, pb.k
	if m < 0 || lda < max(1, k) || ldc < max(1, n) || (m > 0 && ((k > 0 && len(a) < (m-1)*lda+k) || len(c) < (m-1)*ldc+n)) {
		panic(fmt.Sprintf("linalg: MulNT(m=%d, k=%d, n=%d, len(a)=%d, lda=%d, len(c)=%d, ldc=%d): bad shape or stride", m, k, n, len(a), lda, len(c), ldc))
	}
	if m == 0 || n == 0 {
		return
	}
	if k == 0 {
		for i := range m {
			clear(c[i*ldc : i*ldc+n])
		}
		return
	}
	if pb.kern == nil {
		blas32.Gemm(blas.NoTrans, blas.Trans, 1,
			blas32.General{Rows: m, Cols: k, Stride: lda, Data: a},
			blas32.General{Rows: n, Cols: k, Stride: pb.ldb, Data: pb.b},
			0, blas32.General{Rows: m, Cols: n, Stride: ldc, Data: c})
		return
	}
	ws := sgemmPool.Get().(*sgemmWork)
	defer sgemmPool.Put(ws)
	mp := (m + mr - 1) / mr // panels of A
	ws.a = grow(ws.a, mp*mr*k)
	ws.ct = grow(ws.ct, mp*mr*nr)
	ap := ws.a
	for q := range mp { // panel q: ap[q·mr·k + p·mr + i] = A[q·mr+i][p], zero rows past m
		pan := ap[q*mr*k : (q+1)*mr*k]
		for i := range mr {
			r := q*mr + i
			if r >= m {
				for p := range k {
					pan[p*mr+i] = 0
				}
				continue
			}
			for p, v := range a[r*lda : r*lda+k] {
				pan[p*mr+i] = v
			}
		}
	}
	nkb := (k + sgemmKC - 1) / sgemmKC
	kc := (k + nkb - 1) / nkb
	ng := (n + nr - 1) / nr
	full := n / nr
	fullRows := m / mr * mr
	kern := pb.kern
	// The last column group, when n is not a multiple of nr, is packed into bt and its
	// tiles go to ct (mp·mr × nr); the rows past the last full panel of the full groups go
	// to ce (mr × full·nr). Both are copied into C at the end.
	if full < ng {
		ws.bt = grow(ws.bt, k*nr)
		packPanel(ws.bt, pb.b[full*nr*pb.ldb:], k, pb.ldb, n-full*nr)
		ws.ct = grow(ws.ct, mp*mr*nr)
	}
	if fullRows < m && full > 0 {
		ws.ce = grow(ws.ce, mr*full*nr)
	}
	// Column groups are taken ncg at a time, and within a chunk k block by k block. When
	// packed A fits in L2 (ncg = 1) a group runs all its k blocks before the next: C is
	// written once. When it does not (the locality kernels' maps: k in the tens of
	// thousands), a chunk's C tiles (at most sgemmChunkBytes) stay in cache across the k
	// blocks while A's k slice is read once per chunk instead of once per group. Every C
	// entry sums its k blocks in the same order either way.
	ncg := 1
	if mp*mr*k*4 > sgemmAFits {
		ncg = max(1, sgemmChunkBytes/(mp*mr*nr*4))
	}
	for gc := 0; gc < ng; gc += ncg {
		for p0 := 0; p0 < k; p0 += kc {
			kk := min(kc, k-p0)
			acc := p0 > 0
			for g := gc; g < min(gc+ncg, ng); g++ {
				j0 := g * nr
				bg := ws.bt
				if g < full {
					bg = pb.b[g*nr*pb.ldb : g*nr*pb.ldb+k*nr]
				}
				for q := range mp {
					i0 := q * mr
					ak := ap[q*mr*k+p0*mr:]
					switch {
					case g == full:
						kern(kk, ak, bg[p0*nr:], ws.ct[i0*nr:], nr, acc)
					case i0+mr <= m:
						kern(kk, ak, bg[p0*nr:], c[i0*ldc+j0:], ldc, acc)
					default:
						kern(kk, ak, bg[p0*nr:], ws.ce[j0:], full*nr, acc)
					}
				}
			}
		}
	}
	if full < ng {
		j0, cols := full*nr, n-full*nr
		for i := range m {
			copy(c[i*ldc+j0:i*ldc+j0+cols], ws.ct[i*nr:i*nr+cols])
		}
	}
	if fullRows < m && full > 0 {
		w := full * nr
		for i := fullRows; i < m; i++ {
			copy(c[i*ldc:i*ldc+w], ws.ce[(i-fullRows)*w:(i-fullRows+1)*w])
		}
	}
}

// sgemmAFits is the size of packed A (bytes) up to which MulNT runs each column group
// through all k blocks (A stays in L2 between groups), and sgemmChunkBytes the size of
// the C tiles kept in cache across k blocks when A is larger.
const (
	sgemmAFits      = 1 << 20
	sgemmChunkBytes = 256 << 10
)

// SgemmNT computes C = A·Bᵀ (C[i][j] = Σ_{p<k} A[i][p]·B[j][p]) for row-major A m×k
// (stride lda >= k), B n×k (stride ldb >= k) and C m×n (stride ldc >= n), overwriting C,
// in float32, on the calling goroutine. Unlike [PackB] it leaves b untouched: where the
// AVX2+FMA path runs it packs a copy of B first. For repeated products with the same B,
// [PackB] once and [PackedB.MulNT] avoid the copy. C must not overlap A or B. It panics
// (programming error) on a bad shape, stride or a slice too short.
func SgemmNT(m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if useAsmSgemm && n > 0 && k > 0 && ldb >= k && len(b) >= (n-1)*ldb+k {
		cp := make([]float32, n*k)
		for j := range n {
			copy(cp[j*k:(j+1)*k], b[j*ldb:j*ldb+k])
		}
		b, ldb = cp, k
	}
	pb := PackB(n, k, b, ldb)
	pb.MulNT(m, a, lda, c, ldc)
}

// SgemmPacked reports whether [PackB] packs B for the Go-assembly micro-kernel (amd64
// with AVX2 and FMA, not -tags purego or openblas); otherwise it leaves B as it is
// (row-major, its rows swapped in place by SwapRows) and MulNT calls blas32.Gemm.
func SgemmPacked() bool { return useAsmSgemm }

// SgemmImpl names the implementation behind [PackB] and [PackedB.MulNT] in this build and
// on this CPU: "avx512" or "avx2" (the packed Go-assembly GEMM with its AVX-512 or its
// AVX2+FMA micro-kernel, on amd64 CPUs with AVX2 and FMA, unless built with -tags purego
// or -tags openblas) or "blas32 (" + [BLAS]() + ")".
func SgemmImpl() string {
	if useAVX512 {
		return "avx512"
	}
	if useAsmSgemm {
		return "avx2"
	}
	return "blas32 (" + BLAS() + ")"
}

// Slice returns the operand of rows j0..j1-1 of B (j1-j0 rows, k columns), sharing B's
// storage, so that MulNT with it computes the columns j0..j1-1 of A·Bᵀ. j0 must be a
// multiple of 16 in [0, n], and j1 a multiple of 16 or n, with j0 <= j1 <= n (the packed
// panels are whole groups of 16 rows): it panics (programming error) otherwise.
func (pb *PackedB) Slice(j0, j1 int) PackedB {
	if j1 < j0 || j1 > pb.n || (j1%nr != 0 && j1 != pb.n) {
		panic(fmt.Sprintf("linalg: Slice(%d, %d) of a %d-row operand: need j0 <= j1 <= %d, j1 a multiple of %d or %d", j0, j1, pb.n, pb.n, nr, pb.n))
	}
	t := pb.Tail(j0)
	t.n = j1 - j0
	return t
}

// at returns the position in pb.b of B[j][p], packed or not.
func (pb *PackedB) at(j, p int) int {
	if pb.kern != nil && j < pb.n/nr*nr {
		return (j/nr)*nr*pb.ldb + p*nr + j%nr
	}
	return j*pb.ldb + p
}

// Row copies row j of B (k values) into dst, which must have length k. It panics
// (programming error) if j is outside [0, n) or dst has the wrong length.
func (pb *PackedB) Row(dst []float32, j int) {
	if j < 0 || j >= pb.n || len(dst) != pb.k {
		panic(fmt.Sprintf("linalg: Row(%d) of a %d×%d operand into %d values", j, pb.n, pb.k, len(dst)))
	}
	if pb.kern == nil || j >= pb.n/nr*nr {
		copy(dst, pb.b[j*pb.ldb:j*pb.ldb+pb.k])
		return
	}
	base := (j/nr)*nr*pb.ldb + j%nr
	for p := range dst {
		dst[p] = pb.b[base+p*nr]
	}
}

// SwapRows exchanges rows i and j of B in place (in its packed layout, if packed), so
// that later products see B with the two rows exchanged. It panics (programming error)
// if i or j is outside [0, n). Work: k swaps.
func (pb *PackedB) SwapRows(i, j int) {
	if i < 0 || i >= pb.n || j < 0 || j >= pb.n {
		panic(fmt.Sprintf("linalg: SwapRows(%d, %d) of a %d-row operand", i, j, pb.n))
	}
	if i == j {
		return
	}
	b := pb.b
	for p := range pb.k {
		a, c := pb.at(i, p), pb.at(j, p)
		b[a], b[c] = b[c], b[a]
	}
}

package linalg

import (
	"context"
	"math"
	"runtime"
	"sync"
)

// dkern is a float64 micro-kernel with its register tile and cache blocking: a call
// updates an mr×nr tile of C from a k block of depth at most kc; packed B is taken nc
// columns at a time (kc·nc floats, meant for L2) and packed A mc rows at a time.
//
// The micro-kernel contract (fn): for i < mr, j < nr
//
//	T[i][j] = Σ_{p<kc} a[p·mr+i]·b[p·nr+j]     (p increasing, one fused multiply-add each)
//	C[i·ldc+j] = T[i][j]            acc false
//	C[i·ldc+j] = T[i][j] + C[i·ldc+j]  acc true
//
// with kc >= 1 and ldc >= nr. The assembly kernels and their Go twin dkernelGo compute
// it bit for bit alike.
type dkern struct {
	name       string
	mr, nr     int
	kc, nc, mc int
	fn         func(kc int, a, b, c []float64, ldc int, acc bool)
}

// Go twins of the assembly micro-kernels (same tile, same sums): the packed driver runs
// on them in the tests of every build.
var (
	dkernGo8x24 = &dkern{name: "go 8×24", mr: 8, nr: 24, kc: 320, nc: 576, mc: 960,
		fn: func(kc int, a, b, c []float64, ldc int, acc bool) { dkernelGo(8, 24, kc, a, b, c, ldc, acc) }}
	dkernGo6x8 = &dkern{name: "go 6×8", mr: 6, nr: 8, kc: 320, nc: 576, mc: 960,
		fn: func(kc int, a, b, c []float64, ldc int, acc bool) { dkernelGo(6, 8, kc, a, b, c, ldc, acc) }}
)

// dkernelGo is the micro-kernel contract in Go for an mr×nr tile (mr·nr <= 192): the
// products added in increasing p with math.FMA, as the assembly's VFMADD231PD does, so
// that its result equals the assembly's bit for bit.
func dkernelGo(mr, nr, kc int, a, b, c []float64, ldc int, acc bool) {
	var t [192]float64
	a = a[:kc*mr]
	b = b[:kc*nr]
	for p := range kc {
		ap := a[p*mr : p*mr+mr]
		bp := b[p*nr : p*nr+nr]
		for i, av := range ap {
			ti := t[i*nr : i*nr+nr]
			for j, bv := range bp {
				ti[j] = math.FMA(av, bv, ti[j])
			}
		}
	}
	for i := range mr {
		row := c[i*ldc : i*ldc+nr]
		for j := range row {
			v := t[i*nr+j]
			if acc {
				v += row[j]
			}
			row[j] = v
		}
	}
}

// dgemmWork is one serial product's scratch: packed A and B and an edge tile.
type dgemmWork struct {
	a, b []float64
	ct   [192]float64
}

var dgemmPool = sync.Pool{New: func() any { return new(dgemmWork) }}

// grow64 returns s resliced or reallocated to length n.
func grow64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// dgemmMinWork is the least number of flops (2·m·n·k) worth a goroutine of its own.
const dgemmMinWork = 1 << 22

// dgemmPacked computes C = alpha·op(A)·op(B) + beta·C (op(A) m×k, op(B) k×n, all
// row-major; op(A)[i][p] = a[i·lda+p], or a[p·lda+i] when aT; op(B)[p][j] = b[p·ldb+j],
// or b[j·ldb+p] when bT) on the packed micro-kernel kn, the columns (or, when C has more
// row tiles than column tiles, the rows) of C split over up to GOMAXPROCS goroutines with
// ParallelFor. The caller has checked the arguments; m, n, k >= 1. With beta == 0 C is
// only written, never read.
func dgemmPacked(kn *dkern, aT, bT bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	flops := 2 * float64(m) * float64(n) * float64(k)
	w := min(runtime.GOMAXPROCS(0), int(flops/dgemmMinWork))
	rowTiles, colTiles := (m+kn.mr-1)/kn.mr, (n+kn.nr-1)/kn.nr
	if w <= 1 || max(rowTiles, colTiles) < 2 {
		dgemmSerial(kn, aT, bT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if colTiles >= rowTiles {
		chunk := (colTiles + w - 1) / w * kn.nr
		ParallelFor(context.Background(), n, chunk, func(lo, hi int) error {
			off := lo
			if bT {
				off = lo * ldb
			}
			dgemmSerial(kn, aT, bT, m, hi-lo, k, alpha, a, lda, b[off:], ldb, beta, c[lo:], ldc)
			return nil
		})
		return
	}
	chunk := (rowTiles + w - 1) / w * kn.mr
	ParallelFor(context.Background(), m, chunk, func(lo, hi int) error {
		off := lo * lda
		if aT {
			off = lo
		}
		dgemmSerial(kn, aT, bT, hi-lo, n, k, alpha, a[off:], lda, b, ldb, beta, c[lo*ldc:], ldc)
		return nil
	})
}

// dgemmSerial is dgemmPacked on the calling goroutine: the GotoBLAS loops. For each
// block of nc columns and each k block (k split into equal blocks of at most kc), op(B)'s
// block is packed into nr-wide panels (zero-padded), then for each block of mc rows
// op(A)'s block is packed, scaled by alpha, into mr-high panels, and the micro-kernel
// runs over every panel of A (outer, its kc·mr floats staying in L1) and every panel of
// B (inner, the kc·nc block streamed from L2), so that consecutive calls update
// neighbouring tiles of the same mr rows of C. Edge tiles go through a scratch tile. beta is applied
// before the first k block: C = 0·C is never formed; the first block overwrites instead.
func dgemmSerial(kn *dkern, aT, bT bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	mr, nr := kn.mr, kn.nr
	if beta != 0 && beta != 1 {
		for i := range m {
			row := c[i*ldc : i*ldc+n]
			for j := range row {
				row[j] *= beta
			}
		}
	}
	ws := dgemmPool.Get().(*dgemmWork)
	defer dgemmPool.Put(ws)
	nkb := (k + kn.kc - 1) / kn.kc
	kc := (k + nkb - 1) / nkb
	for jc := 0; jc < n; jc += kn.nc {
		ncur := min(kn.nc, n-jc)
		ngr := (ncur + nr - 1) / nr
		for pc := 0; pc < k; pc += kc {
			kcur := min(kc, k-pc)
			overwrite := pc == 0 && beta == 0
			ws.b = grow64(ws.b, ngr*nr*kcur)
			packB64(ws.b, bT, b, ldb, pc, jc, kcur, ncur, nr)
			for ic := 0; ic < m; ic += kn.mc {
				mcur := min(kn.mc, m-ic)
				npan := (mcur + mr - 1) / mr
				ws.a = grow64(ws.a, npan*mr*kcur)
				packA64(ws.a, aT, a, lda, ic, pc, mcur, kcur, mr, alpha)
				for q := range npan {
					i0 := ic + q*mr
					rows := min(mr, m-i0)
					ap := ws.a[q*mr*kcur : (q+1)*mr*kcur]
					for g := range ngr {
						j0 := jc + g*nr
						cols := min(nr, n-j0)
						bp := ws.b[g*nr*kcur : (g+1)*nr*kcur]
						if rows == mr && cols == nr {
							kn.fn(kcur, ap, bp, c[i0*ldc+j0:], ldc, !overwrite)
							continue
						}
						ct := ws.ct[:mr*nr]
						kn.fn(kcur, ap, bp, ct, nr, false)
						for i := range rows {
							dst := c[(i0+i)*ldc+j0 : (i0+i)*ldc+j0+cols]
							src := ct[i*nr : i*nr+cols]
							if overwrite {
								copy(dst, src)
								continue
							}
							for j, v := range src {
								dst[j] = v + dst[j]
							}
						}
					}
				}
			}
		}
	}
}

// packA64 writes the rows i0..i0+rows-1 and columns p0..p0+kc-1 of op(A), times alpha,
// into mr-high panels: dst[q·mr·kc + p·mr + i] = alpha·op(A)[i0+q·mr+i][p0+p], with
// zeros past the last row.
func packA64(dst []float64, aT bool, a []float64, lda, i0, p0, rows, kc, mr int, alpha float64) {
	q0 := 0
	if aT && mr == 8 {
		// Aᵀ's full panels row by row of A: each row's stretch of the block read in
		// order across all panels.
		full := rows / 8
		for p := range kc {
			src := a[(p0+p)*lda+i0 : (p0+p)*lda+i0+full*8]
			for q := range full {
				s := src[q*8 : q*8+8 : q*8+8]
				d := dst[q*8*kc+p*8 : q*8*kc+p*8+8 : q*8*kc+p*8+8]
				d[0] = alpha * s[0]
				d[1] = alpha * s[1]
				d[2] = alpha * s[2]
				d[3] = alpha * s[3]
				d[4] = alpha * s[4]
				d[5] = alpha * s[5]
				d[6] = alpha * s[6]
				d[7] = alpha * s[7]
			}
		}
		q0 = full
	}
	for q := q0; q*mr < rows; q++ {
		pan := dst[q*mr*kc : (q+1)*mr*kc]
		r0 := i0 + q*mr
		nr := min(mr, rows-q*mr)
		if !aT {
			if nr == 8 && mr == 8 {
				packRows8(pan, a[r0*lda+p0:], lda, kc, alpha)
				continue
			}
			for i := range nr {
				for p, v := range a[(r0+i)*lda+p0 : (r0+i)*lda+p0+kc] {
					pan[p*mr+i] = alpha * v
				}
			}
			for i := nr; i < mr; i++ {
				for p := range kc {
					pan[p*mr+i] = 0
				}
			}
			continue
		}
		for p := range kc {
			d := pan[p*mr : p*mr+mr]
			off := (p0+p)*lda + r0
			for i, v := range a[off : off+nr] {
				d[i] = alpha * v
			}
			clear(d[nr:])
		}
	}
}

// packRows8 writes dst[p·8+i] = alpha·a[i·lda+p] for i < 8, p < kc: eight rows of A
// read side by side, the panel written in order.
func packRows8(dst, a []float64, lda, kc int, alpha float64) {
	r0 := a[0*lda : 0*lda+kc]
	r1 := a[1*lda : 1*lda+kc]
	r2 := a[2*lda : 2*lda+kc]
	r3 := a[3*lda : 3*lda+kc]
	r4 := a[4*lda : 4*lda+kc]
	r5 := a[5*lda : 5*lda+kc]
	r6 := a[6*lda : 6*lda+kc]
	r7 := a[7*lda : 7*lda+kc]
	dst = dst[:8*kc]
	for p := range r0 {
		d := dst[p*8 : p*8+8 : p*8+8]
		d[0] = alpha * r0[p]
		d[1] = alpha * r1[p]
		d[2] = alpha * r2[p]
		d[3] = alpha * r3[p]
		d[4] = alpha * r4[p]
		d[5] = alpha * r5[p]
		d[6] = alpha * r6[p]
		d[7] = alpha * r7[p]
	}
}

// packB64 writes the rows p0..p0+kc-1 and columns j0..j0+cols-1 of op(B) into nr-wide
// panels: dst[g·nr·kc + p·nr + j] = op(B)[p0+p][j0+g·nr+j], with zeros past the last
// column.
func packB64(dst []float64, bT bool, b []float64, ldb, p0, j0, kc, cols, nr int) {
	if !bT {
		// Row by row of B, each read in order across all panels (its cols entries
		// contiguous), rather than panel by panel with a jump of ldb per row.
		ng := (cols + nr - 1) / nr
		for p := range kc {
			src := b[(p0+p)*ldb+j0 : (p0+p)*ldb+j0+cols]
			g := 0
			if nr == 24 {
				for ; (g+1)*24 <= cols; g++ { // full panels: one 192-byte array copy each
					*(*[24]float64)(dst[g*24*kc+p*24:]) = [24]float64(src[g*24 : g*24+24])
				}
			}
			for ; g < ng; g++ {
				d := dst[g*nr*kc+p*nr : g*nr*kc+p*nr+nr]
				nc := copy(d, src[g*nr:])
				clear(d[nc:])
			}
		}
		return
	}
	for g := 0; g*nr < cols; g++ {
		pan := dst[g*nr*kc : (g+1)*nr*kc]
		c0 := j0 + g*nr
		nc := min(nr, cols-g*nr)
		for j := range nc {
			off := (c0+j)*ldb + p0
			for p, v := range b[off : off+kc] {
				pan[p*nr+j] = v
			}
		}
		if nc < nr {
			for p := range kc {
				clear(pan[p*nr+nc : p*nr+nr])
			}
		}
	}
}

package kernel

// The 28×28 correlation pipeline (MNIST): both inverse passes of corr2D as prime-factor
// (Good-Thomas) transforms of length 28 = 4·7, which need no twiddle factors, with the
// product of spectra fused into the first pass, the row-pair packing fused into the
// second, and the max/min reduction fused into its last step. Index maps (CRT):
//
//	input  t = (7·n1 + 4·n2) mod 28,   n1 < 4, n2 < 7
//	output k = (21·k1 + 8·k2) mod 28,  k1 < 4, k2 < 7
//	X[k] = sum_{n1} ω4^{±n1·k1} sum_{n2} ω7^{±n2·k2} x[t]
//
// (7·21 ≡ 7, 4·8 ≡ 4 and the cross terms ≡ 0 mod 28). Only the inverse direction is
// needed here.

// pfa28In and pfa28Out are the index maps above: pfa28In[n2][n1], pfa28Out[k1][k2].
var pfa28In, pfa28Out = func() (in [7][4]int, out [4][7]int) {
	for n2 := range 7 {
		for n1 := range 4 {
			in[n2][n1] = (7*n1 + 4*n2) % 28
		}
	}
	for k1 := range 4 {
		for k2 := range 7 {
			out[k1][k2] = (21*k1 + 8*k2) % 28
		}
	}
	return
}()

// pfa28Scratch is the number of complex128 values of scratch the assembly version
// ([pfa28MaxMin]) needs: the first pass's 28 rows of 16 (15 + one padding lane), which
// the second pass's 28 rows of 14 reuse, and the first pass's transposed output of 16
// rows of 28 (14 KB in all, so that it stays in L1 with the two spectra).
const pfa28Scratch = 28*16 + 16*28

// Cyclic28Impl names the implementation [CyclicGram] and [CyclicSymGram] use for the
// best fit on 28×28 images with Linear, RBF or Poly bases: "avx2" (the AVX2+FMA
// assembly, on amd64 CPUs that have both, unless built with -tags purego) or "go".
func Cyclic28Impl() string {
	if useAVX28 {
		return "avx2"
	}
	return "go"
}

// corr28 returns the kernel value pooled over the 784 cyclic correlations of two 28×28
// images given their half spectra xs, zs (28 rows × 15), using e's scratch buffers.
// For the best fit through the largest (and smallest) correlation it
// runs the AVX2+FMA version of the same transforms when the CPU has them ([useAVX28]).
func (e *corrEngine) corr28(k0 Base, pool poolKind, xs, zs []complex128, inv, xx, zz float64) float64 {
	if useAVX28 && (pool == poolMax || pool == poolMaxMin) {
		if e.s28 == nil {
			e.s28 = make([]complex128, pfa28Scratch)
		}
		mx, mn := pfa28MaxMin(xs, zs, e.s28, pool == poolMaxMin)
		return fromExtremes(k0, pool, mx, mn, inv, xx, zz)
	}
	const L = 15 // half spectrum width
	const hp = 14
	xs, zs = xs[:28*L], zs[:28*L]
	t := e.a[:28*L]
	q := e.b[:28*L]
	// Pass 1, stage A: products and 4-point inverse DFTs over n1.
	for n2 := range 7 {
		r := &pfa28In[n2]
		x0, x1, x2, x3 := xs[r[0]*L:r[0]*L+L], xs[r[1]*L:r[1]*L+L], xs[r[2]*L:r[2]*L+L], xs[r[3]*L:r[3]*L+L]
		z0, z1, z2, z3 := zs[r[0]*L:r[0]*L+L], zs[r[1]*L:r[1]*L+L], zs[r[2]*L:r[2]*L+L], zs[r[3]*L:r[3]*L+L]
		b0 := t[(0*7+n2)*L : (0*7+n2)*L+L]
		b1 := t[(1*7+n2)*L : (1*7+n2)*L+L]
		b2 := t[(2*7+n2)*L : (2*7+n2)*L+L]
		b3 := t[(3*7+n2)*L : (3*7+n2)*L+L]
		for v := range L {
			p0 := mulConj(x0[v], z0[v])
			p1 := mulConj(x1[v], z1[v])
			p2 := mulConj(x2[v], z2[v])
			p3 := mulConj(x3[v], z3[v])
			s02r, s02i := real(p0)+real(p2), imag(p0)+imag(p2)
			d02r, d02i := real(p0)-real(p2), imag(p0)-imag(p2)
			s13r, s13i := real(p1)+real(p3), imag(p1)+imag(p3)
			d13r, d13i := real(p1)-real(p3), imag(p1)-imag(p3)
			// 4-point inverse DFT: b1 = d02 + i·d13, b3 = d02 - i·d13 (idft4, inlined by hand)
			b0[v] = complex(s02r+s13r, s02i+s13i)
			b1[v] = complex(d02r-d13i, d02i+d13r)
			b2[v] = complex(s02r-s13r, s02i-s13i)
			b3[v] = complex(d02r+d13i, d02i-d13r)
		}
	}
	// Pass 1, stage B: 7-point inverse DFTs over n2, scattered to natural order.
	for k1 := range 4 {
		o := &pfa28Out[k1]
		var a [7][]complex128
		var b [7][]complex128
		for j := range 7 {
			a[j] = t[(k1*7+j)*L : (k1*7+j)*L+L]
			b[j] = q[o[j]*L : o[j]*L+L]
		}
		idft7rows(a, b)
	}
	// Pass 2, stage A: pack rows 2r, 2r+1 of q as one complex spectrum along kx (on the
	// fly) and take 4-point inverse DFTs over n1. Layout t2[(k1·7 + n2)·hp + r].
	t2 := e.c[:28*hp]
	for n2 := range 7 {
		r := &pfa28In[n2]
		b0 := t2[(0*7+n2)*hp : (0*7+n2)*hp+hp]
		b1 := t2[(1*7+n2)*hp : (1*7+n2)*hp+hp]
		b2 := t2[(2*7+n2)*hp : (2*7+n2)*hp+hp]
		b3 := t2[(3*7+n2)*hp : (3*7+n2)*hp+hp]
		for row := range hp {
			q0 := q[2*row*L : 2*row*L+L]
			q1 := q[(2*row+1)*L : (2*row+1)*L+L]
			p0 := packPair(q0, q1, r[0])
			p1 := packPair(q0, q1, r[1])
			p2 := packPair(q0, q1, r[2])
			p3 := packPair(q0, q1, r[3])
			s02r, s02i := real(p0)+real(p2), imag(p0)+imag(p2)
			d02r, d02i := real(p0)-real(p2), imag(p0)-imag(p2)
			s13r, s13i := real(p1)+real(p3), imag(p1)+imag(p3)
			d13r, d13i := real(p1)-real(p3), imag(p1)-imag(p3)
			// 4-point inverse DFT: b1 = d02 + i·d13, b3 = d02 - i·d13 (idft4, inlined by hand)
			b0[row] = complex(s02r+s13r, s02i+s13i)
			b1[row] = complex(d02r-d13i, d02i+d13r)
			b2[row] = complex(s02r-s13r, s02i-s13i)
			b3[row] = complex(d02r+d13i, d02i-d13r)
		}
	}
	// Pass 2, stage B: 7-point inverse DFTs; every real and imaginary part of the
	// outputs is one correlation (rows 2r and 2r+1). The output order does not matter.
	out := e.a[:28*hp]
	for k1 := range 4 {
		var a [7][]complex128
		var b [7][]complex128
		for j := range 7 {
			a[j] = t2[(k1*7+j)*hp : (k1*7+j)*hp+hp]
			b[j] = out[(k1*7+j)*hp : (k1*7+j)*hp+hp]
		}
		idft7rows(a, b)
	}
	if pool == poolMax || pool == poolMaxMin {
		return poolPacked(out, k0, pool, inv, xx, zz)
	}
	vals := e.vals[:784]
	for k, v := range out {
		vals[2*k], vals[2*k+1] = real(v), imag(v)
	}
	return e.pool(k0, pool, vals, inv, xx, zz)
}

// mulConj returns a·conj(b).
func mulConj(a, b complex128) complex128 {
	ar, ai, br, bi := real(a), imag(a), real(b), imag(b)
	return complex(ar*br+ai*bi, ai*br-ar*bi)
}

// packPair returns element k of the full spectrum Q0 + i·Q1 of two real rows given
// their half spectra q0, q1 (15 values; Q[k] = conj Q[28-k] above 14).
func packPair(q0, q1 []complex128, k int) complex128 {
	if k < 15 {
		a, b := q0[k], q1[k]
		return complex(real(a)-imag(b), imag(a)+real(b))
	}
	a, b := q0[28-k], q1[28-k]
	return complex(real(a)+imag(b), real(b)-imag(a))
}

// idft7rows computes b[u][v] = sum_t a[t][v]·exp(+2πi·t·u/7) for every v (all rows of
// equal length).
func idft7rows(a, b [7][]complex128) { dft7rows(a, b, -1) }

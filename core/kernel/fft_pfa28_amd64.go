//go:build !purego

package kernel

import (
	"fmt"
	"math"

	"golang.org/x/sys/cpu"
)

// useAVX28 selects the AVX2+FMA assembly version of the 28×28 correlation pipeline
// (fft_pfa28_amd64.s) for the best fit of kernels that need only the largest (and
// smallest) correlation. It is set when the CPU has AVX2 and FMA; tests turn it off to
// compare with the Go version. Build with -tags purego to leave the assembly out.
var useAVX28 = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// pfa28AsmTab holds the index maps and constants of the assembly, as byte offsets and
// 4-lane vectors (field offsets reach the assembly through go_asm.h).
type pfa28AsmTab struct {
	in1    [28]int64     // [n2·4+n1]: byte offset of spectrum row pfa28In[n2][n1] (rows of 15)
	out1   [28]int64     // [k1·7+j]: byte offset of output y = pfa28Out[k1][j] in a transposed row (even y, then odd)
	in2row [28]int64     // [n2·4+n1]: byte offset of the transposed row holding column k or 28-k
	in2mA  [28][4]uint64 // sign masks: conjugate the row-2r value (k > 14)
	in2mB  [28][4]uint64 // sign masks applied to the swapped row-(2r+1) value
	c      [3][4]float64 // cos(2πk/7), k = 1, 2, 3
	s      [3][4]float64 // (s, -s, s, -s) with s = -sin(2πk/7) (inverse transform)
	tail   [4]int64      // VMASKMOVPD mask: the first complex of a pair
	oddneg [4]uint64     // sign bits of the imaginary lanes
	inf    [2][4]float64 // -Inf, +Inf: the reductions' starting values
}

var pfa28Tab = func() (t pfa28AsmTab) {
	const neg = 1 << 63
	for n2 := range 7 {
		for n1 := range 4 {
			k := pfa28In[n2][n1]
			t.in1[n2*4+n1] = int64(k * 15 * 16)
			row := k
			if k > 14 {
				row = 28 - k
				t.in2mA[n2*4+n1] = [4]uint64{0, neg, 0, neg}
			} else {
				t.in2mB[n2*4+n1] = [4]uint64{neg, 0, neg, 0}
			}
			t.in2row[n2*4+n1] = int64(row * 28 * 16)
		}
	}
	for k1 := range 4 {
		for j := range 7 {
			ky := pfa28Out[k1][j]
			t.out1[k1*7+j] = int64((ky%2*14 + ky/2) * 16)
		}
	}
	// The Go path's radix-7 constants (dft7rows with sign -1), so both paths share them.
	for k, c := range []float64{c7_1, c7_2, c7_3} {
		t.c[k] = [4]float64{c, c, c, c}
	}
	for k, s := range []float64{-s7_1, -s7_2, -s7_3} {
		t.s[k] = [4]float64{s, -s, s, -s}
	}
	t.tail = [4]int64{-1, -1, 0, 0}
	t.oddneg = [4]uint64{0, neg, 0, neg}
	inf := math.Inf(1)
	t.inf = [2][4]float64{{-inf, -inf, -inf, -inf}, {inf, inf, inf, inf}}
	return t
}()

// Stages of the assembly pipeline (see corr28 for the Go version of each).
//
//go:noescape
func pfa28Pass1A(xs, zs, t *complex128, tab *pfa28AsmTab)

//go:noescape
func pfa28Pass1B(t, qt *complex128, tab *pfa28AsmTab)

//go:noescape
func pfa28Pass2A(qt, t2 *complex128, tab *pfa28AsmTab)

//go:noescape
func pfa28Pass2BMax(t2 *complex128, tab *pfa28AsmTab) (mx float64)

//go:noescape
func pfa28Pass2BMaxMin(t2 *complex128, tab *pfa28AsmTab) (mx, mn float64)

// pfa28MaxMin returns the largest and, with wantMin, the smallest of the 784
// unnormalised circular cross-correlations of two 28×28 images given their half spectra
// xs, zs (28 rows × 15, as [Spectra] stores them), using scratch (at least
// [pfa28Scratch] values). Without wantMin, mn is 0. It panics if a slice is too short.
func pfa28MaxMin(xs, zs, scratch []complex128, wantMin bool) (mx, mn float64) {
	if len(xs) < 28*15 || len(zs) < 28*15 || len(scratch) < pfa28Scratch {
		panic(fmt.Sprintf("kernel: pfa28MaxMin: spectra of %d and %d values, scratch %d", len(xs), len(zs), len(scratch)))
	}
	t1, qt, t2 := &scratch[0], &scratch[28*16], &scratch[0] // t1 is dead once qt is written
	pfa28Pass1A(&xs[0], &zs[0], t1, &pfa28Tab)
	pfa28Pass1B(t1, qt, &pfa28Tab)
	pfa28Pass2A(qt, t2, &pfa28Tab)
	if wantMin {
		return pfa28Pass2BMaxMin(t2, &pfa28Tab)
	}
	return pfa28Pass2BMax(t2, &pfa28Tab), 0
}

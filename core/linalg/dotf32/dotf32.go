// Package dotf32 holds float32 dot products of one vector with the rows of a matrix in
// a fixed order of summation, with an AVX2+FMA kernel on amd64: a row's value depends on
// the two vectors only, never on which rows are computed with it or where they sit.
// It is kept apart from core/linalg because that package uses cgo in the openblas build,
// and a cgo package cannot hold Go assembly.
package dotf32

import "fmt"

// Rows sets dst[t] = Σ_p x[p]·B[t][p], summed in float32, for the len(dst) rows of B
// stored row-major with d values each (B[t] = b[t·d : (t+1)·d]). Each row is summed in
// the same order whatever its position: on amd64 with AVX2 and FMA (not -tags purego)
// 32 partial sums in four 8-lane fused multiply-add accumulators over the first d - d%8
// values (blocks of 32, then of 8), added pairwise, with the last d%8 products summed
// apart and added last; elsewhere 8 partial sums (rowsGo). The result of a row is
// identical across calls in one build; the two orders differ in the last bits (relative
// size about d·2⁻²⁴). It panics if x has fewer than d values or b fewer than
// len(dst)·d.
func Rows(dst []float64, x, b []float32, d int) {
	if d < 0 || len(x) < d || len(b) < len(dst)*d {
		panic(fmt.Sprintf("dotf32: Rows of %d rows of %d values with %d values of x and %d of b", len(dst), d, len(x), len(b)))
	}
	if len(dst) == 0 {
		return
	}
	if d == 0 {
		clear(dst)
		return
	}
	rows(dst, x, b, d)
}

// Kernel names the implementation Rows uses in this build and on this CPU: "avx2" or
// "go".
func Kernel() string {
	if useAsm {
		return "avx2"
	}
	return "go"
}

// rowsGo is Rows in Go: 8 partial sums, p added to sum p mod 8, then pairwise.
func rowsGo(dst []float64, x, b []float32, d int) {
	for t := range dst {
		row := b[t*d : (t+1)*d]
		var s [8]float32
		p := 0
		for ; p+8 <= d; p += 8 {
			s[0] += x[p] * row[p]
			s[1] += x[p+1] * row[p+1]
			s[2] += x[p+2] * row[p+2]
			s[3] += x[p+3] * row[p+3]
			s[4] += x[p+4] * row[p+4]
			s[5] += x[p+5] * row[p+5]
			s[6] += x[p+6] * row[p+6]
			s[7] += x[p+7] * row[p+7]
		}
		for ; p < d; p++ {
			s[p%8] += x[p] * row[p]
		}
		dst[t] = float64(((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7])))
	}
}

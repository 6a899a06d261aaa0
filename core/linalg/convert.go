package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ToFloat32 converts src to float32 into dst, element by element (round to nearest).
// It panics if len(dst) != len(src).
func ToFloat32(dst []float32, src []float64) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("linalg: ToFloat32 lengths %d and %d differ", len(dst), len(src)))
	}
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// ToFloat64 converts src to float64 into dst (exact). It panics if len(dst) != len(src).
func ToFloat64(dst []float64, src []float32) {
	if len(dst) != len(src) {
		panic(fmt.Sprintf("linalg: ToFloat64 lengths %d and %d differ", len(dst), len(src)))
	}
	for i, v := range src {
		dst[i] = float64(v)
	}
}

// RowsToFloat32 copies rows [lo, hi) of the r×c matrix x into dst as a dense row-major
// (hi-lo)×c float32 block, so that
//
//	dst[(i-lo)*c + j] = float32(x[i, j])        lo <= i < hi, 0 <= j < c.
//
// If unit is true each row is divided by its Euclidean norm (computed in float64) on the
// way; a zero row stays zero. It returns dst[:(hi-lo)*c]. It panics if the bounds are
// outside [0, r] or len(dst) < (hi-lo)*c.
func RowsToFloat32(dst []float32, x mat.RawMatrixer, lo, hi int, unit bool) []float32 {
	raw := x.RawMatrix()
	if lo < 0 || hi > raw.Rows || lo > hi {
		panic(fmt.Sprintf("linalg: RowsToFloat32 rows [%d,%d) outside [0,%d)", lo, hi, raw.Rows))
	}
	c := raw.Cols
	if len(dst) < (hi-lo)*c {
		panic(fmt.Sprintf("linalg: RowsToFloat32 dst has %d elements, need %d", len(dst), (hi-lo)*c))
	}
	for i := lo; i < hi; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+c]
		out := dst[(i-lo)*c : (i-lo+1)*c]
		scale := 1.0
		if unit {
			var ss float64
			for _, v := range row {
				ss += v * v
			}
			if ss > 0 {
				scale = 1 / math.Sqrt(ss)
			}
		}
		for j, v := range row {
			out[j] = float32(v * scale)
		}
	}
	return dst[:(hi-lo)*c]
}

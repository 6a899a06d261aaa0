//go:build !purego

package dotf32

import "golang.org/x/sys/cpu"

// useAsm selects the AVX2+FMA kernel (dotf32_amd64.s).
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

func rows(dst []float64, x, b []float32, d int) {
	if useAsm {
		rowsAVX2(&dst[0], &x[0], &b[0], len(dst), d)
		return
	}
	rowsGo(dst, x, b, d)
}

// rowsAVX2 is Rows's AVX2+FMA kernel on n rows of d > 0 values (dotf32_amd64.s).
//
//go:noescape
func rowsAVX2(dst *float64, x, b *float32, n, d int)

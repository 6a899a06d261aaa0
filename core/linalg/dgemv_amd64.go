//go:build !purego && !openblas

package linalg

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

//go:noescape
func dgemvDot4AVX2(n int, a *float64, lda int, x *float64, d *[4]float64)

//go:noescape
func dgemvDot1AVX2(n int, a, x *float64) float64

//go:noescape
func dgemvAxpy4AVX2(n int, a *float64, lda int, y *float64, s *[4]float64)

//go:noescape
func dgemvAxpy1AVX2(n int, a, y *float64, s float64)

// gemvAVX2 is the assembly of dgemv_amd64.s behind the contract of gemvGo4. Dgemv is
// bound by memory, so CPUs with AVX-512 run it too.
var gemvAVX2 = &gemvKern{name: "avx2", w: 4,
	dot4: func(n int, a []float64, lda int, x []float64) (d [4]float64) {
		checkGemv("dot4", n, a, lda, 4, x)
		dgemvDot4AVX2(n, &a[0], lda, &x[0], &d)
		return d
	},
	dot1: func(n int, a, x []float64) float64 {
		checkGemv("dot1", n, a, 0, 1, x)
		return dgemvDot1AVX2(n, &a[0], &x[0])
	},
	axpy4: func(n int, a []float64, lda int, y []float64, s *[4]float64) {
		checkGemv("axpy4", n, a, lda, 4, y)
		dgemvAxpy4AVX2(n, &a[0], lda, &y[0], s)
	},
	axpy1: func(n int, a, y []float64, s float64) {
		checkGemv("axpy1", n, a, 0, 1, y)
		dgemvAxpy1AVX2(n, &a[0], &y[0], s)
	},
}

// gemvAsm is the Dgemv kernel this CPU runs (nil without AVX2 and FMA: Float64 then
// leaves Dgemv to gonum).
var gemvAsm = func() *gemvKern {
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		return gemvAVX2
	}
	return nil
}()

// gemvAsmAll lists the assembly Dgemv kernels this CPU can run (for the tests).
func gemvAsmAll() []*gemvKern {
	if gemvAsm == nil {
		return nil
	}
	return []*gemvKern{gemvAVX2}
}

// checkGemv panics unless n is a positive multiple of 4 and a (rows rows of n entries at
// stride lda) and v hold what the assembly kernel name reads and writes.
func checkGemv(name string, n int, a []float64, lda, rows int, v []float64) {
	if n < 1 || n%4 != 0 || (rows > 1 && lda < n) || len(a) < (rows-1)*lda+n || len(v) < n {
		panic(fmt.Sprintf("linalg: dgemv %s: n=%d, len(a)=%d, lda=%d, len(v)=%d", name, n, len(a), lda, len(v)))
	}
}

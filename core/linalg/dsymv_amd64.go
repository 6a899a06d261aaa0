//go:build !purego && !openblas

package linalg

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

//go:noescape
func ddotaxpyAVX512(n int, a, x, y *float64, s float64) float64

//go:noescape
func ddotaxpyAVX2(n int, a, x, y *float64, s float64) float64

//go:noescape
func ddot4axpyAVX512(n int, a *float64, lda int, x, y *float64, s, d *[4]float64)

//go:noescape
func ddot4axpyAVX2(n int, a *float64, lda int, x, y *float64, s, d *[4]float64)

// The assembly dot-axpy kernels of dsymv_amd64.s behind the contract of dotAxpyGo.
var (
	dotAxpyAVX512 = &dotAxpy{name: "avx512", w: 8, fn: func(n int, a, x, y []float64, s float64) float64 {
		return ddotaxpyAVX512(n, &a[0], &x[0], &y[0], s)
	}, fn4: func(n int, a []float64, lda int, x, y []float64, s *[4]float64) (d [4]float64) {
		check4(n, a, lda, x, y)
		ddot4axpyAVX512(n, &a[0], lda, &x[0], &y[0], s, &d)
		return d
	}}
	dotAxpyAVX2 = &dotAxpy{name: "avx2", w: 4, fn: func(n int, a, x, y []float64, s float64) float64 {
		return ddotaxpyAVX2(n, &a[0], &x[0], &y[0], s)
	}, fn4: func(n int, a []float64, lda int, x, y []float64, s *[4]float64) (d [4]float64) {
		check4(n, a, lda, x, y)
		ddot4axpyAVX2(n, &a[0], lda, &x[0], &y[0], s, &d)
		return d
	}}
)

// dotAxpyAsm is the kernel this CPU runs, chosen as the GEMM micro-kernel is (nil
// without AVX2 and FMA).
var dotAxpyAsm = func() *dotAxpy {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return dotAxpyAVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return dotAxpyAVX2
	}
	return nil
}()

// dotAxpyAsmAll lists the assembly dot-axpy kernels this CPU can run (for the tests).
func dotAxpyAsmAll() []*dotAxpy {
	var ks []*dotAxpy
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, dotAxpyAVX2)
		if cpu.X86.HasAVX512F {
			ks = append(ks, dotAxpyAVX512)
		}
	}
	return ks
}

// check4 panics unless the four rows of a (n entries each at stride lda), x and y hold
// what the four-row assembly kernels read and write.
func check4(n int, a []float64, lda int, x, y []float64) {
	if n < 1 || lda < n || len(a) < 3*lda+n || len(x) < n || len(y) < n {
		panic(fmt.Sprintf("linalg: dot4axpy: n=%d, len(a)=%d, lda=%d, len(x)=%d, len(y)=%d", n, len(a), lda, len(x), len(y)))
	}
}

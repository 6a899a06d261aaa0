//go:build !purego && !openblas

package linalg

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

//go:noescape
func dgemmKernel8x24AVX512(kc int, a, b, c *float64, ldc int, acc int)

//go:noescape
func dgemmKernel6x8AVX2(kc int, a, b, c *float64, ldc int, acc int)

// dkernAVX512 and dkernAVX2 are the assembly micro-kernels of dgemm_amd64.s behind the
// slice contract of dkernelGo (the same sums, bit for bit).
var (
	dkernAVX512 = &dkern{name: "avx512", mr: 8, nr: 24, kc: 320, nc: 576, mc: 960, fn: func(kc int, a, b, c []float64, ldc int, acc bool) {
		checkDkernArgs(8, 24, kc, a, b, c, ldc)
		dgemmKernel8x24AVX512(kc, &a[0], &b[0], &c[0], ldc, accFlag(acc))
	}}
	dkernAVX2 = &dkern{name: "avx2", mr: 6, nr: 8, kc: 320, nc: 576, mc: 960, fn: func(kc int, a, b, c []float64, ldc int, acc bool) {
		checkDkernArgs(6, 8, kc, a, b, c, ldc)
		dgemmKernel6x8AVX2(kc, &a[0], &b[0], &c[0], ldc, accFlag(acc))
	}}
)

// dkernAsm is the micro-kernel this CPU runs: AVX-512 F where the CPU and OS support it,
// else AVX2+FMA, else nil (Float64 then leaves Dgemm to gonum).
var dkernAsm = func() *dkern {
	switch {
	case cpu.X86.HasAVX512F && cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return dkernAVX512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return dkernAVX2
	}
	return nil
}()

// dkernAsmAll lists the assembly micro-kernels this CPU can run (for the tests).
func dkernAsmAll() []*dkern {
	var ks []*dkern
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		ks = append(ks, dkernAVX2)
		if cpu.X86.HasAVX512F {
			ks = append(ks, dkernAVX512)
		}
	}
	return ks
}

func checkDkernArgs(mr, nr, kc int, a, b, c []float64, ldc int) {
	if kc < 1 || len(a) < kc*mr || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
		panic(fmt.Sprintf("linalg: dgemm kernel %d×%d: kc=%d, len(a)=%d, len(b)=%d, len(c)=%d, ldc=%d", mr, nr, kc, len(a), len(b), len(c), ldc))
	}
}

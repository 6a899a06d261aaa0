//go:build !purego && !openblas

package linalg

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// useAsmSgemm selects the packed GEMM with the AVX2+FMA micro-kernel (sgemm_amd64.s) for
// [PackB] and [PackedB.MulNT]. It is set when the CPU has AVX2 and FMA. Builds with -tags
// purego or -tags openblas (OpenBLAS keeps the projection) leave the assembly out.
var useAsmSgemm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

//go:noescape
func sgemmKernel6x16(kc int, a, b, c *float32, ldc int, acc int)

// kernelAsm is the assembly micro-kernel behind the slice contract of kernelGo.
func kernelAsm(kc int, a, b, c []float32, ldc int, acc bool) {
	if kc < 1 || len(a) < kc*mr || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
		panic(fmt.Sprintf("linalg: sgemm kernel: kc=%d, len(a)=%d, len(b)=%d, len(c)=%d, ldc=%d", kc, len(a), len(b), len(c), ldc))
	}
	f := 0
	if acc {
		f = 1
	}
	sgemmKernel6x16(kc, &a[0], &b[0], &c[0], ldc, f)
}

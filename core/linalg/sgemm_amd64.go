//go:build !purego && !openblas

package linalg

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// useAsmSgemm selects the packed GEMM with an assembly micro-kernel (sgemm_amd64.s) for
// [PackB] and [PackedB.MulNT]. It is set when the CPU has AVX2 and FMA. Builds with -tags
// purego or -tags openblas (OpenBLAS keeps the projection) leave the assembly out.
var useAsmSgemm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// useAVX512 selects the AVX-512 micro-kernel (one ZMM register per row of the tile) over
// the AVX2 one: set when the CPU and the OS support AVX-512 F.
var useAVX512 = useAsmSgemm && cpu.X86.HasAVX512F

//go:noescape
func sgemmKernel6x16(kc int, a, b, c *float32, ldc int, acc int)

//go:noescape
func sgemmKernel6x16AVX512(kc int, a, b, c *float32, ldc int, acc int)

// kernelAsm is the assembly micro-kernel this CPU runs (AVX-512 or AVX2+FMA) behind the
// slice contract of kernelGo.
func kernelAsm(kc int, a, b, c []float32, ldc int, acc bool) {
	if useAVX512 {
		kernelAVX512(kc, a, b, c, ldc, acc)
		return
	}
	kernelAVX2(kc, a, b, c, ldc, acc)
}

// kernelAVX2 is the AVX2+FMA micro-kernel: the same sums as kernelGo in the same order.
func kernelAVX2(kc int, a, b, c []float32, ldc int, acc bool) {
	checkKernelArgs(kc, a, b, c, ldc)
	sgemmKernel6x16(kc, &a[0], &b[0], &c[0], ldc, accFlag(acc))
}

// kernelAVX512 is the AVX-512 micro-kernel: the sums of kernelGo with the even and the odd
// k indices added apart and then together (as kernelGoSplit). The caller checks useAVX512.
func kernelAVX512(kc int, a, b, c []float32, ldc int, acc bool) {
	checkKernelArgs(kc, a, b, c, ldc)
	sgemmKernel6x16AVX512(kc, &a[0], &b[0], &c[0], ldc, accFlag(acc))
}

func checkKernelArgs(kc int, a, b, c []float32, ldc int) {
	if kc < 1 || len(a) < kc*mr || len(b) < kc*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
		panic(fmt.Sprintf("linalg: sgemm kernel: kc=%d, len(a)=%d, len(b)=%d, len(c)=%d, ldc=%d", kc, len(a), len(b), len(c), ldc))
	}
}

func accFlag(acc bool) int {
	if acc {
		return 1
	}
	return 0
}

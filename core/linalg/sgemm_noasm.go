//go:build !amd64 || purego || openblas

package linalg

// useAsmSgemm is false without the amd64 assembly (other architectures, -tags purego, and
// -tags openblas, where OpenBLAS's sgemm is faster and cgo packages cannot hold Go
// assembly): [PackB] leaves B as it is and [PackedB.MulNT] calls blas32.Gemm.
var useAsmSgemm = false

// useAVX512 is false without the amd64 assembly.
var useAVX512 = false

// kernelAsm is absent from this build; the packed path never runs while useAsmSgemm is
// false, and the tests use kernelGo.
func kernelAsm(kc int, a, b, c []float32, ldc int, acc bool) {
	panic("linalg: sgemm: no assembly in this build")
}

// kernelAVX2 and kernelAVX512 are absent from this build, as kernelAsm.
func kernelAVX2(kc int, a, b, c []float32, ldc int, acc bool)   { kernelAsm(kc, a, b, c, ldc, acc) }
func kernelAVX512(kc int, a, b, c []float32, ldc int, acc bool) { kernelAsm(kc, a, b, c, ldc, acc) }

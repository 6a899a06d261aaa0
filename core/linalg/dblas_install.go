//go:build !openblas

package linalg

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
)

// The default build routes blas64 through Float64 and blas32 through Float32 where a
// micro-kernel runs.
func init() {
	if dkernAsm != nil {
		blas64.Use(Float64{})
	}
	if useAsmSgemm {
		blas32.Use(Float32{})
	}
}

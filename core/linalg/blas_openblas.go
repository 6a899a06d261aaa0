//go:build openblas

package linalg

// #cgo LDFLAGS: -lopenblas
// void openblas_set_num_threads(int num_threads);
// int openblas_get_num_threads(void);
import "C"

import (
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/netlib/blas/netlib"
)

func init() {
	blas64.Use(netlib.Implementation{})
	blas32.Use(netlib.Implementation{})
	blasName = "OpenBLAS (cgo)"
	setThreads = func(n int) int {
		prev := int(C.openblas_get_num_threads())
		C.openblas_set_num_threads(C.int(n))
		return prev
	}
	// One OpenBLAS thread per call: the engine runs GOMAXPROCS goroutines over blocks.
	setThreads(1)
}

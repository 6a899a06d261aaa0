package linalg

// PureGoBLAS is what [BLAS] returns in the default build: gonum's pure-Go BLAS.
const PureGoBLAS = "gonum (pure Go)"

// blasName is set by the build: PureGoBLAS by default, "OpenBLAS (cgo)" under the
// openblas build tag.
var blasName = PureGoBLAS

// BLAS returns the name of the BLAS implementation that blas64 and blas32 use in this
// build: "gonum (pure Go)" or "OpenBLAS (cgo)".
func BLAS() string { return blasName }

// blasCore and blasCoreNote are set by the openblas build (blas_openblas.go).
var blasCore, blasCoreNote string

// BLASCore names the OpenBLAS version and the kernel set it runs on this CPU, for example
// "OpenBLAS 0.3.21, core SkylakeX", followed by a note when gitui chose the kernel set
// because OpenBLAS did not know the CPU (see the package doc); "" in the pure-Go build.
// Low-order bits of float32 and float64 products depend on the kernel set.
func BLASCore() string { return blasCore + blasCoreNote }

// setThreads is replaced by the openblas build; the pure-Go BLAS has no thread setting.
var setThreads = func(n int) int { return 0 }

// SetBLASThreads sets the number of threads the BLAS library itself may use inside one
// call and returns the previous setting. With OpenBLAS the start-up value is 1 (the engine
// parallelises over blocks; see the package doc). The pure-Go build ignores it and
// returns 0. It panics if n < 1.
func SetBLASThreads(n int) (prev int) {
	if n < 1 {
		panic("linalg: SetBLASThreads needs n >= 1")
	}
	return setThreads(n)
}

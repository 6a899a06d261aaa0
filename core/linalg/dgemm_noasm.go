//go:build !amd64 || purego || openblas

package linalg

// dkernAsm is nil without the amd64 assembly (other architectures, -tags purego, and
// -tags openblas, whose cgo package cannot hold Go assembly): Float64 leaves Dgemm to
// gonum, and the tests run the packed driver on the Go twins.
var dkernAsm *dkern

// dkernAsmAll lists no assembly micro-kernels in this build.
func dkernAsmAll() []*dkern { return nil }

// dotAxpyAsm is nil without the amd64 assembly: Float64 leaves Dsymv to gonum.
var dotAxpyAsm *dotAxpy

// dotAxpyAsmAll lists no assembly dot-axpy kernels in this build.
func dotAxpyAsmAll() []*dotAxpy { return nil }

// gemvAsm is nil without the amd64 assembly: Float64 leaves Dgemv to gonum.
var gemvAsm *gemvKern

// gemvAsmAll lists no assembly Dgemv kernels in this build.
func gemvAsmAll() []*gemvKern { return nil }

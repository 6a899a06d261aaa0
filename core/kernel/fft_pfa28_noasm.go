//go:build !amd64 || purego

package kernel

// useAVX28 is false without the amd64 assembly: corr28 runs in Go.
var useAVX28 = false

// pfa28MaxMin is the assembly path, absent from this build; corr28 never calls it
// while useAVX28 is false.
func pfa28MaxMin(xs, zs, scratch []complex128, wantMin bool) (mx, mn float64) {
	panic("kernel: pfa28MaxMin: no assembly in this build (useAVX28 is false)")
}

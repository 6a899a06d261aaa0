//go:build !amd64 || purego

package dotf32

// useAsm is false without the amd64 assembly (other architectures and -tags purego).
var useAsm = false

func rows(dst []float64, x, b []float32, d int) { rowsGo(dst, x, b, d) }

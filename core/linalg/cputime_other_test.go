//go:build !unix

package linalg

// cpuSeconds is not measured on this OS: -1.
func cpuSeconds() float64 { return -1 }

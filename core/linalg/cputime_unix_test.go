//go:build unix

package linalg

import "syscall"

// cpuSeconds returns the user+system CPU seconds this process has used so far, or -1.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

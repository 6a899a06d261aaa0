package group

import "fmt"

// checkApply panics unless dst and x have length d, do not alias, and 0 <= i < n.
func checkApply(name string, d, n int, dst, x []float64, i int) {
	if len(dst) != d || len(x) != d {
		panic(fmt.Sprintf("group: %s: len(dst)=%d, len(x)=%d, want %d", name, len(dst), len(x), d))
	}
	if i < 0 || i >= n {
		panic(fmt.Sprintf("group: %s: element %d outside [0,%d)", name, i, n))
	}
	if d > 0 && &dst[0] == &x[0] {
		panic(fmt.Sprintf("group: %s: dst and x alias", name))
	}
}

//go:build openblas

package learn

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"gitui/core/linalg"
)

func TestZZReduceThreads(t *testing.T) {
	r, _ := strconv.Atoi(os.Getenv("ZZR"))
	if r == 0 {
		t.Skip()
	}
	rng := rand.New(rand.NewPCG(1, 2))
	a0 := make([]float64, r*r)
	for i := range r {
		for j := i; j < r; j++ {
			v := rng.Float64()
			a0[i*r+j], a0[j*r+i] = v, v
		}
	}
	for _, th := range []int{1, 2, 1, 2} {
		a := append([]float64(nil), a0...)
		prev := linalg.SetBLASThreads(th)
		t0 := time.Now()
		lapackReduce(a, r)
		t.Logf("r %d threads %d: %.1fs", r, th, time.Since(t0).Seconds())
		linalg.SetBLASThreads(prev)
	}
}

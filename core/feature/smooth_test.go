package feature

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSmoothTemplates: unit norm, and a box filter of half-width r makes neighbours
// correlated: the lag-1 autocorrelation along either axis of (2r+1)-box-filtered white
// noise is 2r/(2r+1) (0.857 for r = 3), away from the borders; white noise (r = 0) gives 0.
// The estimate over 200 templates of 64×64 is good to about ±0.02.
func TestSmoothTemplates(t *testing.T) {
	for _, r := range []int{0, 3} {
		tp := SmoothTemplates(200, 64, 64, r, rand.New(rand.NewPCG(1, 1)))
		var cx, cy, v float64
		for j := range 200 {
			row := tp.RawRowView(j)
			var ss float64
			for _, x := range row {
				ss += x * x
			}
			if math.Abs(ss-1) > 1e-12 {
				t.Fatalf("r=%d: template %d has squared norm %v", r, j, ss)
			}
			for y := 8; y < 56; y++ {
				for x := 8; x < 56; x++ {
					a := row[y*64+x]
					v += a * a
					cx += a * row[y*64+x+1]
					cy += a * row[(y+1)*64+x]
				}
			}
		}
		want := float64(2*r) / float64(2*r+1)
		if math.Abs(cx/v-want) > 0.02 || math.Abs(cy/v-want) > 0.02 {
			t.Errorf("r=%d: lag-1 correlation %.3f (x), %.3f (y), want %.3f", r, cx/v, cy/v, want)
		}
	}
}

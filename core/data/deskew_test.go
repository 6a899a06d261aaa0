package data

import (
	"math"
	"testing"
)

// moments returns the centre of mass and the row-column covariance over the row
// variance (the slant) of an h×w image.
func moments(x []float64, h, w int) (mr, mc, slant float64) {
	var m float64
	for r := range h {
		for c, v := range x[r*w : (r+1)*w] {
			m += v
			mr += v * float64(r)
			mc += v * float64(c)
		}
	}
	mr, mc = mr/m, mc/m
	var srr, src float64
	for r := range h {
		for c, v := range x[r*w : (r+1)*w] {
			srr += v * (float64(r) - mr) * (float64(r) - mr)
			src += v * (float64(r) - mr) * (float64(c) - mc)
		}
	}
	return mr, mc, src / srr
}

// TestDeskew checks Deskew on a slanted bar, the stroke c = 9 + 0.4·(20 - r) (its top
// leaning right, as a right-slanted "1"): the result is upright (slant below 0.02, from
// -0.4) with its centre of mass on the image centre (within 0.05 pixel), alpha is the
// bar's slant to 1e-12, and an empty image is copied with alpha 0.
func TestDeskew(t *testing.T) {
	const h, w = 28, 28
	src := make([]float64, h*w)
	for r := 4; r < 24; r++ {
		c := 9 + 0.4*float64(20-r)
		c0 := int(math.Floor(c))
		f := c - float64(c0)
		src[r*w+c0] += 1 - f
		src[r*w+c0+1] += f
	}
	_, _, before := moments(src, h, w)
	if math.Abs(before+0.4) > 1e-9 {
		t.Fatalf("test bar slant %g, want -0.4", before)
	}
	dst := make([]float64, h*w)
	alpha := Deskew(dst, src, h, w)
	if math.Abs(alpha-before) > 1e-12 {
		t.Errorf("alpha %g, want the bar's slant %g", alpha, before)
	}
	mr, mc, after := moments(dst, h, w)
	if math.Abs(after) > 0.02 {
		t.Errorf("slant after deskewing %g, want about 0 (was %g)", after, before)
	}
	if math.Abs(mr-13.5) > 0.05 || math.Abs(mc-13.5) > 0.05 {
		t.Errorf("centre of mass (%g, %g) after deskewing, want (13.5, 13.5)", mr, mc)
	}
	empty := make([]float64, h*w)
	if a := Deskew(dst, empty, h, w); a != 0 {
		t.Errorf("empty image: alpha %g, want 0", a)
	}
	for i, v := range dst {
		if v != 0 {
			t.Fatalf("empty image: pixel %d is %g after deskewing", i, v)
		}
	}
}

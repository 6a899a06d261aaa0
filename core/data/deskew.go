package data

import (
	"fmt"
	"math"
)

// Deskew writes to dst the h×w image src (row-major, non-negative intensities) sheared
// horizontally to remove its slant and translated so that its centre of mass lands on
// the image centre (cy, cx) = ((h-1)/2, (w-1)/2) — the moment-based deskewing of
// LeCun et al.'s MNIST benchmarks. With the intensity-weighted means mu_r, mu_c, the
// row variance s_rr and the covariance s_rc, alpha = s_rc/s_rr and
//
//	dst(r, c) = src(mu_r + (r - cy), mu_c + (c - cx) + alpha·(r - cy)),
//
// read by bilinear interpolation with zero fill outside the image. It returns alpha.
// An image without mass or without spread over the rows is copied unchanged (alpha 0).
// Deskew panics if len(src) or len(dst) is not h·w, or if they overlap exactly.
func Deskew(dst, src []float64, h, w int) float64 {
	if h < 1 || w < 1 || len(src) != h*w || len(dst) != h*w {
		panic(fmt.Sprintf("data: Deskew of %d and %d values as %dx%d", len(src), len(dst), h, w))
	}
	if &dst[0] == &src[0] {
		panic("data: Deskew in place")
	}
	var m, mr, mc float64
	for r := range h {
		for c, v := range src[r*w : (r+1)*w] {
			m += v
			mr += v * float64(r)
			mc += v * float64(c)
		}
	}
	if !(m > 0) {
		copy(dst, src)
		return 0
	}
	mr, mc = mr/m, mc/m
	var srr, src2 float64
	for r := range h {
		dr := float64(r) - mr
		for c, v := range src[r*w : (r+1)*w] {
			srr += v * dr * dr
			src2 += v * dr * (float64(c) - mc)
		}
	}
	if !(srr > 0) {
		copy(dst, src)
		return 0
	}
	alpha := src2 / srr
	if math.IsNaN(alpha) || math.IsInf(alpha, 0) {
		copy(dst, src)
		return 0
	}
	cy, cx := float64(h-1)/2, float64(w-1)/2
	for r := range h {
		sr := mr + float64(r) - cy
		for c := range w {
			sc := mc + float64(c) - cx + alpha*(float64(r)-cy)
			dst[r*w+c] = bilinear(src, h, w, sr, sc)
		}
	}
	return alpha
}

// bilinear interpolates the h×w image x at (r, c), treating pixels outside as 0.
func bilinear(x []float64, h, w int, r, c float64) float64 {
	r0, c0 := math.Floor(r), math.Floor(c)
	fr, fc := r-r0, c-c0
	i0, j0 := int(r0), int(c0)
	at := func(i, j int) float64 {
		if i < 0 || i >= h || j < 0 || j >= w {
			return 0
		}
		return x[i*w+j]
	}
	return (1-fr)*((1-fc)*at(i0, j0)+fc*at(i0, j0+1)) + fr*((1-fc)*at(i0+1, j0)+fc*at(i0+1, j0+1))
}

// Package pix draws small previews of samples for the data and group panes: images
// with half blocks, one-hot sequences as letters, and 2-D point clouds as a scatter.
package pix

import (
	"fmt"
	"math"
	"strings"

	"gitui/ui/theme"
)

// Image renders the h×w row-major image x, block-averaged by an integer factor so that
// it is at most maxW columns wide (the scale is chosen here), as ⌈h'/2⌉ lines of '▀'
// half blocks (shade runes without colour). Values are mapped from [0, max|x|].
// It panics if len(x) != h*w.
func Image(st theme.Styles, x []float64, h, w, maxW int) []string {
	if len(x) != h*w {
		panic(fmt.Sprintf("pix: image of %d values is not %dx%d", len(x), h, w))
	}
	f := 1
	for w/f > maxW && f < w {
		f++
	}
	ph, pw := h/f, w/f
	if ph == 0 || pw == 0 {
		return nil
	}
	px := make([]float64, ph*pw)
	hi := 0.0
	for a := 0; a < ph; a++ {
		for b := 0; b < pw; b++ {
			s := 0.0
			for i := a * f; i < (a+1)*f; i++ {
				for j := b * f; j < (b+1)*f; j++ {
					s += x[i*w+j]
				}
			}
			v := math.Abs(s) / float64(f*f)
			px[a*pw+b] = v
			hi = math.Max(hi, v)
		}
	}
	lvl := func(v float64, k int) int {
		if hi == 0 {
			return 0
		}
		return max(0, min(k-1, int(v/hi*float64(k))))
	}
	var lines []string
	var sb strings.Builder
	k := len(st.CellStr)
	for r := 0; 2*r < ph; r++ {
		sb.Reset()
		for b := 0; b < pw; b++ {
			top := px[2*r*pw+b]
			bot := 0.0
			if 2*r+1 < ph {
				bot = px[(2*r+1)*pw+b]
			}
			if !st.Color || k == 0 {
				sb.WriteRune(theme.Shades[lvl((top+bot)/2, len(theme.Shades))])
				continue
			}
			sb.WriteString(st.CellStr[lvl(top, k)][lvl(bot, k)])
		}
		lines = append(lines, sb.String())
	}
	return lines
}

// Sequence renders an L×A one-hot sequence (L blocks of A entries) as L letters
// ('a' + index of the block's largest entry; '·' for an all-zero block).
// It panics if len(x) != l*a.
func Sequence(x []float64, l, a int) string {
	if len(x) != l*a {
		panic(fmt.Sprintf("pix: sequence of %d values is not %dx%d", len(x), l, a))
	}
	var sb strings.Builder
	for i := 0; i < l; i++ {
		best, arg := 0.0, -1
		for j := 0; j < a; j++ {
			if v := x[i*a+j]; v > best {
				best, arg = v, j
			}
		}
		if arg < 0 {
			sb.WriteRune('·')
		} else {
			sb.WriteRune(rune('a' + arg%26))
		}
	}
	return sb.String()
}

// Scatter draws 2-D points (xs[i], ys[i]) of class cls[i] in a w×h character grid,
// each point as its class's glyph (theme.Glyph), the last point drawn winning a cell.
// It panics if the slices differ in length.
func Scatter(st theme.Styles, xs, ys []float64, cls []int, w, h int) []string {
	if len(xs) != len(ys) || len(xs) != len(cls) {
		panic("pix: scatter slices differ in length")
	}
	if w < 1 || h < 1 {
		return nil
	}
	x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range xs {
		x0, x1 = math.Min(x0, xs[i]), math.Max(x1, xs[i])
		y0, y1 = math.Min(y0, ys[i]), math.Max(y1, ys[i])
	}
	grid := make([][]int, h)
	for r := range grid {
		grid[r] = make([]int, w)
		for c := range grid[r] {
			grid[r][c] = -1
		}
	}
	scale := func(v, lo, hi float64, n int) int {
		if !(hi > lo) {
			return n / 2
		}
		return max(0, min(n-1, int((v-lo)/(hi-lo)*float64(n))))
	}
	for i := range xs {
		grid[h-1-scale(ys[i], y0, y1, h)][scale(xs[i], x0, x1, w)] = cls[i]
	}
	lines := make([]string, h)
	for r := range grid {
		var sb strings.Builder
		for _, c := range grid[r] {
			if c < 0 {
				sb.WriteByte(' ')
				continue
			}
			sb.WriteString(st.SeriesStyle(c).Render(string(theme.Glyph(c))))
		}
		lines[r] = sb.String()
	}
	return lines
}

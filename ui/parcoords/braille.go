package parcoords

// Grid is a braille dot grid of W×H cells, each cell 2 dots wide and 4 high (U+2800 +
// the bits of its dots), with dot (0, 0) at the top left.
type Grid struct {
	W, H int
	bits []uint8
}

// NewGrid returns an empty grid of w×h cells (2w×4h dots).
func NewGrid(w, h int) *Grid {
	return &Grid{W: w, H: h, bits: make([]uint8, max(0, w*h))}
}

// dotBit[y%4][x%2] is the bit of a dot within its cell (the Unicode braille order:
// dots 1-2-3 down the left column, 4-5-6 down the right, then 7 and 8 on the last row).
var dotBit = [4][2]uint8{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// Set lights the dot (x, y); dots outside the grid are ignored.
func (g *Grid) Set(x, y int) {
	if x < 0 || y < 0 || x >= 2*g.W || y >= 4*g.H {
		return
	}
	g.bits[(y/4)*g.W+x/2] |= dotBit[y%4][x%2]
}

// Bits returns the dot bits of cell (cx, cy) (0 when empty or outside).
func (g *Grid) Bits(cx, cy int) uint8 {
	if cx < 0 || cy < 0 || cx >= g.W || cy >= g.H {
		return 0
	}
	return g.bits[cy*g.W+cx]
}

// Rune returns the braille character of cell (cx, cy): U+2800 + its bits.
func (g *Grid) Rune(cx, cy int) rune { return 0x2800 + rune(g.Bits(cx, cy)) }

// Line lights the dots of the segment from (x0, y0) to (x1, y1) by Bresenham's
// algorithm (one dot per step along the longer direction, diagonal steps allowed, both
// ends included),
// keeping only every every-th dot along it (every ≤ 1 keeps them all): a sparse line
// for runs drawn dimmed.
func (g *Grid) Line(x0, y0, x1, y1, every int) { line(x0, y0, x1, y1, every, g.Set) }

// line calls set on the dots of the segment (see Grid.Line).
func line(x0, y0, x1, y1, every int, set func(x, y int)) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for k := 0; ; k++ {
		if every <= 1 || k%every == 0 {
			set(x0, y0)
		}
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func sign(a int) int {
	switch {
	case a > 0:
		return 1
	case a < 0:
		return -1
	}
	return 0
}

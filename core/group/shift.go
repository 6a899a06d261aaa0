package group

import "fmt"

// Shifts2D is a set of 2-D translations of h×w images stored row-major (d = h·w).
// Element g_i, the shift (dy, dx), moves content dy rows down and dx columns right:
//
//	(g_i·x)[y, c] = x[y - dy, c - dx]
//
// with indices taken modulo (h, w) for cyclic shifts and zero outside the image for
// zero-fill shifts. The inverse is the shift (-dy, -dx). For cyclic shifts this is
// exact; for zero-fill shifts g^{-1}·(g·x) equals x on the pixels that stay inside the
// image under (dy, dx) and is zero elsewhere. Build one with [CyclicShifts],
// [AllCyclicShifts] or [LocalShifts].
type Shifts2D struct {
	h, w   int
	shifts [][2]int
	cyclic bool
	name   string
}

// CyclicShifts returns the cyclic (wrap-around) shifts of h×w images by the given
// (dy, dx) pairs (see [Shifts2D]). Shifts are taken modulo (h, w); if (0, 0) is among
// them it is moved to the front, the others keep their order.
//
// CyclicShifts panics if h < 1, w < 1, shifts is empty, or two shifts are equal
// modulo (h, w).
func CyclicShifts(h, w int, shifts [][2]int) *Shifts2D {
	checkHW("CyclicShifts", h, w)
	if len(shifts) == 0 {
		panic("group: CyclicShifts: no shifts given")
	}
	norm := make([][2]int, len(shifts))
	for i, s := range shifts {
		norm[i] = [2]int{mod(s[0], h), mod(s[1], w)}
	}
	norm = identityFirst(norm, "CyclicShifts")
	return &Shifts2D{h: h, w: w, shifts: norm, cyclic: true,
		name: fmt.Sprintf("%d cyclic shifts on %dx%d", len(norm), h, w)}
}

// AllCyclicShifts returns the group of all h·w cyclic shifts of h×w images: (0, 0)
// first, then (dy, dx) in row-major order, 0 <= dy < h, 0 <= dx < w. It is closed under
// composition and inverses. It panics if h < 1 or w < 1.
func AllCyclicShifts(h, w int) *Shifts2D {
	checkHW("AllCyclicShifts", h, w)
	s := make([][2]int, 0, h*w)
	for dy := range h {
		for dx := range w {
			s = append(s, [2]int{dy, dx})
		}
	}
	return &Shifts2D{h: h, w: w, shifts: s, cyclic: true, name: fmt.Sprintf("cyclic shifts %dx%d", h, w)}
}

// LocalShifts returns the zero-fill shifts of h×w images by all (dy, dx) with
// |dy| <= k and |dx| <= k: (2k+1)² elements, (0, 0) first, then the others in
// row-major order of (dy, dx) from (-k, -k) to (k, k). It is not a group (a composition
// may leave the set, and pixels shifted out are lost). It panics if h < 1, w < 1 or k < 0.
func LocalShifts(h, w, k int) *Shifts2D {
	checkHW("LocalShifts", h, w)
	if k < 0 {
		panic(fmt.Sprintf("group: LocalShifts: radius k=%d is negative", k))
	}
	s := [][2]int{{0, 0}}
	for dy := -k; dy <= k; dy++ {
		for dx := -k; dx <= k; dx++ {
			if dy != 0 || dx != 0 {
				s = append(s, [2]int{dy, dx})
			}
		}
	}
	return &Shifts2D{h: h, w: w, shifts: s, name: fmt.Sprintf("shifts<=%d on %dx%d", k, h, w)}
}

func checkHW(fn string, h, w int) {
	if h < 1 || w < 1 {
		panic(fmt.Sprintf("group: %s: image size %dx%d must be at least 1x1", fn, h, w))
	}
}

func mod(a, n int) int {
	a %= n
	if a < 0 {
		a += n
	}
	return a
}

// identityFirst moves the shift (0, 0) to the front and panics on duplicates.
func identityFirst(s [][2]int, fn string) [][2]int {
	seen := make(map[[2]int]int, len(s))
	id := -1
	for i, v := range s {
		if j, ok := seen[v]; ok {
			panic(fmt.Sprintf("group: %s: shifts %d and %d are equal (%d, %d)", fn, j, i, v[0], v[1]))
		}
		seen[v] = i
		if v == [2]int{} {
			id = i
		}
	}
	if id <= 0 {
		return s
	}
	out := append([][2]int{{0, 0}}, s[:id]...)
	return append(out, s[id+1:]...)
}

// Name returns e.g. "cyclic shifts 28x28" or "shifts<=3 on 28x28".
func (g *Shifts2D) Name() string { return g.name }

// Len returns the number of shifts.
func (g *Shifts2D) Len() int { return len(g.shifts) }

// Dim returns h·w.
func (g *Shifts2D) Dim() int { return g.h * g.w }

// Size returns the image height h and width w the shifts act on.
func (g *Shifts2D) Size() (h, w int) { return g.h, g.w }

// Cyclic reports whether the shifts wrap around (true) or fill with zeros (false).
func (g *Shifts2D) Cyclic() bool { return g.cyclic }

// Shift returns (dy, dx) of element i (reduced modulo (h, w) for cyclic shifts).
func (g *Shifts2D) Shift(i int) (dy, dx int) { return g.shifts[i][0], g.shifts[i][1] }

// Apply writes g_i·x into dst (see [Shifts2D]).
func (g *Shifts2D) Apply(dst, x []float64, i int) {
	checkApply("Shifts2D.Apply", g.Dim(), len(g.shifts), dst, x, i)
	g.shift(dst, x, g.shifts[i][0], g.shifts[i][1])
}

// ApplyInverse writes g_i^{-1}·x, the shift by (-dy, -dx), into dst.
func (g *Shifts2D) ApplyInverse(dst, x []float64, i int) {
	checkApply("Shifts2D.ApplyInverse", g.Dim(), len(g.shifts), dst, x, i)
	g.shift(dst, x, -g.shifts[i][0], -g.shifts[i][1])
}

func (g *Shifts2D) shift(dst, x []float64, dy, dx int) {
	h, w := g.h, g.w
	if g.cyclic {
		dy, dx = mod(dy, h), mod(dx, w)
		for y := range h {
			d := dst[y*w : (y+1)*w]
			sy := mod(y-dy, h)
			s := x[sy*w : (sy+1)*w]
			copy(d[dx:], s[:w-dx])
			copy(d[:dx], s[w-dx:])
		}
		return
	}
	for y := range h {
		d := dst[y*w : (y+1)*w]
		sy := y - dy
		if sy < 0 || sy >= h || dx >= w || dx <= -w {
			clear(d)
			continue
		}
		s := x[sy*w : (sy+1)*w]
		if dx >= 0 {
			clear(d[:dx])
			copy(d[dx:], s[:w-dx])
		} else {
			copy(d[:w+dx], s[-dx:])
			clear(d[w+dx:])
		}
	}
}

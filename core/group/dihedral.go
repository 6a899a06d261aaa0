package group

import (
	"fmt"
	"math/big"
)

// Dihedral returns the 8 symmetries of an n×n image (row-major, d = n²) as a closed
// [PermSet]: the rotations by 0°, 90°, 180° and 270° (element 1 takes pixel (r, c) to
// (n-1-c, r), a quarter turn counter-clockwise as numpy.rot90 draws it), then the
// left-right mirror composed with each of them. The action is exact (a permutation of
// pixels). Combine it with shifts through [Product]. It panics if n < 1.
func Dihedral(n int) *PermSet {
	if n < 1 {
		panic(fmt.Sprintf("group: Dihedral: image size %d must be at least 1", n))
	}
	rot := imagePerm(n, n, func(r, c int) (int, int) { return n - 1 - c, r })
	flip := imagePerm(n, n, func(r, c int) (int, int) { return r, n - 1 - c })
	id := identityPerm(n * n)
	r2 := mul(rot, rot)
	r3 := mul(r2, rot)
	perms := []perm{id, rot, r2, r3}
	for _, r := range []perm{id, rot, r2, r3} {
		perms = append(perms, mul(r, flip)) // rotate, then mirror
	}
	perms = dedupe(perms) // n = 1: only the identity
	return newPermSet(n*n, perms, fmt.Sprintf("dihedral on %dx%d", n, n), big.NewInt(int64(len(perms))))
}

// Mirror returns the identity and one mirror of h×w images (row-major) as a closed
// [PermSet] of 2 elements: the left-right mirror (pixel (r, c) to (r, w-1-c)) when
// horizontal, else the up-down mirror ((r, c) to (h-1-r, c)). It panics if h < 1,
// w < 1, or the mirror is the identity (w = 1 horizontally, h = 1 vertically).
func Mirror(h, w int, horizontal bool) *PermSet {
	checkHW("Mirror", h, w)
	var m perm
	name := "left-right mirror"
	if horizontal {
		m = imagePerm(h, w, func(r, c int) (int, int) { return r, w - 1 - c })
	} else {
		name = "up-down mirror"
		m = imagePerm(h, w, func(r, c int) (int, int) { return h - 1 - r, c })
	}
	if m.isIdentity() {
		panic(fmt.Sprintf("group: Mirror: the %s of a %dx%d image is the identity", name, h, w))
	}
	return newPermSet(h*w, []perm{identityPerm(h * w), m}, fmt.Sprintf("%s on %dx%d", name, h, w), big.NewInt(2))
}

// Reversal returns the identity and the reversal of a sequence of L blocks of A entries
// (block l to block L-1-l, each block kept as it is: a one-hot symbol or a frame) as a
// closed [PermSet] of 2 elements, d = L·A. It panics if L < 2 or A < 1.
func Reversal(L, A int) *PermSet {
	if L < 2 || A < 1 {
		panic(fmt.Sprintf("group: Reversal(L=%d, A=%d): need L >= 2 and A >= 1", L, A))
	}
	m := imagePerm(L, A, func(r, c int) (int, int) { return L - 1 - r, c })
	return newPermSet(L*A, []perm{identityPerm(L * A), m}, fmt.Sprintf("reversal of %dx%d", L, A), big.NewInt(2))
}

// imagePerm returns the permutation of the h×w coordinates that moves (r, c) to f(r, c).
func imagePerm(h, w int, f func(r, c int) (int, int)) perm {
	p := make(perm, h*w)
	for r := range h {
		for c := range w {
			r2, c2 := f(r, c)
			p[r*w+c] = int32(r2*w + c2)
		}
	}
	return p
}

// dedupe drops repeated permutations, keeping the first of each.
func dedupe(ps []perm) []perm {
	seen := map[string]bool{}
	out := ps[:0:0]
	for _, p := range ps {
		if k := p.key(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

package data

import (
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// X_perm sizes (Mroueh, Voinea, Poggio, NIPS 2015, Sec. 5): sequences of length
// XPermLen over an alphabet of XPermAlphabet characters.
const (
	XPermLen      = 5
	XPermAlphabet = 8
)

// signClasses are the class names of the two-class generators: Y = 0 is "-1", Y = 1 is "+1".
var signClasses = []string{"-1", "+1"}

// XPerm returns the X_perm data set of Mroueh, Voinea and Poggio (NIPS 2015, Sec. 5): all
// 8^5 = 32,768 sequences of length 5 over an alphabet of 8 characters, in
// lexicographic order (sample k spells k in base 8, most significant position first).
// Sequence s is encoded as 5 one-hot blocks of 8,
//
//	X[k, 8*p + c] = 1 if s_p = c, else 0,   Shape [5, 8],
//
// and labelled by two distinct target characters a, b drawn from rng:
//
//	label +1 (Y = 1) iff a and b both occur in s, else -1 (Y = 0),
//
// so 8^5 - 2*7^5 + 6^5 = 6,930 sequences (21.1%) are positive. The labels are
// invariant under permutations of the positions. It returns the targets {a, b}.
func XPerm(rng *rand.Rand) (*Dataset, [2]int) {
	a := rng.IntN(XPermAlphabet)
	b := rng.IntN(XPermAlphabet - 1)
	if b >= a {
		b++
	}
	n := 1
	for range XPermLen {
		n *= XPermAlphabet
	}
	d := XPermLen * XPermAlphabet
	x := make([]float64, n*d)
	y := make([]int, n)
	for k := range n {
		row := x[k*d : (k+1)*d]
		hasA, hasB := false, false
		rest := k
		for p := XPermLen - 1; p >= 0; p-- {
			c := rest % XPermAlphabet
			rest /= XPermAlphabet
			row[p*XPermAlphabet+c] = 1
			hasA = hasA || c == a
			hasB = hasB || c == b
		}
		if hasA && hasB {
			y[k] = 1
		}
	}
	return &Dataset{
		Name:    "xperm",
		X:       mat.NewDense(n, d, x),
		Y:       y,
		Classes: append([]string(nil), signClasses...),
		Shape:   []int{XPermLen, XPermAlphabet},
	}, [2]int{a, b}
}

// CircleRadius2 is the squared radius of the toy circle problem of Chapelle and
// Schoelkopf ("Incorporating invariances in nonlinear SVMs", NIPS 2001).
const CircleRadius2 = 0.7

// Circle returns the toy problem of Chapelle and Schoelkopf: n points drawn uniformly
// from the square [-1, 1]^2 with
//
//	f(x) = sign(x_1^2 + x_2^2 - 0.7):   Y = 1 ("+1") outside the circle, Y = 0 ("-1") inside,
//
// Shape [2]. The labels are invariant under rotations about the origin. About
// 1 - 0.7*pi/4 = 45% of the points are positive. It panics if n < 1.
func Circle(n int, rng *rand.Rand) *Dataset {
	if n < 1 {
		panic(fmt.Sprintf("data: Circle of %d points", n))
	}
	x := make([]float64, 2*n)
	y := make([]int, n)
	for i := range n {
		u, v := 2*rng.Float64()-1, 2*rng.Float64()-1
		x[2*i], x[2*i+1] = u, v
		if u*u+v*v > CircleRadius2 {
			y[i] = 1
		}
	}
	return &Dataset{
		Name:    "circle",
		X:       mat.NewDense(n, 2, x),
		Y:       y,
		Classes: append([]string(nil), signClasses...),
		Shape:   []int{2},
	}
}

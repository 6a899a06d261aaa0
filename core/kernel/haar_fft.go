package kernel

import (
	"context"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// CyclicGroupOf reports whether G is a full cyclic-shift group that the FFT path
// ([Spectra], [CyclicGram]) pools over, and which: all h·w cyclic 2-D shifts of h×w
// images (mode [Shift2D]; with h = 1 the d cyclic shifts of vectors of length d), or the
// w cyclic shifts of the columns of h×w images, the same for every row (mode
// [ShiftCols]). G qualifies when it is a cyclic [group.Shifts2D] holding all h·w shifts,
// or exactly the w shifts (0, dx). Anything else (zero-fill or local shifts, a sample of
// the shifts, rotations, permutations, products) returns ok false.
func CyclicGroupOf(G group.Action) (h, w int, mode CyclicMode, ok bool) {
	s, isShift := G.(*group.Shifts2D)
	if !isShift || !s.Cyclic() {
		return 0, 0, 0, false
	}
	h, w = s.Size()
	// The shifts of a Shifts2D are distinct modulo (h, w) (CyclicShifts panics
	// otherwise), so h·w of them are all of them.
	if s.Len() == h*w {
		return h, w, Shift2D, true
	}
	if s.Len() != w {
		return 0, 0, 0, false
	}
	for i := range s.Len() {
		if dy, _ := s.Shift(i); dy != 0 {
			return 0, 0, 0, false
		}
	}
	return h, w, ShiftCols, true
}

// haarCyclicGram is the Haar kernel over the full cyclic group of the FFT path
// (CyclicGroupOf): for a base k0(x, z) = f(<x, z>, ||x||², ||z||²) and shifts S_s, which
// preserve inner products and form a group,
//
//	1/|G|² · sum_{s, s'} k0(S_s x, S_s' z) = 1/|G| · sum_s k0(S_s x, z),
//
// the average-fit kernel of [CyclicGram]. Z == X shares X's spectra.
func haarCyclicGram(ctx context.Context, k0 Base, h, w int, mode CyclicMode, X, Z *mat.Dense) (*mat.Dense, error) {
	A, err := NewSpectra(ctx, h, w, mode, X, nil)
	if err != nil {
		return nil, err
	}
	B := A
	if Z != X {
		if B, err = NewSpectra(ctx, h, w, mode, Z, nil); err != nil {
			return nil, err
		}
	}
	return CyclicGram(ctx, k0, AverageFit, A, B)
}

// haarCyclicSymGram is haarCyclicGram of the rows of X with themselves, upper triangle
// once, mirrored.
func haarCyclicSymGram(ctx context.Context, k0 Base, h, w int, mode CyclicMode, X *mat.Dense) (*mat.SymDense, error) {
	A, err := NewSpectra(ctx, h, w, mode, X, nil)
	if err != nil {
		return nil, err
	}
	return CyclicSymGram(ctx, k0, AverageFit, A)
}

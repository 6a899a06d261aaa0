// Package group implements finite sets of linear transformations ("group actions") on
// flat vectors with a shape: block permutations of one-hot sequences, cyclic and
// zero-fill translations and rotations of images, their products and random subsets.
// Every type implements [Action]; the feature maps and kernels of core/feature and
// core/kernel only see that interface.
//
// # Overview
//
//	Permutations(L, A, rng, k)      S_L (or k of it) permuting L blocks of A entries   [BlockPerm]
//	AllCyclicShifts(h, w)           all h·w wrap-around shifts of h×w images           [Shifts2D]
//	CyclicShifts(h, w, shifts)      the given wrap-around shifts
//	LocalShifts(h, w, k)            zero-fill shifts with |dy|, |dx| <= k, (2k+1)²
//	Rotations(h, w, degrees)        bilinear rotations about the centre (as scipy)     [RotationSet]
//	Affine(h, w, deg, shears, scales)  rotations x shears x scales, one gather each   [AffineSet]
//	Product(a, b)                   a_i ∘ b_j, |a|·|b| elements                         [ProductSet]
//	Sample(a, k, rng), Select(a, idx)  subsets                                         [SubsetSet]
//	DensePitchTempo, PaperPitchTempo  pitch shifts x tempo warps of spectrograms      [PitchTempo]
//	Orbit, OrbitTo, ApplyRows       g·x for all g, or one g for all rows
//	Canonical                       orbit classes of the rows of a matrix (for a group)
//
// Every constructor puts the identity first whenever the set contains it, so element 0
// can be skipped or used as "no transformation". Full groups (S_L, all cyclic shifts)
// are closed under composition and inverses; local shifts and rotation ranges are not
// groups (Mroueh et al.'s local invariance), and their ApplyInverse is exact only where
// documented.
//
// # Shapes
//
// An action acts on vectors of length Dim(): L·A for block permutations (one-hot
// sequences stored block after block), h·w for images stored row-major. Matrices hold
// one sample per row. Orbit returns |G|×d; ApplyRows and Canonical take n×d.
//
// # Errors
//
// All misuse is a programmer error and panics with a "group: " prefix: a vector of the
// wrong length, an element index outside [0, Len()), aliasing dst and x, impossible
// sizes, duplicate elements, a full symmetric group too large to enumerate. Canonical
// returns ctx.Err() (undecorated) when cancelled and no other error.
//
// # Concurrency
//
// Actions are immutable after construction and safe for concurrent use: Apply and
// ApplyInverse keep no state (ProductSet draws its scratch vector from a sync.Pool).
// Canonical runs GOMAXPROCS goroutines over blocks of rows.
package group

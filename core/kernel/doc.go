// Package kernel implements base kernels, Gram matrix builders, the Haar-integration
// (average-fit) invariant kernel and positive-definiteness diagnostics.
//
// # Overview
//
// Base kernels ([Base]) are functions of <x, z>, ||x||² and ||z||²: [Linear] <x, z>,
// [RBF] exp(-γ||x - z||²) and [Poly] (1 + γ<x, z>)^d. The builders [Gram] (train-test,
// n×m) and [SymGram] (n×n, upper triangle once, mirrored) get all inner products of a
// block of rows from one matrix product (gonum blas64 Dgemm; OpenBLAS under the
// openblas build tag of core/linalg) and apply the kernel elementwise.
//
// The Haar-integration kernel of Mroueh et al. (NIPS 2015),
//
//	K(x, z) = 1/|G|² · sum_{g, g' in G} k0(g·x, g'·z),
//
// has three builders. For a finite group G with k0(g·x, g·z) = k0(x, z) (permutations,
// cyclic shifts) it reduces to mean_h k0(x, h·z): [HaarGram] and [HaarSymGram] multiply
// blocks of X against the stacked orbits of blocks of Z, after grouping samples by orbit
// (equal orbits, equal kernel rows), and [OrbitTable] keeps the kernel between all
// orbits of a pool so that every draw's Gram matrix is a lookup (X_perm: 792 orbits).
// [HaarGramExact] evaluates the double mean term by term, for any set of
// transformations (local shifts, rotation ranges) and as the reference in tests.
// A linear k0 factorises for any set, K(x, z) = <mean_g g·x, mean_g g·z>, and the
// builders then use [OrbitMeans]; on X_perm this is <bow x, bow z>/5 (FINDINGS.md).
//
// The transformation-invariant kernels of Liu et al. take the maximum (best fit) or the
// mean (average fit) over a finite set of transformations T,
//
//	K_best(x, z) = max_T k0(T·x, z),   K_avg(x, z) = mean_T k0(T·x, z).
//
// [FitGram] and [FitSymGram] compute them for any group.Action as row-group maxima of one
// matrix product per block; [FitPairGram] does the same for kernels that are not a
// function of the inner product ([Pairwise], e.g. the [Locality] kernel, for L-TI and
// L-RI). For the full 2-D cyclic translation group, [NewSpectra] transforms every image once
// and [CyclicGram] / [CyclicSymGram] get all h·w shifted inner products of a pair from
// one inverse FFT (a specialised prime-factor transform for 28×28, in AVX2+FMA
// assembly on amd64 CPUs that have it for the best fit of increasing or even-degree
// polynomial bases; -tags purego keeps everything in Go); extra transformed copies
// (rotations) give TI-RI. [PolarGrid] resamples images on annuli × sectors so
// that a rotation is a cyclic shift of sectors. [Locality] is the multi-scale locality
// kernel (patch sums by box filters).
//
// [Liu] composes these into the kernels of Liu et al.'s tables from typed
// [LiuOptions]: a base or locality kernel, made invariant to translations (TI: every
// cyclic or zero-fill shift by FFT, or the (2r+1)² shifts of radius Shifts through
// GEMM), rotations (RI: rotated copies or a polar grid) or both (TI-RI), by the best or
// average fit; it picks the engine path and gives the training Gram, the test × training
// block and the test samples' own values.
//
// [MinEigen] returns the smallest eigenvalue of a symmetric Gram matrix; [Gershgorin]
// bounds it from the discs; [PDPrefix] and [LargestPD] give the largest n at which
// the Gram of a nested draw stays positive definite (Liu et al., Table I).
//
// # Shapes
//
// Samples are rows: X is n×d, Z is m×d, and a group acts on d = G.Dim(). Gram results
// are n×m *mat.Dense; symmetric ones are *mat.SymDense whose raw data holds the full
// mirrored matrix. X and Z may be views (stride larger than d).
//
// # Errors
//
// Shape mismatches (X and Z columns, group dimension, a sized dst of the wrong shape)
// are programmer errors and panic with a "kernel: " prefix. Bad kernel parameters
// (Validate), a result larger than [MaxGramBytes] (wrapping [ErrGramTooLarge]) and a
// non-group passed to the fast Haar builders are returned as one-line errors naming the
// fix. Cancellation returns ctx.Err() undecorated; ctx is checked once per row block.
//
// # Concurrency
//
// Builders spread row blocks over GOMAXPROCS goroutines (gonum's Dgemm may add its
// own); a panic in a worker is re-raised in the caller. Base kernels and OrbitTable are
// immutable and safe for concurrent use. MaxGramBytes is read without locking: set it
// before starting builders.
package kernel

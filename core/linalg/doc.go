// Package linalg wires the BLAS implementation used by the engine and holds the few
// numerical helpers every hot path shares: a context-aware parallel loop over blocks,
// float64↔float32 conversion of row blocks, the float32 GEMM C = A·Bᵀ of the
// projection with an AVX2+FMA micro-kernel for builds without OpenBLAS, and the
// float64 level-3 BLAS (and Dsymv, Dgemv) on Go-assembly kernels that the same builds install
// under gonum's blas64.
//
// # Overview
//
// The default build uses gonum's pure-Go BLAS (gonum.org/v1/gonum/blas/gonum), with its
// float64 level-3 routines, Dsymv and Dgemv replaced by this package's assembly ones ([Float64],
// below); it needs no C toolchain and works with CGO_ENABLED=0. Building with
//
//	go build -tags openblas ./...
//
// (Debian: apt-get install libopenblas-dev) routes blas64 and blas32 — and therefore every
// gonum mat product — through OpenBLAS via cgo (gonum.org/v1/netlib/blas/netlib), about
// 7-8x faster per core on this hardware. [BLAS] names the implementation in use.
//
// Kernel set. Debian's OpenBLAS is built with DYNAMIC_ARCH: it picks its kernels from the
// CPU model when the library loads, and falls back to its SSE3 "Prescott" kernels for a
// model it does not know. OpenBLAS 0.3.21 (Debian 12) does not know Emerald Rapids Xeons
// (family 6, model 207), whose float32 GEMM then runs at 64 GFLOP/s on two cores instead of 300
// with the AVX-512 kernels. The openblas build checks at start-up: when OpenBLAS has
// fallen back to Prescott on a CPU with AVX2 and FMA, and OPENBLAS_CORETYPE is not set, it
// re-executes the program with OPENBLAS_CORETYPE naming the kernel set the CPU's
// instruction sets allow (Cooperlake, SkylakeX or Haswell), and the re-executed process
// removes the variable again so that the programs it starts detect their own CPU.
// [BLASCore] names the version and kernel set, with a note when gitui chose it; result.json
// records it (the low-order bits of products depend on it). A user's OPENBLAS_CORETYPE
// is always kept.
//
// Threads. Debian's libopenblas0-pthread starts its own thread pool, and the engine already
// runs GOMAXPROCS goroutines over row blocks, each calling GEMM on its own block. Letting
// both layers spawn threads oversubscribes the cores (two goroutines × two OpenBLAS
// threads on two cores), so the openblas build sets OpenBLAS to one thread at start-up
// and leaves all parallelism to [ParallelFor]. Measured on the 2-core machine (CDF
// features of 10,000 MNIST digits, m = 100, |G| = 441; CPU seconds, which the other
// load on the machine distorts less than wall time): one OpenBLAS thread per goroutine
// 7.8 and 7.9 CPU-s; two OpenBLAS threads per goroutine (4 threads on 2 cores) 8.9 and
// 11.0; one goroutine driving two OpenBLAS threads (pooling then serial) 8.9 and 11.5.
// One thread per call also lets the pooling of one block overlap the GEMM of another.
// [SetBLASThreads] changes the count for code that calls one large GEMM from a single
// goroutine; it is a no-op in the pure-Go build, whose Dgemm/Sgemm are already parallel.
//
// # The float32 GEMM of the static build
//
// [PackB] and [PackedB.MulNT] compute C = A·Bᵀ (A m×k, B n×k, C m×n, row-major), the
// shape of the CDF projection (input rows times transformed templates). On amd64 CPUs
// with AVX2 and FMA, in builds without -tags purego or -tags openblas, they run a packed
// GEMM: PackB rearranges B in place into k×16 panels once, MulNT packs A into 6-row
// panels per call and a Go-assembly micro-kernel (sgemm_amd64.s) keeps a 6×16 tile of C
// in twelve YMM registers, two loads of B, six broadcasts of A and twelve FMAs per k
// index, k in blocks of about 256 so a panel of B stays in L1. On CPUs with AVX-512 F a
// second micro-kernel of the same contract runs instead: a ZMM register per row of the
// tile, one load of B and six FMAs with A broadcast from memory per k index, the even and
// the odd k in two sets of six accumulators (so that an FMA's latency is covered) added
// at the end; its Go twin is kernelGoSplit. It doubles the kernel's throughput here (175
// against 93 GFLOP per CPU-second) and takes the projection from 79 to 125, against
// gonum's 12-27 GFLOP/s. Each kernel's Go twin (kernelGo, kernelGoSplit: the same sums in
// the same order, without fused multiply-adds) is tested against it and against a float64
// reference. In
// the openblas build (cgo packages cannot hold Go assembly) and elsewhere MulNT calls
// blas32.Gemm. [SgemmImpl] names the path. MulNT is single-threaded: the projection
// already runs one product per worker on its own row block, which measured as fast as
// splitting one product over the cores (see BenchmarkSgemmProjection).
//
// # The float64 BLAS of the static build
//
// [Float64] is a blas.Float64 that embeds gonum's pure-Go implementation and overrides
// its level-3 routines (Dgemm, Dsyrk, Dsyr2k, Dtrmm, Dtrsm, Dsymm), Dsymv and Dgemv. The default
// build installs it with blas64.Use at start-up on amd64 CPUs with AVX2 and FMA, so that
// gonum's mat and lapack (Dsytrd, Dorgtr, Dpotrf, ...) run on it unchanged; the openblas
// build installs OpenBLAS instead and -tags purego leaves gonum's code. Dgemm is a
// GotoBLAS-style packed GEMM: op(B) packed nc = 576 columns at a time into 24-wide panels,
// op(A) packed (times alpha) 960 rows at a time into 8-high panels, k in equal blocks of
// at most 320, and a Go-assembly micro-kernel (dgemm_amd64.s) keeping an 8×24 tile of C
// in 24 ZMM registers (three loads of B, eight broadcasts of A, 24 FMAs per k index),
// with a 6×8 tile of YMM registers on CPUs without AVX-512. Products above 2²² flops are
// split over GOMAXPROCS goroutines by whole tiles of C's columns or rows, so that the
// result does not depend on the split. The other level-3 routines are blocked on top of
// it (blocks of 192; Dtrsm's diagonal blocks of 64 are solved by gonum's code, split over
// goroutines). Dsymv, half the flops of the tridiagonal reduction and bound by memory,
// reads each stored entry of A once in a fused dot product and axpy (dsymv_amd64.s).
// Dgemv, the other level-2 half of the reduction (gonum's Dlatrd, Dlarf), reads A once
// on AVX2 kernels (dgemv_amd64.s; bound by memory, so AVX-512 CPUs run them too): y =
// A·x as dot products four rows at a time, y = Aᵀ·x as y updated by four rows at a time;
// large products are split by rows or by column ranges of at most 2048 (shorter stretches
// of A's rows starve the hardware prefetcher), each entry of y whole on one goroutine.
// At 4000×4000 on the AMD EPYC (family 23, 2 cores, heavily loaded: rough figures) it
// read A at 9.4-11.3 GB per CPU-second for y = A·x against gonum's SSE2 Dgemv's 8.4-10.1,
// and at 7.4-8.4 for Aᵀ·x against 8.4-10.4 (gonum reads whole rows): both at the
// memory's bound per core, so what it adds is the split over the cores.
// Every kernel has a Go twin (math.FMA in the assembly's order) that the tests hold bit
// for bit against it, and each routine is tested against gonum's. [DgemmImpl] names the
// kernel: "avx512", "avx2" or "blas64 (...)".
//
// # Shapes
//
// [ParallelFor] splits [0, n) into blocks of blockSize indices (the last may be shorter).
// [ToFloat32] and [ToFloat64] convert equal-length slices; [RowsToFloat32] copies a row
// block of a *mat.Dense into a dense row-major float32 buffer.
//
// # Errors
//
// Length mismatches panic with a "linalg: " prefix. [ParallelFor] returns the first error
// a block function returned, or ctx.Err() undecorated when the context was cancelled.
//
// # Concurrency
//
// [ParallelFor] runs up to GOMAXPROCS goroutines; a panic in a block function is
// recovered in the worker and re-raised in the caller's goroutine after all workers have
// stopped. [SetBLASThreads] changes process-wide state and should be called before, not
// during, concurrent BLAS work.
package linalg

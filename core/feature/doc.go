// Package feature computes feature maps for learning with group-invariant features: the
// raw and bag-of-words baselines and the I-theory maps of Mroueh, Voinea and Poggio
// ("Learning with Group Invariant Features: A Kernel Perspective", NIPS 2015): CDF
// pooling and moment pooling of the projections of an input on transformed templates.
//
// # Overview
//
// Every map implements [Map]. For the invariant maps, m templates t_j (rows of a matrix:
// [GaussianTemplates], [SphereTemplates] or [DataTemplates]) are transformed by every
// element of a finite set G (a group.Action), and the projections <g_i t_j, x> are
// pooled over i: by an empirical CDF at 2n+1 thresholds ([CDF]) or by mean, second
// moment and maximum ([Moments]). [OrbitDistance] is the distance d_G of Theorem 1, to
// which s - <Phi(x), Phi(z)> converges.
//
// The hot path. For a block of input rows the projections on all transformed templates
// of a template chunk are ONE matrix product (blockRows × d)·(d × chunk·|G|), done in
// float32 by linalg's PackB/MulNT (the templates of a chunk packed once; an AVX2+FMA
// micro-kernel on amd64, OpenBLAS with -tags openblas, gonum's Sgemm with -tags purego or
// on a CPU without AVX2/FMA; see core/linalg), and
// pooled at once while the block is still in cache: per (sample, template) one pass over
// the |G| projections into a histogram of threshold bins, then a cumulative sum. Row
// blocks run in parallel on GOMAXPROCS workers. Transformed templates are built once
// per template block (at most DefaultTemplateBytes of float32), so m in the thousands
// never materialises m·|G|·d floats, and no n×m|G| projection matrix ever exists:
// besides the n×D result, memory is one template block plus, per worker, 256 rows of
// input and 256×4096 projections in float32 (about 4 MiB). Coordinates that are zero in
// every input row or in every transformed template of a block (MNIST: 111 of 784
// pixels) add exact zeros and are dropped from the product.
//
// Why float32 is enough: inputs and templates are (close to) unit norm, so every
// projection lies in [-1, 1] and its float32 GEMM value is within about 1e-6 of the
// exact one; a CDF feature only records which side of a threshold a projection falls
// on, so a count can differ from exact arithmetic only for projections within ~1e-6 of
// a threshold (the reference test bounds exactly this). Moments are accumulated in
// float64 from the float32 projections. Float32 doubles GEMM throughput and halves memory
// traffic.
//
// # Shapes
//
// Inputs are n×d (*mat.Dense, rows are samples); templates m×d with d = g.Dim(). Outputs
// are new n×D matrices: D = d (Raw), A (BagOfWords on shape [L, A]), m·(2n+1) (CDF,
// template-major: column j·(2n+1)+k is template j, threshold k) and 3m (Moments:
// mean, second moment, max per template).
//
// # Errors
//
// Shape mismatches (input width, template width versus the group) panic with a
// "feature: " prefix. Invalid options (Bins < 1, Eps < 0) and too few rows for
// DataTemplates return one-line errors naming the fix; Transform of a CDF with
// RangeThresholds before Fit returns [ErrNotFitted]. Cancellation returns ctx.Err()
// undecorated; it is checked before every GEMM chunk (a few templates × one row block,
// about 0.1 s with pure-Go BLAS on an idle core, about 15 ms with OpenBLAS).
//
// # Concurrency
//
// Transform and Fit run up to GOMAXPROCS goroutines and call the group action
// concurrently (group.Action implementations are stateless). A map may be used by several
// goroutines at once for Transform; Fit mutates it and must not run concurrently with
// anything else on the same map. The progress callback is called from worker goroutines,
// one call at a time.
package feature

// Package learn holds the learners of gitui: regularised least squares (RLS) with
// leave-one-out selection of lambda, 1-nearest-neighbour, the SVM (SMO), and the
// metrics they are judged by.
//
// # Overview
//
// Labels are class indices y in [0, k). Every trained model implements Classifier:
// Decision gives an m×k score matrix and Predict the predicted classes. Feature models
// (LinearRLS, NN) take feature rows; kernel models (KernelRLS, KernelNN, SVC) take
// rows of a cross kernel against the training samples.
//
// RLS (GURLS-style, Mroueh et al. NIPS 2015 use it on CDF features) fits k
// one-vs-all columns with ±1 targets,
//
//	min_{w,b} ||F w + b 1 - Y_c||² + n lambda ||w||²,
//
// with an unpenalised intercept b (exact: the features, or the Gram matrix, are
// centred, so the leave-one-out formula below stays exact). FitRLS works on features
// and drops constant columns first; it solves in the primal (the D×D covariance) when
// fewer features than samples remain, else in the dual (the n×n Gram matrix), and in
// the grouped form (FormGrouped) when the training set has few distinct rows u (X_perm:
// samples of one orbit share their features): the same problem, exactly, at the cost of
// a u×u decomposition. FitKernelRLS works on a precomputed Gram matrix. FitRLSRows
// fits the same model on rows of any Rows (compact features such as
// core/feature.Counts) without a dense copy, streaming them in blocks; LinearRLS's
// DecisionRows and PredictRows score Rows block by block.
//
// The invariant SVMs of Chapelle and Schoelkopf are TrainInvariantSVM (tangent vectors,
// C_gamma^(-1) in input space, or in feature space through the Gram matrix of the
// tangents mapped by kernel derivatives) and TrainVSV (virtual support vectors);
// TrainSVC is the LIBSVM-exact C-SVC they and Liu et al.'s kernels use.
//
// Leave-one-out costs one decomposition for the whole lambda grid, as in GURLS, but
// the decomposition is the Householder reduction to tridiagonal form C = Q T Qᵀ (the
// first half of an eigendecomposition) rather than the eigendecomposition itself. For
// each lambda, with A = T + n lambda I = L D Lᵀ (O(r) to factor), the fit and the
// diagonal of the hat matrix follow from B = F_c Q (or its dual analogue):
//
//	yhat = ybar + B A^-1 BᵀY,   H_ii = 1/n + b_iᵀ A^-1 b_i,   e_i = (y_i - yhat_i)/(1 - H_ii),
//
// O(n r k) per lambda. This is exact, and it avoids the QR iteration on T for the
// eigenvectors, which in gonum's pure-Go LAPACK is what makes mat.EigenSym take minutes
// at r = 3000. Built with -tags openblas, the reduction is instead OpenBLAS's LAPACK
// dsyevd (divide and conquer; T is then diagonal), about 3x faster than gonum's
// Dsytrd at r = 3000; the formulas are unchanged. lambda is the candidate with the highest leave-one-out accuracy
// (argmax over the one-vs-all columns), ties broken by the smaller mean squared LOO
// residual, then by the larger lambda. Grids are relative to the largest eigenvalue
// e_max of the centred covariance or Gram matrix: rho = n lambda / e_max; DefaultGrid
// reaches down to 1e-12.
//
// NN and KernelNN are 1-nearest-neighbour classifiers; squared distances come from one
// matrix product per row block, ||x||² + ||z||² - 2 xᵀz (or k(x,x) + k(z,z) - 2k(x,z)),
// and ties, which are common on 0/1 data, are broken uniformly at random with a
// caller-supplied *rand.Rand.
//
// Accuracy, BalancedAccuracy (mean per-class recall) and ConfusionMatrix score
// predictions.
//
// # Shapes
//
// Features are n×D *mat.Dense (one sample per row), Gram matrices n×n *mat.SymDense,
// cross kernels m×n *mat.Dense (row i against the n training samples). LinearRLS.W is
// D×k, KernelRLS.C is n×k, decisions are m×k. Targets for one-vs-all are n×k with
// entries ±1 (OneVsAll).
//
// Memory of a feature RLS fit: a centred copy of the non-constant columns (n×D'
// floats, later overwritten by B), GOMAXPROCS+1 matrices of r×r for the covariance and
// Q, and r×25k for the grid. At n = 10,000 and D' = 3,000 that is about 0.5 GB.
// FitRLSRows needs no n×D' copy: in the primal one D'×D' matrix (plus rowChunk×D' and
// per-worker 256×D' blocks), in the dual one n×n matrix (plus n×512 columns at a time).
//
// # Errors
//
// Shape mismatches (labels vs rows, inputs with the wrong number of columns, k < 2 for
// RLS) are programmer errors and panic with the prefix "learn:", "rls:" or "nn:".
// Input problems return one-line errors naming the problem and the fix: labels outside
// [0, k), non-finite values, lambda < 0, non-positive grid values, fewer than 2
// samples, and inputs with nothing to learn (every feature constant, or a constant
// Gram matrix), the last wrapping ErrNothingToLearn. Cancellation returns ctx.Err()
// undecorated; contexts are checked between stages and between row blocks, but the
// tridiagonal reduction (seconds at r in the thousands) runs to completion.
//
// Accuracy limits: the primal route is backward stable down to relative lambdas of
// 1e-12 (tested). A dual fit on features with a rank-deficient Gram matrix (forced by
// FormDual with D' < n) loses accuracy as eps/rho in the weights; FormAuto never picks
// it. A fixed lambda = 0 gives the minimum-norm least-squares fit through the
// eigendecomposition of T (slow: O(r³) QR iterations).
//
// # Concurrency
//
// The fits and predictions spread row blocks over GOMAXPROCS goroutines
// (core/linalg.ParallelFor); the covariance or Gram matrix is accumulated in GOMAXPROCS
// independent rank-k updates. Built with -tags openblas, products go through OpenBLAS
// (one thread per call, see core/linalg) and the reduction calls dsyevd through cgo. Fitted models are read-only and safe for
// concurrent Decision and Predict calls, except NN and KernelNN, which draw tie-breaking
// numbers from their *rand.Rand and must be used by one goroutine at a time. Results
// do not depend on the number of goroutines: sums over blocks are combined in block
// order and tie-breaking seeds are drawn per block in order.
package learn

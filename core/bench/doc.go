// Package bench times the engine's hot paths on this machine for `gitui bench`, on the
// same workloads as the peers in ../shared/bench (numpy/scipy, LIBSVM), so the numbers
// line up side by side.
//
// # Overview
//
// Each benchmark is a function returning a [Result]: wall seconds, a throughput with its
// unit, and parameters (problem sizes, the BLAS in use, stage times, GFLOP/s). The
// cmd/gitui wiring prints one line per Result or, with --json, one JSON object per line
// with the names name, seconds, throughput, unit and params. [Features] is the I-theory
// CDF feature map on MNIST (the workload of cdf_features.py); [TIGram] and [TestGram]
// are the TI best-fit Gram over all 784 cyclic shifts, training (upper triangle) and
// test (the workloads of ti_gram.py); [SMO] is LIBSVM-style C-SVC training on a
// precomputed degree-8 polynomial Gram, generated or read from the peer's file (the
// workload of svm_precomputed.sh). Each checks its result against the plain definition
// on a few entries.
//
// # Shapes
//
// Benchmarks read MNIST from dataDir/mnist (IDX, gzipped). For features n is the number
// of images taken from the front of the 10k training file; the kernel benchmarks take n
// distinct images of that file in a fixed random order (a PCG(0, 0) permutation), and
// test-gram the first `test` images of t10k.
//
// # Errors
//
// A missing or unreadable data file, or sizes outside what the data allows, return a
// one-line error naming the problem and the fix (wrapped with %w), marked as an
// [data.InputError] so that callers can tell bad input from a failure. Cancellation returns
// ctx.Err() undecorated.
//
// # Concurrency
//
// A benchmark uses every core (GOMAXPROCS goroutines, see core/linalg): run benchmarks
// one at a time and on an otherwise idle machine, and compare with a peer run right
// before or after, not with numbers from another moment.
package bench

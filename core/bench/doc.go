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
// CDF feature map on MNIST (the workload of cdf_features.py).
//
// # Shapes
//
// Benchmarks read MNIST from dataDir/mnist (IDX, gzipped); n is the number of images
// taken from the front of the 10k training file.
//
// # Errors
//
// A missing or unreadable data file, or sizes outside what the data allows, return a
// one-line error naming the problem and the fix (wrapped with %w). Cancellation returns
// ctx.Err() undecorated.
//
// # Concurrency
//
// A benchmark uses every core (GOMAXPROCS goroutines, see core/linalg): run benchmarks
// one at a time and on an otherwise idle machine, and compare with a peer run right
// before or after, not with numbers from another moment.
package bench

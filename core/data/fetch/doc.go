// Package fetch downloads the public image data sets gitui knows by name (MNIST,
// Fashion-MNIST) into a cache directory, checking the SHA-256 of every file.
//
// # Overview
//
// Fetch(ctx, "mnist", cacheDir, Options{}) leaves the four official gzipped IDX files in
// cacheDir/mnist and returns that directory. Downloads are resumable: bytes go to
// NAME.part and a later call (or an automatic retry after a dropped connection) asks the
// server for the rest with an HTTP Range request. They are atomic: the part file is
// renamed to NAME only after its size and SHA-256 match; a mismatch deletes the part file
// and returns a *ChecksumError. Files already in place are re-hashed and kept. For
// Fashion-MNIST, the files of the Debian package dataset-fashion-mnist in
// /usr/share/datasets/fashion-mnist are used when present and intact, and nothing is
// downloaded.
//
// # Shapes
//
// Not applicable: the package moves files. Sizes are bytes (int64); hashes are
// lower-case hexadecimal SHA-256 strings of 64 characters.
//
// # Errors
//
// Unknown names, HTTP failures and files that cannot be written return one-line errors
// that name the file or URL and the fix. A hash or size mismatch returns *ChecksumError
// (match it with errors.As). Cancelling ctx returns ctx.Err() undecorated and keeps the
// part file, so the next call resumes.
//
// # Concurrency
//
// Fetch downloads one file at a time and may be called from any goroutine. Two Fetch
// calls (or two processes) must not fill the same cache directory at the same time: they
// would write the same part files.
package fetch

// Package data holds gitui's data sets: readers for image and user files, the
// generators of the papers' synthetic problems, and seeded draws of training and test
// sets.
//
// # Overview
//
// A Dataset is an n×d sample matrix X (row i is sample i), labels Y in
// [0, len(Classes)) and the Shape of one sample. Sources:
//
//   - IDX (MNIST, Fashion-MNIST; gzipped or raw, detected from the content): LoadIDX,
//     ReadIDXImages, ReadIDXLabels; Open finds the official files of a named set in a
//     data directory (ResolveDir: --data, else $GITUI_DATA, else the user cache
//     directory) and, for Fashion-MNIST, in Debian's /usr/share/datasets; Available
//     lists what is on disk. Pixels are scaled to [0, 1].
//   - User files: LoadCSV, LoadNPY / LoadNPZ (NumPy), LoadLIBSVM (svmlight text),
//     LoadParquet (Apache Parquet), and LoadFile, which chooses the reader of the file's
//     registered Format (RegisterFormat, Formats, FormatOf: by name, else magic bytes).
//   - Generators: XPerm (Mroueh, Voinea, Poggio, NIPS 2015, Sec. 5) and Circle (Chapelle
//     and Schoelkopf's toy problem).
//   - Spoken digits: ReadFSDD (the Free Spoken Digit Dataset's layout, also gitui's
//     synthetic corpus from SynthSpokenDigits), ReadAudioMNIST, ReadTIDIGITSTree, and
//     AudioDataset, which turns recordings into spectrograms (core/audio) in parallel;
//     DrawUnits draws whole sampling units (Dataset.Units).
//   - Draws: Draw (plain, stratified, balanced), Split, Exclude, ClassCounts; and
//     Normalize, which scales rows to the unit sphere.
//   - Labels across files: LabelKey (the value a class name stands for: "7", "7.0" and
//     "+7" are one label), AlignClasses (a test set relabelled to the training set's
//     classes, an *UnknownLabelError for a label training lacks) and KeepClasses.
//
// # Shapes
//
// Images have Shape [rows, cols] and are stored row-major; X_perm sequences have Shape
// [5, 8] (5 one-hot blocks of 8); CSV, LIBSVM and 2-D NumPy data have Shape [d]; a 3-D
// NumPy array (n, h, w) gives Shape [h, w]. Every reader returns a Dataset that passes
// Validate; all values are finite (|v| <= 1e300).
//
// # Errors
//
// Bad input returns a one-line error naming the problem and the fix, wrapped with the
// file name ("load PATH: ..."). Text formats return *ParseError with the line and
// field. Missing named data sets wrap ErrNotFound. Header sizes never drive an
// allocation beyond what the file can hold: memory grows with the bytes actually read
// (or is sized by the file itself: a .npy body no larger than the file could expand
// to), and sizes past the value cap are rejected: MaxValues (2^28 values,
// $GITUI_MAX_VALUES), or fewer when the memory available (AvailableMemory:
// $GITUI_MEMORY_LIMIT, MemAvailable, the cgroup's room, RLIMIT_AS) holds fewer as
// float64; a gzip stream is read up to MaxDecompressedBytes (2 GiB,
// $GITUI_MAX_DECOMPRESSED_BYTES, ErrDecompressedTooLarge); text lines are bounded while
// they are read (CSV 2 MiB, LIBSVM 16 MiB). Programmer errors (negative sizes, labels
// outside [0, k) passed to Draw or ClassCounts) panic with the prefix "data: ".
//
// # Memory
//
// A load holds no more than its final arrays (plus fixed buffers): CSV and LIBSVM files
// are read twice, a first pass counting lines (and refusing a file past the value cap
// before holding any of it), a second parsing into arrays allocated once; .npy bodies
// are decoded as they arrive; IDX pixels are read into blocks and turned into float64
// block by block. SizeOfFile gives a file's size before the load (headers, or the first
// pass, whose count the load reuses), and CheckFileMemory refuses a set that cannot fit.
// LoadFileContext stops a load at its next read once its context is done.
//
// # Concurrency
//
// Functions hold no package state (but a mutex-guarded cache of the last text file's
// first-pass count) and may run concurrently; a *rand.Rand passed in must
// not be shared between goroutines. A Dataset is not modified by any function here
// (Normalize and Subset return copies), so concurrent readers of one Dataset are safe.
package data

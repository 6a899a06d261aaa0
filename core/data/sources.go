package data

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
)

// LoadRequest is what a named data set's loader is given: plain parameters, so that the
// table of data sets needs nothing above core.
type LoadRequest struct {
	Name     string // the data set's name, as registered
	Dir      string // the data directory (mnist/, fashion-mnist/, fsdd/, ...)
	Path     string // a file of samples (data set "file") or a corpus folder
	TestPath string // a separate test file ("" : hold out part of Path)
	Label    string // the label column of a CSV or TSV file (name or 0-based index; "": the last)
	Pool     int    // cap on the training pool (0: all); generators use it as their size
	TestSize int    // test samples (0: the data set's own default)
	Holdout  int    // a validation split will replace the test set (> 0): keep the full test set
	Seed     uint64 // the spec's seed, for loaders that derive streams of their own
	// Rand is the seeded stream of the load: generated sets and held-out splits draw from
	// it, and the caller goes on drawing from it after the loader returns.
	Rand *rand.Rand
	// Progress, when not nil, gets the items read so far over those to read (loaders
	// that read one file per sample).
	Progress func(done, total int)
	// Options holds what a data set configures beyond these (spoken digits: the spec's
	// audio block), for a loader registered above core; nil otherwise.
	Options any
}

// Loader loads a named data set: its training pool and test set, before the steps every
// data set shares (class selection, holdout, caps, normalization), which the caller
// applies. Errors in the input (a missing data set, a bad file, a size larger than the
// set) are *InputError; a cancelled load returns ctx.Err().
type Loader func(ctx context.Context, r LoadRequest) (pool, test *Dataset, err error)

var (
	sourcesMu sync.RWMutex
	sources   = map[string]Loader{}
)

// Register adds the loader of the data set called name to the table LoadNamed reads. Each
// data set registers itself (in an init function); registering a name twice panics.
func Register(name string, l Loader) {
	sourcesMu.Lock()
	defer sourcesMu.Unlock()
	if _, dup := sources[name]; dup {
		panic("data: Register called twice for " + name)
	}
	sources[name] = l
}

// Registered returns the names of the registered data sets, sorted.
func Registered() []string {
	sourcesMu.RLock()
	defer sourcesMu.RUnlock()
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// LoadNamed loads the data set r.Name with its registered loader. It reports ok false
// (and nothing else) when no data set of that name is registered.
func LoadNamed(ctx context.Context, r LoadRequest) (pool, test *Dataset, ok bool, err error) {
	sourcesMu.RLock()
	l, ok := sources[r.Name]
	sourcesMu.RUnlock()
	if !ok {
		return nil, nil, false, nil
	}
	pool, test, err = l(ctx, r)
	return pool, test, true, err
}

// XPermTestDefault is the number of X_perm sequences held out for testing when the
// request's TestSize is 0; the pool is the other 24,768 sequences.
const XPermTestDefault = 8000

func init() {
	Register("xperm", loadXPerm)
	Register("circle", loadCircle)
	Register("mnist", loadMNISTLike)
	Register("fashion-mnist", loadMNISTLike)
	for _, n := range []string{"mnist-translated", "mnist-rotated", "digits16"} {
		Register(n, loadFromMNIST)
	}
	Register("file", loadFiles)
	Register("usps", loadUSPS)
	Register("usps-binary", loadUSPS)
	Register(EMNISTLettersName, loadEMNISTLetters)
}

// loadXPerm generates the X_perm sequences (Mroueh et al.) and holds out TestSize of them
// (XPermTestDefault when 0) for testing, a seeded split.
func loadXPerm(_ context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	all, _ := XPerm(r.Rand)
	nt := r.TestSize
	if nt == 0 {
		nt = XPermTestDefault
	}
	if nt >= all.Len() {
		return nil, nil, InputErr(fmt.Errorf("data.test_size %d leaves no training pool of the %d X_perm sequences: use at most %d", nt, all.Len(), all.Len()-100))
	}
	perm := r.Rand.Perm(all.Len())
	test, pool = all.Subset(perm[:nt]), all.Subset(perm[nt:])
	test.Name, pool.Name = "xperm-test", "xperm-pool"
	return pool, test, nil
}

// loadCircle generates Chapelle and Schoelkopf's toy problem: Pool (1000) training and
// TestSize (10,000) test points.
func loadCircle(_ context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	np, nt := r.Pool, r.TestSize
	if np == 0 {
		np = 1000
	}
	if nt == 0 {
		nt = 10000
	}
	return Circle(np, r.Rand), Circle(nt, r.Rand), nil
}

// loadMNISTLike reads MNIST or Fashion-MNIST (IDX files) from the data directory.
func loadMNISTLike(_ context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	if pool, err = Open(r.Dir, r.Name, "train"); err != nil {
		return nil, nil, InputErr(err)
	}
	if test, err = Open(r.Dir, r.Name, "test"); err != nil {
		return nil, nil, InputErr(err)
	}
	return pool, test, nil
}

// loadFromMNIST generates Liu et al.'s translated (64×64) and rotated MNIST (Sec. IV-A)
// and Chapelle's 16×16 digits from MNIST, seeded; the pool and a test set of TestSize
// (without a holdout) are capped before generating.
func loadFromMNIST(_ context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	if pool, err = Open(r.Dir, "mnist", "train"); err != nil {
		return nil, nil, InputErr(err)
	}
	if test, err = Open(r.Dir, "mnist", "test"); err != nil {
		return nil, nil, InputErr(err)
	}
	// Cap before generating: the transformed sets are 64×64.
	if r.Pool > 0 && r.Pool < pool.Len() {
		pool = pool.Subset(firstRows(r.Pool))
	}
	if r.TestSize > 0 && r.TestSize < test.Len() && r.Holdout == 0 {
		idx, err := Draw(r.Rand, test.Y, r.TestSize, DrawOptions{Mode: Stratified, Classes: len(test.Classes), What: "data.test_size"})
		if err != nil {
			return nil, nil, InputErr(err)
		}
		test = test.Subset(idx)
	}
	switch r.Name {
	case "mnist-translated":
		pool, test = Translated64(pool, r.Rand), Translated64(test, r.Rand)
	case "mnist-rotated":
		pool, test = Rotated(pool, r.Rand), Rotated(test, r.Rand)
	default:
		pool, test = Digits16(pool), Digits16(test)
	}
	pool.Name, test.Name = r.Name+"-train", r.Name+"-test"
	return pool, test, nil
}

// loadFiles reads a training file (CSV, NPY, LIBSVM, IDX: LoadFile) and its test file,
// or holds out a stratified TestSize (a fifth when 0) of the training file.
func loadFiles(ctx context.Context, r LoadRequest) (pool, test *Dataset, err error) {
	// LoadFileContext, so that a cancelled load (the TUI's stale preview) stops.
	if pool, err = LoadFileLabelContext(ctx, r.Path, r.Label); err != nil {
		return nil, nil, loadErr(ctx, err)
	}
	// A file whose samples are all the same is refused before it is copied.
	if err := pool.CheckVaries(); err != nil {
		return nil, nil, InputErr(fmt.Errorf("%s: %w", r.Path, err))
	}
	if r.TestPath != "" {
		if test, err = LoadFileLabelContext(ctx, r.TestPath, r.Label); err != nil {
			return nil, nil, loadErr(ctx, err)
		}
		if test.Dim() != pool.Dim() {
			return nil, nil, InputErr(fmt.Errorf("test file %s has %d features, training file %d: use files of the same shape", r.TestPath, test.Dim(), pool.Dim()))
		}
		return pool, test, nil
	}
	if r.Holdout > 0 {
		// With data.holdout the test set is the holdout, drawn by the caller from the
		// whole file; no automatic fifth is set aside (and lost) first.
		return pool, pool, nil
	}
	// Hold out a stratified fifth of the file for testing.
	nt := r.TestSize
	if nt == 0 {
		nt = pool.Len() / 5
	}
	idx, err := Draw(r.Rand, pool.Y, nt, DrawOptions{Mode: Stratified, Classes: len(pool.Classes), What: "data.test_size"})
	if err != nil {
		return nil, nil, InputErr(err)
	}
	return pool.Subset(Exclude(firstRows(pool.Len()), idx)), pool.Subset(idx), nil
}

// loadErr is the error of a data file's load: ctx's error when the load stopped because
// ctx was cancelled (not bad input), else an *InputError.
func loadErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return InputErr(err)
}

// firstRows returns 0, 1, ..., n-1.
func firstRows(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

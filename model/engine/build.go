package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gitui/core/data"
	_ "gitui/core/data/embedded" // registers the data set "embedded"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/model"
)

// inputErr wraps err as an input error (*data.InputError): exit status 2 at the command
// line, shown inline in the TUI.
func inputErr(err error) error { return data.InputErr(err) }

// LoadData loads or generates the data set of d and splits it into a training pool and a
// test set. Generated sets (xperm, circle) and held-out splits are seeded by seed. Rows are
// scaled to unit norm unless d.Normalize is false (the papers put inputs on the unit
// sphere). Errors are *InputError. It is LoadDataContext without cancellation or
// progress.
func LoadData(d model.DataSpec, dataDir string, seed uint64) (pool, test *data.Dataset, err error) {
	return LoadDataContext(context.Background(), d, dataDir, seed, nil)
}

// LoadDataContext is [LoadData] that can be cancelled and reports progress. Spoken-digit
// data read one recording at a time (tens of thousands of files): there ctx is checked
// before each recording, so a cancelled load stops within milliseconds with ctx.Err()
// (not an *InputError), and progress, when not nil, gets the recordings read so far
// over those to read (pool and test set together), at most about two hundred times,
// never concurrently. Other data load in one piece and ignore both.
func LoadDataContext(ctx context.Context, d model.DataSpec, dataDir string, seed uint64, progress func(done, total int)) (pool, test *data.Dataset, err error) {
	pool, test, _, err = LoadDataUsed(ctx, d, dataDir, seed, progress)
	return pool, test, err
}

// LoadDataUsed is [LoadDataContext] that also returns the name of the data set it
// loaded: d.Name, or d.Fallback when d.Name's files are not in the data directory (its
// loader's error wraps data.ErrNotFound) and d names a fallback. missing is then that
// error (for the run log), else nil. Without a fallback a missing data set is an error.
func LoadDataUsed(ctx context.Context, d model.DataSpec, dataDir string, seed uint64, progress func(done, total int)) (pool, test *data.Dataset, used string, err error) {
	pool, test, err = loadData(ctx, d, dataDir, seed, progress)
	if err == nil || d.Fallback == "" || !errors.Is(err, data.ErrNotFound) {
		return pool, test, d.Name, err
	}
	missing := err
	fb := d
	fb.Name, fb.Fallback = d.Fallback, ""
	if pool, test, err = loadData(ctx, fb, dataDir, seed, progress); err != nil {
		return nil, nil, "", inputErr(fmt.Errorf("data.name %s is not in the data directory (%v), and its fallback %s could not be loaded: %w", d.Name, missing, fb.Name, err))
	}
	return pool, test, fb.Name, nil
}

// loadData is LoadDataContext for one data set, without the fallback.
func loadData(ctx context.Context, d model.DataSpec, dataDir string, seed uint64, progress func(done, total int)) (pool, test *data.Dataset, err error) {
	rng := rand.New(rand.NewPCG(seed, 0xda7a))
	// Each data set registers its loader in core/data's table (the spoken digits in
	// audio.go); the steps below are every data set's.
	pool, test, ok, err := data.LoadNamed(ctx, data.LoadRequest{Name: d.Name, Dir: dataDir, Path: d.Path, TestPath: d.TestPath, Label: d.LabelColumn,
		Pool: d.Pool, TestSize: d.TestSize, Holdout: d.Holdout, Seed: seed, Rand: rng, Progress: progress, Options: d})
	if !ok {
		return nil, nil, inputErr(fmt.Errorf("data.name %q is unknown: use one of %v", d.Name, model.DataNames))
	}
	if err != nil {
		return nil, nil, err
	}
	if err := pool.Validate(); err != nil {
		return nil, nil, inputErr(err)
	}
	if err := test.Validate(); err != nil {
		return nil, nil, inputErr(err)
	}
	if len(d.Classes) > 0 {
		names, err := classNames(pool, d.Classes)
		if err != nil {
			return nil, nil, err
		}
		pool, test = pool.KeepClasses(names), test.KeepClasses(names)
		if test.Len() == 0 {
			return nil, nil, inputErr(fmt.Errorf("data.classes %v: no sample of the %s carries one of these labels: list labels that occur in the test set", d.Classes, testSource(d, test)))
		}
	}
	// The classes are those the pool carries, not every name its format knows (ten digits
	// over a file of three): no empty confusion rows, no class count that is not there.
	pool = pool.DropEmptyClasses()
	// One label map, the training pool's: the test set's labels are matched to it by value,
	// whatever order or subset of the classes its own file holds.
	if test, err = test.AlignClasses(pool.Classes); err != nil {
		return nil, nil, inputErr(fmt.Errorf("%s: %w of %s: train on data holding these labels, or keep only the training classes with data.classes", testSource(d, test), err, trainSource(d, pool)))
	}
	if d.Holdout > 0 {
		// A validation split: the test set becomes a stratified draw of the pool, and the
		// pool the rest (before the pool cap, so the split does not depend on it).
		if d.Holdout >= pool.Len() {
			return nil, nil, inputErr(fmt.Errorf("data.holdout %d leaves no training pool of %d samples: use at most %d", d.Holdout, pool.Len(), pool.Len()/2))
		}
		idx, err := data.Draw(rand.New(rand.NewPCG(seed, 0x4a1d)), pool.Y, d.Holdout, data.DrawOptions{Mode: data.Stratified, Classes: len(pool.Classes), What: "data.holdout"})
		if err != nil {
			return nil, nil, inputErr(err)
		}
		test, pool = pool.Subset(idx), pool.Subset(data.Exclude(firstN(pool.Len()), idx))
		test.Name = pool.Name + "-holdout"
	}
	if d.Pool > 0 && d.Pool < pool.Len() && d.Name != "circle" {
		pool = pool.Subset(firstN(d.Pool))
	}
	if d.Name == "file" && d.TestPath != "" && d.Holdout == 0 && d.TestSize > test.Len() {
		return nil, nil, inputErr(fmt.Errorf("data.test_size %d is larger than the %d samples of test file %s: use at most %d, or 0 for all of them", d.TestSize, test.Len(), d.TestPath, test.Len()))
	}
	// data.test_size draws a seeded stratified subset of a separate test set (a test file
	// included); generated sets and splits of one file were drawn at that size above.
	if d.TestSize > 0 && d.TestSize < test.Len() && d.Name != "xperm" && d.Name != "circle" && (d.Name != "file" || d.TestPath != "") && d.Holdout == 0 {
		idx, err := data.Draw(rng, test.Y, d.TestSize, data.DrawOptions{Mode: data.Stratified, Classes: len(test.Classes), What: "data.test_size"})
		if err != nil {
			return nil, nil, inputErr(err)
		}
		test = test.Subset(idx)
	}
	if err := checkTwoClasses(d, pool); err != nil {
		return nil, nil, err
	}
	if d.Normalize == nil || *d.Normalize {
		pool, test = pool.Normalize(), test.Normalize()
	}
	return pool, test, nil
}

// classNames returns the class names of ds that data.classes selects, in the order listed.
// When every class of ds is named by a number (MNIST's "0".."9", files with numeric
// labels), a listed label is matched by value: 7 selects the class "7" (or "7.0"). When
// some names are not numbers (Fashion-MNIST's, "cat"/"dog"), label l is the l-th class in
// label order, 0-based. A label that selects no class, a repeated label or fewer than two
// labels is an *InputError.
func classNames(ds *data.Dataset, classes []int) ([]string, error) {
	if len(classes) < 2 {
		return nil, inputErr(fmt.Errorf("data.classes keeps %d class: list at least 2", len(classes)))
	}
	numeric := true
	for _, c := range ds.Classes {
		if _, err := strconv.ParseFloat(data.LabelKey(c), 64); err != nil {
			numeric = false
			break
		}
	}
	names := make([]string, len(classes))
	seen := map[int]bool{}
	for i, l := range classes {
		if seen[l] {
			return nil, inputErr(fmt.Errorf("data.classes lists label %d twice: list each class once", l))
		}
		seen[l] = true
		if !numeric {
			if l < 0 || l >= len(ds.Classes) {
				return nil, inputErr(fmt.Errorf("data.classes: label %d is not one of the %d classes of %s (labels are named, so data.classes counts them 0..%d in the order %s)", l, len(ds.Classes), ds.Name, len(ds.Classes)-1, strings.Join(ds.Classes, ", ")))
			}
			names[i] = ds.Classes[l]
			continue
		}
		key := strconv.Itoa(l)
		at := slices.IndexFunc(ds.Classes, func(c string) bool { return data.LabelKey(c) == key })
		if at < 0 {
			return nil, inputErr(fmt.Errorf("data.classes: label %d does not occur in %s: use labels among %s", l, ds.Name, strings.Join(ds.Classes, ", ")))
		}
		names[i] = ds.Classes[at]
	}
	return names, nil
}

// testSource names where the test set came from, for messages: "test file PATH", or
// "test set NAME".
func testSource(d model.DataSpec, test *data.Dataset) string {
	if d.Name == "file" && d.TestPath != "" {
		return "test file " + d.TestPath
	}
	return "test set " + test.Name
}

// trainSource names where the training pool came from, for messages: "PATH" or "NAME".
func trainSource(d model.DataSpec, pool *data.Dataset) string {
	if d.Name == "file" {
		return d.Path
	}
	return pool.Name
}

func firstN(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// squareForRotation returns an *InputError unless h == w. Rotations turn an image about
// its centre, and only a square pixel grid is mapped onto itself by them (a quarter turn
// of a 4×6 image is 6×4), so rotation invariance on non-square images is refused rather
// than computed on a grid it does not fit. what names the setting, e.g. "group rotation".
func squareForRotation(what string, h, w int) error {
	if h == w {
		return nil
	}
	return inputErr(fmt.Errorf("%s rotates images and needs square ones, the data are %dx%d: pad or crop the images to %dx%d, or drop the rotation", what, h, w, max(h, w), max(h, w)))
}

// BuildGroup turns g into a group action on samples of the given shape (nil for "none").
// Size > 0 keeps a seeded sample of Size elements, the identity included. Errors
// (a rotation on non-image data, a radius larger than the image) are *InputError.
func BuildGroup(g model.GroupSpec, shape []int, seed uint64) (group.Action, error) {
	return BuildGroupContext(context.Background(), g, shape, seed)
}

// BuildGroupContext is BuildGroup under ctx: building a generated group's stabiliser
// chain (seconds to minutes for large degrees) stops when ctx is cancelled, with ctx.Err().
func BuildGroupContext(ctx context.Context, g model.GroupSpec, shape []int, seed uint64) (group.Action, error) {
	rng := rand.New(rand.NewPCG(seed, 0x9709))
	gk, ok := groupKindOf(g.Kind)
	if !ok {
		return nil, inputErr(fmt.Errorf("group.kind %q is unknown: use one of %v", g.Kind, model.GroupKinds))
	}
	return gk.build(ctx, g, shape, rng)
}

// baseKernel returns the kernel k0 of m: linear, Gaussian exp(-gamma ||x-z||²) or
// polynomial (1 + gamma <x,z>)^degree, for the Haar kernel its base. Errors name the
// method and the field to fix.
func baseKernel(m model.Method) (kernel.Base, error) {
	var k kernel.Base
	switch {
	case m.LinearBase():
		k = kernel.Linear{}
	case m.UsesRBF():
		if m.Gamma == 0 {
			return nil, inputErr(fmt.Errorf("%s: gamma is 0: set gamma > 0 for the Gaussian kernel exp(-gamma ||x-z||^2)", m.Name))
		}
		k = kernel.RBF{Gamma: m.Gamma}
	case m.IsPoly():
		k = kernel.Poly{Gamma: m.Gamma, Degree: m.Degree}
	default:
		return nil, inputErr(fmt.Errorf("%s: kernel %q is unknown: use one of %s", m.Name, m.Kernel, strings.Join(model.KernelNames, ", ")))
	}
	if err := k.Validate(); err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", m.Name, err))
	}
	return k, nil
}

package engine

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gitui/core/data"
	"gitui/model"
)

// LoadPool loads the training pool of d as LoadDataContext does (classes kept, the pool
// cap applied, rows normalised), without opening a separate test set: for mnist,
// fashion-mnist and a file with test_path, the test file is not read at all. Data sets
// whose test split is made together with the pool (generated sets, a single file split
// in two, the embedded digits, the transformed MNIST sets, spoken digits) are loaded by
// LoadDataContext and their test split dropped unscored. A study (gitui tune) searches
// on this pool only.
func LoadPool(ctx context.Context, d model.DataSpec, dataDir string, seed uint64) (*data.Dataset, error) {
	if d.Holdout > 0 {
		return nil, inputErr(fmt.Errorf("data.holdout %d: a study carves its own validation split: set data.holdout to 0", d.Holdout))
	}
	var pool *data.Dataset
	var err error
	switch {
	case d.Name == "mnist" || d.Name == "fashion-mnist":
		if pool, err = data.Open(dataDir, d.Name, "train"); err != nil {
			return nil, inputErr(err)
		}
	case d.Name == "file" && d.TestPath != "":
		if pool, err = data.LoadFileLabelContext(ctx, d.Path, d.LabelColumn); err != nil {
			return nil, inputErr(err)
		}
	default:
		pool, _, err = LoadDataContext(ctx, d, dataDir, seed, nil)
		return pool, err
	}
	// The steps of LoadDataContext that shape the pool, in its order.
	if err := pool.Validate(); err != nil {
		return nil, inputErr(err)
	}
	if len(d.Classes) > 0 {
		names, err := classNames(pool, d.Classes)
		if err != nil {
			return nil, err
		}
		pool = pool.KeepClasses(names)
	}
	if d.Pool > 0 && d.Pool < pool.Len() {
		pool = pool.Subset(firstN(d.Pool))
	}
	if err := checkTwoClasses(d, pool); err != nil {
		return nil, err
	}
	if d.Normalize == nil || *d.Normalize {
		pool = pool.Normalize()
	}
	return pool, nil
}

// ValidationSplit carves n samples out of pool for validation: a stratified draw seeded
// by seed (the same seed gives the same split), and the rest for training, in pool order.
// idx lists the pool rows of the validation split, in its order.
func ValidationSplit(pool *data.Dataset, n int, seed uint64) (train, val *data.Dataset, idx []int, err error) {
	if n < len(pool.Classes) || n >= pool.Len() {
		return nil, nil, nil, inputErr(fmt.Errorf("tune.validation %d does not fit the pool of %d samples and %d classes: use %d..%d (e.g. %d)", n, pool.Len(), len(pool.Classes), len(pool.Classes), pool.Len()/2, pool.Len()/5))
	}
	idx, err = data.Draw(rand.New(rand.NewPCG(seed, 0x7a11d)), pool.Y, n, data.DrawOptions{Mode: data.Stratified, Classes: len(pool.Classes), What: "tune.validation"})
	if err != nil {
		return nil, nil, nil, inputErr(err)
	}
	train, val = pool.Subset(data.Exclude(firstN(pool.Len()), idx)), pool.Subset(idx)
	train.Name, val.Name = pool.Name+"-train", pool.Name+"-validation"
	return train, val, idx, nil
}

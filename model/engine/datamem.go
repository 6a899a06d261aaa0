package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"gitui/core/data"
	"gitui/model"
)

// dataCopies is how many copies of a data file's set a load holds at its peak: the
// loaded set, its split into pool and test set (copied rows), and the normalized copy
// made while the split's rows are still held.
const dataCopies = 3

// checkFileMemory estimates, before anything is loaded, the memory of spec on its data
// files (data.name file) by fileMemoryEstimate, so a run that cannot fit is refused (an
// *InputError, ErrTooMuchMemory) before the load rather than after it. Other data sets
// return nil: their size is known to the estimate after the load.
func checkFileMemory(ctx context.Context, spec *model.Spec) error {
	est, ok, err := fileMemoryEstimate(ctx, spec)
	if err != nil || !ok {
		return err
	}
	limit, source, err := data.AvailableMemory()
	if err != nil {
		return err
	}
	return CheckMemory(est, limit, source)
}

// fileMemoryEstimate returns the memory estimate of spec on its data files (data.name
// file), their size taken from the files' headers or a first pass over them
// (data.SizeOfFile): EstimateBytes on the split the load will make, plus the load's
// copies of the files beyond the one EstimateBytes counts as the data,
//
//	EstimateBytes(pool, test) + dataCopies·F − 8·(pool + test)·d
//
// with F the files' bytes as float64 (data.FileSize.Bytes: values and labels) and pool
// and test the rows the load keeps: the normalized copy is the kept rows, which
// EstimateBytes already holds as "the data". ok is false for other data sets and when
// the files' size is not known before the load (the load reports why). A file too
// large to load is refused here (an *InputError).
func fileMemoryEstimate(ctx context.Context, spec *model.Spec) (Estimate, bool, error) {
	d := spec.Data
	if d.Name != "file" || d.Path == "" {
		return Estimate{}, false, nil
	}
	one, err := data.CheckFileMemory(ctx, dataCopies, d.Path, d.TestPath)
	if err != nil {
		if ctx.Err() != nil {
			return Estimate{}, false, ctx.Err()
		}
		if errors.Is(err, data.ErrNotRegular) {
			return Estimate{}, false, err
		}
		return Estimate{}, false, inputErr(memoryError(err.Error()))
	}
	size, err := data.SizeOfFile(ctx, d.Path)
	if err != nil || size.Rows == 0 || size.Dim == 0 {
		return Estimate{}, false, nil // the load reports it
	}
	pool, test := size.Rows, 0
	if d.TestPath != "" {
		ts, err := data.SizeOfFile(ctx, d.TestPath)
		if err != nil {
			return Estimate{}, false, nil
		}
		test = ts.Rows
	} else {
		test = size.Rows / 5
		if d.TestSize > 0 {
			test = min(d.TestSize, size.Rows)
		}
		pool -= test
	}
	if d.TestSize > 0 {
		test = min(test, d.TestSize)
	}
	if d.Pool > 0 {
		pool = min(pool, d.Pool)
	}
	// The normalized copy the load keeps, counted by EstimateBytes as the data (before
	// test_transform's transformed copy of the test set, which is the run's).
	kept := 8 * float64(pool+test) * float64(size.Dim)
	if spec.TestTransform != nil {
		test *= 2
	}
	est := EstimateBytes(spec, DataSize{Pool: pool, Test: test, Shape: []int{size.Dim}, Classes: 2})
	load := max(0, float64(one)*dataCopies-kept)
	est.Bytes += load
	est.Items = append([]EstimateItem{{What: fmt.Sprintf("the data set %s while it is loaded, split and normalized (beside the kept rows)", d.Path), Bytes: load, Fix: "use a smaller data file"}}, est.Items...)
	sort.SliceStable(est.Items, func(i, j int) bool { return est.Items[i].Bytes > est.Items[j].Bytes })
	return est, true, nil
}

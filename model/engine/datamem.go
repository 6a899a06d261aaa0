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
// files (data.name file): the data set's size comes from the files' headers or a first
// pass over them (data.SizeOfFile), so a run that cannot fit is refused (an
// *InputError, ErrTooMuchMemory) before the load rather than after it. The estimate is
// the data held dataCopies times plus EstimateBytes on the split the load will make.
// Other data sets return nil: their size is known to the estimate after the load.
func checkFileMemory(ctx context.Context, spec *model.Spec) error {
	d := spec.Data
	if d.Name != "file" || d.Path == "" {
		return nil
	}
	one, err := data.CheckFileMemory(ctx, dataCopies, d.Path, d.TestPath)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, data.ErrNotRegular) {
			return err
		}
		return inputErr(memoryError(err.Error()))
	}
	size, err := data.SizeOfFile(ctx, d.Path)
	if err != nil || size.Rows == 0 || size.Dim == 0 {
		return nil // the load reports it
	}
	pool, test := size.Rows, 0
	if d.TestPath != "" {
		ts, err := data.SizeOfFile(ctx, d.TestPath)
		if err != nil {
			return nil
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
	if spec.TestTransform != nil {
		test *= 2
	}
	est := EstimateBytes(spec, DataSize{Pool: pool, Test: test, Shape: []int{size.Dim}, Classes: 2})
	est.Bytes += float64(one) * dataCopies
	est.Items = append([]EstimateItem{{What: fmt.Sprintf("the data set %s while it is loaded, split and normalized", d.Path), Bytes: float64(one) * dataCopies, Fix: "use a smaller data file"}}, est.Items...)
	sort.SliceStable(est.Items, func(i, j int) bool { return est.Items[i].Bytes > est.Items[j].Bytes })
	limit, source, err := data.AvailableMemory()
	if err != nil {
		return err
	}
	return CheckMemory(est, limit, source)
}

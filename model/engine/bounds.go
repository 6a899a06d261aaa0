package engine

import (
	"fmt"

	"gitui/core/data"
	"gitui/model"
)

// checkTwoClasses returns an *InputError unless the training pool holds samples of at
// least two classes: every learner separates classes, and one class (a CSV whose label
// column holds a single value, data.classes or a holdout that leaves one) has nothing
// to separate.
func checkTwoClasses(d model.DataSpec, pool *data.Dataset) error {
	seen := map[int]bool{}
	for _, y := range pool.Y {
		seen[y] = true
		if len(seen) >= 2 {
			return nil
		}
	}
	only := "no samples"
	for y := range seen {
		only = fmt.Sprintf("only class %q", pool.Classes[y])
	}
	return inputErr(fmt.Errorf("the training set %s holds %s: a classifier needs samples of at least two classes: add samples of another class, or check which column holds the labels", trainSource(d, pool), only))
}

package data

import (
	"context"
	"fmt"
)

// LoadFileLabel is LoadFile with the label column of a file whose format has columns
// (Format.LabelColumn: CSV, TSV) chosen by label: a header name, or a 0-based index as a
// decimal number (CSVOptions.Label). An empty label is LoadFile itself (the last column
// of a CSV). A label for any other kind of file is an error naming the field and the
// fix: only those formats have columns to choose from.
func LoadFileLabel(path, label string) (*Dataset, error) {
	return LoadFileLabelContext(context.Background(), path, label)
}

// LoadFileLabelContext is LoadFileLabel whose reads stop with ctx's error once ctx is
// done (LoadFileContext).
func LoadFileLabelContext(ctx context.Context, path, label string) (*Dataset, error) {
	if label == "" {
		return LoadFileContext(ctx, path)
	}
	if f := formats.byName(path); f == nil || !f.LabelColumn {
		names, _ := LabelColumnFormats()
		return nil, fmt.Errorf("%s: data.label_column %q chooses a column of a %s file, and this is not one: drop label_column (the file carries its labels)", path, label, JoinOr(names))
	}
	return loadFileOptions(ctx, path, LoadOptions{Label: label})
}

package data

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// LoadFileLabel is LoadFile with the label column of a CSV or TSV file chosen by label: a
// header name, or a 0-based index as a decimal number (CSVOptions.Label). An empty label
// is LoadFile itself (the last column of a CSV). A label for any other kind of file is an
// error naming the field and the fix: only CSV and TSV files have columns to choose from.
func LoadFileLabel(path, label string) (*Dataset, error) {
	return LoadFileLabelContext(context.Background(), path, label)
}

// LoadFileLabelContext is LoadFileLabel whose reads stop with ctx's error once ctx is
// done (LoadFileContext).
func LoadFileLabelContext(ctx context.Context, path, label string) (*Dataset, error) {
	if label == "" {
		return LoadFileContext(ctx, path)
	}
	lower := strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".gz"))
	switch {
	case strings.HasSuffix(lower, ".csv"):
		return loadCSV(ctx, path, CSVOptions{Label: label})
	case strings.HasSuffix(lower, ".tsv"):
		return loadCSV(ctx, path, CSVOptions{Comma: '\t', Label: label})
	}
	return nil, fmt.Errorf("%s: data.label_column %q chooses a column of a CSV or TSV file, and this is not one: drop label_column (the file carries its labels)", path, label)
}

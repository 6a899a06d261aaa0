package data

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"gonum.org/v1/gonum/mat"

	"gitui/internal/ctxio"
)

// parquetFormat is the Parquet format of the registry (format.go registers it).
var parquetFormat = Format{
	Name: "Parquet", Extensions: []string{".parquet"}, Magic: []byte("PAR1"), Help: ".parquet", LabelColumn: true,
	Load: func(ctx context.Context, path string, o LoadOptions) (*Dataset, error) {
		return loadParquet(ctx, path, o.Label)
	},
	Size: parquetSize,
}

// LoadParquet reads an Apache Parquet file with one sample per row: every top-level
// column is a feature but the label column, chosen by label as CSVOptions.Label chooses
// it (a column name, or a 0-based index as a decimal number, negative counting from the
// end; "" is the last column). Features are numbers (BOOLEAN as 0 or 1, INT32, INT64,
// signed or unsigned, FLOAT, DOUBLE); the label may also be text (BYTE_ARRAY: STRING,
// ENUM or unannotated), and labels map to classes as LoadCSV's do. A nested, repeated
// or non-numeric feature column (a string, a date, a decimal, a timestamp) is refused
// in one line naming it, as is a null value; the file is read through the library
// github.com/parquet-go/parquet-go, whose panics on a corrupt file become errors.
func LoadParquet(path, label string) (*Dataset, error) {
	return loadParquet(context.Background(), path, label)
}

// parquetFile is an open Parquet file and the plan of its columns.
type parquetFile struct {
	os    *os.File
	pf    *parquet.File
	label int      // index of the label column among the top-level columns
	names []string // the top-level columns' names
	cols  []*parquet.Column
}

// openParquet opens the Parquet file at path and checks its schema for label (-1 for
// "any": Size, which does not know the label and checks only that no column is nested).
// Its errors name the file, the problem and the fix; a library panic is one of them.
func openParquet(ctx context.Context, path, label string, anyLabel bool) (pq *parquetFile, err error) {
	f, err := openData(path, "Parquet")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	var head [4]byte
	if k, _ := f.ReadAt(head[:], 0); k >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return nil, fmt.Errorf("load %s: a gzipped Parquet file: gunzip it (Parquet compresses its columns itself)", path)
	}
	pf, err := parquetCall(path, func() (*parquet.File, error) {
		return parquet.OpenFile(ctxio.ReaderAt(ctx, f), st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, parquetErr(path, err)
	}
	pq = &parquetFile{os: f, pf: pf, cols: pf.Root().Columns()}
	ncol := len(pq.cols)
	for _, c := range pq.cols {
		pq.names = append(pq.names, c.Name())
	}
	if ncol < 2 {
		return nil, fmt.Errorf("%s: %d column %q: need at least one feature column and a label column", path, ncol, pq.names)
	}
	for _, c := range pq.cols {
		if !c.Leaf() || c.Repeated() {
			return nil, fmt.Errorf("%s: column %q is nested or repeated (a struct, list or map): save one number per column and row (flatten it, e.g. pandas.json_normalize) or drop it", path, c.Name())
		}
	}
	if anyLabel {
		return pq, nil
	}
	pq.label = ncol - 1
	if label != "" {
		if k, err := strconv.Atoi(label); err == nil {
			if k < 0 {
				k += ncol
			}
			if k < 0 || k >= ncol {
				return nil, fmt.Errorf("%s: label column %s is outside the %d columns: give an index in 0..%d or a column name", path, label, ncol, ncol-1)
			}
			pq.label = k
		} else if pq.label = slices.Index(pq.names, label); pq.label < 0 {
			return nil, fmt.Errorf("%s: no column named %q in %q: pass one of these names or a 0-based index", path, label, pq.names)
		}
	}
	for j, c := range pq.cols {
		if why := parquetNotNumber(c); why != "" && (j != pq.label || !parquetText(c)) {
			return nil, fmt.Errorf("%s: column %q is %s, not a number: keep numeric feature columns and one label column (drop or encode the others before saving)", path, c.Name(), why)
		}
	}
	return pq, nil
}

// parquetNotNumber returns "" for a column read as numbers, else what the column is.
func parquetNotNumber(c *parquet.Column) string {
	t := c.Type()
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		if _, ok := lt.Value.(*format.IntType); !ok {
			return fmt.Sprintf("%s (%s)", lt.String(), t.Kind())
		}
	}
	switch t.Kind() {
	case parquet.Boolean, parquet.Int32, parquet.Int64, parquet.Float, parquet.Double:
		return ""
	case parquet.ByteArray:
		return "text (BYTE_ARRAY)"
	}
	return t.Kind().String()
}

// parquetText reports whether c holds text a label may be: a BYTE_ARRAY that is a
// STRING, an ENUM or not annotated.
func parquetText(c *parquet.Column) bool {
	t := c.Type()
	if t.Kind() != parquet.ByteArray {
		return false
	}
	lt := t.LogicalType()
	if lt == nil || lt.Value == nil {
		return true
	}
	switch lt.Value.(type) {
	case *format.StringType, *format.EnumType:
		return true
	}
	return false
}

// parquetUnsigned reports whether c is an unsigned integer column.
func parquetUnsigned(c *parquet.Column) bool {
	if lt := c.Type().LogicalType(); lt != nil {
		if it, ok := lt.Value.(*format.IntType); ok {
			return !it.IsSigned
		}
	}
	return false
}

// parquetNumber returns v of a numeric column as a float64.
func parquetNumber(v parquet.Value, unsigned bool) float64 {
	switch v.Kind() {
	case parquet.Boolean:
		if v.Boolean() {
			return 1
		}
		return 0
	case parquet.Int32:
		if unsigned {
			return float64(v.Uint32())
		}
		return float64(v.Int32())
	case parquet.Int64:
		if unsigned {
			return float64(v.Uint64())
		}
		return float64(v.Int64())
	case parquet.Float:
		return float64(v.Float())
	}
	return v.Double()
}

// parquetLabel returns v of the label column as the label string LoadCSV would read.
func parquetLabel(v parquet.Value, unsigned bool) string {
	switch v.Kind() {
	case parquet.ByteArray:
		return string(v.ByteArray())
	case parquet.Float:
		return strconv.FormatFloat(float64(v.Float()), 'g', -1, 32)
	case parquet.Double:
		return strconv.FormatFloat(v.Double(), 'g', -1, 64)
	case parquet.Boolean:
		return strconv.FormatBool(v.Boolean())
	}
	if unsigned {
		return strconv.FormatUint(v.Uint64(), 10)
	}
	return strconv.FormatInt(v.Int64(), 10)
}

// parquetCall runs fn, turning a panic of the library (a corrupt file can make it
// index out of range) into an error.
func parquetCall[T any](path string, fn func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the Parquet reader failed (%v)", r)
		}
	}()
	return fn()
}

// parquetErr wraps an error of the library for path in one line naming the fix.
func parquetErr(path string, err error) error {
	return fmt.Errorf("load %s: not a readable Parquet file: %w: the file is corrupt or truncated, write it again (pandas.DataFrame.to_parquet, pyarrow.parquet.write_table)", path, err)
}

// parquetSize is the Parquet format's Size: the row count of the footer, and every
// top-level column but one (the label) as the dimension.
func parquetSize(ctx context.Context, path string) (FileSize, error) {
	pq, err := openParquet(ctx, path, "", true)
	if err != nil {
		return FileSize{}, err
	}
	defer pq.os.Close()
	return FileSize{Rows: int(min(pq.pf.NumRows(), math.MaxInt32)), Dim: len(pq.cols) - 1}, nil
}

// loadParquet is LoadParquet stopping with ctx's error once ctx is done. Rows are read
// in order, row group by row group, into a matrix grown as values arrive (a footer's
// row count does not drive the allocation) and refused past the value cap.
func loadParquet(ctx context.Context, path, label string) (*Dataset, error) {
	pq, err := openParquet(ctx, path, label, false)
	if err != nil {
		return nil, err
	}
	defer pq.os.Close()
	ncol := len(pq.cols)
	d := ncol - 1
	limit, limitMsg, err := valueCap()
	if err != nil {
		return nil, err
	}
	n := pq.pf.NumRows()
	if n <= 0 {
		return nil, fmt.Errorf("%s: no rows: the file is empty, give one sample per row with the label in one column", path)
	}
	if uint64(n) > limit/uint64(d) {
		return nil, fmt.Errorf("%s: %d rows of %d features are more than %s: use a smaller file", path, n, d, overMsg(uint64(n)*uint64(d), limitMsg))
	}
	unsigned := make([]bool, ncol)
	for j, c := range pq.cols {
		unsigned[j] = parquetUnsigned(c)
	}
	var (
		x       []float64
		y       []int
		classes classIndex
	)
	row := 0
	for _, rg := range pq.pf.RowGroups() {
		_, err := parquetCall(path, func() (struct{}, error) {
			rows := rg.Rows()
			defer rows.Close()
			buf := make([]parquet.Row, 256)
			for {
				k, err := rows.ReadRows(buf)
				for _, r := range buf[:k] {
					row++
					if len(r) != ncol {
						return struct{}{}, fmt.Errorf("row %d has %d values for %d columns", row, len(r), ncol)
					}
					for j, v := range r {
						if v.IsNull() {
							return struct{}{}, parquetValueError(fmt.Sprintf("row %d, column %q is null: remove or impute missing values", row, pq.names[j]))
						}
						if j == pq.label {
							y = append(y, classes.add(parquetLabel(v, unsigned[j])))
							continue
						}
						f := parquetNumber(v, unsigned[j])
						if msg := checkFinite(f); msg != "" {
							return struct{}{}, parquetValueError(fmt.Sprintf("row %d, column %q: %s", row, pq.names[j], msg))
						}
						if len(x) == cap(x) {
							if uint64(len(x)) >= limit {
								return struct{}{}, parquetValueError(fmt.Sprintf("more than %s: use a smaller file", limitMsg))
							}
							x = slices.Grow(x, growth(len(x), limit))
						}
						x = append(x, f)
					}
				}
				if err == io.EOF {
					return struct{}{}, nil
				}
				if err != nil {
					return struct{}{}, err
				}
			}
		})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			var ve parquetValueError
			if errors.As(err, &ve) {
				return nil, fmt.Errorf("%s: %s", path, string(ve))
			}
			return nil, parquetErr(path, err)
		}
	}
	if int64(row) != n {
		return nil, parquetErr(path, fmt.Errorf("the footer says %d rows, the row groups hold %d", n, row))
	}
	return &Dataset{Name: baseName(path), X: mat.NewDense(row, d, x), Y: y, Classes: classes.classes, Shape: []int{d}}, nil
}

// parquetValueError is an error about the file's values (not the library's): its
// message is the problem and the fix.
type parquetValueError string

func (e parquetValueError) Error() string { return string(e) }

package data

import (
	"fmt"
	"io"
	"slices"
)

// IntArray is an integer array read from a .npy file: its shape and its values in C
// (row-major) order.
type IntArray struct {
	Shape []int
	Data  []int
}

// FloatArray is a numeric array read from a .npy file: its shape and its values in C
// (row-major) order, as float64.
type FloatArray struct {
	Shape []int
	Data  []float64
}

// ReadIntNPY decodes one .npy array of an integer dtype (int8..int64 or uint8..uint64,
// either byte order, C or Fortran order), such as the rows of a permutation group
// written by numpy.save(path, G.astype(numpy.int64)). A float or bool array is refused
// with a one-line error naming its dtype and the fix; so is anything readNPY refuses
// (see [LoadNPY]). Values above 2^53 in magnitude are rounded (no permutation has them).
func ReadIntNPY(r io.Reader) (*IntArray, error) {
	a, err := readNPY(r, 0)
	if err != nil {
		return nil, err
	}
	if a.kind != 'i' && a.kind != 'u' {
		what := map[byte]string{'f': "float", 'b': "bool"}[a.kind]
		return nil, fmt.Errorf(".npy array holds %s values, not integers: save it with .astype(numpy.int64)", what)
	}
	out := &IntArray{Shape: slices.Clone(a.shape), Data: make([]int, len(a.data))}
	for i, v := range a.data {
		out.Data[i] = int(v)
	}
	return out, nil
}

// ReadFloatNPY decodes one .npy array of any numeric dtype into float64 values (see
// [LoadNPY] for what is read and refused, NaN and infinities included).
func ReadFloatNPY(r io.Reader) (*FloatArray, error) {
	a, err := readNPY(r, 0)
	if err != nil {
		return nil, err
	}
	return &FloatArray{Shape: slices.Clone(a.shape), Data: a.data}, nil
}

// LoadIntNPY reads an integer .npy file (gzipped or raw) with [ReadIntNPY]; errors name
// the file (a missing file too).
func LoadIntNPY(path string) (*IntArray, error) {
	return openRead(path, ".npy array", func(r io.Reader) (*IntArray, error) {
		a, err := ReadIntNPY(r)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", path, err)
		}
		return a, nil
	})
}

// LoadFloatNPY reads a numeric .npy file (gzipped or raw) with [ReadFloatNPY]; errors
// name the file (a missing file too).
func LoadFloatNPY(path string) (*FloatArray, error) {
	return openRead(path, ".npy array", func(r io.Reader) (*FloatArray, error) {
		a, err := ReadFloatNPY(r)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", path, err)
		}
		return a, nil
	})
}

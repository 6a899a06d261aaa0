package data

import (
	"fmt"

	"gonum.org/v1/gonum/mat"
)

// Dataset is a labelled sample: row i of X is sample i, Y[i] its class.
//
// Contract: X is n×d with n = len(Y) and d = product of Shape; every Y[i] lies in
// [0, len(Classes)). Images are stored row-major (Shape = [H, W]), one-hot sequences
// as L blocks of A entries (Shape = [L, A]). Values are float64; image pixels are
// scaled to [0, 1] by the readers.
type Dataset struct {
	Name    string     // short name, e.g. "mnist-train", "xperm"
	X       *mat.Dense // n×d samples
	Y       []int      // n labels in [0, len(Classes))
	Classes []string   // class names, e.g. "0".."9" or "-1","+1"
	Shape   []int      // shape of one sample; product equals d
	// Units, when not nil, gives each sample's sampling unit (len(Units) == n): training
	// draws take whole units (DrawUnits), e.g. a (speaker, rendering) pair with its ten
	// spoken digits, so that draws stay class-balanced and a speaker's rendering is never
	// split between draws. Subset and Normalize carry it.
	Units []int
}

// Len returns the number of samples n.
func (d *Dataset) Len() int { return len(d.Y) }

// Dim returns the dimension d of one sample.
func (d *Dataset) Dim() int {
	_, c := d.X.Dims()
	return c
}

// Subset returns a new Dataset holding the rows idx, in that order (the rows are copied).
// It panics if an index is out of range.
func (d *Dataset) Subset(idx []int) *Dataset {
	dim := d.Dim()
	x := mat.NewDense(max(len(idx), 1), dim, nil)
	if len(idx) == 0 {
		x = &mat.Dense{}
	}
	y := make([]int, len(idx))
	var units []int
	if d.Units != nil {
		units = make([]int, len(idx))
	}
	for k, i := range idx {
		x.SetRow(k, d.X.RawRowView(i))
		y[k] = d.Y[i]
		if units != nil {
			units[k] = d.Units[i]
		}
	}
	return &Dataset{Name: d.Name, X: x, Y: y, Classes: d.Classes, Shape: append([]int(nil), d.Shape...), Units: units}
}

// Validate checks the Dataset contract and that no value is NaN or infinite. It returns a
// one-line error naming the first problem found.
func (d *Dataset) Validate() error {
	if d.X == nil || len(d.Y) == 0 {
		return fmt.Errorf("data set %q is empty", d.Name)
	}
	n, dim := d.X.Dims()
	if n != len(d.Y) {
		return fmt.Errorf("data set %q has %d samples but %d labels", d.Name, n, len(d.Y))
	}
	p := 1
	for _, s := range d.Shape {
		p *= s
	}
	if len(d.Shape) == 0 || p != dim {
		return fmt.Errorf("data set %q: shape %v does not match dimension %d", d.Name, d.Shape, dim)
	}
	for i, y := range d.Y {
		if y < 0 || y >= len(d.Classes) {
			return fmt.Errorf("data set %q: label %d of sample %d is outside [0,%d)", d.Name, y, i, len(d.Classes))
		}
	}
	for i := 0; i < n; i++ {
		for j, v := range d.X.RawRowView(i) {
			if v != v || v > 1e300 || v < -1e300 {
				return fmt.Errorf("data set %q: sample %d, feature %d is %v: remove or impute non-finite values", d.Name, i, j, v)
			}
		}
	}
	return nil
}

// CheckVaries returns an error when every sample of d is the same (each feature is
// constant over the set): no method can learn from it, so a file like that (a blank
// image set, a matrix of zeros) is refused as soon as it is read, before it is split
// and copied. It reads rows until the first that differs from row 0 and allocates
// nothing.
func (d *Dataset) CheckVaries() error {
	n, dim := d.X.Dims()
	if n < 2 {
		return nil
	}
	first := d.X.RawRowView(0)
	for i := 1; i < n; i++ {
		row := d.X.RawRowView(i)
		for j, v := range row {
			if v != first[j] {
				return nil
			}
		}
	}
	return fmt.Errorf("data set %q: all %d samples are the same (each of the %d features is constant): there is nothing to learn, check the file", d.Name, n, dim)
}

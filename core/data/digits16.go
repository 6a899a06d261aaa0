package data

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Digits16Side is the side of the USPS digit images (16×16) that [Digits16] produces.
const Digits16Side = 16

// Digits16 returns the images of src (typically 28×28 MNIST) reduced to USPS's size,
// 16×16, by exact area averaging: Resample(src, 16, 16). Chapelle and Schoelkopf's
// digit experiments use USPS; this gives MNIST digits of the same size. See [Resample].
func Digits16(src *Dataset) *Dataset {
	ds := Resample(src, Digits16Side, Digits16Side)
	ds.Name = src.Name + "-16x16"
	return ds
}

// Resample returns the images of src (Shape [h, w]) resampled to oh×ow by area
// averaging: the image is read as piecewise constant (pixel (r, c) covers the unit
// square [r, r+1) × [c, c+1)), and output pixel (i, j) is its mean over the cell
// [i·sy, (i+1)·sy) × [j·sx, (j+1)·sx), sy = h/oh, sx = w/ow:
//
//	out[i, j] = sum_{r, c} A[i, r] · x[r, c] · B[j, c],
//	A[i, r]   = |[i·sy, (i+1)·sy) ∩ [r, r+1)| / sy,   B[j, c] likewise with sx, w,
//
// (OpenCV's INTER_AREA weights for shrinking). Each row of A and B sums to 1, so
// constant images stay constant and the total ink scales by (oh·ow)/(h·w). For 28 → 16
// (sy = 1.75) every output pixel mixes 2 or 3 source rows and columns with weights that
// are multiples of 1/7. Labels, classes and name are copied; Shape is [oh, ow].
// Resample panics (prefix "data: ") if src is not a set of 2-D images or oh, ow < 1.
func Resample(src *Dataset, oh, ow int) *Dataset {
	h, w := imageShape("Resample", src)
	if oh < 1 || ow < 1 {
		panic(fmt.Sprintf("data: Resample: output size %dx%d must be at least 1x1", oh, ow))
	}
	A := areaWeights(h, oh)
	B := areaWeights(w, ow)
	n := src.Len()
	out := &mat.Dense{}
	if n > 0 {
		out = mat.NewDense(n, oh*ow, nil)
	}
	tmp := make([]float64, h*ow) // x Bᵀ, h×ow
	for k := range n {
		x := src.X.RawRowView(k)
		for r := range h {
			row := x[r*w : (r+1)*w]
			for j, wt := range B {
				s := 0.0
				for t, c := range wt.idx {
					s += wt.w[t] * row[c]
				}
				tmp[r*ow+j] = s
			}
		}
		o := out.RawRowView(k)
		for i, wt := range A {
			dst := o[i*ow : (i+1)*ow]
			clear(dst)
			for t, r := range wt.idx {
				a := wt.w[t]
				for j, v := range tmp[r*ow : (r+1)*ow] {
					dst[j] += a * v
				}
			}
		}
	}
	return &Dataset{
		Name:    src.Name,
		X:       out,
		Y:       slices.Clone(src.Y),
		Classes: slices.Clone(src.Classes),
		Shape:   []int{oh, ow},
	}
}

// sparseRow holds the non-zero weights of one output index.
type sparseRow struct {
	idx []int
	w   []float64
}

// areaWeights returns, for each of the m output cells of a length-n axis, the source
// indices it overlaps and the overlap lengths divided by the cell length n/m.
func areaWeights(n, m int) []sparseRow {
	rows := make([]sparseRow, m)
	for i := range rows {
		// In units of 1/m: cell i is [i·n, (i+1)·n), source pixel r is [r·m, (r+1)·m),
		// so overlaps are exact integers and the weights overlap/n sum to 1.
		lo, hi := i*n, (i+1)*n
		for r := lo / m; r < n && r*m < hi; r++ {
			if ov := min(hi, (r+1)*m) - max(lo, r*m); ov > 0 {
				rows[i].idx = append(rows[i].idx, r)
				rows[i].w = append(rows[i].w, float64(ov)/float64(n))
			}
		}
	}
	return rows
}

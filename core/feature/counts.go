package feature

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Counts is a CDF feature matrix held as its integer counts: entry (i, j) is
//
//	Weight(j) · count(i, j),   0 <= count(i, j) <= |G|,
//
// with the counts in 16 bits when |G| < 65536, else in 32 bits. Expanding an entry
// computes float64(count) · weight, the same product [CDF.Transform] rounds, so the
// expanded rows equal Transform's bit for bit: the compact form loses nothing. It takes
// 2 (or 4) bytes per entry against 8 for a *mat.Dense. A Counts is immutable once
// returned and safe for concurrent reads.
type Counts struct {
	rows, cols int
	c16        []uint16
	c32        []uint32
	w          []float64 // per column
}

// newCounts returns an empty rows×cols Counts for counts up to maxCount.
func newCounts(rows, cols, maxCount int, w []float64) *Counts {
	c := &Counts{rows: rows, cols: cols, w: w}
	if maxCount <= math.MaxUint16 {
		c.c16 = make([]uint16, rows*cols)
	} else {
		c.c32 = make([]uint32, rows*cols)
	}
	return c
}

// Dims returns the number of rows (samples) and columns (features).
func (c *Counts) Dims() (r, cols int) { return c.rows, c.cols }

// Weight returns the weight of column j (the factor of its counts). It panics if j is
// outside [0, cols).
func (c *Counts) Weight(j int) float64 { return c.w[j] }

// Bytes returns the memory held by the counts and weights.
func (c *Counts) Bytes() int {
	return 2*len(c.c16) + 4*len(c.c32) + 8*len(c.w)
}

// Span copies the entries (i, j0), ..., (i, j0+len(dst)-1), expanded to float64, into
// dst. It panics if the range is outside the matrix.
func (c *Counts) Span(dst []float64, i, j0 int) {
	if i < 0 || i >= c.rows || j0 < 0 || j0+len(dst) > c.cols {
		panic(fmt.Sprintf("feature: span (%d, %d..%d) outside the %d×%d counts", i, j0, j0+len(dst), c.rows, c.cols))
	}
	off := i*c.cols + j0
	w := c.w[j0 : j0+len(dst)]
	if c.c16 != nil {
		for j, v := range c.c16[off : off+len(dst)] {
			dst[j] = float64(v) * w[j]
		}
		return
	}
	for j, v := range c.c32[off : off+len(dst)] {
		dst[j] = float64(v) * w[j]
	}
}

// Dense returns the expanded n×D matrix (8 bytes per entry).
func (c *Counts) Dense() *mat.Dense {
	out := mat.NewDense(max(c.rows, 1), max(c.cols, 1), nil)
	if c.rows == 0 || c.cols == 0 {
		return &mat.Dense{}
	}
	for i := range c.rows {
		c.Span(out.RawRowView(i), i, 0)
	}
	return out
}

// TransformCounts returns the CDF features of the rows of x in compact form (see
// [Counts]): Span of its rows equals the rows of [CDF.Transform] bit for bit, at a
// quarter of the memory (|G| < 65536). Memory beyond the result, errors and
// cancellation are as for Transform.
func (c *CDF) TransformCounts(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*Counts, error) {
	n, d := x.Dims()
	D := c.OutputDim(d)
	if !c.fitted {
		return nil, ErrNotFitted
	}
	K := 2*c.opt.Bins + 1
	G := c.proj.g.Len()
	w := make([]float64, D)
	for j := range c.m {
		wi, we := c.weights(j, G)
		for k := range K {
			w[j*K+k] = wi
		}
		w[j*K], w[j*K+K-1] = we, we
	}
	out := newCounts(n, D, G, w)
	_, err := c.proj.run(ctx, x, progress, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		if len(ws.hist) < 4*(K+1) {
			ws.hist = make([]int32, 4*(K+1))
		}
		h := ws.hist
		for r := range nr {
			off := (r0 + r) * D
			for jj := range nj {
				j := j0 + jj
				cdfCount(proj[r*ld+jj*G:r*ld+(jj+1)*G], c.a[j], 1/c.b[j], K, h)
				if out.c16 != nil {
					dst := out.c16[off+j*K : off+(j+1)*K]
					for k := range dst {
						dst[k] = uint16(h[k])
					}
				} else {
					dst := out.c32[off+j*K : off+(j+1)*K]
					for k := range dst {
						dst[k] = uint32(h[k])
					}
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

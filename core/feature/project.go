package feature

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"gitui/core/group"
	"gitui/core/linalg"

	"gonum.org/v1/gonum/mat"
)

// Default block sizes of the projection engine.
const (
	// DefaultBlockRows is the number of input rows one worker projects at a time.
	DefaultBlockRows = 256
	// DefaultTemplateBytes bounds the float32 transformed templates held at once
	// (m_block·|G|·d·4 bytes); larger m is processed in template blocks.
	DefaultTemplateBytes = 256 << 20
)

// gemmCols is the target number of projection columns (transformed templates) per GEMM
// call, so one worker's projection buffer is about blockRows·gemmCols·4 bytes (4 MiB at
// the defaults) and is pooled while still in cache. A variable so tests can force
// several chunks per template block.
var gemmCols = 4096

// projector streams the projections <x_r, g_i t_j> of input rows on transformed templates
// to a pooling function, block by block: template blocks (transformed templates built
// once per block), then row blocks in parallel, each multiplied in GEMM chunks of a few
// templates. No n×m|G| matrix is ever formed.
type projector struct {
	tmpl      *mat.Dense // m×d templates
	norms     []float64  // ||t_j||
	g         group.Action
	normalize bool // scale input rows to unit norm
	rescale   bool // rescale g_i t_j to ||t_j||
	blockRows int
	tmplBlock int // templates per template block
	// off and scale, when not nil (m·|G| each, template-major), map every projection
	// <x, g_i t_j> to (<x, g_i t_j> - off[j|G|+i])·scale[j|G|+i] before pooling.
	off, scale []float32
	// support, when set (FixSupport), is added to the input columns that may be nonzero:
	// the GEMMs then run over the same columns whatever rows are projected.
	support []bool
}

func newProjector(tmpl *mat.Dense, g group.Action, normalize, rescale bool, blockRows, tmplBlock int) projector {
	m, d := tmpl.Dims()
	if d != g.Dim() {
		panic(fmt.Sprintf("feature: templates have %d columns, group %q acts on %d", d, g.Name(), g.Dim()))
	}
	if blockRows <= 0 {
		blockRows = DefaultBlockRows
	}
	if tmplBlock <= 0 {
		tmplBlock = max(1, DefaultTemplateBytes/(4*g.Len()*d))
	}
	tmplBlock = min(tmplBlock, m)
	norms := make([]float64, m)
	for j := range m {
		norms[j] = mat.Norm(tmpl.RowView(j), 2)
	}
	return projector{tmpl: tmpl, norms: norms, g: g, normalize: normalize, rescale: rescale,
		blockRows: blockRows, tmplBlock: tmplBlock}
}

// chunk is the number of templates per GEMM call.
func (p *projector) chunk() int { return max(1, min(p.tmplBlock, gemmCols/p.g.Len())) }

// workspace is one worker's scratch memory.
type workspace struct {
	xb   []float32 // blockRows×d input block
	proj []float32 // blockRows×(chunk·|G|) projections
	hist []int32   // pooling scratch
}

// poolFunc consumes the projections of rows [r0, r0+nr) on templates [j0, j0+nj):
// proj[r*ld + jj*|G| + i] = <x_{r0+r}, g_i t_{j0+jj}>. Calls for disjoint (row, template)
// ranges run concurrently.
type poolFunc func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int)

// Timing splits the wall time of a projection-and-pooling run into its stages. Templates
// is the wall time spent building transformed templates; the wall time of the parallel
// row-block phase is split between Projection and Pooling in proportion to the busy time
// the workers spent in each, so Templates + Projection + Pooling is the wall time.
type Timing struct {
	Templates  time.Duration // building the transformed templates g_i t_j
	Projection time.Duration // the float32 GEMMs (and input block conversion)
	Pooling    time.Duration // the fused pooling
	Workers    int           // goroutines used (GOMAXPROCS)
}

// split divides the wall time of the row-block phase by the workers' busy times.
func (tm *Timing) split(wall time.Duration, proj, pool int64) {
	if proj+pool > 0 {
		tm.Projection = time.Duration(float64(wall) * float64(proj) / float64(proj+pool))
		tm.Pooling = wall - tm.Projection
	}
}

// run projects every row of x (n×d) and hands the projections to pool. It returns
// ctx.Err() if cancelled; progress gets rows done over n·(number of template blocks).
func (p *projector) run(ctx context.Context, x *mat.Dense, progress func(done, total int), pool poolFunc) (tm Timing, err error) {
	n, d := x.Dims()
	m, dt := p.tmpl.Dims()
	if d != dt {
		panic(fmt.Sprintf("feature: input has %d columns, templates have %d", d, dt))
	}
	G := p.g.Len()
	chunk := p.chunk()
	workers := runtime.GOMAXPROCS(0)
	// Small inputs: at least 4 blocks per worker (but >= 16 rows) so the load balances.
	rows := min(p.blockRows, max(16, (n+4*workers-1)/(4*workers)))
	free := make(chan *workspace, workers)
	for range workers {
		free <- &workspace{
			xb:   make([]float32, rows*d),
			proj: make([]float32, rows*chunk*G),
		}
	}
	nTB := (m + p.tmplBlock - 1) / p.tmplBlock
	total := n * nTB
	var (
		mu                 sync.Mutex
		done               int
		projNanos, poolNns atomic.Int64
	)
	tm.Workers = workers
	var rowWall time.Duration
	defer func() { tm.split(rowWall, projNanos.Load(), poolNns.Load()) }()
	xSupport := columnSupport(x)
	if p.support != nil {
		for j, v := range p.support {
			xSupport[j] = xSupport[j] || v
		}
	}
	tg := make([]float32, min(p.tmplBlock, m)*G*d)
	for j0 := 0; j0 < m; j0 += p.tmplBlock {
		j1 := min(j0+p.tmplBlock, m)
		t0 := time.Now()
		if err := p.transformed(ctx, tg[:(j1-j0)*G*d], j0, j1); err != nil {
			return tm, err
		}
		// Coordinates that are zero in every input or in every transformed template of
		// the block add exact zeros to every projection: drop them from the GEMM.
		keep := compactColumns(tg[:(j1-j0)*G*d], d, xSupport)
		k := len(keep)
		if k == d {
			keep = nil
		}
		// Prepare each GEMM chunk of the block once for the products of every row block
		// (linalg.PackB: in place, packed panels where the AVX2+FMA GEMM runs).
		nc := (j1 - j0 + chunk - 1) / chunk
		packed := make([]linalg.PackedB, nc)
		if err := linalg.ParallelFor(ctx, nc, 1, func(lo, hi int) error {
			for ci := lo; ci < hi; ci++ {
				c0 := j0 + ci*chunk
				c1 := min(c0+chunk, j1)
				packed[ci] = linalg.PackB((c1-c0)*G, k, tg[(c0-j0)*G*k:(c1-j0)*G*k], k)
			}
			return nil
		}); err != nil {
			return tm, err
		}
		t1 := time.Now()
		tm.Templates += t1.Sub(t0)
		err = linalg.ParallelFor(ctx, n, rows, func(lo, hi int) error {
			ws := <-free
			defer func() { free <- ws }()
			nr := hi - lo
			t0 := time.Now()
			xb := rowsToFloat32(ws.xb, x, lo, hi, keep, p.normalize)
			for c0 := j0; c0 < j1; c0 += chunk {
				if err := ctx.Err(); err != nil {
					return err
				}
				c1 := min(c0+chunk, j1)
				cols := (c1 - c0) * G
				proj := ws.proj[:nr*cols]
				packed[(c0-j0)/chunk].MulNT(nr, xb, k, proj, cols)
				if p.off != nil {
					p.standardize(proj, nr, c0, cols)
				}
				t1 := time.Now()
				projNanos.Add(int64(t1.Sub(t0)))
				pool(ws, lo, nr, c0, c1-c0, proj, cols)
				t0 = time.Now()
				poolNns.Add(int64(t0.Sub(t1)))
			}
			if progress != nil {
				mu.Lock()
				done += nr
				progress(done, total)
				mu.Unlock()
			}
			return nil
		})
		rowWall += time.Since(t1)
		if err != nil {
			return tm, err
		}
	}
	return tm, nil
}

// standardize applies off and scale to the nr×cols projections of templates from c0 on.
func (p *projector) standardize(proj []float32, nr, c0, cols int) {
	G := p.g.Len()
	off, sc := p.off[c0*G:c0*G+cols], p.scale[c0*G:c0*G+cols]
	for r := range nr {
		row := proj[r*cols : (r+1)*cols]
		for c, v := range row {
			row[c] = (v - off[c]) * sc[c]
		}
	}
}

// transformed writes g_i t_j for j in [j0, j1), i in [0, |G|) as float32 rows of dst,
// template-major (row (j-j0)·|G| + i), rescaled to ||t_j|| if p.rescale.
func (p *projector) transformed(ctx context.Context, dst []float32, j0, j1 int) error {
	_, d := p.tmpl.Dims()
	G := p.g.Len()
	return linalg.ParallelFor(ctx, j1-j0, 1, func(lo, hi int) error {
		buf := make([]float64, d)
		for jj := lo; jj < hi; jj++ {
			j := j0 + jj
			t := p.tmpl.RawRowView(j)
			for i := range G {
				p.g.Apply(buf, t, i)
				if p.rescale {
					var ss float64
					for _, v := range buf {
						ss += v * v
					}
					if ss > 0 {
						s := p.norms[j] / math.Sqrt(ss)
						for k := range buf {
							buf[k] *= s
						}
					}
				}
				linalg.ToFloat32(dst[(jj*G+i)*d:(jj*G+i+1)*d], buf)
			}
		}
		return nil
	})
}

// columnSupport reports which columns of x hold a non-zero entry.
func columnSupport(x *mat.Dense) []bool {
	raw := x.RawMatrix()
	sup := make([]bool, raw.Cols)
	for i := range raw.Rows {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if v != 0 {
				sup[j] = true
			}
		}
	}
	return sup
}

// compactColumns finds the columns c with xSupport[c] and a non-zero entry in some row of
// the row-major r×d matrix a, compacts a in place to those k columns (row-major r×k in
// a[:r·k]) and returns their indices (at least one: column 0 when none qualifies, so the
// products are still exact zeros).
func compactColumns(a []float32, d int, xSupport []bool) []int {
	r := len(a) / d
	sup := make([]bool, d)
	for i := range r {
		for c, v := range a[i*d : (i+1)*d] {
			if v != 0 {
				sup[c] = true
			}
		}
	}
	var keep []int
	for c := range d {
		if sup[c] && xSupport[c] {
			keep = append(keep, c)
		}
	}
	if len(keep) == 0 {
		keep = []int{0}
	}
	if len(keep) == d {
		return keep
	}
	k := len(keep)
	for i := range r { // forward in place: i·k + l <= i·d + keep[l]
		row := a[i*d : (i+1)*d]
		for l, c := range keep {
			a[i*k+l] = row[c]
		}
	}
	return keep
}

// rowsToFloat32 converts rows [lo, hi) of x to a dense float32 block of the columns keep
// (all columns if keep is nil), each row divided by its full Euclidean norm if unit.
func rowsToFloat32(dst []float32, x *mat.Dense, lo, hi int, keep []int, unit bool) []float32 {
	if keep == nil {
		return linalg.RowsToFloat32(dst, x, lo, hi, unit)
	}
	k := len(keep)
	for i := lo; i < hi; i++ {
		row := x.RawRowView(i)
		scale := 1.0
		if unit {
			if ss := sqNorm(row); ss > 0 {
				scale = 1 / math.Sqrt(ss)
			}
		}
		out := dst[(i-lo)*k : (i-lo+1)*k]
		for l, c := range keep {
			out[l] = float32(row[c] * scale)
		}
	}
	return dst[:(hi-lo)*k]
}

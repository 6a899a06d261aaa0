package feature

import (
	"context"
	"fmt"
	"math"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// MomentOptions configures [NewMoments].
type MomentOptions struct {
	Normalize     bool // scale every input row to unit norm first
	Rescale       bool // rescale every g_i t_j to ||t_j||
	BlockRows     int  // input rows per worker block; 0: DefaultBlockRows
	TemplateBlock int  // templates per template block; 0: from DefaultTemplateBytes
}

// Moments pools the projections of x on the transformed templates by moments over the
// group (Mroueh et al., Section 3, moment pooling):
//
//	Phi(x)_{3j}   = (1/|G|) sum_i <g_i t_j, x>          (mean)
//	Phi(x)_{3j+1} = (1/|G|) sum_i <g_i t_j, x>^2        (second moment)
//	Phi(x)_{3j+2} = max_i <g_i t_j, x>                  (max)
//
// 3m features, template-major. Projections are float32 GEMM products as for [CDF]
// (about 1e-6 absolute for unit-norm inputs); sums are accumulated in float64.
type Moments struct {
	m    int
	proj projector
}

// NewMoments returns the moment-pooling feature map for the m×d templates and the action
// g. It panics if the template dimension does not match g.Dim().
func NewMoments(templates *mat.Dense, g group.Action, opt MomentOptions) *Moments {
	m, _ := templates.Dims()
	return &Moments{m: m, proj: newProjector(templates, g, opt.Normalize, opt.Rescale, opt.BlockRows, opt.TemplateBlock)}
}

// Name returns "moments(m)".
func (p *Moments) Name() string { return fmt.Sprintf("moments(%d)", p.m) }

// OutputDim returns 3m. It panics if d is not the templates' dimension.
func (p *Moments) OutputDim(d int) int {
	if _, dt := p.proj.tmpl.Dims(); d != dt {
		panic(fmt.Sprintf("feature: moment templates have dimension %d, input has %d", dt, d))
	}
	return 3 * p.m
}

// Transform returns the n×3m moment features of the rows of x. It returns ctx.Err() if
// cancelled and panics if x has not d columns.
func (p *Moments) Transform(ctx context.Context, x *mat.Dense, progress func(done, total int)) (*mat.Dense, error) {
	n, d := x.Dims()
	out := mat.NewDense(n, p.OutputDim(d), nil)
	raw := out.RawMatrix()
	G := p.proj.g.Len()
	inv := 1 / float64(G)
	_, err := p.proj.run(ctx, x, progress, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		for r := range nr {
			dst := raw.Data[(r0+r)*raw.Stride:]
			for jj := range nj {
				var s1, s2 float64
				mx := math.Inf(-1)
				for _, v := range proj[r*ld+jj*G : r*ld+(jj+1)*G] {
					f := float64(v)
					s1 += f
					s2 += f * f
					mx = max(mx, f)
				}
				j := j0 + jj
				dst[3*j], dst[3*j+1], dst[3*j+2] = s1*inv, s2*inv, mx
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

package feature

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// scaledCyclic is the cyclic shift by i scaled by scale[i]: g_i x = scale[i]·shift_i(x),
// so that (without Rescale) the elements' projections differ in spread, as interpolated
// warps of white noise do.
type scaledCyclic struct {
	d     int
	scale []float64
}

func (s scaledCyclic) Name() string { return fmt.Sprintf("scaled Z%d", s.d) }
func (s scaledCyclic) Len() int     { return len(s.scale) }
func (s scaledCyclic) Dim() int     { return s.d }
func (s scaledCyclic) Apply(dst, x []float64, i int) {
	for l := range s.d {
		dst[(l+i)%s.d] = s.scale[i] * x[l]
	}
}
func (s scaledCyclic) ApplyInverse(dst, x []float64, i int) {
	for l := range s.d {
		dst[l] = x[(l+i)%s.d] / s.scale[i]
	}
}

// offsetData returns n rows of d values with a common, column-dependent mean (as every
// spectrogram shares an envelope): x[r, c] = 1 + 0.2·c + N(0, 1).
func offsetData(n, d int, rng *rand.Rand) *mat.Dense {
	x := mat.NewDense(n, d, nil)
	for r := range n {
		for c := range d {
			x.Set(r, c, 1+0.2*float64(c)+rng.NormFloat64())
		}
	}
	return x
}

// projectionsOf returns the projections the pooling sees (after standardisation),
// indexed [r][j·|G|+i].
func projectionsOf(t *testing.T, c *CDF, x *mat.Dense) [][]float64 {
	n, _ := x.Dims()
	G := c.proj.g.Len()
	out := make([][]float64, n)
	for r := range out {
		out[r] = make([]float64, c.m*G)
	}
	var mu sync.Mutex
	_, err := c.proj.run(context.Background(), x, nil, func(ws *workspace, r0, nr, j0, nj int, proj []float32, ld int) {
		mu.Lock()
		defer mu.Unlock()
		for r := range nr {
			for k, v := range proj[r*ld : r*ld+nj*G] {
				out[r0+r][j0*G+k] = float64(v)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStandardizeSpread: after Fit, every transformed template's projections over the
// fitted rows equal the float64 definition (p - mu_ij)·sbar_j/s_ij to 1e-4 (float32
// GEMM), so they have mean 0 and the same spread sbar_j for every element i, where the
// raw projections' spreads differ by the elements' scales (0.5 to 3).
func TestStandardizeSpread(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, m = 300, 16, 4
	g := scaledCyclic{d, []float64{1, 2, 0.5, 3}}
	G := g.Len()
	x := offsetData(n, d, rng)
	tmpl := SphereTemplates(m, d, rng)
	c, err := NewCDF(tmpl, g, CDFOptions{Bins: 5, Thresholds: RangeThresholds, Standardize: StandardizeSpread})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Transform(context.Background(), x, nil); err != ErrNotFitted {
		t.Fatalf("Transform before Fit: %v, want ErrNotFitted", err)
	}
	if err := c.Fit(context.Background(), x, nil); err != nil {
		t.Fatal(err)
	}
	got := projectionsOf(t, c, x)
	for j := range m {
		ref := make([][]float64, n) // [r][i]
		for r := range n {
			ref[r] = refProjections(x.RawRowView(r), tmpl.RawRowView(j), g, false, false)
		}
		mean, sd := make([]float64, G), make([]float64, G)
		var ms float64
		for i := range G {
			for r := range n {
				mean[i] += ref[r][i] / n
			}
			for r := range n {
				sd[i] += (ref[r][i] - mean[i]) * (ref[r][i] - mean[i]) / n
			}
			sd[i] = math.Sqrt(sd[i])
			ms += sd[i] * sd[i] / float64(G)
		}
		if sd[3]/sd[2] < 5 {
			t.Fatalf("template %d: raw spreads %v do not differ by the scales", j, sd)
		}
		for i := range G {
			var gm, gs float64
			for r := range n {
				want := (ref[r][i] - mean[i]) * math.Sqrt(ms) / sd[i]
				v := got[r][j*G+i]
				if math.Abs(v-want) > 1e-4*(1+math.Abs(want)) {
					t.Fatalf("template %d element %d row %d: standardised %v, want %v", j, i, r, v, want)
				}
				gm += v / n
				gs += v * v / n
			}
			if math.Abs(gm) > 1e-4 || math.Abs(math.Sqrt(gs)-math.Sqrt(ms)) > 1e-4*math.Sqrt(ms) {
				t.Errorf("template %d element %d: mean %.3g, spread %.6g, want 0 and %.6g", j, i, gm, math.Sqrt(gs), math.Sqrt(ms))
			}
		}
	}
}

// TestStandardizeMeanIsCentring: StandardizeMean gives the features of the inputs centred
// by their mean row (same theory thresholds, no normalisation): every count agrees but
// for projections within float32 rounding of a threshold (at most 0.1% of the features).
func TestStandardizeMeanIsCentring(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, d, m = 200, 16, 6
	g := cyclic{d, 8}
	x := offsetData(n, d, rng)
	tmpl := SphereTemplates(m, d, rng)
	mean, err := NewCDF(tmpl, g, CDFOptions{Bins: 10, Eps: 3, Standardize: StandardizeMean})
	if err != nil {
		t.Fatal(err)
	}
	if err := mean.Fit(context.Background(), x, nil); err != nil {
		t.Fatal(err)
	}
	a, err := mean.Transform(context.Background(), x, nil)
	if err != nil {
		t.Fatal(err)
	}
	xc := mat.DenseCopyOf(x)
	for c := range d {
		var mu float64
		for r := range n {
			mu += x.At(r, c) / n
		}
		for r := range n {
			xc.Set(r, c, x.At(r, c)-mu)
		}
	}
	plain, err := NewCDF(tmpl, g, CDFOptions{Bins: 10, Eps: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := plain.Transform(context.Background(), xc, nil)
	if err != nil {
		t.Fatal(err)
	}
	ra, rb := a.RawMatrix().Data, b.RawMatrix().Data
	diff, nonzero := 0, 0
	for k := range ra {
		if ra[k] != rb[k] {
			diff++
		}
		if ra[k] != 0 && ra[k] != rb[len(rb)-1] {
			nonzero++
		}
	}
	if diff > len(ra)/1000 {
		t.Errorf("%d of %d features differ between StandardizeMean and centred inputs", diff, len(ra))
	}
	if nonzero < len(ra)/10 {
		t.Fatalf("only %d of %d features are strictly between empty and full: the thresholds do not cut the projections", nonzero, len(ra))
	}
}

// TestStandardizeFitCancel: a cancelled Fit leaves the map as it was (unfitted).
func TestStandardizeFitCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := offsetData(50, 16, rng)
	c, err := NewCDF(SphereTemplates(3, 16, rng), cyclic{16, 4}, CDFOptions{Bins: 5, Standardize: StandardizeSpread})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Fit(ctx, x, nil); err != context.Canceled {
		t.Fatalf("cancelled Fit: %v", err)
	}
	if c.proj.off != nil || c.fitted {
		t.Errorf("a cancelled Fit changed the map (offsets set %v, fitted %v)", c.proj.off != nil, c.fitted)
	}
	if _, err := NewCDF(SphereTemplates(3, 16, rng), cyclic{16, 4}, CDFOptions{Bins: 5, Standardize: 7}); err == nil {
		t.Error("standardization 7 accepted")
	}
}

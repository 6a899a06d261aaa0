package feature

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/core/linalg"

	"gonum.org/v1/gonum/mat"
)

// benchImages returns n 28×28 images: the first n MNIST training digits when GITUI_DATA
// points at a directory with mnist/train10k-images-idx3-ubyte.gz, else smooth random
// blobs (the pooling cost depends a little on how projections spread over the bins).
func benchImages(tb testing.TB, n int, rng *rand.Rand) (*mat.Dense, string) {
	if dir := os.Getenv("GITUI_DATA"); dir != "" {
		f, err := os.Open(filepath.Join(dir, "mnist", "train10k-images-idx3-ubyte.gz"))
		if err == nil {
			defer f.Close()
			img, err := data.ReadIDXImages(f)
			if err != nil {
				tb.Fatal(err)
			}
			if img.N >= n && img.Rows*img.Cols == 784 {
				x := mat.NewDense(n, 784, nil)
				for i, v := range img.Pix[:n*784] {
					x.RawMatrix().Data[i] = float64(v) / 255
				}
				return x, "mnist"
			}
		}
	}
	x := mat.NewDense(n, 784, nil)
	for i := range n {
		row := x.RawRowView(i)
		for range 4 {
			cy, cx, w := 6+rng.Float64()*16, 6+rng.Float64()*16, 1+rng.Float64()*3
			for p := range 784 {
				dy, dx := float64(p/28)-cy, float64(p%28)-cx
				row[p] += math.Exp(-(dy*dy + dx*dx) / (2 * w * w))
			}
		}
	}
	return x, "synthetic"
}

// mnistGroup is the peer's |G| = 441: 9 rotations in [-20, 20] degrees (bilinear, zero
// fill) then 49 zero-fill shifts of radius 3, or the 49 shifts alone for g = 49.
func mnistGroup(g int) group.Action {
	sh := group.LocalShifts(28, 28, 3)
	if g == 49 {
		return sh
	}
	return group.Product(sh, group.Rotations(28, 28, group.AngleRange(-20, 20, 9)))
}

// BenchmarkCDFFeatures times the CDF map on the peer's workload (cdf_features.py): unit-norm
// images, m = 100 digit templates, |G| = 441, n = 25 bins. Reports images/s and the GFLOP/s
// of the projection GEMMs (2·n·d·m·|G| flops over the projection seconds).
func BenchmarkCDFFeatures(b *testing.B) {
	for _, c := range []struct{ n, m, g int }{{1000, 100, 441}, {10000, 100, 441}} {
		b.Run(fmt.Sprintf("n=%d/m=%d/G=%d", c.n, c.m, c.g), func(b *testing.B) {
			if c.n > 1000 && testing.Short() {
				b.Skip("n > 1000 skipped under -short (pure Go takes about a minute)")
			}
			rng := rand.New(rand.NewPCG(1, 1))
			x, src := benchImages(b, c.n, rng)
			tmpl, err := DataTemplates(x, c.m, rng)
			if err != nil {
				b.Fatal(err)
			}
			f, err := NewCDF(tmpl, mnistGroup(c.g), CDFOptions{Bins: 25, Normalize: true})
			if err != nil {
				b.Fatal(err)
			}
			var proj, pool, tmplT float64
			for b.Loop() {
				_, tm, err := f.TransformTimed(context.Background(), x, nil)
				if err != nil {
					b.Fatal(err)
				}
				proj += tm.Projection.Seconds()
				pool += tm.Pooling.Seconds()
				tmplT += tm.Templates.Seconds()
			}
			flops := 2 * float64(c.n) * 784 * float64(c.m) * float64(c.g)
			b.ReportMetric(float64(c.n)*float64(b.N)/b.Elapsed().Seconds(), "images/s")
			b.ReportMetric(flops*float64(b.N)/proj/1e9, "GFLOP/s")
			b.ReportMetric(proj/float64(b.N), "proj-s")
			b.ReportMetric(pool/float64(b.N), "pool-s")
			b.ReportMetric(tmplT/float64(b.N), "tmpl-s")
			b.Logf("%s, %s data", linalg.BLAS(), src)
		})
	}
}

// BenchmarkCDFPool times the fused pooling kernel alone on one core: 441 projections
// spread like unit-norm MNIST projections (about [-0.2, 0.9]) into 51 thresholds.
func BenchmarkCDFPool(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	p := make([]float32, 441*1000)
	for i := range p {
		p[i] = float32(rng.Float64()*1.1 - 0.2)
	}
	dst := make([]float64, 51)
	hist := make([]int32, 4*52)
	for b.Loop() {
		for j := 0; j < len(p); j += 441 {
			cdfPool(dst, p[j:j+441], -1, 25, 0.1, 0.07, hist)
		}
	}
	b.ReportMetric(float64(len(p))*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gproj/s")
}

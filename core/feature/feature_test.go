package feature

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

func TestRawAndBagOfWords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := oneHot(6, 5, 4, rng)
	r, err := Raw{}.Transform(context.Background(), x, nil)
	if err != nil || !mat.Equal(r, x) {
		t.Fatalf("raw: %v", err)
	}
	r.Set(0, 0, 42)
	if x.At(0, 0) == 42 {
		t.Fatal("raw: result aliases the input")
	}
	bow := NewBagOfWords([]int{5, 4})
	f, err := bow.Transform(context.Background(), x, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		var total float64
		for a := range 4 {
			var want float64 // count symbol a by hand
			for l := range 5 {
				want += x.At(i, l*4+a)
			}
			if f.At(i, a) != want {
				t.Fatalf("row %d symbol %d: %v, want %v", i, a, f.At(i, a), want)
			}
			total += f.At(i, a)
		}
		if total != 5 { // one symbol per block
			t.Fatalf("row %d: counts sum to %v, want 5", i, total)
		}
	}
	// Bag of words is invariant to block permutations: the linear kernel of the FINDINGS.
	g := newSymmetric(5, 4)
	gx := mat.NewDense(1, 20, nil)
	g.Apply(gx.RawRowView(0), x.RawRowView(2), 77)
	fg, _ := bow.Transform(context.Background(), gx, nil)
	if !mat.Equal(fg.RowView(0), f.RowView(2)) {
		t.Error("bag of words changed under a block permutation")
	}
	assertPanics(t, "bag-of-words width", func() { bow.OutputDim(21) })
	assertPanics(t, "bag-of-words shape", func() { NewBagOfWords([]int{20}) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bow.Transform(ctx, x, nil); err != context.Canceled {
		t.Errorf("cancelled bag of words: %v", err)
	}
}

func TestTemplates(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const m, d = 500, 30
	for _, eps := range []float64{0, 0.2} {
		g := GaussianTemplates(m, d, eps, rng)
		var mean float64
		for j := range m {
			n2 := mat.Dot(g.RowView(j), g.RowView(j))
			if n2 >= 1+eps {
				t.Fatalf("eps %v: template %d has ||t||^2 = %v, not rejected", eps, j, n2)
			}
			mean += n2 / m
		}
		// ||t||^2 ~ chi2_d / d truncated below 1+eps: its mean lies below 1 but well above 0.5
		// (chi2_30/30 has sd 0.26).
		if mean >= 1 || mean < 0.6 {
			t.Errorf("eps %v: mean ||t||^2 = %v", eps, mean)
		}
	}
	s := SphereTemplates(m, d, rng)
	var c0 float64 // mean of the first coordinate: 0 for a uniform sphere (sd 1/sqrt(m·d) ≈ 0.008)
	for j := range m {
		if n := mat.Norm(s.RowView(j), 2); math.Abs(n-1) > 1e-12 {
			t.Fatalf("sphere template %d has norm %v", j, n)
		}
		c0 += s.At(j, 0) / m
	}
	if math.Abs(c0) > 0.05 {
		t.Errorf("sphere templates: mean first coordinate %v", c0)
	}
	x := randn(40, d, rng)
	x.SetRow(3, make([]float64, d))
	dt, err := DataTemplates(x, 39, rng)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[float64]bool{}
	for j := range 39 {
		if n := mat.Norm(dt.RowView(j), 2); math.Abs(n-1) > 1e-12 {
			t.Fatalf("data template %d has norm %v", j, n)
		}
		seen[dt.At(j, 0)] = true
	}
	if len(seen) != 39 {
		t.Errorf("data templates not distinct: %d of 39", len(seen))
	}
	if _, err := DataTemplates(x, 40, rng); err == nil {
		t.Error("40 templates from 39 non-zero rows: no error")
	}
}

// TestMomentsMatchPlainDefinition compares the GEMM path with float64 sums; float32
// projections of unit vectors are within 1e-6 of exact (d = 24), so 1e-5 is safe.
func TestMomentsMatchPlainDefinition(t *testing.T) {
	defer func(c int) { gemmCols = c }(gemmCols)
	gemmCols = 30
	rng := rand.New(rand.NewPCG(9, 9))
	const n, d, m = 23, 24, 7
	x := randn(n, d, rng)
	for _, g := range []group.Action{cyclic{d, d}, cyclic{d, 5}} {
		tmpl := SphereTemplates(m, d, rng)
		f := NewMoments(tmpl, g, MomentOptions{Normalize: true, Rescale: true, BlockRows: 4, TemplateBlock: 3})
		got, err := f.Transform(context.Background(), x, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, c := got.Dims(); c != 3*m || f.OutputDim(d) != 3*m {
			t.Fatalf("%d columns, want %d", c, 3*m)
		}
		for r := range n {
			for j := range m {
				p := refProjections(x.RawRowView(r), tmpl.RawRowView(j), g, true, true)
				var s1, s2 float64
				mx := math.Inf(-1)
				for _, v := range p {
					s1 += v / float64(len(p))
					s2 += v * v / float64(len(p))
					mx = max(mx, v)
				}
				for k, want := range []float64{s1, s2, mx} {
					if math.Abs(got.At(r, 3*j+k)-want) > 1e-5 {
						t.Fatalf("%s x%d t%d moment %d: %v, want %v", g.Name(), r, j, k, got.At(r, 3*j+k), want)
					}
				}
			}
		}
	}
}

// TestOrbitDistance checks d_G against a hand computation: G = {id, swap} on R^2,
// x = e1, z = e2: the four distances are sqrt2, 0, 0, sqrt2, so
// d_G = (sqrt2/2)/sqrt(2·pi·2).
func TestOrbitDistance(t *testing.T) {
	g := newSymmetric(2, 1)
	got := OrbitDistance([]float64{1, 0}, []float64{0, 1}, g)
	want := math.Sqrt2 / 2 / math.Sqrt(4*math.Pi)
	if math.Abs(got-want) > 1e-15 {
		t.Fatalf("d_G = %v, want %v", got, want)
	}
	// Invariance: d_G(g x, z) = d_G(x, z) for a group; symmetry d_G(x, z) = d_G(z, x).
	rng := rand.New(rand.NewPCG(4, 4))
	c := cyclic{10, 10}
	x, z := unit(randn(1, 10, rng).RawRowView(0)), unit(randn(1, 10, rng).RawRowView(0))
	gx := make([]float64, 10)
	c.Apply(gx, x, 3)
	a, b, s := OrbitDistance(x, z, c), OrbitDistance(gx, z, c), OrbitDistance(z, x, c)
	if math.Abs(a-b) > 1e-12 || math.Abs(a-s) > 1e-12 {
		t.Errorf("d_G(x,z) = %v, d_G(gx,z) = %v, d_G(z,x) = %v", a, b, s)
	}
	assertPanics(t, "orbit distance length", func() { OrbitDistance(x[:9], z, c) })
}

func TestCompactColumns(t *testing.T) {
	// 2×5 matrix; column 1 is zero in a, column 3 is zero in the inputs.
	a := []float32{1, 0, 2, 3, 4, 5, 0, 6, 7, 8}
	keep := compactColumns(a, 5, []bool{true, true, true, false, true})
	if len(keep) != 3 || keep[0] != 0 || keep[1] != 2 || keep[2] != 4 {
		t.Fatalf("keep %v, want [0 2 4]", keep)
	}
	want := []float32{1, 2, 4, 5, 6, 8}
	for i, v := range want {
		if a[i] != v {
			t.Fatalf("compacted %v, want %v", a[:6], want)
		}
	}
	if k := compactColumns([]float32{0, 0}, 2, []bool{true, true}); len(k) != 1 {
		t.Errorf("all-zero block keeps %v, want one column", k)
	}
}

// TestTemplateBlocksBoundMemory checks the default template block for the FINDINGS case
// m = 1000, |G| = 441, d = 784 (1.4 GB of float32 if materialised): blocks must stay
// within DefaultTemplateBytes, and several of them must cover all m templates.
func TestTemplateBlocksBoundMemory(t *testing.T) {
	const m, G, d = 1000, 441, 784
	p := newProjector(mat.NewDense(m, d, nil), cyclic{d, G}, true, true, 0, 0)
	if b := p.tmplBlock * G * d * 4; b > DefaultTemplateBytes || p.tmplBlock < 1 || p.tmplBlock >= m {
		t.Fatalf("template block of %d templates = %d bytes (limit %d)", p.tmplBlock, b, DefaultTemplateBytes)
	}
	if c := p.chunk(); c*G > gemmCols || c < 1 {
		t.Errorf("GEMM chunk of %d templates = %d columns, target %d", c, c*G, gemmCols)
	}
}

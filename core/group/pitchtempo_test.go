package group_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/feature"
	"gitui/core/group"
)

func TestPitchTempoElements(t *testing.T) {
	d := group.DensePitchTempo(64, 64, 12)
	if d.Len() != 25 || d.Dim() != 4096 {
		t.Fatalf("dense: |G| %d, d %d, want 25, 4096", d.Len(), d.Dim())
	}
	p := group.PaperPitchTempo(64, 64, 12)
	if p.Len() != 9 {
		t.Fatalf("paper: |G| %d, want 9", p.Len())
	}
	seen := map[[2]float64]bool{}
	for i := range p.Len() {
		s, r := p.Element(i)
		seen[[2]float64{float64(s), r}] = true
	}
	for _, s := range []float64{-4, 0, 4} { // ±400 cents = ±4 semitone bands
		for _, r := range []float64{0.5, 1, 2} {
			if !seen[[2]float64{s, r}] {
				t.Errorf("paper set lacks (%v bands, rate %v)", s, r)
			}
		}
	}
	if s, r := d.Element(0); s != 0 || r != 1 {
		t.Errorf("element 0 is (%d, %v), want the identity", s, r)
	}
	x := make([]float64, 4096)
	for i := range x {
		x[i] = float64(i%97) - 40
	}
	y := make([]float64, 4096)
	d.Apply(y, x, 0)
	for i := range x {
		if y[i] != x[i] {
			t.Fatal("element 0 is not the identity")
		}
	}
}

// block returns a bands×frames spectrogram that is 1 on band b over frames [t0, t1].
func block(bands, frames, b, t0, t1 int) []float64 {
	x := make([]float64, bands*frames)
	for t := t0; t <= t1; t++ {
		x[b*frames+t] = 1
	}
	return x
}

func TestPitchShiftTranslatesBands(t *testing.T) {
	g := group.NewPitchTempo(64, 64, []int{0, 2, -4}, []float64{1}, "")
	x := block(64, 64, 30, 10, 50)
	y := make([]float64, len(x))
	for i := range g.Len() {
		s, _ := g.Element(i)
		g.Apply(y, x, i)
		want := block(64, 64, 30+s, 10, 50)
		for j := range y {
			if y[j] != want[j] {
				t.Fatalf("shift %d: entry %d is %v, want %v", s, j, y[j], want[j])
			}
		}
	}
	// Zero fill: a band shifted past the top disappears.
	top := block(64, 64, 63, 0, 63)
	g.Apply(y, top, 1)
	for _, v := range y {
		if v != 0 {
			t.Fatal("band 63 shifted up by 2 should leave the spectrogram")
		}
	}
}

func TestTempoWarpKeepsCentreScalesLength(t *testing.T) {
	// A block of L frames centred at the window's centre 31.5 becomes a block of about
	// L/r frames with the same centre (linear interpolation: ±1 frame at the ends).
	g := group.DensePitchTempo(64, 64, 12)
	x := block(64, 64, 20, 16, 47) // 32 frames, centre 31.5
	y := make([]float64, len(x))
	for i := range g.Len() {
		s, r := g.Element(i)
		if s != 0 {
			continue
		}
		g.Apply(y, x, i)
		row := y[20*64 : 21*64]
		var mass, moment float64
		for t, v := range row {
			mass += v
			moment += v * float64(t)
		}
		if c := moment / mass; math.Abs(c-31.5) > 0.5 {
			t.Errorf("rate %v: centre %.2f, want 31.5 ± 0.5", r, c)
		}
		want := math.Min(64, 32/r)
		if math.Abs(mass-want) > 1.5 {
			t.Errorf("rate %v: length %.2f frames, want %.1f ± 1.5", r, mass, want)
		}
	}
}

func TestPitchTempoInverse(t *testing.T) {
	// ApplyInverse undoes Apply on content away from the borders (a smooth block, so the
	// linear interpolation of the warp at rate 0.75/1.5 is nearly exact inside).
	g := group.DensePitchTempo(64, 64, 12)
	x := make([]float64, 4096)
	for b := 20; b < 40; b++ {
		for t := 24; t < 40; t++ {
			x[b*64+t] = math.Sin(math.Pi*float64(t-24)/16) * math.Sin(math.Pi*float64(b-20)/20)
		}
	}
	y, z := make([]float64, 4096), make([]float64, 4096)
	for i := range g.Len() {
		g.Apply(y, x, i)
		g.ApplyInverse(z, y, i)
		var diff, nrm float64
		for j := range x {
			diff += (z[j] - x[j]) * (z[j] - x[j])
			nrm += x[j] * x[j]
		}
		s, r := g.Element(i)
		if math.Sqrt(diff/nrm) > 0.05 {
			t.Errorf("(%d, %v): relative error of g^-1 g x %.3f, want <= 0.05", s, r, math.Sqrt(diff/nrm))
		}
	}
}

// TestCDFInvariantOnPitchOrbit: with pitch shifts -20..20 bands acting on templates and
// inputs whose bands lie in 24..40, every nonzero projection <g_i t, x> of x and of a
// shifted x (by up to 4 bands) appears in both orbits (the shifts out of the window give
// zero projections in both), so the CDF features agree: Phi(g x) = Phi(x). A count may
// differ only when a float32 projection lies within ~1e-6 of a threshold, so at most
// 0.5% of entries are allowed to differ. The dense 25-element set is not a group, so
// there the features are only nearly invariant: Phi moves much less under the
// transformations with |G| = 25 than with |G| = 1.
func TestCDFInvariantOnPitchOrbit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const B, T = 64, 64
	randSpec := func(lo, hi int) []float64 {
		x := make([]float64, B*T)
		for b := lo; b < hi; b++ {
			for t := 16; t < 48; t++ {
				x[b*T+t] = rng.Float64()
			}
		}
		var ss float64
		for _, v := range x {
			ss += v * v
		}
		for i := range x {
			x[i] /= math.Sqrt(ss) // unit norm: projections lie in [-1, 1], where the thresholds are
		}
		return x
	}
	var shifts []int
	for s := -20; s <= 20; s++ {
		shifts = append(shifts, s)
	}
	g := group.NewPitchTempo(B, T, shifts, []float64{1}, "")
	m := 8
	tpl := mat.NewDense(m, B*T, nil)
	for j := range m {
		tpl.SetRow(j, randSpec(24, 40))
	}
	cdf, err := feature.NewCDF(tpl, g, feature.CDFOptions{Bins: 25, Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	xs := mat.NewDense(4, B*T, nil)
	x := randSpec(24, 40)
	xs.SetRow(0, x)
	k := 1
	for _, i := range []int{17, 22, 24} { // shifts -4, +1, +3 bands (element order: identity, then -20..20 without 0)
		y := make([]float64, B*T)
		g.Apply(y, x, i)
		xs.SetRow(k, y)
		k++
	}
	phi, err := cdf.Transform(context.Background(), xs, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, n := phi.Dims()
	levels := map[float64]bool{}
	for _, v := range phi.RawRowView(0) {
		levels[v] = true
	}
	if len(levels) < 10 {
		t.Fatalf("Phi(x) takes %d distinct values: the thresholds do not cut the projections", len(levels))
	}
	for r := 1; r < 4; r++ {
		differ := 0
		for c := range n {
			if phi.At(r, c) != phi.At(0, c) {
				differ++
			}
		}
		if float64(differ) > 0.005*float64(n) {
			t.Errorf("row %d: %d of %d features differ from Phi(x)", r, differ, n)
		}
	}

	// Dense set: mean ||Phi(g x) - Phi(x)|| / ||Phi(x)|| over the 24 non-identity elements,
	// |G| = 25 against |G| = 1 (the identity only).
	dense := group.DensePitchTempo(B, T, 12)
	ident := group.Select(dense, []int{0})
	moved := func(a group.Action) float64 {
		tp := mat.NewDense(16, B*T, nil)
		for j := range 16 {
			tp.SetRow(j, randSpec(20, 44))
		}
		c, err := feature.NewCDF(tp, a, feature.CDFOptions{Bins: 25, Normalize: true, Rescale: true})
		if err != nil {
			t.Fatal(err)
		}
		in := mat.NewDense(dense.Len(), B*T, nil)
		x := randSpec(20, 44)
		for i := range dense.Len() {
			dense.Apply(in.RawRowView(i), x, i)
		}
		f, err := c.Transform(context.Background(), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var rel float64
		f0 := f.RawRowView(0)
		for i := 1; i < dense.Len(); i++ {
			var d, nn float64
			for c, v := range f.RawRowView(i) {
				d += (v - f0[c]) * (v - f0[c])
				nn += f0[c] * f0[c]
			}
			rel += math.Sqrt(d / nn)
		}
		return rel / float64(dense.Len()-1)
	}
	m25, m1 := moved(dense), moved(ident)
	t.Logf("mean relative change of Phi under the 24 transformations: |G|=25 %.3f, |G|=1 %.3f", m25, m1)
	if !(m25 < 0.5*m1) {
		t.Errorf("|G|=25 features move %.3f, |G|=1 %.3f: want less than half", m25, m1)
	}
}

package group

import (
	"context"
	"errors"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"
)

// giantGens returns the d-cycle p -> p+1 mod d, the transposition (0 1) and the 3-cycle (0 1 2).
func giantGens(d int) (cyc, tr, three []int) {
	cyc, tr, three = make([]int, d), make([]int, d), make([]int, d)
	for i := range d {
		cyc[i], tr[i], three[i] = (i+1)%d, i, i
	}
	tr[0], tr[1] = 1, 0
	three[0], three[1], three[2] = 1, 2, 0
	return cyc, tr, three
}

// S_d from a transposition and a d-cycle, and A_d (d odd) from a 3-cycle and the (even)
// d-cycle, are recognised from GiantDegree on: order d! or d!/2, members by parity,
// uniform samples that stay in the group, at degrees (10,000) where the chain's
// transversals would need terabytes.
func TestGiantRecognised(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		d     int
		alt   bool
		order *big.Int
	}{
		{GiantDegree, false, new(big.Int).MulRange(1, GiantDegree)},
		{301, true, new(big.Int).Rsh(new(big.Int).MulRange(1, 301), 1)},
		{10000, false, new(big.Int).MulRange(1, 10000)},
	} {
		cyc, tr, three := giantGens(c.d)
		gens := [][]int{tr, cyc}
		if c.alt {
			gens = [][]int{three, cyc}
		}
		start := time.Now()
		ch, err := NewChainLimit(ctx, c.d, gens, 1<<30)
		if err != nil {
			t.Fatalf("d=%d: %v", c.d, err)
		}
		if ch.Order().Cmp(c.order) != 0 {
			t.Fatalf("d=%d alt=%v: order %s, want %s", c.d, c.alt, FormatOrder(ch.Order()), FormatOrder(c.order))
		}
		if ch.Bytes() > 4*int64(c.d)*int64(len(gens)+1)+100 {
			t.Errorf("d=%d: %d bytes of tables, want only the generators'", c.d, ch.Bytes())
		}
		prod := 1.0
		for _, s := range ch.OrbitSizes() {
			prod *= float64(s)
		}
		if len(ch.Base()) != len(ch.OrbitSizes()) {
			t.Errorf("d=%d: base of %d points, %d orbits", c.d, len(ch.Base()), len(ch.OrbitSizes()))
		}
		odd := append([]int(nil), tr...)
		if ch.Contains(odd) == c.alt || !ch.Contains(three) || ch.Contains(tr[:c.d-1]) {
			t.Errorf("d=%d alt=%v: Contains(transposition) = %v, Contains(3-cycle) = %v", c.d, c.alt, ch.Contains(odd), ch.Contains(three))
		}
		s, err := ch.Sample(ctx, 50, rand.New(rand.NewPCG(7, 7)), "giant")
		if err != nil || s.Len() != 50 {
			t.Fatalf("d=%d: sample: %v", c.d, err)
		}
		for i := range s.Len() {
			p := s.Perm(i)
			if CheckPerm(p, c.d) != nil || !ch.Contains(p) {
				t.Fatalf("d=%d: sample %d is not in the group", c.d, i)
			}
		}
		t.Logf("d=%d alt=%v: recognised and 50 sampled in %v", c.d, c.alt, time.Since(start))
	}
}

// The uniform draw of a recognised A_d of degree GiantDegree: over 51,200 draws
// the image of point 0 is uniform over the d points (chi-square), and
// every draw is even.
func TestGiantSampleUniform(t *testing.T) {
	d := GiantDegree
	cyc, tr, _ := giantGens(d)
	ch, err := NewChain(context.Background(), d, [][]int{tr, cyc})
	if err != nil || ch.giant != giantSymmetric {
		t.Fatalf("not recognised: %v", err)
	}
	alt := &Chain{d: d, giant: giantAlternating}
	rng := rand.New(rand.NewPCG(3, 4))
	const draws = 256 * 200
	counts := make([]float64, d)
	for range draws {
		g := alt.random(rng)
		if !even(g) {
			t.Fatal("an odd draw from A_d")
		}
		counts[g[0]]++
	}
	chi := 0.0
	for _, n := range counts {
		e := float64(draws) / float64(d)
		chi += (n - e) * (n - e) / e
	}
	// 255 degrees of freedom: mean 255, sd 22.6; 400 is 6.4 sd out.
	if chi > 400 {
		t.Errorf("chi-square %.0f over %d cells: the image of 0 is not uniform", chi, d)
	}
}

// Groups that are not giants fall back to Schreier–Sims and keep their order: the
// cyclic and dihedral groups of degree 300 (transitive, no cycle of a prime length in
// (150, 298)), and an intransitive S_150 x S_150 (no prime test run at all).
func TestGiantFallback(t *testing.T) {
	ctx := context.Background()
	d := 300
	cyc, _, _ := giantGens(d)
	ref := make([]int, d)
	for i := range ref {
		ref[i] = (d - i) % d
	}
	c, err := NewChain(ctx, d, [][]int{cyc})
	if err != nil || c.giant != giantNone || c.Order().Int64() != 300 {
		t.Fatalf("C_300: %v, order %s", err, c.Order())
	}
	dih, err := NewChain(ctx, d, [][]int{cyc, ref})
	if err != nil || dih.giant != giantNone || dih.Order().Int64() != 600 {
		t.Fatalf("D_300: %v, order %s", err, dih.Order())
	}
	if !transitive(d, []perm{fromInts(cyc)}) {
		t.Error("the 300-cycle is not transitive")
	}
	half := make([]int, d)
	for i := range half {
		half[i] = i
	}
	half[0], half[1] = 1, 0
	if transitive(d, []perm{fromInts(half)}) {
		t.Error("a transposition is transitive on 300 points")
	}
	if k, _ := recognizeGiant(ctx, d, []perm{fromInts(half)}); k != giantNone {
		t.Error("an intransitive group recognised as a giant")
	}
}

// A cancelled context stops both the recognition and the chain.
func TestChainCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cyc, tr, _ := giantGens(1000)
	if _, err := NewChain(ctx, 1000, [][]int{tr, cyc}); !errors.Is(err, context.Canceled) {
		t.Errorf("S_1000 under a cancelled context: %v", err)
	}
	cyc, tr, _ = giantGens(120)
	if _, err := NewChain(ctx, 120, [][]int{tr, cyc}); !errors.Is(err, context.Canceled) {
		t.Errorf("S_120's chain under a cancelled context: %v", err)
	}
}

// Parity and the prime window against small cases.
func TestEvenAndPrimeWindow(t *testing.T) {
	if !even(perm{0, 1, 2}) || even(perm{1, 0, 2}) || !even(perm{1, 2, 0}) || even(perm{1, 2, 3, 0}) {
		t.Error("even: wrong parity")
	}
	w := primeWindow(20) // primes in (10, 18): 11, 13, 17
	var got []int
	for p, ok := range w {
		if ok {
			got = append(got, p)
		}
	}
	if len(got) != 3 || got[0] != 11 || got[1] != 13 || got[2] != 17 {
		t.Errorf("primeWindow(20) = %v, want [11 13 17]", got)
	}
}

// ChainBytesBound is a lower bound on the chain's tables, exact for a cyclic group (one
// level), and the generators' alone for a recognised S_d.
func TestChainBytesBound(t *testing.T) {
	ctx := context.Background()
	for _, d := range []int{50, 300, 2000} {
		cyc, tr, _ := giantGens(d)
		c, err := NewChain(ctx, d, [][]int{cyc})
		if err != nil {
			t.Fatal(err)
		}
		b, err := ChainBytesBound(ctx, d, [][]int{cyc})
		if err != nil || b != c.Bytes() {
			t.Errorf("C_%d: bound %d, chain %d bytes: want equal (one level)", d, b, c.Bytes())
		}
		s, _ := NewChain(ctx, d, [][]int{tr, cyc})
		sb, err := ChainBytesBound(ctx, d, [][]int{tr, cyc})
		if err != nil || sb > s.Bytes() {
			t.Errorf("S_%d: bound %d above the chain's %d bytes", d, sb, s.Bytes())
		}
	}
	if b, _ := ChainBytesBound(ctx, 4, [][]int{{0, 1, 2}}); b != 0 {
		t.Errorf("an invalid generator: bound %d, want 0", b)
	}
}

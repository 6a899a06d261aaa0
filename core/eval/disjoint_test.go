package eval

import (
	"testing"

	"gitui/core/data"
)

// TestDisjointDraws checks Sampling data.Disjoint: the repeats' draws of one size are
// disjoint blocks of one permutation (23 × 317 = 7,291 covers a pool of 7,291 exactly),
// deterministic in the seed, and a repeat past the pool is an error.
func TestDisjointDraws(t *testing.T) {
	pool := twoClass(7291)
	p := &Protocol{Pool: pool, Test: twoClass(10), Repeats: 23, Sampling: data.Disjoint, Seed: 3}
	draws, err := p.Draws(317)
	if err != nil {
		t.Fatal(err)
	}
	if len(draws) != 23 {
		t.Fatalf("%d draws, want 23", len(draws))
	}
	seen := make([]bool, pool.Len())
	for r, d := range draws {
		if len(d) != 317 {
			t.Fatalf("draw %d has %d samples, want 317", r, len(d))
		}
		for _, i := range d {
			if seen[i] {
				t.Fatalf("sample %d is in two draws (repeat %d)", i, r)
			}
			seen[i] = true
		}
	}
	for i, s := range seen {
		if !s {
			t.Fatalf("sample %d is in no draw: 23 × 317 should cover the 7,291", i)
		}
	}
	again, _ := p.Draw(5, 317)
	if !equalInts(again, draws[5]) {
		t.Error("the draw of repeat 5 changed between calls")
	}
	p.Seed = 4
	other, _ := p.Draw(0, 317)
	if equalInts(other, draws[0]) {
		t.Error("another seed gave the same first block")
	}
	if _, err := p.Draw(23, 317); err == nil {
		t.Error("a 24th block of 317 from 7,291 samples: no error")
	}
}

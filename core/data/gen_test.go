package data

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestXPerm(t *testing.T) {
	seen := map[[2]int]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		ds, tg := XPerm(rand.New(rand.NewPCG(seed, 7)))
		if tg[0] == tg[1] || tg[0] < 0 || tg[0] > 7 || tg[1] < 0 || tg[1] > 7 {
			t.Fatalf("targets %v", tg)
		}
		seen[tg] = true
		if seed > 3 {
			continue // the full property check on a few seeds keeps the test fast
		}
		if err := ds.Validate(); err != nil {
			t.Fatal(err)
		}
		if ds.Len() != 32768 || ds.Dim() != 40 || ds.Shape[0] != 5 || ds.Shape[1] != 8 {
			t.Fatalf("n=%d d=%d shape=%v", ds.Len(), ds.Dim(), ds.Shape)
		}
		pos := 0
		distinct := map[[5]int]bool{}
		for k := range ds.Len() {
			row := ds.X.RawRowView(k)
			var s [5]int
			for p := range 5 {
				ones := 0
				for c := range 8 {
					switch row[8*p+c] {
					case 1:
						ones++
						s[p] = c
					case 0:
					default:
						t.Fatalf("entry %v is not 0/1", row[8*p+c])
					}
				}
				if ones != 1 {
					t.Fatalf("sample %d block %d has %d ones", k, p, ones)
				}
			}
			distinct[s] = true
			// Lexicographic order: sample k spells k in base 8.
			if s[0]*4096+s[1]*512+s[2]*64+s[3]*8+s[4] != k {
				t.Fatalf("sample %d spells %v", k, s)
			}
			hasA, hasB := false, false
			for _, c := range s {
				hasA, hasB = hasA || c == tg[0], hasB || c == tg[1]
			}
			if want := hasA && hasB; (ds.Y[k] == 1) != want {
				t.Fatalf("sample %v label %d with targets %v", s, ds.Y[k], tg)
			}
			pos += ds.Y[k]
			// Invariance: the reversed sequence (a permutation of positions) has the same label.
			r := s[4]*4096 + s[3]*512 + s[2]*64 + s[1]*8 + s[0]
			if ds.Y[r] != ds.Y[k] {
				t.Fatalf("label changes under reversal of %v", s)
			}
		}
		if len(distinct) != 32768 {
			t.Fatalf("%d distinct sequences", len(distinct))
		}
		// Inclusion-exclusion, counted exactly: 8^5 - 2*7^5 + 6^5 = 32768 - 33614 + 7776 = 6930
		// (fraction 0.21149 = 1 - 2*(7/8)^5 + (6/8)^5).
		if pos != 6930 {
			t.Fatalf("%d positives, want 6930", pos)
		}
		if f := float64(pos) / 32768; math.Abs(f-(1-2*math.Pow(7./8, 5)+math.Pow(6./8, 5))) > 1e-15 {
			t.Fatalf("fraction %v", f)
		}
		if ds.Classes[0] != "-1" || ds.Classes[1] != "+1" {
			t.Fatalf("classes %v", ds.Classes)
		}
	}
	// 40 seeds over 56 ordered pairs: many distinct targets (a fixed pair would give 1).
	if len(seen) < 15 {
		t.Fatalf("only %d distinct target pairs in 40 seeds", len(seen))
	}
	a, ta := XPerm(rand.New(rand.NewPCG(5, 5)))
	b, tb := XPerm(rand.New(rand.NewPCG(5, 5)))
	if ta != tb || a.Y[12345] != b.Y[12345] {
		t.Fatal("XPerm is not reproducible for a fixed seed")
	}
}

func TestCircle(t *testing.T) {
	n := 20000
	ds := Circle(n, rand.New(rand.NewPCG(3, 3)))
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	pos := 0
	var sum [2]float64
	for i := range n {
		u, v := ds.X.At(i, 0), ds.X.At(i, 1)
		if u < -1 || u > 1 || v < -1 || v > 1 {
			t.Fatalf("point %v,%v outside the square", u, v)
		}
		if (u*u+v*v > 0.7) != (ds.Y[i] == 1) {
			t.Fatalf("point %v,%v label %d", u, v, ds.Y[i])
		}
		pos += ds.Y[i]
		sum[0] += u
		sum[1] += v
	}
	// P(+1) = 1 - area(disc r^2=0.7)/4 = 1 - 0.7*pi/4 = 0.45022; binomial sd at n=20000
	// is 0.0035, so 5 sd = 0.018.
	if f := float64(pos) / float64(n); math.Abs(f-(1-0.7*math.Pi/4)) > 0.018 {
		t.Fatalf("positive fraction %v", f)
	}
	// Uniform on [-1,1]: mean 0, sd of the mean 0.577/sqrt(n) = 0.0041; 5 sd = 0.02.
	for k := range 2 {
		if m := sum[k] / float64(n); math.Abs(m) > 0.02 {
			t.Fatalf("coordinate %d mean %v", k, m)
		}
	}
}

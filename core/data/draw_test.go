package data

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// labels returns counts[c] copies of each class c, interleaved pseudo-randomly.
func labels(counts []int, seed uint64) []int {
	var y []int
	for c, k := range counts {
		for range k {
			y = append(y, c)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	rng.Shuffle(len(y), func(i, j int) { y[i], y[j] = y[j], y[i] })
	return y
}

func checkDistinct(t *testing.T, idx []int, n int, pool []int) {
	t.Helper()
	if len(idx) != n {
		t.Fatalf("drew %d, want %d", len(idx), n)
	}
	s := slices.Clone(idx)
	slices.Sort(s)
	if len(slices.Compact(s)) != n {
		t.Fatal("repeated index")
	}
	for _, i := range idx {
		if pool != nil && !slices.Contains(pool, i) {
			t.Fatalf("index %d outside the pool", i)
		}
	}
}

func TestDrawStratified(t *testing.T) {
	counts := []int{500, 300, 150, 50} // N = 1000
	y := labels(counts, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 33, 100, 999, 1000} {
		idx, err := Draw(rng, y, n, DrawOptions{Mode: Stratified})
		if err != nil {
			t.Fatal(err)
		}
		checkDistinct(t, idx, n, nil)
		got := make([]int, 4)
		for _, i := range idx {
			got[y[i]]++
		}
		// Largest remainder: each class gets floor or ceil of its exact share n*N_c/N.
		for c := range counts {
			share := float64(n*counts[c]) / 1000
			if float64(got[c]) < math.Floor(share) || float64(got[c]) > math.Ceil(share) {
				t.Fatalf("n=%d class %d got %d, share %v", n, c, got[c], share)
			}
		}
	}
	// A worked example: N_c = 500,300,150,50, n = 7: shares 3.5, 2.1, 1.05, 0.35, floors
	// 3,2,1,0 (sum 6), the one left goes to the largest remainder (class 0): 4,2,1,0.
	idx, _ := Draw(rng, y, 7, DrawOptions{Mode: Stratified})
	if got := ClassCounts(pick(y, idx), 4); !slices.Equal(got, []int{4, 2, 1, 0}) {
		t.Fatalf("n=7 counts %v, want [4 2 1 0]", got)
	}
}

func pick(y, idx []int) []int {
	out := make([]int, len(idx))
	for k, i := range idx {
		out[k] = y[i]
	}
	return out
}

func TestDrawBalancedAndPlain(t *testing.T) {
	y := labels([]int{800, 200}, 2)
	rng := rand.New(rand.NewPCG(4, 4))
	idx, err := Draw(rng, y, 100, DrawOptions{Mode: Balanced})
	if err != nil {
		t.Fatal(err)
	}
	checkDistinct(t, idx, 100, nil)
	if got := ClassCounts(pick(y, idx), 2); !slices.Equal(got, []int{50, 50}) {
		t.Fatalf("balanced counts %v", got)
	}
	idx, _ = Draw(rng, y, 101, DrawOptions{Mode: Balanced})
	if got := ClassCounts(pick(y, idx), 2); got[0]+got[1] != 101 || got[0] < 50 || got[1] < 50 {
		t.Fatalf("balanced odd counts %v", got)
	}
	_, err = Draw(rng, y, 500, DrawOptions{Mode: Balanced, What: "training size"})
	if err == nil || !strings.Contains(err.Error(), "class 1 has 200 samples") || !strings.Contains(err.Error(), "training size of 500 needs 250") {
		t.Fatalf("err = %v", err)
	}

	// Plain draws from a pool: distinct, inside the pool, and every pool element about
	// equally likely: 2000 draws of 10 from 20 give 1000 hits each (sd 22; 5 sd = 110).
	pool := []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39}
	hits := map[int]int{}
	yy := make([]int, 40)
	for range 2000 {
		idx, err := Draw(rng, yy, 10, DrawOptions{Pool: pool})
		if err != nil {
			t.Fatal(err)
		}
		checkDistinct(t, idx, 10, pool)
		for _, i := range idx {
			hits[i]++
		}
	}
	for _, i := range pool {
		if math.Abs(float64(hits[i])-1000) > 110 {
			t.Fatalf("index %d drawn %d times, want about 1000", i, hits[i])
		}
	}
	_, err = Draw(rng, make([]int, 4000), 5000, DrawOptions{What: "training size"})
	if err == nil || err.Error() != "training size 5000 is larger than the pool of 4000: lower it or add data" {
		t.Fatalf("err = %v", err)
	}
	// Same seed, same draw.
	a, _ := Draw(rand.New(rand.NewPCG(9, 9)), y, 30, DrawOptions{Mode: Stratified})
	b, _ := Draw(rand.New(rand.NewPCG(9, 9)), y, 30, DrawOptions{Mode: Stratified})
	if !slices.Equal(a, b) {
		t.Fatal("Draw is not reproducible")
	}
}

func TestSplitExclude(t *testing.T) {
	train, test := Split(rand.New(rand.NewPCG(1, 1)), 10, 0.25)
	if len(test) != 3 || len(train) != 7 { // round(2.5) = 3
		t.Fatalf("split %d/%d", len(train), len(test))
	}
	all := append(slices.Clone(train), test...)
	slices.Sort(all)
	for i := range 10 {
		if all[i] != i {
			t.Fatalf("split is not a partition: %v", all)
		}
	}
	rest := Exclude([]int{0, 1, 2, 3, 4, 5}, []int{4, 1, 9})
	if !slices.Equal(rest, []int{0, 2, 3, 5}) {
		t.Fatalf("Exclude = %v", rest)
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "data: ") {
			t.Fatalf("ClassCounts on a bad label: recover() = %v", r)
		}
	}()
	ClassCounts([]int{0, 3}, 3)
}

func TestNormalize(t *testing.T) {
	ds := &Dataset{Name: "n", X: mat.NewDense(3, 2, []float64{3, 4, 0, 0, -1, 1}), Y: []int{0, 1, 0}, Classes: []string{"a", "b"}, Shape: []int{2}}
	nd := ds.Normalize()
	want := []float64{0.6, 0.8, 0, 0, -1 / math.Sqrt2, 1 / math.Sqrt2}
	// 1 ulp-scale tolerance: one division and one square root per row.
	if !floats.EqualApprox(nd.X.RawMatrix().Data, want, 1e-15) {
		t.Fatalf("Normalize = %v", nd.X.RawMatrix().Data)
	}
	if ds.X.At(0, 0) != 3 {
		t.Fatal("Normalize modified its input")
	}
	nd.Y[0] = 1
	if ds.Y[0] != 0 {
		t.Fatal("Normalize shares Y")
	}
}

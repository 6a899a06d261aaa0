package tune

import (
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// synthSpace and synth are the synthetic objective of TestTPEBeatsRandom: a log, a
// linear float, an integer and a categorical dimension, with its known maximum 0 at
// a = 0.01, b = 2.5, c = 17, d = 2 (every term is a non-positive penalty that is 0 only there).
var synthSpace = Space{
	{Name: "a", Kind: Float, Low: 1e-4, High: 1e2, Log: true},
	{Name: "b", Kind: Float, Low: -5, High: 10},
	{Name: "c", Kind: Int, Low: 1, High: 50},
	{Name: "d", Kind: Categorical, Choices: 4},
}

func synth(x []float64) float64 {
	pa := (math.Log10(x[0]) + 2) / 6
	pb := (x[1] - 2.5) / 15
	pc := (x[2] - 17) / 49
	pd := 0.0
	if x[3] != 2 {
		pd = 0.05
	}
	return -(pa*pa + pb*pb + pc*pc + pd)
}

func bestOf(s Sampler, n int) float64 {
	var hist []Observation
	best := math.Inf(-1)
	for i := 0; i < n; i++ {
		x := s.Sample(i, hist)
		v := synth(x)
		hist = append(hist, Observation{X: x, Value: v})
		best = math.Max(best, v)
	}
	return best
}

// TPE must find a better configuration than random search with the same number of
// trials (60) in at least 8 of 10 seeds.
func TestTPEBeatsRandom(t *testing.T) {
	wins := 0
	for seed := uint64(1); seed <= 10; seed++ {
		tp := bestOf(TPE{Space: synthSpace, Seed: seed}, 60)
		rd := bestOf(Random{Space: synthSpace, Seed: seed + 100}, 60)
		if tp > rd {
			wins++
		}
		t.Logf("seed %d: TPE %.5f random %.5f", seed, tp, rd)
	}
	if wins < 8 {
		t.Fatalf("TPE beat random in %d of 10 seeds, want >= 8", wins)
	}
}

func TestSamplesInSpaceAndDeterministic(t *testing.T) {
	for _, s := range []Sampler{TPE{Space: synthSpace, Seed: 3}, Random{Space: synthSpace, Seed: 3}, Halton{Space: synthSpace, Seed: 3}, Grid{Space: synthSpace}} {
		var hist []Observation
		for i := 0; i < 40; i++ {
			x := s.Sample(i, hist)
			if y := s.Sample(i, hist); !reflect.DeepEqual(x, y) {
				t.Fatalf("%T: trial %d proposed %v then %v", s, i, x, y)
			}
			for k, d := range synthSpace {
				v := x[k]
				switch {
				case d.Kind == Categorical && (v != math.Floor(v) || v < 0 || v >= float64(d.Choices)),
					d.Kind == Int && (v != math.Floor(v) || v < d.Low || v > d.High),
					v < d.Low && d.Kind != Categorical, v > d.High && d.Kind != Categorical:
					t.Fatalf("%T: trial %d: %s = %v outside its dimension", s, i, d.Name, v)
				}
			}
			hist = append(hist, Observation{X: x, Value: synth(x)})
		}
	}
}

// The scrambled Halton sequence fills the cube more evenly than random points (L2-star
// discrepancy below half random's mean over 10 seeds), and its first b^j points fall
// one in each interval of width b^-j in the dimension of base b.
func TestHaltonDiscrepancy(t *testing.T) {
	const n, d = 256, 3
	for seed := uint64(1); seed <= 3; seed++ {
		h := make([][]float64, n)
		for i := range h {
			h[i] = HaltonPoint(i, d, seed)
		}
		var rnd float64
		for rs := uint64(1); rs <= 10; rs++ {
			rng := rand.New(rand.NewPCG(rs, seed))
			r := make([][]float64, n)
			for i := range r {
				r[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
			}
			rnd += StarDiscrepancyL2(r) / 10
		}
		if dh := StarDiscrepancyL2(h); dh > rnd/2 {
			t.Fatalf("seed %d: Halton discrepancy %.5f, random %.5f: want at most half", seed, dh, rnd)
		}
		for k, m := range []int{256, 243, 125} { // 2^8, 3^5, 5^3
			seen := make([]bool, m)
			for i := 0; i < m; i++ {
				c := int(HaltonPoint(i, d, seed)[k]*float64(m) + 1e-9) // radical inverses are multiples of 1/m
				if seen[c] {
					t.Fatalf("seed %d, dimension %d: two of the first %d points in interval %d", seed, k, m, c)
				}
				seen[c] = true
			}
		}
	}
	// Warnock's formula against a hand value: one point at the centre of [0,1]:
	// 1/3 - 2·(3/8) + 1/2 = 1/12.
	if got := StarDiscrepancyL2([][]float64{{0.5}}); math.Abs(got-math.Sqrt(1.0/12)) > 1e-12 {
		t.Fatalf("discrepancy of {0.5} = %v, want sqrt(1/12)", got)
	}
}

func TestGrid(t *testing.T) {
	g := Grid{Space: Space{{Name: "c", Kind: Float, Low: 0.1, High: 1000, Log: true}, {Name: "k", Kind: Categorical, Choices: 2}, {Name: "i", Kind: Int, Low: 1, High: 3}}, Points: 5}
	vals := g.Values()
	want := []float64{0.1, 1, 10, 100, 1000}
	for i, v := range vals[0] {
		if math.Abs(v-want[i])/want[i] > 1e-12 {
			t.Fatalf("log grid %v, want %v", vals[0], want)
		}
	}
	if !reflect.DeepEqual(vals[2], []float64{1, 2, 3}) || g.Size() != 30 {
		t.Fatalf("int grid %v size %d, want [1 2 3] and 30", vals[2], g.Size())
	}
	seen := map[[3]float64]bool{}
	for i := 0; i < 30; i++ {
		x := g.Sample(i, nil)
		seen[[3]float64{x[0], x[1], x[2]}] = true
	}
	if len(seen) != 30 {
		t.Fatalf("30 trials visited %d grid points", len(seen))
	}
}

// The promotion rule on a hand-worked example, eta = 3, rungs 1, 3, 9.
func TestASHAPromotion(t *testing.T) {
	a := NewASHA([]int{1, 3, 9}, 3, 9)
	step := func(want Job, v float64) {
		t.Helper()
		j, ok := a.Next()
		if !ok || j != want {
			t.Fatalf("next job %+v (%v), want %+v", j, ok, want)
		}
		a.Report(j, v)
	}
	step(Job{0, 0, 1}, 0.5)
	step(Job{1, 0, 1}, 0.9) // 2 results at rung 0: top floor(2/3) = 0, a new trial
	step(Job{2, 0, 1}, 0.7) // 3 results: trial 1 is the top 1/3
	step(Job{1, 1, 3}, 0.95)
	step(Job{3, 0, 1}, 0.8) // rung 1 holds 1 result (top 0), rung 0's top is promoted
	step(Job{4, 0, 1}, 0.6)
	step(Job{5, 0, 1}, 0.3) // 6 results: top 2 are trials 1 (promoted) and 3
	step(Job{3, 1, 3}, 0.85)
	step(Job{6, 0, 1}, 0.99) // 7 results: top 2 = trials 6 and 1
	step(Job{6, 1, 3}, 0.97) // rung 1: 3 results, top 1 = trial 6
	step(Job{6, 2, 9}, 0.98)
	// Asynchronous: two free workers get two jobs without waiting for a report.
	j1, ok1 := a.Next()
	j2, ok2 := a.Next()
	if !ok1 || !ok2 || j1 != (Job{7, 0, 1}) || j2 != (Job{8, 0, 1}) {
		t.Fatalf("two free workers got %+v %+v", j1, j2)
	}
	if a.Finished() {
		t.Fatal("finished with two jobs running")
	}
	a.Report(j2, 0.1)
	a.Report(j1, 0.2)
	for {
		j, ok := a.Next()
		if !ok {
			break
		}
		a.Report(j, 0.5)
	}
	if !a.Finished() {
		t.Fatal("not finished after the last trial")
	}
	if id, k, v, _ := Best(a.Results()); id != 6 || k != 2 || v != 0.98 {
		t.Fatalf("best trial %d at rung %d (%v), want 6 at rung 2", id, k, v)
	}
}

func TestHalvingAndHyperband(t *testing.T) {
	h := NewHalving([]int{1, 3, 9}, 3, 9)
	perRung := make([]int, 3)
	for {
		j, ok := h.Next()
		if !ok {
			break
		}
		perRung[j.Rung]++
		h.Report(j, float64(j.Trial%5)) // trials 4 (4), 3 (3), 8 (3) best at rung 0
	}
	if !h.Finished() || !reflect.DeepEqual(perRung, []int{9, 3, 1}) {
		t.Fatalf("halving ran %v jobs per rung (finished %v), want [9 3 1]", perRung, h.Finished())
	}
	if got := sortedKeys(h.Results()[1]); !reflect.DeepEqual(got, []int{3, 4, 8}) {
		t.Fatalf("rung 1 holds trials %v, want the top third [3 4 8]", got)
	}
	// Li et al. 2017, Table 1 (R = 27, eta = 3): brackets of 27, 12, 6 and 4 configurations.
	hb := NewHyperband([]int{1, 3, 9, 27}, 3)
	var ns []int
	for _, b := range hb.brackets {
		ns = append(ns, b.n)
	}
	if !reflect.DeepEqual(ns, []int{27, 12, 6, 4}) || hb.Trials() != 49 {
		t.Fatalf("hyperband brackets %v, want [27 12 6 4]", ns)
	}
	jobs := 0
	for {
		j, ok := hb.Next()
		if !ok {
			break
		}
		jobs++
		hb.Report(j, 1/float64(1+j.Trial))
	}
	// 27+9+3+1, 12+4+1, 6+2, 4 jobs.
	if !hb.Finished() || jobs != 40+17+8+4 {
		t.Fatalf("hyperband ran %d jobs, want 69", jobs)
	}
}

func sortedKeys(m map[int]float64) []int {
	var k []int
	for i := 0; i < 100; i++ {
		if _, ok := m[i]; ok {
			k = append(k, i)
		}
	}
	return k
}

func TestBadSpacesRefused(t *testing.T) {
	cases := []struct {
		s    Space
		want string
	}{
		{Space{{Name: "methods.0.c", Kind: Float, Low: 10, High: 1}}, "methods.0.c range 10..1 has low > high"},
		{Space{{Name: "methods.0.gamma", Kind: Float, Low: 0, High: 1, Log: true}}, "methods.0.gamma log range 0..1 reaches 0"},
		{Space{{Name: "methods.0.lambda", Kind: Float, Low: -1, High: 1, Log: true}}, "needs low > 0"},
		{Space{{Name: "x", Kind: Categorical}}, "x has no value"},
		{Space{{Name: "x", Kind: Int, Low: 1.2, High: 1.8}}, "holds no whole number"},
		{Space{}, "empty"},
	}
	for _, c := range cases {
		err := c.s.Check()
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Fatalf("%v: error %v, want one line with %q", c.s, err, c.want)
		}
	}
	for _, c := range []struct {
		min, max, eta int
		want          string
	}{{10, 100, 1, "tune.eta 1 is below 2"}, {100, 200, 3, "tune.max_n 200 is smaller than one rung"}, {0, 100, 3, "tune.min_n 0"}, {20, 540, 1e9, "lower eta to at most 27"}, {300, 540, 1e9, "lower eta to 3 and raise max_n to at least 900"}, {3, 100, math.MaxInt, "lower eta to at most 33"}} {
		if _, err := Rungs(c.min, c.max, c.eta); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("Rungs(%d, %d, %d): %v, want %q", c.min, c.max, c.eta, err, c.want)
		}
	}
	r, err := Rungs(61, 4941, 3)
	if err != nil || !reflect.DeepEqual(r, []int{61, 183, 549, 1647, 4941}) {
		t.Fatalf("Rungs(61, 4941, 3) = %v, %v", r, err)
	}
}

// A successive halving of 1e9 configurations gives its first jobs at once and lists
// none of its trials ahead (it allocated 16 GB of trial ids before its first job).
func TestHalvingLazyFirstRung(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h := NewHalving([]int{10, 30, 90}, 3, 1e9)
	for i := 0; i < 5; i++ {
		j, ok := h.Next()
		if !ok || j.Trial != i || j.Rung != 0 || j.N != 10 {
			t.Fatalf("job %d: %+v %v", i, j, ok)
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Fatalf("%d bytes allocated for five jobs", grew)
	}
	// A small halving still promotes the best third of each rung.
	h = NewHalving([]int{10, 30}, 3, 6)
	for i := 0; i < 6; i++ {
		j, _ := h.Next()
		h.Report(j, float64(j.Trial))
	}
	j1, _ := h.Next()
	j2, _ := h.Next()
	if j1.Trial != 5 || j2.Trial != 4 || j1.Rung != 1 {
		t.Fatalf("promoted %+v, %+v; want trials 5 and 4 at rung 1", j1, j2)
	}
	if _, ok := h.Next(); ok {
		t.Fatal("a third promotion of six at eta 3")
	}
}

package tune

import (
	"math"
	"math/rand/v2"
)

// Observation is a configuration and its score (higher is better).
type Observation struct {
	X     []float64
	Value float64
}

// Sampler proposes the configuration of trial id, given the observations so far (in
// the order they were reported). A proposal depends only on the sampler's settings,
// id and hist, so replaying a study proposes the same configurations.
type Sampler interface {
	Sample(id int, hist []Observation) []float64
}

// Random draws every dimension independently and uniformly (log-uniformly on a log
// dimension), from a generator seeded by (Seed, id).
type Random struct {
	Space Space
	Seed  uint64
}

// Sample implements Sampler.
func (r Random) Sample(id int, _ []Observation) []float64 {
	rng := rand.New(rand.NewPCG(r.Seed, uint64(id)^0x5eed))
	u := make([]float64, len(r.Space))
	for i := range u {
		u[i] = rng.Float64()
	}
	return r.Space.FromUnit(u)
}

// Grid enumerates the product of every categorical value and Points evenly spaced
// values of every numeric range (both ends included, log-spaced on a log dimension;
// integer ranges keep their distinct whole numbers). Trial id takes point id modulo the
// grid's size, the first dimension varying slowest.
type Grid struct {
	Space  Space
	Points int // values per numeric dimension (0: 5)
}

// Values returns the grid's values on each dimension.
func (g Grid) Values() [][]float64 {
	k := g.Points
	if k <= 0 {
		k = 5
	}
	out := make([][]float64, len(g.Space))
	for i, d := range g.Space {
		if d.Kind == Categorical {
			for c := 0; c < d.Choices; c++ {
				out[i] = append(out[i], float64(c))
			}
			continue
		}
		lo, hi := d.Low, d.High
		if d.Log {
			lo, hi = math.Log(lo), math.Log(hi)
		}
		for j := 0; j < k; j++ {
			z := lo
			if k > 1 {
				z = lo + (hi-lo)*float64(j)/float64(k-1)
			}
			v := d.external(z)
			if n := len(out[i]); n > 0 && out[i][n-1] == v {
				continue // integer ranges narrower than k points
			}
			out[i] = append(out[i], v)
		}
	}
	return out
}

// Size returns the number of grid points.
func (g Grid) Size() int {
	n := 1
	for _, v := range g.Values() {
		if len(v) > 0 && n > math.MaxInt/len(v) {
			return math.MaxInt // saturated: more points than any study scores
		}
		n *= len(v)
	}
	return n
}

// Sample implements Sampler.
func (g Grid) Sample(id int, _ []Observation) []float64 {
	vals := g.Values()
	idx := id % g.Size()
	x := make([]float64, len(vals))
	for i := len(vals) - 1; i >= 0; i-- {
		x[i] = vals[i][idx%len(vals[i])]
		idx /= len(vals[i])
	}
	return x
}

// Halton draws trial id from a scrambled Halton sequence: dimension k uses the k-th
// prime as base, and each digit of the radical inverse goes through a random
// permutation of the digits that keeps 0 in place (one permutation per dimension and
// digit position, seeded by Seed). Point id (counting from 0) is used as is, so the
// first b^j points of a dimension with base b fall one in each interval of width b^-j.
type Halton struct {
	Space Space
	Seed  uint64
}

// Sample implements Sampler.
func (h Halton) Sample(id int, _ []Observation) []float64 {
	return h.Space.FromUnit(HaltonPoint(id, len(h.Space), h.Seed))
}

// HaltonPoint returns point i of the d-dimensional Halton sequence scrambled with seed
// (see Halton), in [0,1)^d.
func HaltonPoint(i, d int, seed uint64) []float64 {
	u := make([]float64, d)
	for k := 0; k < d; k++ {
		b := nthPrime(k)
		rng := rand.New(rand.NewPCG(seed, uint64(k)+0x4a17))
		f, x, n := 1.0, 0.0, i
		for pos := 0; n > 0 || pos == 0; pos++ {
			perm := digitPerm(rng, b) // one per digit position, drawn in order
			f /= float64(b)
			x += f * float64(perm[n%b])
			n /= b
			if n == 0 {
				break
			}
		}
		u[k] = x
	}
	return u
}

// digitPerm returns a random permutation of 0..b-1 with 0 fixed.
func digitPerm(rng *rand.Rand, b int) []int {
	p := make([]int, b)
	for i := range p {
		p[i] = i
	}
	for i := b - 1; i > 1; i-- {
		j := 1 + rng.IntN(i)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// nthPrime returns the k-th prime (k = 0 gives 2).
func nthPrime(k int) int {
	n, count := 1, -1
	for count < k {
		n++
		prime := true
		for q := 2; q*q <= n; q++ {
			if n%q == 0 {
				prime = false
				break
			}
		}
		if prime {
			count++
		}
	}
	return n
}

// StarDiscrepancyL2 returns the L2-star discrepancy of points in [0,1]^d by Warnock's
// formula: the root mean square, over anchored boxes [0,a), of the difference between
// the share of points in the box and its volume.
func StarDiscrepancyL2(pts [][]float64) float64 {
	n := float64(len(pts))
	if n == 0 {
		return 0
	}
	d := len(pts[0])
	t1 := math.Pow(3, -float64(d))
	var t2, t3 float64
	for _, p := range pts {
		prod := 1.0
		for _, x := range p {
			prod *= (1 - x*x) / 2
		}
		t2 += prod
	}
	for _, p := range pts {
		for _, q := range pts {
			prod := 1.0
			for k := range p {
				prod *= 1 - math.Max(p[k], q[k])
			}
			t3 += prod
		}
	}
	return math.Sqrt(math.Max(0, t1-2*t2/n+t3/(n*n)))
}

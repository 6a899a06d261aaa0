package tune

import (
	"math"
	"math/rand/v2"
	"slices"
)

// TPE is the tree-structured Parzen estimator of Bergstra, Bardenet, Bengio and Kégl,
// "Algorithms for Hyper-Parameter Optimization" (NIPS 2011), with independent
// dimensions as in the paper's experiments:
//
//   - the first Startup trials are drawn at random (Random with the same seed);
//   - then the observations are split at the gamma-quantile of their scores: the best
//     ceil(Gamma·n) (at most 25) form l(x), the rest g(x);
//   - each of l and g is, per dimension, a Parzen estimator: on a numeric dimension
//     (in log coordinates on a log one) a mixture of Gaussians truncated to the range,
//     one at each observation with a width of the larger gap to its neighbours
//     (clipped to [range/min(100, n+1), range]), plus a prior component, the range's
//     midpoint with the range as width; on a categorical dimension the counts of each
//     value plus one (the prior);
//   - Candidates configurations are drawn from l, and the one maximising l(x)/g(x)
//     (expected improvement is monotone in that ratio, the paper's eq. 6) is proposed.
type TPE struct {
	Space      Space
	Seed       uint64
	Startup    int     // random trials first (0: 10)
	Gamma      float64 // quantile of the good group (0: 0.25)
	Candidates int     // draws from l(x) scored by l/g (0: 24)
}

// Sample implements Sampler.
func (t TPE) Sample(id int, hist []Observation) []float64 {
	startup, gamma, cands := t.Startup, t.Gamma, t.Candidates
	if startup <= 0 {
		startup = 10
	}
	if gamma <= 0 {
		gamma = 0.25
	}
	if cands <= 0 {
		cands = 24
	}
	if len(hist) < max(startup, 2) {
		return Random{Space: t.Space, Seed: t.Seed}.Sample(id, hist)
	}
	order := make([]int, len(hist))
	for i := range order {
		order[i] = i
	}
	// Best first; ties keep the earlier observation first (stable).
	slices.SortStableFunc(order, func(a, b int) int {
		switch va, vb := hist[a].Value, hist[b].Value; {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return 0
	})
	nb := min(int(math.Ceil(gamma*float64(len(hist)))), 25)
	nb = max(1, min(nb, len(hist)-1))
	rng := rand.New(rand.NewPCG(t.Seed^0x7be, uint64(id)))
	score := make([]float64, cands)
	draws := make([][]float64, cands)
	for c := range draws {
		draws[c] = make([]float64, len(t.Space))
	}
	for k, d := range t.Space {
		below, above := column(hist, order[:nb], k), column(hist, order[nb:], k)
		if d.Kind == Categorical {
			l, g := catWeights(below, d.Choices), catWeights(above, d.Choices)
			for c := range draws {
				v := sampleCat(rng, l)
				draws[c][k] = float64(v)
				score[c] += math.Log(l[v]) - math.Log(g[v])
			}
			continue
		}
		l, g := newParzen(d, below), newParzen(d, above)
		for c := range draws {
			z := l.sample(rng)
			x := d.external(z)
			draws[c][k] = x
			zi := d.internal(x) // score the value actually proposed (integers rounded)
			score[c] += l.logpdf(zi) - g.logpdf(zi)
		}
	}
	bi := 0
	for c := range score {
		if score[c] > score[bi] {
			bi = c
		}
	}
	return draws[bi]
}

func column(hist []Observation, idx []int, k int) []float64 {
	out := make([]float64, len(idx))
	for i, j := range idx {
		out[i] = hist[j].X[k]
	}
	return out
}

// catWeights returns the normalised counts of each category plus one.
func catWeights(xs []float64, k int) []float64 {
	w := make([]float64, k)
	for i := range w {
		w[i] = 1
	}
	for _, x := range xs {
		if i := int(x); i >= 0 && i < k {
			w[i]++
		}
	}
	s := float64(len(xs) + k)
	for i := range w {
		w[i] /= s
	}
	return w
}

func sampleCat(rng *rand.Rand, w []float64) int {
	u := rng.Float64()
	for i, p := range w {
		if u < p {
			return i
		}
		u -= p
	}
	return len(w) - 1
}

// parzen is a mixture of equally weighted Gaussians truncated to [lo, hi].
type parzen struct {
	lo, hi    float64
	mu, sigma []float64
	mass      []float64 // each component's probability inside [lo, hi]
}

func newParzen(d Dim, xs []float64) *parzen {
	lo, hi := d.bounds()
	p := &parzen{lo: lo, hi: hi}
	pts := make([]float64, 0, len(xs)+1)
	for _, x := range xs {
		pts = append(pts, d.internal(x))
	}
	prior := (lo + hi) / 2
	pts = append(pts, prior)
	slices.Sort(pts)
	width := hi - lo
	if width <= 0 {
		width = 1
	}
	minS := width / math.Min(100, float64(len(pts)))
	for i, m := range pts {
		left, right := m-lo, hi-m
		if i > 0 {
			left = m - pts[i-1]
		}
		if i < len(pts)-1 {
			right = pts[i+1] - m
		}
		s := math.Max(left, right)
		if m == prior {
			s = width
		}
		s = math.Min(math.Max(s, minS), width)
		p.mu = append(p.mu, m)
		p.sigma = append(p.sigma, s)
		p.mass = append(p.mass, math.Max(normCDF((hi-m)/s)-normCDF((lo-m)/s), 1e-12))
	}
	return p
}

func normCDF(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }

// sample draws from the truncated mixture (a component uniformly, then a truncated
// Gaussian by rejection, falling back to clamping after 100 rejections).
func (p *parzen) sample(rng *rand.Rand) float64 {
	j := rng.IntN(len(p.mu))
	for try := 0; try < 100; try++ {
		z := p.mu[j] + p.sigma[j]*rng.NormFloat64()
		if z >= p.lo && z <= p.hi {
			return z
		}
	}
	return math.Min(math.Max(p.mu[j], p.lo), p.hi)
}

// logpdf returns the log density of the truncated mixture at z.
func (p *parzen) logpdf(z float64) float64 {
	var s float64
	for j := range p.mu {
		r := (z - p.mu[j]) / p.sigma[j]
		s += math.Exp(-r*r/2) / (p.sigma[j] * math.Sqrt(2*math.Pi) * p.mass[j])
	}
	return math.Log(s/float64(len(p.mu)) + 1e-300)
}

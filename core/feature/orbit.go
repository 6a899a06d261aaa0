package feature

import (
	"fmt"
	"math"

	"gitui/core/group"

	"gonum.org/v1/gonum/mat"
)

// OrbitDistance returns the orbit distance of Mroueh et al. (Theorem 1),
//
//	d_G(x, z) = 1/sqrt(2·pi·d) · (1/|G|^2) sum_{i,i'} || g_i x - g_i' z ||,
//
// the quantity that s - <Phi(x), Phi(z)> of the [CDF] map approaches for templates uniform
// on the sphere. The |G|^2 distances come from one Gram product (||a-b||^2 = ||a||^2 +
// ||b||^2 - 2<a,b>, in float64), so the cost is O(|G|^2·d). It panics if len(x) or
// len(z) differs from g.Dim().
func OrbitDistance(x, z []float64, g group.Action) float64 {
	d, G := g.Dim(), g.Len()
	if len(x) != d || len(z) != d {
		panic(fmt.Sprintf("feature: OrbitDistance of lengths %d and %d, group acts on %d", len(x), len(z), d))
	}
	gx, gz := mat.NewDense(G, d, nil), mat.NewDense(G, d, nil)
	nx, nz := make([]float64, G), make([]float64, G)
	for i := range G {
		g.Apply(gx.RawRowView(i), x, i)
		g.Apply(gz.RawRowView(i), z, i)
		nx[i] = sqNorm(gx.RawRowView(i))
		nz[i] = sqNorm(gz.RawRowView(i))
	}
	var ip mat.Dense
	ip.Mul(gx, gz.T())
	var sum float64
	for i := range G {
		row := ip.RawRowView(i)
		for k := range G {
			sum += math.Sqrt(max(0, nx[i]+nz[k]-2*row[k]))
		}
	}
	return sum / float64(G*G) / math.Sqrt(2*math.Pi*float64(d))
}

func sqNorm(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	return s
}

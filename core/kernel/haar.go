package kernel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"gitui/core/group"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// checkHaar validates the shapes (panic) and the kernel and group (error).
func checkHaar(fn string, k0 Base, G group.Action, X, Z *mat.Dense, needGroup bool) error {
	_, d := X.Dims()
	if d != G.Dim() {
		panic(fmt.Sprintf("kernel: %s: X has %d columns, %s acts on %d", fn, d, G.Name(), G.Dim()))
	}
	if Z != nil {
		if _, dz := Z.Dims(); dz != d {
			panic(fmt.Sprintf("kernel: %s: X has %d columns, Z has %d", fn, d, dz))
		}
	}
	if err := k0.Validate(); err != nil {
		return err
	}
	if needGroup {
		// Fixed seed: the check is deterministic for a given action.
		if err := group.CheckGroup(G, rand.New(rand.NewPCG(0x4841, 0x4152)), 64); err != nil {
			return fmt.Errorf("kernel: %s needs a full group (all permutations, all cyclic shifts): %w: use HaarGramExact for other sets", fn, err)
		}
	}
	return nil
}

// HaarGram returns the n×m Haar-integration (average-fit) kernel matrix between the
// rows of X (n×d) and Z (m×d) for a finite group G,
//
//	K_ij = 1/|G|² · sum_{g, g' in G} k0(g·x_i, g'·z_j) = 1/|G| · sum_{h in G} k0(x_i, h·z_j),
//
// the second form holding when k0(g·x, g·z) = k0(x, z) for all g, which is true for
// permutations and cyclic shifts with [Linear], [RBF] and [Poly] (they preserve inner
// products). Mroueh et al. (NIPS 2015) use it as the baseline of the invariant CDF
// features; it is Liu et al.'s average-fit kernel.
//
// Rows are first grouped by orbit ([group.Canonical]): rows in one orbit have equal
// kernel rows, so the kernel is computed only between distinct orbits and then looked up.
// On X_perm (one-hot sequences of 5 symbols over 8, S_5) any draw has at most 792
// distinct orbits. Between orbit representatives it is one matrix product of a block of
// X rows against the stacked orbits of a block of Z rows, then k0 elementwise and a mean
// over each z's |G| columns; blocks are spread over GOMAXPROCS goroutines.
//
// For a [Linear] k0 the double mean factorises for any finite set G, group or not,
//
//	K_ij = <mean_g g·x_i, mean_g g·z_j>,
//
// and HaarGram computes the orbit means ([OrbitMeans]) and their linear Gram matrix
// instead (n·|G|·d + 2·n·m·d flops).
//
// For the full cyclic groups of the FFT path ([CyclicGroupOf]: all 2-D cyclic shifts of
// images, or all cyclic shifts of their columns) HaarGram skips the orbits: it is the
// average-fit kernel mean_s k0(S_s·x_i, z_j) of [CyclicGram], all |G| inner products of
// a pair from one product of spectra and one inverse FFT (about 15·|G|·log2|G| flops
// and |G| evaluations of k0 per pair instead of 2·|G|·d), equal to the definition up to
// rounding.
//
// HaarGram returns an error if k0 is not Linear and G fails [group.CheckGroup] (it is not closed, as local
// shifts, rotations and subsets are not: use [HaarGramExact]), k0.Validate()'s error,
// an error wrapping [ErrGramTooLarge], or ctx.Err(). It panics if X, Z and G disagree on d.
// Work: about 2·u·v·|G|·d flops for u and v distinct orbits, plus n·|G| + m·|G| actions.
func HaarGram(ctx context.Context, k0 Base, G group.Action, X, Z *mat.Dense) (*mat.Dense, error) {
	if h, w, mode, ok := CyclicGroupOf(G); ok {
		if err := checkHaar("HaarGram", k0, G, X, Z, false); err != nil {
			return nil, err
		}
		return haarCyclicGram(ctx, k0, h, w, mode, X, Z)
	}
	if _, ok := k0.(Linear); ok {
		if err := checkHaar("HaarGram", k0, G, X, Z, false); err != nil {
			return nil, err
		}
		mx, err := OrbitMeans(ctx, G, X)
		if err != nil {
			return nil, err
		}
		mz := mx
		if Z != X {
			if mz, err = OrbitMeans(ctx, G, Z); err != nil {
				return nil, err
			}
		}
		return Gram(ctx, Linear{}, mx, mz)
	}
	if err := checkHaar("HaarGram", k0, G, X, Z, true); err != nil {
		return nil, err
	}
	n, _ := X.Dims()
	m, _ := Z.Dims()
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	rx, cx, err := group.Canonical(ctx, G, X)
	if err != nil {
		return nil, err
	}
	rz, cz := rx, cx
	if Z != X {
		if rz, cz, err = group.Canonical(ctx, G, Z); err != nil {
			return nil, err
		}
	}
	u, _ := rx.Dims()
	v, _ := rz.Dims()
	if err := checkSize(u, v); err != nil {
		return nil, err
	}
	t := mat.NewDense(u, v, nil)
	if err := haarDirect(ctx, k0, G, rx, rz, false, t.RawMatrix()); err != nil {
		return nil, err
	}
	if u == n && v == m { // every row its own orbit: classes are 0..n-1 in order
		return t, nil
	}
	out := mat.NewDense(n, m, nil)
	for i := range n {
		row, trow := out.RawRowView(i), t.RawRowView(cx[i])
		for j := range m {
			row[j] = trow[cz[j]]
		}
	}
	return out, nil
}

// HaarSymGram returns the n×n Haar-integration kernel matrix of the rows of X for a
// finite group G (see [HaarGram]), computed once per pair of distinct orbits (upper
// triangle) and mirrored, so RawSymmetric().Data holds the full matrix. It is
// NewOrbitTable(ctx, k0, G, X).SymGram(0..n-1), except for a [Linear] k0, which takes
// the orbit-mean path of [HaarGram] for any set G, and for a full cyclic group the FFT
// path of [HaarGram] ([CyclicSymGram], average fit). Errors and panics as in [HaarGram].
func HaarSymGram(ctx context.Context, k0 Base, G group.Action, X *mat.Dense) (*mat.SymDense, error) {
	n, _ := X.Dims()
	if err := checkSize(n, n); err != nil {
		return nil, err
	}
	if h, w, mode, ok := CyclicGroupOf(G); ok {
		if err := checkHaar("HaarSymGram", k0, G, X, nil, false); err != nil {
			return nil, err
		}
		return haarCyclicSymGram(ctx, k0, h, w, mode, X)
	}
	if _, ok := k0.(Linear); ok {
		if err := checkHaar("HaarSymGram", k0, G, X, nil, false); err != nil {
			return nil, err
		}
		mx, err := OrbitMeans(ctx, G, X)
		if err != nil {
			return nil, err
		}
		return SymGram(ctx, Linear{}, mx)
	}
	t, err := NewOrbitTable(ctx, k0, G, X)
	if err != nil {
		return nil, err
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return t.SymGram(idx), nil
}

// OrbitTable holds the Haar-integration kernel (see [HaarGram]) between the distinct
// orbits of a pool of samples, so that the Gram matrix of any draw from the pool is a
// table lookup. For X_perm (32,768 sequences, S_5) the table is 792×792.
type OrbitTable struct {
	class []int         // orbit of each pool row
	reps  *mat.Dense    // canonical representative of each orbit, u×d
	k     *mat.SymDense // kernel between representatives, u×u, mirrored
}

// NewOrbitTable groups the rows of the pool X (n×d) by orbit under the group G
// ([group.Canonical]) and computes the Haar-integration kernel between the u distinct
// orbits (upper triangle once, one matrix product per block). Errors and panics as in
// [HaarGram]; the table needs u²·8 bytes.
func NewOrbitTable(ctx context.Context, k0 Base, G group.Action, X *mat.Dense) (*OrbitTable, error) {
	if err := checkHaar("NewOrbitTable", k0, G, X, nil, true); err != nil {
		return nil, err
	}
	reps, class, err := group.Canonical(ctx, G, X)
	if err != nil {
		return nil, err
	}
	u, _ := reps.Dims()
	if err := checkSize(u, u); err != nil {
		return nil, err
	}
	k := mat.NewSymDense(u, nil)
	s := k.RawSymmetric()
	out := blas64.General{Rows: u, Cols: u, Stride: s.Stride, Data: s.Data}
	if err := haarDirect(ctx, k0, G, reps, reps, true, out); err != nil {
		return nil, err
	}
	mirrorRows(out, 0, u)
	return &OrbitTable{class: class, reps: reps, k: k}, nil
}

// Len returns the number of pool samples n.
func (t *OrbitTable) Len() int { return len(t.class) }

// NumOrbits returns the number u of distinct orbits in the pool.
func (t *OrbitTable) NumOrbits() int { r, _ := t.reps.Dims(); return r }

// Class returns the orbit (row of the table) of pool sample i.
func (t *OrbitTable) Class(i int) int { return t.class[i] }

// Orbits returns the u×u kernel between orbit representatives (not a copy: do not
// modify) and the representatives (u×d, the lexicographically smallest orbit elements).
func (t *OrbitTable) Orbits() (k *mat.SymDense, reps *mat.Dense) { return t.k, t.reps }

// Gram returns the len(rows)×len(cols) matrix K_ab = K(x_rows[a], x_cols[b]) of pool
// samples. It panics if rows or cols is empty or an index is outside [0, Len()).
func (t *OrbitTable) Gram(rows, cols []int) *mat.Dense {
	t.checkIdx(rows)
	t.checkIdx(cols)
	out := mat.NewDense(len(rows), len(cols), nil)
	tr := t.k.RawSymmetric()
	for a, i := range rows {
		row := out.RawRowView(a)
		base := t.class[i] * tr.Stride
		for b, j := range cols {
			row[b] = tr.Data[base+t.class[j]]
		}
	}
	return out
}

// SymGram returns the len(idx)×len(idx) matrix K_ab = K(x_idx[a], x_idx[b]) of pool
// samples, mirrored (RawSymmetric().Data holds the full matrix). It panics if an index
// is outside [0, Len()) or idx is empty.
func (t *OrbitTable) SymGram(idx []int) *mat.SymDense {
	t.checkIdx(idx)
	n := len(idx)
	out := mat.NewSymDense(n, nil)
	s, tr := out.RawSymmetric(), t.k.RawSymmetric()
	for a, i := range idx {
		row := s.Data[a*s.Stride : a*s.Stride+n]
		base := t.class[i] * tr.Stride
		for b, j := range idx {
			row[b] = tr.Data[base+t.class[j]]
		}
	}
	return out
}

func (t *OrbitTable) checkIdx(idx []int) {
	if len(idx) == 0 {
		panic("kernel: OrbitTable: no samples selected")
	}
	for _, i := range idx {
		if i < 0 || i >= len(t.class) {
			panic(fmt.Sprintf("kernel: OrbitTable: sample %d outside [0,%d)", i, len(t.class)))
		}
	}
}

// haarScratch holds per-block buffers of haarDirect.
type haarScratch struct{ orb, oo, p []float64 }

// haarDirect writes K_ij = 1/|G| sum_h k0(x_i, h·z_j) into out (n×m). With sym (X == Z)
// only entries i <= j are written. Blocks of z rows go to GOMAXPROCS workers; each
// stacks the orbits of its z rows and multiplies blocks of X rows against them.
func haarDirect(ctx context.Context, k0 Base, G group.Action, X, Z *mat.Dense, sym bool, out blas64.General) error {
	n, d := X.Dims()
	m, _ := Z.Dims()
	g := G.Len()
	xx := sqNorms(X)
	xr := X.RawMatrix()
	bz := max(1, 1024/g) // z rows per block: about 1024 orbit rows
	bx := 128            // x rows per product
	nb := (m + bz - 1) / bz
	inv := 1 / float64(g)
	var pool sync.Pool
	pool.New = func() any {
		return &haarScratch{orb: make([]float64, bz*g*d), oo: make([]float64, bz*g), p: make([]float64, bx*bz*g)}
	}
	return parallelBlocks(ctx, nb, func(b int) {
		j0, j1 := b*bz, min((b+1)*bz, m)
		cols := (j1 - j0) * g
		sc := pool.Get().(*haarScratch)
		defer pool.Put(sc)
		orb := blas64.General{Rows: cols, Cols: d, Stride: d, Data: sc.orb[:cols*d]}
		for jz := j0; jz < j1; jz++ {
			z := Z.RawRowView(jz)
			for h := range g {
				r := (jz-j0)*g + h
				row := orb.Data[r*d : (r+1)*d]
				G.Apply(row, z, h)
				s := 0.0
				for _, v := range row {
					s += v * v
				}
				sc.oo[r] = s
			}
		}
		iEnd := n
		if sym {
			iEnd = j1
		}
		for i0 := 0; i0 < iEnd; i0 += bx {
			if ctx.Err() != nil {
				return
			}
			i1 := min(i0+bx, iEnd)
			p := blas64.General{Rows: i1 - i0, Cols: cols, Stride: cols, Data: sc.p[:(i1-i0)*cols]}
			gemmNT(rows(xr, i0, i1), orb, p)
			applyBase(k0, p, xx[i0:i1], sc.oo[:cols])
			for i := i0; i < i1; i++ {
				prow := p.Data[(i-i0)*cols : (i-i0+1)*cols]
				orow := out.Data[i*out.Stride:]
				for jz := j0; jz < j1; jz++ {
					if sym && i > jz {
						continue
					}
					s := 0.0
					for _, v := range prow[(jz-j0)*g : (jz-j0+1)*g] {
						s += v
					}
					orow[jz] = s * inv
				}
			}
		}
	})
}

// HaarGramExact returns the n×m matrix of the double mean
//
//	K_ij = 1/|G|² · sum_{g, g' in G} k0(g·x_i, g'·z_j)
//
// evaluated term by term with k0.Eval, for any finite set G (a group or not: local
// shifts and rotation ranges included). It is the definition against which [HaarGram]
// is tested, and the Haar kernel for sets that are not groups; it costs
// n·m·|G|²·d operations and stores the m·|G| transformed z rows, so it is meant for
// small inputs. Rows of X are spread over GOMAXPROCS goroutines. It returns
// k0.Validate()'s error, an error wrapping [ErrGramTooLarge] (for the result or the
// stored orbits) or ctx.Err(); it panics if X, Z and G disagree on d.
func HaarGramExact(ctx context.Context, k0 Base, G group.Action, X, Z *mat.Dense) (*mat.Dense, error) {
	if err := checkHaar("HaarGramExact", k0, G, X, Z, false); err != nil {
		return nil, err
	}
	n, d := X.Dims()
	m, _ := Z.Dims()
	g := G.Len()
	if err := checkSize(n, m); err != nil {
		return nil, err
	}
	if err := checkSize(m*g, d); err != nil {
		return nil, err
	}
	oz := make([]float64, m*g*d)
	for j := range m {
		group.OrbitTo(oz[j*g*d:(j+1)*g*d], G, Z.RawRowView(j))
	}
	out := mat.NewDense(n, m, nil)
	inv := 1 / float64(g*g)
	err := parallelBlocks(ctx, n, func(i int) {
		ox := make([]float64, g*d)
		group.OrbitTo(ox, G, X.RawRowView(i))
		row := out.RawRowView(i)
		for j := range m {
			s := 0.0
			for a := range g {
				xa := ox[a*d : (a+1)*d]
				for b := range g {
					s += k0.Eval(xa, oz[(j*g+b)*d:(j*g+b+1)*d])
				}
			}
			row[j] = s * inv
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// OrbitMeans returns the n×d matrix of orbit means of the rows of X (n×d),
//
//	M_i = 1/|G| · sum_{g in G} g·x_i,
//
// for any finite set G; with it the linear Haar kernel is K_ij = <M_i, M_j'>. Rows are
// spread over GOMAXPROCS goroutines; it returns ctx.Err() if cancelled and panics if X
// does not have G.Dim() columns.
func OrbitMeans(ctx context.Context, G group.Action, X *mat.Dense) (*mat.Dense, error) {
	n, d := X.Dims()
	if d != G.Dim() {
		panic(fmt.Sprintf("kernel: OrbitMeans: X has %d columns, %s acts on %d", d, G.Name(), G.Dim()))
	}
	out := mat.NewDense(n, d, nil)
	g := G.Len()
	inv := 1 / float64(g)
	bs := rowBlock(n)
	err := parallelBlocks(ctx, (n+bs-1)/bs, func(b int) {
		tmp := make([]float64, d)
		for i := b * bs; i < min((b+1)*bs, n); i++ {
			x, m := X.RawRowView(i), out.RawRowView(i)
			for h := range g {
				G.Apply(tmp, x, h)
				for j, v := range tmp {
					m[j] += v
				}
			}
			for j := range m {
				m[j] *= inv
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

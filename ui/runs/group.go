package runs

import (
	"cmp"
	"math"
	"sort"
	"strings"
)

// NoValue is the group of the runs whose spec lacks the field grouped on.
const NoValue = "(none)"

// Stat is a mean ± sample standard deviation over N values: Mean is NaN when N is
// 0, Std is NaN when N < 2 (one seed has no spread).
type Stat struct {
	Mean, Std float64
	N         int
}

// MeanStd returns the Stat of the values of xs that are not NaN:
//
//	mean = Σ x / n,   std = sqrt(Σ (x − mean)² / (n − 1)).
func MeanStd(xs []float64) Stat {
	var s, n float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			s += x
			n++
		}
	}
	st := Stat{Mean: math.NaN(), Std: math.NaN(), N: int(n)}
	if n == 0 {
		return st
	}
	st.Mean = s / n
	if n < 2 {
		return st
	}
	var ss float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - st.Mean) * (x - st.Mean)
		}
	}
	st.Std = math.Sqrt(ss / (n - 1))
	return st
}

// Group is the runs that share one value of a spec field: their accuracy (KindAcc of
// the kind given to GroupBy: the headline for "") and their accuracy at each common
// size, as mean ± std over the runs (the seeds, when only the seed differs).
type Group struct {
	Value string // the field's value, NoValue for runs without the field
	Runs  []Entry
	Acc   Stat
	// AtX[j] is the Stat of acc@xs[j] (xs given to GroupBy).
	AtX []Stat
}

// FieldValue returns the value of the flattened spec key k in e, NoValue when e's
// spec lacks it.
func FieldValue(e Entry, k string) string {
	if v, ok := e.Params[k]; ok {
		return v
	}
	return NoValue
}

// GroupBy splits es by the value of the spec key k (FieldValue), one Group per
// value in the order values first appear, with the statistics of the series of kind
// (KindAcc; "" for the best of all) at their largest x and at the sizes xs.
func GroupBy(es []Entry, k, kind string, xs []float64) []Group {
	var out []Group
	at := map[string]int{}
	for _, e := range es {
		v := FieldValue(e, k)
		i, ok := at[v]
		if !ok {
			i = len(out)
			at[v] = i
			out = append(out, Group{Value: v})
		}
		out[i].Runs = append(out[i].Runs, e)
	}
	for i := range out {
		g := &out[i]
		acc := make([]float64, len(g.Runs))
		for r, e := range g.Runs {
			acc[r] = math.NaN()
			if a, ok := KindAcc(e, kind, math.NaN()); ok {
				acc[r] = a
			}
		}
		g.Acc = MeanStd(acc)
		g.AtX = make([]Stat, len(xs))
		for j, x := range xs {
			v := make([]float64, len(g.Runs))
			for r, e := range g.Runs {
				v[r] = math.NaN()
				if a, ok := KindAcc(e, kind, x); ok {
					v[r] = a
				}
			}
			g.AtX[j] = MeanStd(v)
		}
	}
	return out
}

// CommonXs returns the sizes x at which every run of es has a point (in some
// series), increasing.
func CommonXs(es []Entry) []float64 {
	if len(es) == 0 {
		return nil
	}
	count := map[float64]int{}
	for _, e := range es {
		seen := map[float64]bool{}
		for _, s := range e.Series {
			for _, p := range s.Points {
				if !seen[p.X] {
					seen[p.X] = true
					count[p.X]++
				}
			}
		}
	}
	var out []float64
	for x, n := range count {
		if n == len(es) {
			out = append(out, x)
		}
	}
	sort.Float64s(out)
	return out
}

// Varying returns the flattened spec keys whose value is not the same in every run
// of es (a key some runs lack varies), sorted; none for fewer than two runs. The labels
// name and description are left out: they are not settings (a workbench run's name says
// what it changed, form.RunName), so they neither differ in compare nor explain anything.
func Varying(es []Entry) []string {
	if len(es) < 2 {
		return nil
	}
	ps := make([]map[string]string, len(es))
	for i, e := range es {
		ps[i] = e.Params
	}
	var out []string
	for _, k := range Diff(ps...) {
		if k != "name" && k != "description" {
			out = append(out, k)
		}
	}
	return out
}

// Group columns for SortGroups: the value, the number of runs, the headline mean,
// then the mean at each common size (GroupColAtX + j).
const (
	GroupColValue = iota
	GroupColRuns
	GroupColAcc
	GroupColAtX
)

// SortGroups sorts gs in place by column col (values as numbers when all are, else
// as text; a missing mean sorts first), increasing or, desc, decreasing; ties keep
// their order.
func SortGroups(gs []Group, col int, desc bool) {
	allNum := true
	for _, g := range gs {
		if _, ok := parseNum(g.Value); !ok {
			allNum = false
		}
	}
	cmpF := cmp.Compare[float64] // a NaN (no value) sorts before every number
	order := func(a, b Group) int {
		switch {
		case col == GroupColValue && allNum:
			x, _ := parseNum(a.Value)
			y, _ := parseNum(b.Value)
			return cmpF(x, y)
		case col == GroupColValue:
			return strings.Compare(a.Value, b.Value)
		case col == GroupColRuns:
			return len(a.Runs) - len(b.Runs)
		case col == GroupColAcc:
			return cmpF(a.Acc.Mean, b.Acc.Mean)
		}
		j := col - GroupColAtX
		if j < 0 || j >= len(a.AtX) || j >= len(b.AtX) {
			return 0
		}
		return cmpF(a.AtX[j].Mean, b.AtX[j].Mean)
	}
	sort.SliceStable(gs, func(i, j int) bool {
		c := order(gs[i], gs[j])
		if desc {
			return c > 0
		}
		return c < 0
	})
}

// SeriesKind is a series' name without its parenthesised parameters and extra
// spaces ("CDF(25,100) RLS" → "CDF RLS"): what tells methods apart across runs whose
// parameters differ.
func SeriesKind(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// Kinds returns the series kinds (SeriesKind) of es, in the order they first appear.
func Kinds(es []Entry) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range es {
		for _, s := range e.Series {
			if k := SeriesKind(s.Name); !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// KindAcc returns the best mean accuracy of e's series of kind (SeriesKind; "" for
// every series) at x, or, x NaN, each at its largest x: for kind "" and x NaN, the
// headline e.Acc. ok is false when e has no such point.
func KindAcc(e Entry, kind string, x float64) (float64, bool) {
	best, ok := math.Inf(-1), false
	for _, s := range e.Series {
		if kind != "" && SeriesKind(s.Name) != kind {
			continue
		}
		for i, p := range s.Points {
			if (math.IsNaN(x) && i == len(s.Points)-1) || p.X == x {
				if !math.IsNaN(p.Mean) && p.Mean > best {
					best, ok = p.Mean, true
				}
			}
		}
	}
	return best, ok
}

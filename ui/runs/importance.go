package runs

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// MaxBins is the number of quantile bins a numeric field with more distinct values
// is cut into before its η² is computed.
const MaxBins = 5

// Importance is how much of the variance of an accuracy (the headline, or one kind
// of series: see Importances) one spec field explains over a set of runs.
type Importance struct {
	Field string
	// Eta2 is η² = SS_between / SS_total, where, over the n runs with an
	// accuracy y_i, grouped by the field's value into groups g of n_g runs with mean ȳ_g,
	//
	//	SS_total   = Σ_i (y_i − ȳ)²,   SS_between = Σ_g n_g (ȳ_g − ȳ)²,
	//
	// in [0, 1]: 0 when every group has the same mean, 1 when runs differ only
	// between groups.
	Eta2 float64
	// Groups is the number of groups (values or bins). η² grows with it: a field with
	// one run per group explains all the variance and says nothing (Groups == Runs).
	Groups int
	// Runs is the number of runs with an accuracy.
	Runs int
	// Binned is set when the field is numeric with more than MaxBins distinct values
	// and was cut into MaxBins quantile bins (ties stay in one bin).
	Binned bool
}

// Eta2 returns η² = SS_between / SS_total of the values y split by the labels
// (y[i] belongs to group labels[i]; see Importance.Eta2), and the number of groups.
// It returns NaN when SS_total is 0 or len(y) < 2; y and labels have the same length.
func Eta2(y []float64, labels []int) (float64, int) {
	n := float64(len(y))
	if len(y) < 2 {
		return math.NaN(), 0
	}
	var mean float64
	for _, v := range y {
		mean += v
	}
	mean /= n
	sum := map[int]float64{}
	cnt := map[int]float64{}
	var tot float64
	for i, v := range y {
		tot += (v - mean) * (v - mean)
		sum[labels[i]] += v
		cnt[labels[i]]++
	}
	if tot == 0 {
		return math.NaN(), len(cnt)
	}
	groups := make([]int, 0, len(sum))
	for g := range sum {
		groups = append(groups, g)
	}
	sort.Ints(groups) // a fixed order of the sum, so the same runs give the same digits
	var between float64
	for _, g := range groups {
		m := sum[g] / cnt[g]
		between += cnt[g] * (m - mean) * (m - mean)
	}
	return min(1, between/tot), len(cnt)
}

// quantileLabels labels each value of vs (all numbers) with its quantile bin among
// MaxBins: the bin of v is ⌊MaxBins · r / n⌋, r being the rank of v's first
// occurrence in vs sorted (so equal values share a bin).
// incomparable says why the accuracies of runs cannot be explained by their settings:
// they were measured on different data sets, protocols or test sets, so any field that
// goes with those "explains" a difference of tasks, not of settings ("" when they agree).
func incomparable(runs []Entry) string {
	for _, c := range []struct{ key, what string }{{"data.name", "data sets"}, {"protocol", "protocols"}, {"data.test_size", "test sizes"}, {"data.test_path", "test files"}} {
		seen := map[string]bool{}
		var vals []string
		for _, e := range runs {
			v := e.Params[c.key]
			if !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		if len(vals) > 1 {
			sort.Strings(vals)
			for i, v := range vals {
				if v == "" {
					vals[i] = "(unset)"
				}
			}
			hint := ""
			if c.key == "data.name" {
				hint = fmt.Sprintf(" (/data=%s)", vals[0])
			}
			return fmt.Sprintf("the %d runs are on %d %s (%s): their accuracies measure different tasks, so no field's importance means anything; filter to one%s", len(runs), len(vals), c.what, strings.Join(vals, ", "), hint)
		}
	}
	return ""
}

func quantileLabels(vs []float64) []int {
	n := len(vs)
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	first := map[float64]int{}
	for r := n - 1; r >= 0; r-- {
		first[s[r]] = r
	}
	out := make([]int, n)
	for i, v := range vs {
		out[i] = min(MaxBins-1, MaxBins*first[v]/n)
	}
	return out
}

// Importances returns, for each spec field that varies over the runs of es having an
// accuracy y (KindAcc of kind at each series' largest x: the headline for ""), its
// Importance, most important first (ties by name). When fewer than 3 runs have one, or
// it does not vary, or no field varies, it returns no Importance and a one-line reason
// instead.
func Importances(es []Entry, kind string) ([]Importance, string) {
	var runs []Entry
	var y []float64
	for _, e := range es {
		if a, ok := KindAcc(e, kind, math.NaN()); ok {
			runs = append(runs, e)
			y = append(y, a)
		}
	}
	if len(runs) < 3 {
		return nil, fmt.Sprintf("parameter importance needs at least 3 runs with an accuracy; %d shown have one", len(runs))
	}
	same := true
	for _, v := range y {
		same = same && v == y[0]
	}
	if same {
		return nil, fmt.Sprintf("the accuracy is %.4f in all %d runs: nothing to explain", y[0], len(runs))
	}
	if why := incomparable(runs); why != "" {
		return nil, why
	}
	fields := Varying(runs)
	if len(fields) == 0 {
		return nil, fmt.Sprintf("no spec field differs among the %d runs: the accuracy varies by chance alone", len(runs))
	}
	var out []Importance
	for _, f := range fields {
		vals := make([]string, len(runs))
		nums := make([]float64, len(runs))
		allNum := true
		distinct := map[string]bool{}
		for i, e := range runs {
			vals[i] = FieldValue(e, f)
			distinct[vals[i]] = true
			var ok bool
			if nums[i], ok = parseNum(vals[i]); !ok {
				allNum = false
			}
		}
		imp := Importance{Field: f, Runs: len(runs)}
		var labels []int
		if allNum && len(distinct) > MaxBins {
			labels = quantileLabels(nums)
			imp.Binned = true
		} else {
			labels = make([]int, len(runs))
			id := map[string]int{}
			for i, v := range vals {
				if _, ok := id[v]; !ok {
					id[v] = len(id)
				}
				labels[i] = id[v]
			}
		}
		imp.Eta2, imp.Groups = Eta2(y, labels)
		out = append(out, imp)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Eta2 != out[j].Eta2 {
			return out[i].Eta2 > out[j].Eta2
		}
		return out[i].Field < out[j].Field
	})
	return out, ""
}

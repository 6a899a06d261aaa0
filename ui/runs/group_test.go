package runs

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"gitui/core/eval"
)

// seedRuns are runs of a λ sweep: λ and seed vary; the headline (one series, at
// x=100) is given; every run also has x=50, and the first λ=1 run alone has x=200.
func seedRuns(rows ...[3]float64) []Entry {
	var out []Entry
	for i, r := range rows {
		lambda, seed, acc := r[0], r[1], r[2]
		pts := []eval.SeriesPoint{{X: 50, Mean: acc - 0.1}, {X: 100, Mean: acc}}
		if i == 0 {
			pts = append(pts[:1], eval.SeriesPoint{X: 100, Mean: acc}, eval.SeriesPoint{X: 200, Mean: acc})
		}
		out = append(out, Entry{ID: string(rune('a' + i)), Acc: acc,
			Params: map[string]string{"methods.0.lambda": fmtX(lambda), "seed": fmtX(seed), "name": "sweep"},
			Series: []eval.Series{{Name: "CDF", Points: pts}}})
	}
	return out
}

// TestMeanStd: mean and sample std on hand values (0.7, 0.8, 0.9: 0.8 ± 0.1); NaN
// values are skipped; one value has no std; none has no mean.
func TestMeanStd(t *testing.T) {
	s := MeanStd([]float64{0.7, math.NaN(), 0.8, 0.9})
	if s.N != 3 || math.Abs(s.Mean-0.8) > 1e-12 || math.Abs(s.Std-0.1) > 1e-12 {
		t.Errorf("MeanStd = %+v, want 0.8 ± 0.1 over 3", s)
	}
	if s := MeanStd([]float64{0.5}); s.Mean != 0.5 || !math.IsNaN(s.Std) {
		t.Errorf("one value: %+v", s)
	}
	if s := MeanStd(nil); !math.IsNaN(s.Mean) || s.N != 0 {
		t.Errorf("no value: %+v", s)
	}
}

// TestGroupBy: grouping the sweep by λ gives one group per λ in order of appearance,
// with the mean ± std of the seeds' headline and of acc@50 (0.1 below it); the sizes
// every run has are 50 and 100 (200 is only in one); the runs varying fields are λ
// and seed; SortGroups orders by value numerically and by mean.
func TestGroupBy(t *testing.T) {
	es := seedRuns([3]float64{1, 1, 0.70}, [3]float64{0.1, 1, 0.90}, [3]float64{1, 2, 0.80}, [3]float64{0.1, 2, 0.94}, [3]float64{10, 1, 0.5})
	xs := CommonXs(es)
	if !reflect.DeepEqual(xs, []float64{50, 100}) {
		t.Fatalf("common sizes %v, want [50 100]", xs)
	}
	if v := Varying(es); !reflect.DeepEqual(v, []string{"methods.0.lambda", "seed"}) {
		t.Fatalf("varying %v", v)
	}
	gs := GroupBy(es, "methods.0.lambda", "", xs)
	if len(gs) != 3 || gs[0].Value != "1" || gs[1].Value != "0.1" || gs[2].Value != "10" {
		t.Fatalf("groups %+v", gs)
	}
	// λ=1: 0.70, 0.80 → 0.75 ± √0.005; λ=0.1: 0.90, 0.94 → 0.92 ± √0.0008
	for _, c := range []struct {
		g         int
		mean, std float64
	}{{0, 0.75, math.Sqrt(0.005)}, {1, 0.92, math.Sqrt(0.0008)}} {
		g := gs[c.g]
		if len(g.Runs) != 2 || math.Abs(g.Acc.Mean-c.mean) > 1e-12 || math.Abs(g.Acc.Std-c.std) > 1e-12 {
			t.Errorf("group %s: %+v, want %.3f ± %.4f", g.Value, g.Acc, c.mean, c.std)
		}
		if at := g.AtX[0]; math.Abs(at.Mean-(c.mean-0.1)) > 1e-12 || math.Abs(at.Std-c.std) > 1e-12 {
			t.Errorf("group %s at x=50: %+v", g.Value, at)
		}
	}
	if g := gs[2]; len(g.Runs) != 1 || g.Acc.Mean != 0.5 || !math.IsNaN(g.Acc.Std) {
		t.Errorf("single-run group %+v", g)
	}
	SortGroups(gs, GroupColValue, false)
	if gs[0].Value != "0.1" || gs[1].Value != "1" || gs[2].Value != "10" {
		t.Errorf("by value (numbers): %s %s %s", gs[0].Value, gs[1].Value, gs[2].Value)
	}
	SortGroups(gs, GroupColAcc, true)
	if gs[0].Value != "0.1" || gs[2].Value != "10" {
		t.Errorf("by mean, decreasing: %s %s %s", gs[0].Value, gs[1].Value, gs[2].Value)
	}
	if g := GroupBy(es, "no.such.key", "", nil); len(g) != 1 || g[0].Value != NoValue || len(g[0].Runs) != 5 {
		t.Errorf("a key no run has: %+v", g)
	}
}

// TestEta2Hand: η² on a hand computation. y = 1,2,3,4,5,6 in groups {1,2}, {3,4},
// {5,6}: mean 3.5, SS_total = 17.5, group means 1.5, 3.5, 5.5, SS_between = 2·4 + 0 +
// 2·4 = 16, η² = 16/17.5 = 0.9142857…; groups {1,6},{2,5},{3,4}: all means 3.5, η² = 0.
func TestEta2Hand(t *testing.T) {
	y := []float64{1, 2, 3, 4, 5, 6}
	if e, k := Eta2(y, []int{0, 0, 1, 1, 2, 2}); math.Abs(e-16/17.5) > 1e-12 || k != 3 {
		t.Errorf("η² = %g (%d groups), want %g (3)", e, k, 16/17.5)
	}
	if e, _ := Eta2(y, []int{0, 1, 2, 2, 1, 0}); math.Abs(e) > 1e-12 {
		t.Errorf("η² of equal group means = %g, want 0", e)
	}
	if e, _ := Eta2([]float64{2, 2, 2}, []int{0, 1, 2}); !math.IsNaN(e) {
		t.Errorf("η² without variance = %g, want NaN", e)
	}
}

// TestImportances: over the sweep (λ ∈ {1, 0.1, 10}, seed ∈ {1, 2}; y = .70 .90 .80
// .94 .50, mean .768) λ explains far more than the seed. By hand: η²(λ) = 1 −
// SS_within/SS_total with SS_within = .005 + .0008 + 0 = .0058; η²(seed) =
// (3·.068² + 2·.102²)/SS_total (seed 1: mean .70, seed 2: mean .87). Fewer than 3 runs,
// or no variance, give a reason and no bars.
func TestImportances(t *testing.T) {
	es := seedRuns([3]float64{1, 1, 0.70}, [3]float64{0.1, 1, 0.90}, [3]float64{1, 2, 0.80}, [3]float64{0.1, 2, 0.94}, [3]float64{10, 1, 0.5})
	imps, why := Importances(es, "")
	if why != "" || len(imps) != 2 {
		t.Fatalf("importances %+v, %q", imps, why)
	}
	y := []float64{0.70, 0.90, 0.80, 0.94, 0.50}
	var tot float64
	for _, v := range y {
		tot += (v - 0.768) * (v - 0.768)
	}
	wantLambda := 1 - 0.0058/tot
	// seed: {.70 .90 .50} mean .7, {.80 .94} mean .87: SS_between = 3·.068² + 2·.102²
	wantSeed := (3*0.068*0.068 + 2*0.102*0.102) / tot
	if imps[0].Field != "methods.0.lambda" || math.Abs(imps[0].Eta2-wantLambda) > 1e-9 || imps[0].Groups != 3 || imps[0].Binned {
		t.Errorf("λ: %+v, want η² %.6f over 3 groups", imps[0], wantLambda)
	}
	if imps[1].Field != "seed" || math.Abs(imps[1].Eta2-wantSeed) > 1e-9 || imps[1].Groups != 2 {
		t.Errorf("seed: %+v, want η² %.6f", imps[1], wantSeed)
	}
	if _, why := Importances(es[:2], ""); why == "" {
		t.Error("2 runs gave importances")
	}
	flat := seedRuns([3]float64{1, 1, 0.7}, [3]float64{2, 1, 0.7}, [3]float64{3, 1, 0.7})
	if imps, why := Importances(flat, ""); len(imps) != 0 || why == "" {
		t.Errorf("no variance gave %+v", imps)
	}
}

// TestImportanceIncomparable: over runs of different data sets (or protocols) the
// importances are refused with the reason and the filter that fixes it; Eta2 gives the
// same bits whatever the order its groups are met in.
func TestImportanceIncomparable(t *testing.T) {
	es := seedRuns([3]float64{1, 1, 0.70}, [3]float64{0.1, 1, 0.90}, [3]float64{1, 2, 0.80}, [3]float64{0.1, 2, 0.94})
	for i := range es {
		es[i].Params["data.name"] = []string{"mnist", "xperm"}[i%2]
	}
	imps, why := Importances(es, "")
	if len(imps) != 0 || !strings.Contains(why, "2 data sets (mnist, xperm)") || !strings.Contains(why, "/data=mnist") {
		t.Fatalf("importances over two data sets: %+v, %q", imps, why)
	}
	for i := range es {
		es[i].Params["data.name"] = "mnist"
	}
	if imps, why := Importances(es, ""); why != "" || len(imps) == 0 {
		t.Fatalf("one data set: %+v, %q", imps, why)
	}
	y := []float64{0.1, 0.7, 0.3, 0.9, 0.2, 0.55, 0.8}
	first, _ := Eta2(y, []int{0, 1, 2, 3, 4, 5, 6})
	for range 20 {
		if e, _ := Eta2(y, []int{0, 1, 2, 3, 4, 5, 6}); e != first {
			t.Fatalf("Eta2 %v then %v on the same input", first, e)
		}
	}
}

// TestImportanceBins: a numeric field with 10 distinct values is cut into 5 quantile
// bins of 2 runs each (labels 0 0 1 1 … 4 4 for sorted values); ties share a bin.
func TestImportanceBins(t *testing.T) {
	if got := quantileLabels([]float64{10, 1, 2, 3, 4, 5, 6, 7, 8, 9}); !reflect.DeepEqual(got, []int{4, 0, 0, 1, 1, 2, 2, 3, 3, 4}) {
		t.Errorf("labels %v", got)
	}
	if got := quantileLabels([]float64{1, 1, 1, 2, 3, 4, 5, 6}); got[0] != 0 || got[1] != 0 || got[2] != 0 {
		t.Errorf("ties split: %v", got)
	}
	var rows [][3]float64
	for i := range 10 {
		rows = append(rows, [3]float64{float64(i + 1), 1, 0.5 + 0.04*float64(i)})
	}
	imps, why := Importances(seedRuns(rows...), "")
	if why != "" || len(imps) != 1 || !imps[0].Binned || imps[0].Groups != 5 {
		t.Fatalf("binned importance %+v %q", imps, why)
	}
	// bins pair consecutive runs: each bin's mean is its pair's midpoint; y is linear
	// in the rank, so SS_within = 5 · 2 · 0.02² = 0.004 and SS_total = 0.04² · 82.5 = 0.132
	if want := 1 - 0.004/0.132; math.Abs(imps[0].Eta2-want) > 1e-9 {
		t.Errorf("binned η² %g, want %g", imps[0].Eta2, want)
	}
}

// TestSeriesKind: parameters in parentheses are dropped, so CDF series of different
// bins and templates are one kind; KindAcc takes the best of a kind at x or at each
// series' largest x ("" and NaN: the headline).
func TestSeriesKind(t *testing.T) {
	for in, want := range map[string]string{"CDF(25,100) RLS": "CDF RLS", "raw RLS": "raw RLS", "TI(±1 (local)) SVM ": "TI SVM", "a)b(": "a)b"} {
		if got := SeriesKind(in); got != want {
			t.Errorf("SeriesKind(%q) = %q, want %q", in, got, want)
		}
	}
	es := sweep()
	if got := Kinds(es); !reflect.DeepEqual(got, []string{"CDF RLS", "raw RLS"}) {
		t.Fatalf("kinds %v", got)
	}
	e := es[0] // λ 0.01, seed 1: CDF 0.79 at 1000, 0.59 at 100; raw 0.6 at 1000
	for _, c := range []struct {
		kind string
		x    float64
		want float64
	}{{"", math.NaN(), e.Acc}, {"CDF RLS", 100, 0.59}, {"raw RLS", math.NaN(), 0.6}, {"raw RLS", 100, 0.5}} {
		if got, ok := KindAcc(e, c.kind, c.x); !ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("KindAcc(%q, %g) = %g, %v; want %g", c.kind, c.x, got, ok, c.want)
		}
	}
	if _, ok := KindAcc(e, "Haar RLS", math.NaN()); ok {
		t.Error("a kind the run lacks has an accuracy")
	}
}

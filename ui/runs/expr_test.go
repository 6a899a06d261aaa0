package runs

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"gitui/core/eval"
	"gitui/model/store"
)

// exprRuns are three hand-made runs: a (λ 0.01 and 1 in its two methods, 100
// templates, CDF 0.96 at x=1000), b (λ 0.1, 50 templates, CDF 0.90 at 1000), c
// (λ 0.1, 200 templates, no x=1000, data "fmnist").
func exprRuns() []Entry {
	pt := func(x, m, s float64) eval.SeriesPoint { return eval.SeriesPoint{X: x, Mean: m, Std: s, Runs: 3} }
	a := Entry{ID: "a", Name: "xperm-curve", Status: "done", Data: "xperm", Group: "permutation", Methods: []string{"CDF RLS", "raw RLS"},
		Time:   time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC),
		Params: map[string]string{"name": "xperm-curve", "data.name": "xperm", "methods.0.lambda": "0.01", "methods.1.lambda": "1", "methods.0.templates": "100", "seed": "1"},
		Series: []eval.Series{{Name: "CDF(5,100) RLS", Points: []eval.SeriesPoint{pt(100, 0.8, 0.02), pt(1000, 0.96, 0.01)}},
			{Name: "raw RLS", Points: []eval.SeriesPoint{pt(100, 0.7, 0.03), pt(1000, 0.91, 0.02)}}}}
	b := Entry{ID: "b", Name: "xperm-curve", Status: "partial", Data: "xperm", Group: "permutation", Methods: []string{"CDF RLS"},
		Time:   time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC),
		Params: map[string]string{"name": "xperm-curve", "data.name": "xperm", "methods.0.lambda": "0.1", "methods.0.templates": "50", "seed": "2"},
		Series: []eval.Series{{Name: "CDF(5,50) RLS", Points: []eval.SeriesPoint{pt(100, 0.75, 0.02), pt(1000, 0.90, 0.04)}}}}
	c := Entry{ID: "c", Name: "fm", Status: "done", Data: "fmnist", Methods: []string{"raw RLS"},
		Params: map[string]string{"name": "fm", "data.name": "fmnist", "methods.0.lambda": "0.10", "methods.0.templates": "200", "seed": "1"},
		Series: []eval.Series{{Name: "raw RLS", Points: []eval.SeriesPoint{pt(100, 0.6, 0.05), pt(500, 0.7, 0.05)}}}}
	for _, e := range []*Entry{&a, &b, &c} {
		e.Acc = store.Headline(e.Series)
	}
	return []Entry{a, b, c}
}

func matching(t *testing.T, es []Entry, f string) string {
	t.Helper()
	flt, err := ParseFilter(f, Keys(es))
	if err != nil {
		t.Fatalf("%q: %v", f, err)
	}
	var ids []string
	for _, e := range es {
		if flt.Match(e) {
			ids = append(ids, e.ID)
		}
	}
	return strings.Join(ids, ",")
}

// TestFilterExpressions: each filter keeps exactly the runs worked out by hand from
// exprRuns.
func TestFilterExpressions(t *testing.T) {
	es := exprRuns()
	for _, c := range []struct{ f, want string }{
		{"", "a,b,c"},
		{"xperm", "a,b"},                         // plain words: substring, as before
		{"lambda=0.1", "b,c"},                    // a lone = is ==: 0.10 equals 0.1 as numbers
		{"data=xperm", "a,b"},                    // the first filters a user types: columns by =
		{"status=done", "a,c"},                   //
		{"group=permutation", "a,b"},             // (c has no group)
		{"data=xperm status=done", "a"},          // side by side is &&
		{"data.name=fmnist", "c"},                // a spec key by =
		{"lambda=0.01", "a"},                     // not a substring of 0.1 or 0.10 any more
		{"templates>=100", "a,c"},                // suffix of methods.0.templates, numeric
		{"templates>=100 && acc@1000>0.95", "a"}, // a field and a result together
		{"acc@1000>0", "a,b"},                    // c has no x=1000: never matches
		{"!(acc@1000>0)", "c"},                   // … so its negation does
		{"lambda==0.1", "b,c"},                   // numeric: 0.10 == 0.1
		{"lambda == 1", "a"},                     // any of methods.0/1.lambda
		{"lambda!=0.01", "a,b,c"},                // a's methods.1.lambda (1) differs: ANY
		{"methods.0.lambda<0.05", "a"},           // a full key
		{"0.lambda>0.05", "b,c"},                 // a dotted suffix
		{"status==done || data~fm", "a,c"},
		{"status==done && !(data~fm)", "a"},
		{`name=="xperm-curve"`, "a,b"}, // quoted value
		{"name~CURVE", "a,b"},          // ~ ignores case
		{"acc>0.9", "a"},               // headline: a 0.96, b 0.90, c 0.7
		{"acc>=0.9", "a,b"},
		{"std@1000<0.02", "a"}, // a's best at 1000 is 0.96 ± 0.01; b's 0.90 ± 0.04
		{"std@1000<=0.01", "a"},
		{"acc[raw]@1000>0.9", "a"}, // raw RLS series only: a 0.91
		{"acc[raw]>0.65", "a,c"},   // raw at its largest x: a 0.91, c 0.7
		{"acc[cdf(5,50)]@100==0.75", "b"},
		{"xperm templates<100", "b"}, // side by side is &&
		{"(seed==1 || seed==2) && data==xperm", "a,b"},
		{"time>=2026-11-26", "b"}, // text order of "2006-01-02 15:04"; c has no time
		{"methods~raw", "a,c"},
		{"group==permutation", "a,b"},
	} {
		if got := matching(t, es, c.f); got != c.want {
			t.Errorf("filter %q keeps %q, want %q", c.f, got, c.want)
		}
	}
}

// TestFilterErrors: a malformed filter is an *ExprError at the right column with a
// message naming the problem; an unknown field lists close names; Match of a
// malformed filter is false.
func TestFilterErrors(t *testing.T) {
	keys := Keys(exprRuns())
	for _, c := range []struct {
		f    string
		col  int
		want string
	}{
		{"templates>=", 12, "expected a value after >="},
		{"acc>abc", 5, "acc is a number"},
		{"(acc>0.5", 9, "expected ) to close the ( at column 1"},
		{"acc>0.5)", 8, `unexpected ")"`},
		{"lamda>0.1", 1, "close: methods.0.lambda, methods.1.lambda"},
		{"templates>1 & acc>0", 13, `a lone '&': write &&`},
		{`name=="xperm`, 7, "quote opened here is not closed"},
		{"acc@big>0.5", 1, "size after @ must be a number"},
		{"acc[raw>0.5", 4, "[ opened here is not closed"},
		{"acc>0.5 ||", 11, "ends where a term is expected"},
		{"std>0.1", 1, "give the size"},
		{`"lambda">0.1`, 1, "not quoted"},
	} {
		_, err := ParseFilter(c.f, keys)
		var ee *ExprError
		if !errors.As(err, &ee) {
			t.Errorf("%q: error %v, want an *ExprError", c.f, err)
			continue
		}
		if ee.Col != c.col || !strings.Contains(ee.Msg, c.want) {
			t.Errorf("%q: %v, want column %d and %q", c.f, err, c.col, c.want)
		}
	}
	if Match(exprRuns()[0], "acc>") {
		t.Error("a malformed filter matched a run")
	}
}

// TestMetric: acc@X is the best mean over series at X, std@X that point's std, NaN x
// each series' last point; a run without the point has none.
func TestMetric(t *testing.T) {
	a := exprRuns()[0]
	for _, c := range []struct {
		kind, series string
		x, want      float64
		ok           bool
	}{
		{"acc", "", 1000, 0.96, true},
		{"std", "", 1000, 0.01, true},
		{"acc", "raw", 1000, 0.91, true},
		{"std", "raw", 100, 0.03, true},
		{"acc", "", math.NaN(), 0.96, true},
		{"acc", "", 500, 0, false},
		{"acc", "nope", 1000, 0, false},
		{"headline", "", 0, 0.96, true},
	} {
		got, ok := Metric(a, c.kind, c.series, c.x)
		if ok != c.ok || (ok && math.Abs(got-c.want) > 1e-12) {
			t.Errorf("Metric(%s, %q, %g) = %g, %v; want %g, %v", c.kind, c.series, c.x, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseFilter: no input makes the parser or the match panic, and an error is
// always an *ExprError whose column lies within the filter (1 … len+1).
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"templates>=100 && acc@1000>0.95", "!(a||b)", "acc[raw]@1e3<=.5", `x=="q"`, "(((", "acc[", "'", "&|", "std@", "λ~é"} {
		f.Add(s)
	}
	es := exprRuns()
	keys := Keys(es)
	f.Fuzz(func(t *testing.T, s string) {
		flt, err := ParseFilter(s, keys)
		if err != nil {
			var ee *ExprError
			if !errors.As(err, &ee) || ee.Col < 1 || ee.Col > len([]rune(s))+1 {
				t.Fatalf("%q: error %v", s, err)
			}
			return
		}
		for _, e := range es {
			flt.Match(e)
		}
	})
}

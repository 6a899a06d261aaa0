package engine

import (
	"context"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/eval"
	"gitui/core/learn"
	"gitui/model"
)

// cacheTrial runs spec on the loaded data (as a study's trial does) with the cache
// (nil: none) and returns its outcome.
func cacheTrial(t *testing.T, spec *model.Spec, loaded *LoadedData, c *FeatureCache) *eval.Outcome {
	t.Helper()
	var out *eval.Outcome
	for e := range Start(context.Background(), spec, RunOptions{Loaded: loaded, NoMatrices: true, Features: c}) {
		if d, ok := e.(eval.Done); ok {
			if d.Err != nil {
				t.Fatalf("%s: %v", spec.Name, d.Err)
			}
			out = d.Outcome
		}
	}
	return out
}

// sameSeries fails unless a and b hold the same series with bit-identical points.
func sameSeries(t *testing.T, what string, a, b *eval.Outcome) {
	t.Helper()
	if len(a.Series) != len(b.Series) {
		t.Fatalf("%s: %d series, want %d", what, len(b.Series), len(a.Series))
	}
	for i, s := range a.Series {
		o := b.Series[i]
		if s.Name != o.Name || len(s.Points) != len(o.Points) {
			t.Fatalf("%s: series %d is %q with %d points, want %q with %d", what, i, o.Name, len(o.Points), s.Name, len(s.Points))
		}
		for j, p := range s.Points {
			q := o.Points[j]
			if math.Float64bits(p.Mean) != math.Float64bits(q.Mean) || math.Float64bits(p.Std) != math.Float64bits(q.Std) || p.X != q.X {
				t.Errorf("%s: %s at %g: %v ± %v, want %v ± %v (bit for bit)", what, s.Name, p.X, q.Mean, q.Std, p.Mean, p.Std)
			}
		}
	}
}

// TestFeatureCacheSameResults runs trials of a study's kind (one spec per configuration
// and training size, on the same loaded data) with and without a shared FeatureCache:
// every score is bit-identical, trials that agree on the fields deciding the features
// (here CDF(3,6) on deskewed digits with range thresholds, under linear RLS, the
// Gaussian kernel and 1-NN, at two sizes) compute them once, and trials that differ in
// one such field (bins, templates, thresholds, preprocess, the spec's group) do not
// share them.
func TestFeatureCacheSameResults(t *testing.T) {
	base := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Seed: 3, Repeats: 2,
		Data:  model.DataSpec{Name: "embedded", TestSize: 200},
		Group: model.GroupSpec{Kind: "local-shift", Radius: 1},
	}
	pool, test, err := LoadData(base.Data, "", base.Seed)
	if err != nil {
		t.Fatal(err)
	}
	loaded := &LoadedData{Pool: pool, Test: test}
	cdf := model.Method{Features: "cdf", Bins: 3, Templates: 6, Thresholds: "range", Preprocess: "deskew"}
	variant := func(f func(m *model.Method, s *model.Spec)) *model.Spec {
		s := base.Clone()
		m := cdf
		f(&m, s)
		s.Methods = []model.Method{m}
		return s
	}
	trials := []struct {
		spec  *model.Spec
		size  int
		fresh bool // computes its features (a miss)
	}{
		{variant(func(*model.Method, *model.Spec) {}), 60, true},
		{variant(func(*model.Method, *model.Spec) {}), 180, false}, // promoted to the next rung
		{variant(func(m *model.Method, _ *model.Spec) { m.FeatureKernel = "rbf" }), 60, false},
		{variant(func(m *model.Method, _ *model.Spec) { m.Learner = "1nn" }), 180, false},
		{variant(func(m *model.Method, _ *model.Spec) { m.Lambda = 1e-3 }), 60, false},
		{variant(func(m *model.Method, _ *model.Spec) { m.Bins = 4 }), 60, true},
		{variant(func(m *model.Method, _ *model.Spec) { m.Templates = 7 }), 60, true},
		{variant(func(m *model.Method, _ *model.Spec) { m.Thresholds = "" }), 60, true},
		{variant(func(m *model.Method, _ *model.Spec) { m.Preprocess = "" }), 60, true},
		{variant(func(_ *model.Method, s *model.Spec) { s.Group.Radius = 2 }), 60, true},
		{variant(func(_ *model.Method, s *model.Spec) { s.Seed = 4 }), 60, true},
		{variant(func(*model.Method, *model.Spec) {}), 60, false}, // the first again
	}
	c := NewFeatureCache(1 << 30)
	misses := 0
	for i, tr := range trials {
		tr.spec.Sizes = []int{tr.size}
		plain := cacheTrial(t, tr.spec, loaded, nil)
		cached := cacheTrial(t, tr.spec, loaded, c)
		sameSeries(t, tr.spec.Methods[0].DisplayName(), plain, cached)
		if tr.fresh {
			misses++
		}
		if st := c.Stats(); st.Misses != misses || st.Hits != i+1-misses {
			t.Fatalf("after trial %d (%s, n %d): %v, want %d computed and %d hits", i, tr.spec.Methods[0].DisplayName(), tr.size, st, misses, i+1-misses)
		}
	}
	// Without Loaded (data loaded by the run itself) the cache is not used.
	s := trials[0].spec.Clone()
	for e := range Start(context.Background(), s, RunOptions{NoMatrices: true, Features: c}) {
		if d, ok := e.(eval.Done); ok && d.Err != nil {
			t.Fatal(d.Err)
		}
	}
	if st := c.Stats(); st.Misses != misses || st.Hits != len(trials)-misses {
		t.Fatalf("a run without Loaded data used the cache: %v", st)
	}
}

// TestFeatureCacheEvictsLRU checks the bound: entries are dropped least recently used
// first so that the bytes kept stay within the limit, an entry larger than the limit
// is returned but not kept, and concurrent requests for one key compute it once.
func TestFeatureCacheEvictsLRU(t *testing.T) {
	rows := func(n int) learn.Rows { return learn.DenseRows{M: mat.NewDense(n, 1, nil)} } // n·1·8 bytes
	c := NewFeatureCache(100 * 8)
	computed := map[string]int{}
	get := func(key string, n int) bool {
		_, _, hit, err := c.get(context.Background(), key, func() (learn.Rows, learn.Rows, error) {
			computed[key]++
			return rows(n), rows(n), nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return hit
	}
	get("a", 20) // 320 bytes
	get("b", 20) // 640
	get("a", 20) // a is now the most recent
	get("c", 20) // 960 > 800: b goes
	if st := c.Stats(); st.Bytes > st.Limit || st.Entries != 2 {
		t.Fatalf("after a, b, a, c: %v, want 2 entries within the limit", st)
	}
	if !get("a", 20) || get("b", 20) {
		t.Fatalf("LRU: a (recent) should be kept and b (least recent) dropped; computed %v", computed)
	}
	if get("big", 60) || get("big", 60) { // 960 bytes > 800: never kept
		t.Fatal("an entry larger than the limit was kept")
	}
	if st := c.Stats(); st.Bytes > st.Limit {
		t.Fatalf("%v: above the limit", st)
	}
	// Concurrent requests for one key: one computation.
	c2 := NewFeatureCache(1 << 20)
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c2.get(context.Background(), "k", func() (learn.Rows, learn.Rows, error) {
				mu.Lock()
				n++
				mu.Unlock()
				return rows(4), rows(4), nil
			}, nil)
		}()
	}
	wg.Wait()
	if n != 1 {
		t.Fatalf("8 concurrent requests computed the features %d times, want 1", n)
	}
}

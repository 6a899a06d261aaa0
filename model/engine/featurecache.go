package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"gitui/core/data"
	"gitui/core/feature"
	"gitui/core/learn"
	"gitui/internal/bytefmt"
	"gitui/model"
)

// FeatureCache keeps pooled features (CDF and moment features of the training pool and
// of the test set) across runs that share their loaded data (RunOptions.Loaded): a
// study's trials that agree on every registry field deciding the features
// (model.KeyOf(model.MethodFields, m, model.DecidesFeatures)), the spec's group and seed
// take the features the first of them computed instead of computing them again (a trial
// promoted to the next rung, or two trials that differ only in the learner). The
// features are the same values the run would compute, read only: results are
// bit-identical with and without the cache.
//
// It holds at most Limit bytes (the features' own storage): when a new entry would
// exceed it, the least recently used entries are dropped first; an entry larger than
// Limit is not kept. Two runs asking for the same features at once compute them once
// (the second waits). It is safe for concurrent use. The zero value is not usable: use
// NewFeatureCache.
type FeatureCache struct {
	mu      sync.Mutex
	limit   int64
	used    int64
	clock   uint64
	entries map[string]*cacheEntry
	hits    int
	misses  int
}

// cacheEntry is one key's features, or their computation in progress (ready open).
type cacheEntry struct {
	ready  chan struct{}
	fp, ft learn.Rows
	lazy   *lazyFeatures // instead of fp and ft: features computed row by row
	bytes  int64
	last   uint64 // the cache clock at the last use (LRU)
	err    error
	kept   bool // counted in used
}

// NewFeatureCache returns an empty cache holding at most limit bytes of features
// (limit <= 0: nothing is kept, though concurrent requests still share one computation).
func NewFeatureCache(limit int64) *FeatureCache {
	return &FeatureCache{limit: limit, entries: map[string]*cacheEntry{}}
}

// FeatureCacheStats are a cache's counters: requests served from it (Hits) or computed
// (Misses), the entries and bytes it holds, and its limit.
type FeatureCacheStats struct {
	Hits, Misses, Entries int
	Bytes, Limit          int64
}

// Stats returns the cache's counters.
func (c *FeatureCache) Stats() FeatureCacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, e := range c.entries {
		if e.kept {
			n++
		}
	}
	return FeatureCacheStats{Hits: c.hits, Misses: c.misses, Entries: n, Bytes: c.used, Limit: c.limit}
}

// String is a one-line summary for logs.
func (s FeatureCacheStats) String() string {
	return fmt.Sprintf("feature cache: %d hits, %d computed, %d kept (%s of %s)", s.Hits, s.Misses, s.Entries, bytefmt.IEC(float64(s.Bytes)), bytefmt.IEC(float64(max(s.Limit, 0))))
}

// get returns the features of key: from the cache, or from compute (called at most
// once at a time per key; its error is returned and not kept). hit reports whether
// they came from the cache (or from a concurrent computation of the same key). With
// build instead of compute (nil), the entry is lazy: build makes its lazyFeatures, which
// lazyGet reads.
func (c *FeatureCache) get(ctx context.Context, key string, compute func() (fp, ft learn.Rows, err error), build func() (*lazyFeatures, error)) (fp, ft learn.Rows, hit bool, err error) {
	for {
		c.mu.Lock()
		e, ok := c.entries[key]
		if !ok {
			break // compute, with c.mu held
		}
		c.mu.Unlock()
		select {
		case <-e.ready:
		case <-ctx.Done():
			return nil, nil, false, ctx.Err()
		}
		c.mu.Lock()
		if e.err == nil && c.entries[key] == e {
			c.clock++
			e.last = c.clock
			c.hits++
			c.mu.Unlock()
			return e.fp, e.ft, true, nil
		}
		c.mu.Unlock()
		if e.err == nil { // evicted after it was ready: its values are still valid
			c.mu.Lock()
			c.hits++
			c.mu.Unlock()
			return e.fp, e.ft, true, nil
		}
		// The computation we waited for failed (cancelled, perhaps): try ourselves.
	}
	e := &cacheEntry{ready: make(chan struct{})}
	c.entries[key] = e
	c.misses++
	c.mu.Unlock()

	var lazy *lazyFeatures
	if build != nil {
		if lazy, err = build(); err == nil {
			ft = lazy.test
		}
	} else {
		fp, ft, err = compute()
	}

	c.mu.Lock()
	defer c.mu.Unlock()
	e.fp, e.ft, e.lazy, e.err = fp, ft, lazy, err
	close(e.ready)
	if err != nil {
		delete(c.entries, key)
		return nil, nil, false, err
	}
	e.bytes = rowsBytes(ft)
	if lazy != nil {
		e.bytes += lazy.bytes
	} else {
		e.bytes += rowsBytes(fp)
	}
	if e.bytes > c.limit {
		delete(c.entries, key) // too large to keep; waiters still got it
		return fp, ft, false, nil
	}
	for c.used+e.bytes > c.limit && c.evictOtherLocked(nil) {
	}
	c.clock++
	e.last, e.kept = c.clock, true
	c.used += e.bytes
	return fp, ft, false, nil
}

// evictOtherLocked drops the least recently used kept entry other than keep (c.mu held)
// and reports whether there was one.
func (c *FeatureCache) evictOtherLocked(keep *cacheEntry) bool {
	var old string
	var oe *cacheEntry
	for k, e := range c.entries {
		if e.kept && e != keep && (oe == nil || e.last < oe.last) {
			old, oe = k, e
		}
	}
	if oe == nil {
		return false
	}
	delete(c.entries, old)
	c.used -= oe.bytes
	return true
}

// rowsBytes returns the memory held by feature rows: Bytes() when they report it
// (feature.Counts), else rows·cols·8.
func rowsBytes(r learn.Rows) int64 {
	if b, ok := r.(interface{ Bytes() int }); ok {
		return int64(b.Bytes())
	}
	n, d := r.Dims()
	return int64(n) * int64(d) * 8
}

// sharedFeatureKey is the key of m's pooled features in a FeatureCache: the registry's
// feature key (featureKey) with what the spec adds to it (its group and seed: the
// templates are drawn from the seed) and the identity of the loaded data, so that a
// cache given runs on other data can only miss.
func sharedFeatureKey(m model.Method, spec *model.Spec, loaded *LoadedData) string {
	g, _ := json.Marshal(spec.Group)
	return fmt.Sprintf("%s|group %s|seed %d|data %p %p", featureKey(m), g, spec.Seed, loaded.Pool, loaded.Test)
}

// lazyFeatures are the CDF features of one key computed row by row as runs need them: the
// map is built and fitted once on the whole pool (range thresholds and standardisation
// see every pool row, as in a plain run) with its input support fixed to the pool's
// (feature.CDF.FixSupport), the test set's features are computed once, and the pool rows
// a run trains on are transformed when first asked for. So a study's first rung at 300
// of 8,000 digits transforms 300 pool rows, not 8,000, and every row's features are bit
// for bit those of a transform of the whole pool.
type lazyFeatures struct {
	mu     sync.Mutex
	cdf    *feature.CDF
	pool   *data.Dataset // the pool's inputs (deskewed when asked)
	test   learn.Rows
	cols   int
	chunk  []int32 // per pool row: its chunk, -1 before it is computed
	row    []int32 // its row in the chunk
	chunks []learn.Rows
	bytes  int64
}

// rows returns the pool's features with at least the rows need computed (those not yet
// computed are transformed now, in one pass) and the bytes that added.
func (l *lazyFeatures) rows(ctx context.Context, need []int) (learn.Rows, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var missing []int
	for _, i := range need {
		if l.chunk[i] < 0 {
			missing = append(missing, i)
		}
	}
	var added int64
	if len(missing) > 0 {
		slices.Sort(missing)
		missing = slices.Compact(missing)
		c, err := l.cdf.TransformCounts(ctx, l.pool.Subset(missing).X, nil)
		if err != nil {
			return nil, 0, err
		}
		for r, i := range missing {
			l.chunk[i], l.row[i] = int32(len(l.chunks)), int32(r)
		}
		l.chunks = append(l.chunks, c)
		added = rowsBytes(c)
		l.bytes += added
	}
	return lazyRows{chunk: slices.Clone(l.chunk), row: slices.Clone(l.row), chunks: slices.Clone(l.chunks), cols: l.cols}, added, nil
}

// lazyRows is a snapshot of lazyFeatures' pool rows, read by pool row; reading a row
// that was not computed panics (a run reads only the rows of its draws).
type lazyRows struct {
	chunk, row []int32
	chunks     []learn.Rows
	cols       int
}

// Dims returns the pool's rows and the features' columns.
func (r lazyRows) Dims() (int, int) { return len(r.chunk), r.cols }

// Span copies entries (i, j0).. of pool row i.
func (r lazyRows) Span(dst []float64, i, j0 int) {
	c := r.chunk[i]
	if c < 0 {
		panic(fmt.Sprintf("model: pool row %d was not transformed (no draw of this run uses it)", i))
	}
	r.chunks[c].Span(dst, int(r.row[i]), j0)
}

// lazyGet returns key's pool features with the rows need computed, and the test set's
// features; build makes the lazyFeatures the first time (called once per key at a time,
// its error returned and not kept). The bytes the entry grows by count against the
// limit: other entries are dropped, least recently used first, to make room.
func (c *FeatureCache) lazyGet(ctx context.Context, key string, need []int, build func() (*lazyFeatures, error)) (fp, ft learn.Rows, err error) {
	_, _, _, err = c.get(ctx, key, nil, build)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	e := c.entries[key]
	var l *lazyFeatures
	if e != nil {
		l = e.lazy
	}
	c.mu.Unlock()
	if l == nil { // dropped at once (larger than the limit): build it again, unkept
		if l, err = build(); err != nil {
			return nil, nil, err
		}
	}
	fp, added, err := l.rows(ctx, need)
	if err != nil {
		return nil, nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e != nil && e.kept && c.entries[key] == e {
		e.bytes += added
		c.used += added
		for c.used > c.limit && c.evictOtherLocked(e) {
		}
		if c.used > c.limit { // alone above the limit: no longer kept
			delete(c.entries, key)
			c.used -= e.bytes
		}
	}
	return fp, l.test, nil
}

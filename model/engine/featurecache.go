package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"gitui/core/learn"
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
	return fmt.Sprintf("feature cache: %d hits, %d computed, %d kept (%s of %s)", s.Hits, s.Misses, s.Entries, human(float64(s.Bytes)), human(float64(max(s.Limit, 0))))
}

// get returns the features of key: from the cache, or from compute (called at most
// once at a time per key; its error is returned and not kept). hit reports whether
// they came from the cache (or from a concurrent computation of the same key).
func (c *FeatureCache) get(ctx context.Context, key string, compute func() (fp, ft learn.Rows, err error)) (fp, ft learn.Rows, hit bool, err error) {
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

	fp, ft, err = compute()

	c.mu.Lock()
	defer c.mu.Unlock()
	e.fp, e.ft, e.err = fp, ft, err
	close(e.ready)
	if err != nil {
		delete(c.entries, key)
		return nil, nil, false, err
	}
	e.bytes = rowsBytes(fp) + rowsBytes(ft)
	if e.bytes > c.limit {
		delete(c.entries, key) // too large to keep; waiters still got it
		return fp, ft, false, nil
	}
	for c.used+e.bytes > c.limit {
		c.evictLocked()
	}
	c.clock++
	e.last, e.kept = c.clock, true
	c.used += e.bytes
	return fp, ft, false, nil
}

// evictLocked drops the least recently used kept entry (c.mu held).
func (c *FeatureCache) evictLocked() {
	var old string
	var oe *cacheEntry
	for k, e := range c.entries {
		if e.kept && (oe == nil || e.last < oe.last) {
			old, oe = k, e
		}
	}
	if oe == nil {
		return
	}
	delete(c.entries, old)
	c.used -= oe.bytes
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

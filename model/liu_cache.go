package model

import (
	"encoding/json"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
)

// gramCache shares the kernel matrices of a run between methods whose kernels are the
// same and that differ only in how they learn from it (learner, C, lambda, psd,
// kernel_norm): the
// union's training Gram and the test × union matrix are computed once. It lives for one
// run (one builder), so the pool, the test set and the draws are the same for every
// entry; the key also holds the test set's identity. Safe for concurrent use.
type gramCache struct {
	mu sync.Mutex
	m  map[string]gramEntry
}

type gramEntry struct {
	ktr   *mat.SymDense
	kte   *mat.Dense
	tself []float64 // k(x, x) of the test samples, for kernel_norm cosine (nil: not computed)
}

// kernelKey identifies m's kernel matrices on the test set: m without the fields that
// do not change them.
func kernelKey(m Method, test *data.Dataset) string {
	m.Name, m.Learner, m.C, m.Lambda, m.PSD, m.KernelNorm = "", "", 0, 0, "", ""
	b, err := json.Marshal(m)
	if err != nil {
		// Method holds only plain values: Marshal cannot fail.
		panic(fmt.Sprintf("model: kernelKey: %v", err))
	}
	return fmt.Sprintf("%p %s", test, b)
}

func (c *gramCache) get(key string) (gramEntry, bool) {
	if c == nil {
		return gramEntry{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e, ok
}

func (c *gramCache) put(key string, e gramEntry) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]gramEntry{}
	}
	c.m[key] = e
}

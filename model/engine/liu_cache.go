package engine

import (
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/model"
)

// gramCache shares the kernel matrices of a run between methods whose kernels are the
// same and that differ only in how they learn from it (learner, C, lambda, psd,
// kernel_norm): the
// union's training Gram and the test × union matrix are computed once. It lives for one
// run (one builder), so the pool, the test set and the draws are the same for every
// entry; the key also holds the test set's identity. Safe for concurrent use.
//
// Each method built with the cache is counted (expect); when the last method of a
// kernel has taken its entry (taken), the cache drops it, so that a kernel's matrices
// live only while a method that uses them is prepared or running (methods are prepared
// one at a time: eval.Stage).
type gramCache struct {
	mu    sync.Mutex
	m     map[string]gramEntry
	users map[string]int // methodKey -> methods built and not yet prepared
}

// methodKey identifies m's kernel apart from the test set (kernelKey without it): the
// fields the registry says decide the features or the kernel (not its normalisation,
// applied to the shared matrices, nor the learner or the name).
func methodKey(m model.Method) string {
	return model.KeyOf(model.MethodFields, m, model.DecidesFeatures|model.DecidesKernel)
}

// expect counts one more method that will take the kernel of m.
func (c *gramCache) expect(m model.Method) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.users == nil {
		c.users = map[string]int{}
	}
	c.users[methodKey(m)]++
}

// taken records that a method of m's kernel has its matrices (entry key); after the
// last expected one the entry is dropped.
func (c *gramCache) taken(m model.Method, key string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	mk := methodKey(m)
	if c.users[mk] > 0 {
		c.users[mk]--
	}
	if c.users[mk] == 0 {
		delete(c.m, key)
	}
}

type gramEntry struct {
	ktr   *mat.SymDense
	kte   *mat.Dense
	tself []float64 // k(x, x) of the test samples, for kernel_norm cosine (nil: not computed)
}

// kernelKey identifies m's kernel matrices on the test set: m without the fields that
// do not change them.
func kernelKey(m model.Method, test *data.Dataset) string {
	// Method holds only plain values: Marshal (in methodKey) cannot fail.
	return fmt.Sprintf("%p %s", test, methodKey(m))
}

// keepOnly drops every entry but key's. The methods of one kernel are prepared one
// after the other (gramMethod.ShareKey), so when a kernel is computed the entries of
// other kernels belong to finished methods: those left by methods that never took them
// (skipped on resume, or whose cells are another shard's) would otherwise stay to the
// end of the run.
func (c *gramCache) keepOnly(key string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		if k != key {
			delete(c.m, k)
		}
	}
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

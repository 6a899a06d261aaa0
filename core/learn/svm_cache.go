package learn

// rowCache is LIBSVM's kernel cache (svm.cpp, class Cache): a least-recently-used set of
// row prefixes Q[i][0:len) of the l×l matrix Q, in float32 (LIBSVM's Qfloat), within a
// budget counted in float32 entries. A row is extended in place when a longer prefix is
// asked for, and the least recently used rows are dropped until the extension fits.
//
// swap mirrors Cache::swap_index: the solver's shrinking permutes the variables, and the
// cache permutes its rows and the two columns of every cached row that holds both; a row
// that holds only the lower of the two columns is dropped. Results never depend on the
// cache: a dropped row is recomputed from the kernel with the same float32 rounding.
//
// The zero value is not usable; call newRowCache. Not safe for concurrent use.
type rowCache struct {
	size int64       // free budget, in float32 entries
	data [][]float32 // data[i][:lens[i]] is the cached prefix of row i
	lens []int
	// Circular doubly linked LRU list over rows with lens[i] > 0; index l is the
	// sentinel, next[l] the least recently used row, prev[l] the most recent one.
	prev, next []int
}

// newRowCache returns an empty cache for l rows with a budget of bytes bytes, never less
// than two full rows (the solver holds two rows at a time), as LIBSVM does.
func newRowCache(l int, bytes int64) *rowCache {
	const headBytes = 16 // LIBSVM charges sizeof(head_t) per row; kept for equal budgets
	size := bytes/4 - int64(l)*headBytes/4
	size = max(size, 2*int64(l))
	c := &rowCache{
		size: size,
		data: make([][]float32, l),
		lens: make([]int, l),
		prev: make([]int, l+1),
		next: make([]int, l+1),
	}
	c.prev[l], c.next[l] = l, l
	return c
}

func (c *rowCache) unlink(h int) {
	c.next[c.prev[h]] = c.next[h]
	c.prev[c.next[h]] = c.prev[h]
}

// pushBack makes h the most recently used row.
func (c *rowCache) pushBack(h int) {
	s := len(c.lens)
	c.next[h] = s
	c.prev[h] = c.prev[s]
	c.next[c.prev[h]] = h
	c.prev[s] = h
}

func (c *rowCache) drop(h int) {
	c.unlink(h)
	c.size += int64(c.lens[h])
	c.data[h] = nil
	c.lens[h] = 0
}

// get returns row i with room for at least n entries and the position start from which
// the caller must fill row[start:n] (start >= n means the prefix is cached). It marks
// row i as most recently used.
func (c *rowCache) get(i, n int) (row []float32, start int) {
	have := c.lens[i]
	if have > 0 {
		c.unlink(i)
	}
	if more := n - have; more > 0 {
		s := len(c.lens)
		for c.size < int64(more) {
			c.drop(c.next[s]) // cannot be i: i is unlinked; the budget holds two rows
		}
		if cap(c.data[i]) < n {
			grown := make([]float32, n)
			copy(grown, c.data[i][:have])
			c.data[i] = grown
		}
		c.data[i] = c.data[i][:n]
		c.size -= int64(more)
		c.lens[i] = n
	}
	c.pushBack(i)
	return c.data[i], have
}

// swap exchanges rows i and j and columns i and j of every cached row (Cache::swap_index).
func (c *rowCache) swap(i, j int) {
	if i == j {
		return
	}
	if c.lens[i] > 0 {
		c.unlink(i)
	}
	if c.lens[j] > 0 {
		c.unlink(j)
	}
	c.data[i], c.data[j] = c.data[j], c.data[i]
	c.lens[i], c.lens[j] = c.lens[j], c.lens[i]
	if c.lens[i] > 0 {
		c.pushBack(i)
	}
	if c.lens[j] > 0 {
		c.pushBack(j)
	}
	if i > j {
		i, j = j, i
	}
	s := len(c.lens)
	for h := c.next[s]; h != s; {
		nx := c.next[h]
		if c.lens[h] > i {
			if c.lens[h] > j {
				d := c.data[h]
				d[i], d[j] = d[j], d[i]
			} else {
				c.drop(h) // holds column i but not j: give the row up
			}
		}
		h = nx
	}
}

package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"testing"

	"gitui/core/data"
)

// tracked is a method whose prepared Fitter records, in a shared log, every Prepare
// and the start and end of every cell; its predictions depend on the cell's rng, so
// that a cell run with another seed would change the outcome.
type tracked struct {
	name string
	mu   *sync.Mutex
	live *int      // cells in flight, all methods
	log  *[]string // "prepare NAME" and "done NAME"
	bad  *bool     // set when a Prepare sees cells of an earlier method still in flight
	test *data.Dataset
}

func (m *tracked) Name() string { return m.name }
func (m *tracked) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if *m.live != 0 {
		*m.bad = true
	}
	*m.log = append(*m.log, "prepare "+m.name)
	m.test = test
	return m, nil
}
func (m *tracked) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	m.mu.Lock()
	*m.live++
	m.mu.Unlock()
	pred := make([]int, m.test.Len())
	for i := range pred {
		pred[i] = rng.IntN(2)
	}
	m.mu.Lock()
	*m.live--
	*m.log = append(*m.log, "done "+m.name)
	m.mu.Unlock()
	return pred, nil
}

// TestProtocolOneMethodAtATime checks that a stage prepares its methods one at a time:
// a method is prepared only when no cell of an earlier one is in flight, after all of
// that method's cells, and the outcome (each cell seeded by repeat and arm) is the same
// with 1 and 4 workers and with the arms of the methods interleaved or grouped.
func TestProtocolOneMethodAtATime(t *testing.T) {
	pool, test := twoClass(100), twoClass(40)
	run := func(workers int, grouped bool) (*Outcome, []string, bool) {
		var mu sync.Mutex
		live, bad := 0, false
		var log []string
		mk := func(name string) *tracked {
			return &tracked{name: name, mu: &mu, live: &live, log: &log, bad: &bad}
		}
		a, b, c := mk("a"), mk("b"), mk("c")
		var arms []Arm
		sizes := []int{10, 20, 50}
		if grouped {
			for _, m := range []*tracked{a, b, c} {
				for _, n := range sizes {
					arms = append(arms, Arm{Series: m.name, X: float64(n), Size: n, Method: m})
				}
			}
		} else {
			for _, n := range sizes {
				for _, m := range []*tracked{a, b, c} {
					arms = append(arms, Arm{Series: m.name, X: float64(n), Size: n, Method: m})
				}
			}
		}
		p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Name: "s", Arms: arms}}, Repeats: 3, Sampling: data.Stratified, Seed: 5, Workers: workers}
		out, err := p.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return out, log, bad
	}
	var ref *Outcome
	for _, workers := range []int{1, 4} {
		out, log, bad := run(workers, false)
		if bad {
			t.Fatalf("workers %d: a method was prepared while cells of another were in flight", workers)
		}
		// The log is: prepare a, 9 × done a, prepare b, 9 × done b, prepare c, 9 × done c.
		for i, name := range []string{"a", "b", "c"} {
			seg := log[i*10 : (i+1)*10]
			if seg[0] != "prepare "+name {
				t.Fatalf("workers %d: entry %d is %q, want prepare %s (log %v)", workers, i*10, seg[0], name, log)
			}
			for _, e := range seg[1:] {
				if e != "done "+name {
					t.Fatalf("workers %d: %q among the cells of %s (log %v)", workers, e, name, log)
				}
			}
		}
		if ref == nil {
			ref = out
			continue
		}
		if !sameSeries(ref, out) {
			t.Errorf("workers %d: outcome differs from 1 worker", workers)
		}
	}
	// Arm indices seed the cells, so grouping the arms differently changes the rng of
	// each cell: the outcome must then differ (the check above can fail).
	out, _, _ := run(1, true)
	if sameSeries(ref, out) {
		t.Error("reordered arms gave the same outcome: predictions do not depend on the cell seed")
	}
}

func sameSeries(a, b *Outcome) bool {
	if len(a.Series) != len(b.Series) {
		return false
	}
	for i, s := range a.Series {
		t := b.Series[i]
		if s.Name != t.Name || len(s.Points) != len(t.Points) {
			return false
		}
		for j, p := range s.Points {
			if p != t.Points[j] {
				return false
			}
		}
	}
	return true
}

// refusing is a method whose Check fails.
type refusing struct{ tracked }

func (r *refusing) Check(ctx context.Context, pool, test *data.Dataset) error {
	return errBadInput
}

var errBadInput = errors.New("bad input")

// TestProtocolChecksBeforeAnyCell checks that a method whose Check fails stops the run
// before any method is prepared or any cell runs, even when it comes after another
// method, and that the error names it.
func TestProtocolChecksBeforeAnyCell(t *testing.T) {
	pool, test := twoClass(100), twoClass(40)
	var mu sync.Mutex
	live, bad := 0, false
	var log []string
	a := &tracked{name: "a", mu: &mu, live: &live, log: &log, bad: &bad}
	b := &refusing{tracked{name: "b", mu: &mu, live: &live, log: &log, bad: &bad}}
	arms := []Arm{{Series: "a", X: 10, Size: 10, Method: a}, {Series: "b", X: 10, Size: 10, Method: b}}
	p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Name: "s", Arms: arms}}, Repeats: 2, Sampling: data.Stratified, Seed: 1}
	_, err := p.Run(context.Background(), nil)
	if !errors.Is(err, errBadInput) || err.Error() != "b: bad input" {
		t.Fatalf("error %v, want b: bad input", err)
	}
	if len(log) != 0 {
		t.Errorf("ran %v before the check failed", log)
	}
}

package eval

import (
	"context"
	"errors"
	"fmt"
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

// sharing is a tracked method with a ShareKey (Sharer).
type sharing struct {
	tracked
	key string
}

func (s *sharing) ShareKey() string { return s.key }

// TestProtocolSharersPreparedTogether checks that methods with the same ShareKey are
// prepared one right after the other, at the place of the first of them, and that this
// changes neither the outcome nor the order of the series: methods a, b, c, d in that
// order with a and d sharing a key are prepared a, d, b, c, and the outcome equals that
// of the same methods without keys.
func TestProtocolSharersPreparedTogether(t *testing.T) {
	pool, test := twoClass(100), twoClass(40)
	run := func(keys map[string]string) (*Outcome, []string) {
		var mu sync.Mutex
		live, bad := 0, false
		var log []string
		var arms []Arm
		for _, n := range []int{10, 20} {
			for _, name := range []string{"a", "b", "c", "d"} {
				m := &sharing{tracked: tracked{name: name, mu: &mu, live: &live, log: &log, bad: &bad}, key: keys[name]}
				arms = append(arms, Arm{Series: name, X: float64(n), Size: n, Method: m})
			}
		}
		// One Method value per name: the arms of a name share it.
		byName := map[string]Method{}
		for i, a := range arms {
			if m, ok := byName[a.Series]; ok {
				arms[i].Method = m
			} else {
				byName[a.Series] = a.Method
			}
		}
		p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Name: "s", Arms: arms}}, Repeats: 2, Sampling: data.Stratified, Seed: 5, Workers: 2}
		out, err := p.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if bad {
			t.Fatal("a method was prepared while cells of another were in flight")
		}
		var prepared []string
		for _, e := range log {
			if len(e) > 8 && e[:8] == "prepare " {
				prepared = append(prepared, e[8:])
			}
		}
		return out, prepared
	}
	ref, order := run(nil)
	if got := fmt.Sprint(order); got != "[a b c d]" {
		t.Fatalf("without keys prepared %s, want [a b c d]", got)
	}
	out, order := run(map[string]string{"a": "k", "d": "k", "b": "other"})
	if got := fmt.Sprint(order); got != "[a d b c]" {
		t.Errorf("a and d sharing a key: prepared %s, want [a d b c]", got)
	}
	if !sameSeries(ref, out) {
		t.Error("grouping the preparation of sharers changed the outcome or the order of its series")
	}
}

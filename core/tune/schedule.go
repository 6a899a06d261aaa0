package tune

import (
	"fmt"
	"math"
	"slices"
)

// Rungs returns the budgets of successive halving: nMin·eta^k for k = 0, 1, ... while
// at most nMax (Li et al. 2018, with the minimum early-stopping rate s = 0). It refuses,
// with one line naming the field and the fix: eta < 2, nMin < 1, and a budget nMax too
// small for a second rung (nMax < nMin·eta), which would make halving pointless.
func Rungs(nMin, nMax, eta int) ([]int, error) {
	if eta < 2 {
		return nil, fmt.Errorf("tune.eta %d is below 2: keep the top 1/eta at each rung with eta >= 2 (3 is usual)", eta)
	}
	if nMin < 1 {
		return nil, fmt.Errorf("tune.min_n %d is below 1: give the training size of the first rung, e.g. 100", nMin)
	}
	if nMin > nMax/eta {
		// nMin·eta > nMax, computed without overflowing nMin·eta.
		if lower := nMax / eta; lower >= 1 {
			return nil, fmt.Errorf("tune.max_n %d is smaller than one rung above tune.min_n %d (%d·eta = %d): raise max_n to at least %d or lower min_n to at most %d", nMax, nMin, nMin, nMin*eta, nMin*eta, lower)
		}
		// eta above max_n: no min_n gives a second rung, only a smaller eta does.
		if most := nMax / nMin; most >= 2 {
			return nil, fmt.Errorf("tune.eta %d is larger than tune.max_n %d, so no second rung follows tune.min_n %d: lower eta to at most %d (3 is usual)", eta, nMax, nMin, most)
		}
		return nil, fmt.Errorf("tune.eta %d is larger than tune.max_n %d, so no second rung follows tune.min_n %d: lower eta to 3 and raise max_n to at least %d", eta, nMax, nMin, 3*nMin)
	}
	var r []int
	for n := nMin; n <= nMax; n *= eta {
		r = append(r, n)
		if n > math.MaxInt/eta {
			break
		}
	}
	return r, nil
}

// Job asks for trial Trial to be scored at rung Rung (training size N). A job whose
// Rung is 0 starts a new trial, whose configuration the caller draws from a Sampler.
type Job struct {
	Trial, Rung, N int
}

// Scheduler decides which trial runs next at which rung. Next returns a job to run, or
// false when none can start until a running job reports (or the search is over: see
// Finished). Report records a job's score. Decisions depend only on the reports and
// their order.
type Scheduler interface {
	Next() (Job, bool)
	Report(j Job, value float64)
	Finished() bool
	// Results returns, for each rung, the scores reported there by trial.
	Results() []map[int]float64
}

// ranked returns the trials of a rung, best first (ties: lower trial first).
func ranked(r map[int]float64) []int {
	ids := make([]int, 0, len(r))
	for id := range r {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b int) int {
		switch va, vb := r[a], r[b]; {
		case va > vb:
			return -1
		case va < vb:
			return 1
		}
		return a - b
	})
	return ids
}

// ASHA is asynchronous successive halving (Li et al., "A System for Massively Parallel
// Hyperparameter Tuning", 2018, Algorithm 2). Whenever a worker is free it looks for a
// promotion from the highest rung down: a trial of rung k is promoted to k+1 when it is
// among the top floor(|rung k|/Eta) of the results reported at rung k so far and was
// not promoted before. If none is promotable, a new trial starts at rung 0, up to
// MaxTrials trials. No rung is ever waited for.
type ASHA struct {
	Sizes     []int // the rungs' training sizes (see Rungs)
	Eta       int
	MaxTrials int

	results  []map[int]float64
	promoted []map[int]bool
	trials   int
	running  int
}

// NewASHA returns an ASHA scheduler over the given rungs.
func NewASHA(sizes []int, eta, maxTrials int) *ASHA {
	a := &ASHA{Sizes: sizes, Eta: eta, MaxTrials: maxTrials}
	for range sizes {
		a.results = append(a.results, map[int]float64{})
		a.promoted = append(a.promoted, map[int]bool{})
	}
	return a
}

// Next implements Scheduler.
func (a *ASHA) Next() (Job, bool) {
	if k, id, ok := a.promotable(); ok {
		a.promoted[k][id] = true
		a.running++
		return Job{Trial: id, Rung: k + 1, N: a.Sizes[k+1]}, true
	}
	if a.trials < a.MaxTrials {
		id := a.trials
		a.trials++
		a.running++
		return Job{Trial: id, Rung: 0, N: a.Sizes[0]}, true
	}
	return Job{}, false
}

// Report implements Scheduler.
func (a *ASHA) Report(j Job, v float64) {
	a.results[j.Rung][j.Trial] = v
	a.running--
}

// Finished reports whether every trial has started and nothing runs or can be promoted.
func (a *ASHA) Finished() bool {
	if a.running > 0 || a.trials < a.MaxTrials {
		return false
	}
	_, _, ok := a.promotable()
	return !ok
}

// promotable returns the first trial, from the highest rung down and best first, that
// is among the top floor(|rung k|/Eta) of rung k and not yet promoted.
func (a *ASHA) promotable() (k, id int, ok bool) {
	for k := len(a.Sizes) - 2; k >= 0; k-- {
		top := ranked(a.results[k])
		for _, id := range top[:len(top)/a.Eta] {
			if !a.promoted[k][id] {
				return k, id, true
			}
		}
	}
	return 0, 0, false
}

// Results implements Scheduler.
func (a *ASHA) Results() []map[int]float64 { return a.results }

// Halving is synchronous successive halving (Jamieson and Talwalkar 2016; the form of
// scikit-learn's HalvingRandomSearchCV): Trials configurations run at the first rung;
// when a rung is complete, the best max(1, floor(n/Eta)) of its n go on to the next.
// Brackets run one after another for Hyperband (see NewHyperband); a plain
// Halving has one bracket starting at rung 0.
type Halving struct {
	Sizes []int
	Eta   int

	brackets []bracket
	results  []map[int]float64
	cur      int // current bracket
	trials   int
	running  int
}

type bracket struct {
	n, start int   // configurations, first rung
	rung     int   // current rung
	ids      []int // trials of the current rung, once past the first
	queue    []int // of ids, not yet started
	// The first rung's trials are base..base+n-1, started in order (started of them so
	// far): never listed, so a bracket of 1e9 configurations costs nothing until its
	// trials are scored.
	begun, first bool
	base         int
	started      int
}

// NewHalving returns synchronous successive halving of n configurations over sizes.
func NewHalving(sizes []int, eta, n int) *Halving {
	return newHalving(sizes, eta, []bracket{{n: n}})
}

// NewHyperband returns Hyperband (Li et al. 2017) over the rungs: with s_max =
// len(sizes)-1, brackets s = s_max, ..., 0, each a successive halving of
// ceil((s_max+1)/(s+1)·eta^s) configurations starting at rung s_max-s, run one after
// another.
func NewHyperband(sizes []int, eta int) *Halving {
	sm := len(sizes) - 1
	var bs []bracket
	for s := sm; s >= 0; s-- {
		n := int(math.Ceil(float64(sm+1) / float64(s+1) * math.Pow(float64(eta), float64(s))))
		bs = append(bs, bracket{n: n, start: sm - s})
	}
	return newHalving(sizes, eta, bs)
}

func newHalving(sizes []int, eta int, bs []bracket) *Halving {
	h := &Halving{Sizes: sizes, Eta: eta, brackets: bs}
	for range sizes {
		h.results = append(h.results, map[int]float64{})
	}
	return h
}

// Trials returns the number of configurations over all brackets.
func (h *Halving) Trials() int {
	n := 0
	for _, b := range h.brackets {
		n += b.n
	}
	return n
}

// Next implements Scheduler.
func (h *Halving) Next() (Job, bool) {
	for h.cur < len(h.brackets) {
		b := &h.brackets[h.cur]
		if !b.begun { // the bracket starts: new trials at its first rung
			b.begun, b.first = true, true
			b.rung, b.base = b.start, h.trials
			h.trials += b.n
		}
		if b.first {
			if b.started < b.n {
				id := b.base + b.started
				b.started++
				h.running++
				return Job{Trial: id, Rung: b.rung, N: h.Sizes[b.rung]}, true
			}
			if h.running > 0 {
				return Job{}, false
			}
			if b.rung == len(h.Sizes)-1 {
				h.cur++
				continue
			}
			in := make(map[int]float64, b.n)
			for id := b.base; id < b.base+b.n; id++ {
				in[id] = h.results[b.rung][id]
			}
			b.ids = ranked(in)[:max(1, b.n/h.Eta)]
			b.rung++
			b.queue = slices.Clone(b.ids)
			b.first = false
			continue
		}
		if len(b.queue) > 0 {
			id := b.queue[0]
			b.queue = b.queue[1:]
			h.running++
			return Job{Trial: id, Rung: b.rung, N: h.Sizes[b.rung]}, true
		}
		if h.running > 0 {
			return Job{}, false // the rung is not complete yet
		}
		if b.rung == len(h.Sizes)-1 {
			h.cur++
			continue
		}
		// The rung is complete: keep the best of its trials.
		in := map[int]float64{}
		for _, id := range b.ids {
			in[id] = h.results[b.rung][id]
		}
		keep := max(1, len(b.ids)/h.Eta)
		b.ids = ranked(in)[:keep]
		b.rung++
		b.queue = slices.Clone(b.ids)
	}
	return Job{}, false
}

// Report implements Scheduler.
func (h *Halving) Report(j Job, v float64) {
	h.results[j.Rung][j.Trial] = v
	h.running--
}

// Finished reports whether every bracket is done (Next has returned false with nothing
// running after the last rung of the last bracket).
func (h *Halving) Finished() bool { return h.running == 0 && h.cur >= len(h.brackets) }

// Results implements Scheduler.
func (h *Halving) Results() []map[int]float64 { return h.results }

// Ranked returns the trials of one rung's results by value, the best first (ties: the
// lower trial).
func Ranked(results map[int]float64) []int { return ranked(results) }

// Best returns the trial with the highest score at the highest rung that has a score
// (ties: the lower trial), its rung and score; ok is false when nothing was reported.
func Best(results []map[int]float64) (trial, rung int, value float64, ok bool) {
	for k := len(results) - 1; k >= 0; k-- {
		if len(results[k]) > 0 {
			id := ranked(results[k])[0]
			return id, k, results[k][id], true
		}
	}
	return 0, 0, 0, false
}

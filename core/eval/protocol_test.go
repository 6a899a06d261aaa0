package eval

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
)

// twoClass returns a data set of n samples, label i%2, one feature equal to the label.
func twoClass(n int) *data.Dataset {
	x := mat.NewDense(n, 1, nil)
	y := make([]int, n)
	for i := range y {
		y[i] = i % 2
		x.Set(i, 0, float64(y[i]))
	}
	return &data.Dataset{Name: "two", X: x, Y: y, Classes: []string{"a", "b"}, Shape: []int{1}}
}

// oracle predicts the true class of test sample j when it was trained on at least need
// samples, and class 0 otherwise; it sleeps delay per fit and records the draws it saw.
type oracle struct {
	name  string
	need  int
	delay time.Duration
	test  *data.Dataset
	seen  chan []int
}

func (o *oracle) Name() string { return o.name }
func (o *oracle) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	o.test = test
	return o, nil
}
func (o *oracle) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	if o.seen != nil {
		o.seen <- append([]int(nil), idx...)
	}
	select {
	case <-time.After(o.delay):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	pred := make([]int, o.test.Len())
	if len(idx) >= o.need {
		copy(pred, o.test.Y)
	}
	return pred, nil
}

func collect(ev chan Event) (pts []Point, done chan struct{}) {
	done = make(chan struct{})
	go func() {
		for e := range ev {
			if p, ok := e.(Point); ok {
				pts = append(pts, p)
			}
		}
		close(done)
	}()
	return pts, done
}

func TestProtocolCurve(t *testing.T) {
	pool, test := twoClass(100), twoClass(40)
	good := &oracle{name: "good", need: 0}
	late := &oracle{name: "late", need: 20}
	var arms []Arm
	for _, n := range []int{10, 20, 50} {
		arms = append(arms, Arm{Series: "good", X: float64(n), Size: n, Method: good}, Arm{Series: "late", X: float64(n), Size: n, Method: late})
	}
	p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Arms: arms}}, Repeats: 3, Sampling: data.Stratified, Seed: 1, XLabel: "training set size"}
	ev := make(chan Event, 1000)
	out, err := p.Run(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	close(ev)
	points := 0
	for e := range ev {
		if _, ok := e.(Point); ok {
			points++
		}
	}
	if points != 2*3*3 {
		t.Errorf("sent %d points, want one per cell = 18", points)
	}
	if len(out.Series) != 2 {
		t.Fatalf("got %d series, want 2", len(out.Series))
	}
	for _, s := range out.Series {
		if len(s.Points) != 3 {
			t.Fatalf("%s has %d points, want 3", s.Name, len(s.Points))
		}
		for _, pt := range s.Points {
			want := 1.0
			if s.Name == "late" && pt.X < 20 {
				want = 0.5 // class 0 always: half of the balanced test set
			}
			if pt.Runs != 3 || math.Abs(pt.Mean-want) > 1e-12 || pt.Std != 0 {
				t.Errorf("%s at %v: mean %v std %v runs %d, want %v 0 3", s.Name, pt.X, pt.Mean, pt.Std, pt.Runs, want)
			}
		}
	}
}

// TestProtocolCommonDraws checks that every method sees the same training set for a
// given (repeat, size), and different repeats see different sets.
func TestProtocolCommonDraws(t *testing.T) {
	pool, test := twoClass(200), twoClass(10)
	a := &oracle{name: "a", seen: make(chan []int, 100)}
	b := &oracle{name: "b", seen: make(chan []int, 100)}
	p := &Protocol{Pool: pool, Test: test, Repeats: 4, Sampling: data.Stratified, Seed: 7, Workers: 1,
		Stages: []Stage{{Arms: []Arm{{Series: "a", X: 30, Size: 30, Method: a}, {Series: "b", X: 30, Size: 30, Method: b}}}}}
	if _, err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	close(a.seen)
	close(b.seen)
	var da, db [][]int
	for s := range a.seen {
		da = append(da, s)
	}
	for s := range b.seen {
		db = append(db, s)
	}
	if len(da) != 4 || len(db) != 4 {
		t.Fatalf("saw %d and %d draws, want 4 each", len(da), len(db))
	}
	for r := range da {
		if !equalInts(da[r], db[r]) {
			t.Errorf("repeat %d: methods saw different training sets", r)
		}
	}
	if equalInts(da[0], da[1]) {
		t.Error("repeats 0 and 1 drew the same training set")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestProtocolCancelKeepsFinishedCells cancels a run of slow cells and checks that Run
// returns within half a second with the cells finished before the cancel.
func TestProtocolCancelKeepsFinishedCells(t *testing.T) {
	pool, test := twoClass(100), twoClass(10)
	slow := &oracle{name: "slow", delay: 50 * time.Millisecond}
	stuck := &oracle{name: "stuck", delay: time.Hour} // ignores nothing: it waits on ctx
	var arms []Arm
	for n := 2; n <= 40; n += 2 {
		arms = append(arms, Arm{Series: "slow", X: float64(n), Size: n, Method: slow})
	}
	arms = append(arms, Arm{Series: "stuck", X: 2, Size: 2, Method: stuck})
	p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Arms: arms}}, Repeats: 5, Sampling: data.Stratified, Seed: 1}
	ctx, cancel := context.WithCancel(context.Background())
	ev := make(chan Event, 10000)
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	t0 := time.Now()
	out, err := p.Run(ctx, ev)
	since := time.Since(t0) - 300*time.Millisecond
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if since > 500*time.Millisecond {
		t.Errorf("Run returned %v after the cancel, want < 500ms", since)
	}
	if len(out.Series) == 0 || len(out.Series[0].Points) == 0 {
		t.Fatal("no finished cell kept after cancel")
	}
}

func TestScores(t *testing.T) {
	y := []int{0, 0, 0, 1}
	pred := []int{0, 0, 0, 0}
	acc, bacc := Scores(y, pred, 2)
	// 3 of 4 right; recalls 1 and 0, mean 0.5.
	if acc != 0.75 || bacc != 0.5 {
		t.Errorf("Scores = %v, %v; want 0.75, 0.5", acc, bacc)
	}
}

func TestMeanStd(t *testing.T) {
	m, s := MeanStd([]float64{1, 2, 3, 4})
	// mean 2.5; sample variance (2.25+0.25+0.25+2.25)/3 = 5/3.
	if m != 2.5 || math.Abs(s-math.Sqrt(5.0/3)) > 1e-15 {
		t.Errorf("MeanStd = %v, %v", m, s)
	}
}

// TestProtocolWholePoolOnce checks that an arm drawing the whole pool runs once.
func TestProtocolWholePoolOnce(t *testing.T) {
	pool, test := twoClass(20), twoClass(4)
	o := &oracle{name: "o", seen: make(chan []int, 100)}
	p := &Protocol{Pool: pool, Test: test, Repeats: 5, Sampling: data.Stratified, Seed: 1,
		Stages: []Stage{{Arms: []Arm{{Series: "o", X: 20, Size: 20, Method: o}}}}}
	out, err := p.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Series[0].Points[0].Runs; got != 1 {
		t.Errorf("whole-pool arm ran %d times, want 1", got)
	}
}

// deaf is a method whose Prepare ignores its context, like an uninterruptible LAPACK call.
type deaf struct{ oracle }

func (d *deaf) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	time.Sleep(3 * time.Second)
	return d.oracle.Prepare(ctx, pool, test, clk)
}

// TestProtocolCancelDuringPrepare checks that a run stops within half a second of the
// cancel even while a method's preparation cannot be interrupted.
func TestProtocolCancelDuringPrepare(t *testing.T) {
	pool, test := twoClass(50), twoClass(10)
	d := &deaf{oracle{name: "deaf"}}
	p := &Protocol{Pool: pool, Test: test, Repeats: 1, Sampling: data.Stratified, Seed: 1,
		Stages: []Stage{{Arms: []Arm{{Series: "deaf", X: 10, Size: 10, Method: d}}}}}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	t0 := time.Now()
	_, err := p.Run(ctx, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(t0) - 100*time.Millisecond; d > 500*time.Millisecond {
		t.Errorf("Run returned %v after the cancel, want < 500ms", d)
	}
}

// quitter is a fitter that reports a cancellation for draws of size 10.
type quitter struct{ oracle }

func (q *quitter) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	q.test = test
	return q, nil
}
func (q *quitter) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	if len(idx) == 10 {
		return nil, context.Canceled
	}
	return q.oracle.FitPredict(ctx, idx, rng, clk)
}

// TestProtocolDroppedCellIsPartial checks that a run in which a cell was stopped by a
// cancellation reports context.Canceled (a partial result), even if it was the last cell.
func TestProtocolDroppedCellIsPartial(t *testing.T) {
	pool, test := twoClass(50), twoClass(10)
	q := &quitter{oracle{name: "q"}}
	p := &Protocol{Pool: pool, Test: test, Repeats: 2, Sampling: data.Stratified, Seed: 1,
		Stages: []Stage{{Arms: []Arm{{Series: "q", X: 20, Size: 20, Method: q}, {Series: "q", X: 10, Size: 10, Method: q}}}}}
	out, err := p.Run(context.Background(), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(out.Series) != 1 || len(out.Series[0].Points) != 1 || out.Series[0].Points[0].Runs != 2 {
		t.Errorf("outcome %+v, want the two finished cells at x = 20", out.Series)
	}
}

// TestNestedDraws checks that with Nest the smaller draws of a repeat are subsets of its
// largest draw, which is the same as without nesting, and that the draws stay stratified.
func TestNestedDraws(t *testing.T) {
	y := make([]int, 3000)
	for i := range y {
		y[i] = i % 10
	}
	pool := &data.Dataset{Name: "labels", X: mat.NewDense(len(y), 1, nil), Y: y, Classes: []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}}
	flat := &Protocol{Pool: pool, Repeats: 3, Sampling: data.Stratified, Seed: 9}
	nest := &Protocol{Pool: pool, Repeats: 3, Sampling: data.Stratified, Seed: 9, Nest: 500}
	for rep := range 3 {
		big, err := nest.Draw(rep, 500)
		if err != nil {
			t.Fatal(err)
		}
		same, _ := flat.Draw(rep, 500)
		if !slices.Equal(big, same) {
			t.Fatalf("rep %d: the size-Nest draw changed with nesting", rep)
		}
		in := map[int]bool{}
		for _, i := range big {
			in[i] = true
		}
		for _, n := range []int{100, 200} {
			d, err := nest.Draw(rep, n)
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]int, 10)
			for _, i := range d {
				if !in[i] {
					t.Fatalf("rep %d size %d: index %d is not in the size-500 draw", rep, n, i)
				}
				counts[y[i]]++
			}
			for c, k := range counts {
				if k != n/10 {
					t.Errorf("rep %d size %d: class %d has %d samples, want %d (stratified)", rep, n, c, k, n/10)
				}
			}
			if f, _ := flat.Draw(rep, n); slices.Equal(f, d) {
				t.Errorf("rep %d size %d: nested draw equals the flat one", rep, n)
			}
		}
	}
}

// chooser is an oracle whose fit records a chosen lambda that depends on the draw's size.
type chooser struct{ oracle }

func (c *chooser) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	c.test = test
	return c, nil
}
func (c *chooser) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	RecordChosen(ctx, "lambda", 1/float64(len(idx)))
	return c.oracle.FitPredict(ctx, idx, rng, clk)
}

// TestProtocolChosen checks that what a fit records with RecordChosen reaches its own
// cell (cells run concurrently, each with its own value), a fit that records nothing
// leaves Chosen nil, and RecordChosen outside a cell is a no-op.
func TestProtocolChosen(t *testing.T) {
	RecordChosen(context.Background(), "lambda", 1) // no cell: must not panic
	pool, test := twoClass(100), twoClass(10)
	ch := &chooser{oracle{name: "c", delay: time.Millisecond}}
	plain := &oracle{name: "p"}
	var arms []Arm
	for _, n := range []int{10, 20, 50} {
		arms = append(arms, Arm{Series: "c", X: float64(n), Size: n, Method: ch}, Arm{Series: "p", X: float64(n), Size: n, Method: plain})
	}
	var cells []Cell
	p := &Protocol{Pool: pool, Test: test, Stages: []Stage{{Arms: arms}}, Repeats: 2, Sampling: data.Stratified, Seed: 1,
		OnCell: func(c Cell) error { cells = append(cells, c); return nil }}
	if _, err := p.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if len(cells) != 12 {
		t.Fatalf("%d cells, want 12", len(cells))
	}
	for _, c := range cells {
		switch c.Series {
		case "c":
			if got, want := c.Chosen["lambda"], 1/float64(c.Size); len(c.Chosen) != 1 || got != want {
				t.Errorf("cell %v: chosen %v, want lambda %v", c.CellKey, c.Chosen, want)
			}
		default:
			if c.Chosen != nil {
				t.Errorf("cell %v of a fit that records nothing: chosen %v, want nil", c.CellKey, c.Chosen)
			}
		}
	}
}

// TestOneClass checks the "every test prediction is class c" detector: a constant
// prediction over labels of two classes is one, a varied one or labels of one class are not.
func TestOneClass(t *testing.T) {
	for _, c := range []struct {
		y, pred []int
		one     int
		ok      bool
	}{
		{[]int{0, 1, 1}, []int{1, 1, 1}, 1, true},
		{[]int{0, 1, 1}, []int{0, 1, 1}, 0, false},
		{[]int{1, 1, 1}, []int{1, 1, 1}, 0, false}, // one class to find: nothing degenerate
		{nil, nil, 0, false},
	} {
		if one, ok := oneClass(c.y, c.pred, 2); one != c.one || ok != c.ok {
			t.Errorf("oneClass(%v, %v) = %d, %v; want %d, %v", c.y, c.pred, one, ok, c.one, c.ok)
		}
	}
}

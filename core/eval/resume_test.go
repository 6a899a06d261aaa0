package eval

import (
	"context"
	"math/rand/v2"
	"reflect"
	"sync/atomic"
	"testing"

	"gitui/core/data"
)

// noisy predicts each test label correctly with a probability that grows with the
// training size, drawn from the cell's rng: its accuracies differ from cell to cell, so
// an outcome assembled from the wrong cells, or summed in another order, would differ.
type noisy struct {
	name     string
	test     *data.Dataset
	prepared *atomic.Int32
}

func (o *noisy) Name() string { return o.name }
func (o *noisy) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	o.test = test
	if o.prepared != nil {
		o.prepared.Add(1)
	}
	return o, nil
}
func (o *noisy) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	pred := make([]int, o.test.Len())
	p := float64(len(idx)) / float64(len(idx)+8)
	for j, y := range o.test.Y {
		pred[j] = y
		if rng.Float64() > p {
			pred[j] = 1 - y
		}
	}
	return pred, nil
}

func resumeProtocol(prepared *atomic.Int32) *Protocol {
	a := &noisy{name: "a", prepared: prepared}
	b := &noisy{name: "b", prepared: prepared}
	st1 := Stage{Name: "s1"}
	for _, n := range []int{4, 8, 16} {
		st1.Arms = append(st1.Arms, Arm{Series: "a", X: float64(n), Size: n, Method: a, Keep: n == 16})
		st1.Arms = append(st1.Arms, Arm{Series: "b", X: float64(n), Size: n, Method: b})
	}
	st2 := Stage{Name: "s2", Arms: []Arm{{Series: "a@2", X: 2, Size: 8, Method: a}}}
	return &Protocol{Pool: twoClass(200), Test: twoClass(300), Stages: []Stage{st1, st2}, Repeats: 5, Seed: 7, XLabel: "n"}
}

// TestResumeEqualsUninterrupted: a run given any subset of an earlier run's cells as
// Done computes only the others, and its outcome (series and tables) equals the full
// run's exactly; a stage whose cells are all done is not prepared.
func TestResumeEqualsUninterrupted(t *testing.T) {
	full := resumeProtocol(nil)
	var cells []Cell
	full.OnCell = func(c Cell) error { cells = append(cells, c); return nil }
	want, err := full.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 7*5 {
		t.Fatalf("OnCell saw %d cells, want 35", len(cells))
	}
	for _, c := range cells {
		if (c.Series == "a" && c.X == 16) != (c.Pred != nil) {
			t.Fatalf("cell %+v: predictions kept = %v, want only for the Keep arm", c.CellKey, c.Pred != nil)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 10 {
		var prepared atomic.Int32
		p := resumeProtocol(&prepared)
		p.Done = map[CellKey]Cell{}
		for _, c := range cells {
			// trial 9 keeps all of stage s2 and none of s1
			if trial == 9 && c.Stage == "s2" || trial < 9 && rng.IntN(2) == 0 {
				p.Done[c.Key()] = c
			}
		}
		ran := 0
		p.OnCell = func(c Cell) error {
			if _, ok := p.Done[c.Key()]; ok {
				t.Errorf("cell %+v was done and ran again", c.CellKey)
			}
			ran++
			return nil
		}
		got, err := p.Run(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if ran+len(p.Done) != len(cells) {
			t.Errorf("trial %d: ran %d + done %d cells, want %d", trial, ran, len(p.Done), len(cells))
		}
		if !reflect.DeepEqual(got.Series, want.Series) || !reflect.DeepEqual(got.Tables, want.Tables) {
			t.Fatalf("trial %d: resumed outcome differs from the uninterrupted one:\n%+v\n%+v", trial, got.Series, want.Series)
		}
		if trial == 9 && prepared.Load() != 2 {
			t.Errorf("stage s2 was done but %d methods were prepared, want 2 (stage s1 only)", prepared.Load())
		}
	}
}

// TestTransformedTestScoresBothHalves: with TransformedTest the first half of the test
// set scores series S and the second half S + TransformedSuffix.
func TestTransformedTestScoresBothHalves(t *testing.T) {
	test := twoClass(40) // rows 20..39 play the transformed copies of rows 0..19
	m := &halfWrong{}
	p := &Protocol{Pool: twoClass(50), Test: test, Repeats: 1, Seed: 1, XLabel: "n", TransformedTest: true,
		Stages: []Stage{{Name: "s", Arms: []Arm{{Series: "m", X: 10, Size: 10, Method: m}}}}}
	out, err := p.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Series) != 2 || out.Series[1].Name != "m"+TransformedSuffix {
		t.Fatalf("series %+v, want m and m%s", out.Series, TransformedSuffix)
	}
	if a, b := out.Series[0].Points[0].Mean, out.Series[1].Points[0].Mean; a != 1 || b != 0 {
		t.Errorf("plain accuracy %g, transformed %g: want 1 and 0", a, b)
	}
}

// halfWrong predicts the first half of the test rows right and the second half wrong.
type halfWrong struct{ test *data.Dataset }

func (h *halfWrong) Name() string { return "m" }
func (h *halfWrong) Prepare(ctx context.Context, pool, test *data.Dataset, clk *Clock) (Fitter, error) {
	h.test = test
	return h, nil
}
func (h *halfWrong) FitPredict(ctx context.Context, idx []int, rng *rand.Rand, clk *Clock) ([]int, error) {
	n := h.test.Len()
	pred := make([]int, n)
	for j, y := range h.test.Y {
		pred[j] = y
		if j >= n/2 {
			pred[j] = 1 - y
		}
	}
	return pred, nil
}

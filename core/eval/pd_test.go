package eval

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/kernel"
)

func pdGram(k kernel.Base) func(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) {
	return func(ctx context.Context, X *mat.Dense) (*mat.SymDense, error) { return kernel.SymGram(ctx, k, X) }
}

// TestPDReferenceValues runs the Table I protocol on 30 Gaussian points in 8 dimensions,
// where the answer is known exactly: the linear Gram matrix of n points has rank
// min(n, 8), so it is PD up to n = 8 in every draw and singular from 9 on; the Gaussian
// kernel is strictly PD for distinct points (well conditioned here: gamma = 0.5 at
// squared distances near 16), so PD at every size. It checks the table row by row,
// the series (fraction of draws PD: 1, 1, 0, 0 and all 1), the events (a Progress, 4
// Points and a Log per kernel), that a second run is equal, and that an unsorted
// Sizes gives the same outcome.
func TestPDReferenceValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	X := mat.NewDense(30, 8, nil)
	for i := range 30 {
		for j := range 8 {
			X.Set(i, j, rng.NormFloat64())
		}
	}
	p := &PD{X: X, Sizes: []int{20, 4, 9, 8}, Draws: 5, Seed: 3, Kernels: []PDKernel{
		{Name: "lin", Desc: "linear", Gram: pdGram(kernel.Linear{})},
		{Name: "rbf", Desc: "rbf(gamma=0.5)", Gram: pdGram(kernel.RBF{Gamma: 0.5})},
	}}
	ev := make(chan Event, 100)
	out, err := p.Run(context.Background(), ev)
	if err != nil {
		t.Fatal(err)
	}
	close(ev)
	if len(out.Tables) != 1 || out.Tables[0].Name != PDTableName {
		t.Fatalf("tables %+v", out.Tables)
	}
	want := [][]any{{"lin", "linear", 8, 8, 8, 8, 5}, {"rbf", "rbf(gamma=0.5)", 20, 20, 20, 20, 5}}
	if !reflect.DeepEqual(out.Tables[0].Rows, want) {
		t.Errorf("rows %v, want %v", out.Tables[0].Rows, want)
	}
	fr := map[string][]float64{"lin": {1, 1, 0, 0}, "rbf": {1, 1, 1, 1}}
	for _, s := range out.Series {
		var got, xs []float64
		for _, q := range s.Points {
			got, xs = append(got, q.Mean), append(xs, q.X)
		}
		if !reflect.DeepEqual(got, fr[s.Name]) || !reflect.DeepEqual(xs, []float64{4, 8, 9, 20}) || s.XLabel != "n" {
			t.Errorf("series %s: x %v fractions %v, want x 4 8 9 20 and %v", s.Name, xs, got, fr[s.Name])
		}
	}
	count := map[string]int{}
	for e := range ev {
		switch e := e.(type) {
		case Progress:
			count["progress"]++
			if !strings.HasPrefix(e.Stage, "pd ") {
				t.Errorf("progress stage %q", e.Stage)
			}
		case Point:
			count["point"]++
		case Log:
			count["log"]++
		}
	}
	if count["progress"] != 2 || count["point"] != 8 || count["log"] != 2 {
		t.Errorf("events %v, want 2 progress, 8 points, 2 logs", count)
	}
	if _, ok := out.Stages["gram"]; !ok {
		t.Error("no gram stage time")
	}
	p.Sizes = []int{4, 8, 9, 20}
	again, err := p.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.Tables, out.Tables) || !reflect.DeepEqual(again.Series, out.Series) {
		t.Error("a second run with sorted sizes differs")
	}
}

// TestPDErrors checks PD's refusals (one line naming the fix) and that a kernel's
// error is prefixed by its name with the earlier kernels' series kept, while a
// cancellation is returned as ctx.Err().
func TestPDErrors(t *testing.T) {
	X := mat.NewDense(10, 3, nil)
	for i := range 10 {
		X.Set(i, i%3, float64(i+1))
	}
	lin := PDKernel{Name: "lin", Desc: "linear", Gram: pdGram(kernel.Linear{})}
	for _, c := range []struct {
		p    PD
		want string
	}{
		{PD{X: X, Sizes: []int{5}, Draws: 1}, "no kernel"},
		{PD{X: X, Kernels: []PDKernel{lin}, Draws: 1}, "pd needs sizes and draws"},
		{PD{X: X, Kernels: []PDKernel{lin}, Sizes: []int{5}}, "pd needs sizes and draws"},
		{PD{X: X, Kernels: []PDKernel{lin}, Sizes: []int{0, 5}, Draws: 1}, "below 1"},
		{PD{X: X, Kernels: []PDKernel{lin}, Sizes: []int{11}, Draws: 1}, "larger than the pool of 10 samples: use smaller sizes"},
	} {
		if _, err := c.p.Run(context.Background(), nil); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.p, err, c.want)
		}
	}
	boom := errors.New("boom")
	bad := PDKernel{Name: "bad", Gram: func(context.Context, *mat.Dense) (*mat.SymDense, error) { return nil, boom }}
	p := &PD{X: X, Kernels: []PDKernel{lin, bad}, Sizes: []int{2}, Draws: 1}
	out, err := p.Run(context.Background(), nil)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "bad: ") {
		t.Errorf("err %v, want boom prefixed by the kernel's name", err)
	}
	if out == nil || len(out.Series) != 1 || out.Series[0].Name != "lin" {
		t.Errorf("outcome %+v, want the first kernel's series", out)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (&PD{X: X, Kernels: []PDKernel{lin}, Sizes: []int{2}, Draws: 1}).Run(ctx, nil); err != context.Canceled {
		t.Errorf("cancelled: err %v, want context.Canceled", err)
	}
}

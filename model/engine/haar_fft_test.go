package engine

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// haarImageSpec is Haar RLS (Gaussian base, gamma 2.5 as xperm-curve) on the embedded
// digits with the group kind given, small enough for the direct orbit path.
func haarImageSpec(kind string, size int) *model.Spec {
	radius := 0
	if kind == model.GroupLocalShift {
		radius = 2
	}
	return &model.Spec{
		Name:     "haar-fft",
		Protocol: model.ProtocolCurve,
		Data:     model.DataSpec{Name: "embedded", Pool: 150, TestSize: 100},
		Group:    model.GroupSpec{Kind: kind, Size: size, Radius: radius},
		Methods:  []model.Method{{Kernel: "haar", Base: "rbf", Gamma: 2.5}},
		Sizes:    []int{40},
		Repeats:  2,
		Seed:     3,
	}
}

// haarMethod builds method 0 of spec as a run does and returns it with the run's data
// and protocol.
func haarMethod(t *testing.T, spec *model.Spec) (*kernelMethod, *builder) {
	t.Helper()
	spec = spec.Clone()
	pool, test, err := LoadData(spec.Data, "", spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	g, err := BuildGroup(spec.Group, pool.Shape, spec.Seed)
	if err != nil {
		t.Fatal(err)
	}
	p := &eval.Protocol{Pool: pool, Test: test, Repeats: spec.Repeats, Sampling: drawMode(spec.Sampling), Seed: spec.Seed}
	b := &builder{spec: spec, pool: pool, group: g, proto: p, sizes: spec.Sizes}
	em, err := b.method(spec.Methods[0], g)
	if err != nil {
		t.Fatal(err)
	}
	km, ok := em.(*kernelMethod)
	if !ok {
		t.Fatalf("Haar method built as %T, want *kernelMethod", em)
	}
	return km, b
}

// TestHaarFFTRouting: the Haar kernel over the full cyclic-shift group takes the FFT
// route (784 shifts of 28×28 images); a seeded sample of the shifts and the local
// (zero-fill) shifts keep the direct path.
func TestHaarFFTRouting(t *testing.T) {
	km, _ := haarMethod(t, haarImageSpec(model.GroupCyclicShift, 0))
	if km.fft == nil || km.fft.shifts != 784 || km.fft.h != 28 || km.fft.w != 28 {
		t.Fatalf("cyclic-shift: FFT route %+v, want 784 shifts of 28x28", km.fft)
	}
	if len(km.fft.draws) != 2 {
		t.Errorf("FFT route holds %d draws, want 2 (one size, 2 repeats)", len(km.fft.draws))
	}
	for _, c := range []struct {
		kind string
		size int
	}{{model.GroupCyclicShift, 100}, {model.GroupLocalShift, 0}} {
		km, _ := haarMethod(t, haarImageSpec(c.kind, c.size))
		if km.fft != nil {
			t.Errorf("group %s size %d (%s): took the FFT route", c.kind, c.size, km.group.Name())
		}
	}
}

// TestHaarFFTEqualsDirect: Haar RLS through the FFT route and through the direct orbit
// path (the same method with the route removed) give the same predictions on all 100
// test digits for both draws, and decision values equal to 1e-8 of their largest
// magnitude (the Gram matrices agree to rounding, about 1e-16 of their entries;
// leave-one-out picks the same lambda; the solve amplifies by the condition number).
func TestHaarFFTEqualsDirect(t *testing.T) {
	spec := haarImageSpec(model.GroupCyclicShift, 0)
	km, b := haarMethod(t, spec)
	direct := *km
	direct.fft = nil
	ctx := context.Background()
	clk := eval.NewClock()
	ff, err := km.Prepare(ctx, b.pool, b.proto.Test, clk)
	if err != nil {
		t.Fatal(err)
	}
	fd, err := direct.Prepare(ctx, b.pool, b.proto.Test, clk)
	if err != nil {
		t.Fatal(err)
	}
	if kf := ff.(*kernelFitter); kf.ktrU == nil || kf.table != nil {
		t.Fatal("the FFT route did not prepare the union's kernel")
	}
	if kd, ok := fd.(*kernelFitter); !ok || kd.table == nil {
		t.Fatalf("the direct path did not build its orbit table (%T)", fd)
	}
	sf, ok1 := ff.(eval.Scorer)
	sd, ok2 := fd.(eval.Scorer)
	if !ok1 || !ok2 {
		t.Fatal("kernel fitters do not score")
	}
	for r := range spec.Repeats {
		idx, err := b.proto.Draw(r, spec.Sizes[0])
		if err != nil {
			t.Fatal(err)
		}
		pf, vf, err := sf.FitScore(ctx, idx, rand.New(rand.NewPCG(1, 1)), clk)
		if err != nil {
			t.Fatal(err)
		}
		pd, vd, err := sd.FitScore(ctx, idx, rand.New(rand.NewPCG(1, 1)), clk)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(pf, pd) {
			t.Errorf("draw %d: FFT predictions %v, direct %v", r, pf, pd)
		}
		scale, diff := 0.0, 0.0
		for i := range vf {
			scale = max(scale, math.Abs(vd[i]))
			diff = max(diff, math.Abs(vf[i]-vd[i]))
		}
		if diff > 1e-8*scale {
			t.Errorf("draw %d: decision values differ by %g (largest %g)", r, diff, scale)
		}
	}
}

// TestHaarFFTRunLogsAndProgress: a run over the cyclic group says in its log which
// route the Haar kernel took, and reports the Gram's rows as progress events of stage
// "gram" that never go back and end at done = total (the union's rows and the test
// rows).
func TestHaarFFTRunLogsAndProgress(t *testing.T) {
	var logs []string
	var gram []eval.Progress
	for e := range Start(context.Background(), haarImageSpec(model.GroupCyclicShift, 0), RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Log:
			logs = append(logs, e.Line)
		case eval.Progress:
			if e.Stage == "gram" {
				gram = append(gram, e)
			}
		case eval.Done:
			if e.Err != nil {
				t.Fatal(e.Err)
			}
		}
	}
	if !slices.ContainsFunc(logs, func(l string) bool {
		return strings.Contains(l, "Haar RLS: Haar kernel over 784 cyclic shifts through the FFT")
	}) {
		t.Errorf("no FFT route line in the log:\n%s", strings.Join(logs, "\n"))
	}
	if len(gram) == 0 {
		t.Fatal("no gram progress events")
	}
	last := gram[len(gram)-1]
	if last.Done != last.Total || last.Total <= 100 {
		t.Errorf("last gram progress %d/%d, want done = total > 100 test rows", last.Done, last.Total)
	}
	for i := 1; i < len(gram); i++ {
		if gram[i].Done < gram[i-1].Done {
			t.Errorf("gram progress went back: %v", gram)
			break
		}
	}
}

// gramEvents runs s and returns its progress events of stage "gram".
func gramEvents(t *testing.T, s *model.Spec) []eval.Progress {
	t.Helper()
	var gram []eval.Progress
	for e := range Start(context.Background(), s, RunOptions{NoMatrices: true}) {
		switch e := e.(type) {
		case eval.Progress:
			if e.Stage == "gram" {
				gram = append(gram, e)
			}
		case eval.Done:
			if e.Err != nil {
				t.Fatal(e.Err)
			}
		}
	}
	return gram
}

// TestLiuTIGramProgress: Liu et al.'s TI kernel (the FFT path) reports its Gram's rows
// too: the union's rows and the test rows, ending at done = total.
func TestLiuTIGramProgress(t *testing.T) {
	gram := gramEvents(t, liuSpec(poly("TI", "")))
	if len(gram) == 0 {
		t.Fatal("no gram progress events")
	}
	last := gram[len(gram)-1]
	if last.Done != last.Total || last.Total <= 100 {
		t.Errorf("last gram progress %d/%d, want done = total > 100 test rows", last.Done, last.Total)
	}
}

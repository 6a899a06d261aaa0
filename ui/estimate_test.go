package ui

import (
	"context"
	"math"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/model/engine"
	"gitui/model/study"
	"gitui/ui/internal/uitest"
)

// haarPreset is a preset whose run takes minutes on the sizes a listing assumes for
// MNIST (10,000 + 10,000 digits): a Haar RLS over all 784 cyclic shifts beside raw RLS.
func haarPreset() model.Preset {
	return model.Preset{Name: "mnist-haar", Summary: "Haar RLS over cyclic shifts on MNIST", Build: func(quick bool) *model.Spec {
		s := &model.Spec{Name: "mnist-haar", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "mnist", TestSize: 2000},
			Group:   model.GroupSpec{Kind: model.GroupCyclicShift},
			Methods: []model.Method{{Kernel: "haar", Base: "rbf"}, {Features: "raw"}}, Sizes: []int{100, 500}, Repeats: 1, Seed: 1}
		if !quick {
			s.Sizes, s.Repeats = []int{100, 500, 1000, 2000}, 3
		}
		return s
	}}
}

// TestTimeEstimates: the Method pane shows each method's time estimate and
// the run's, on the data the preview loaded: each method's is engine.EstimateTime of
// that method alone less the load, and they add up, with the load, to the run's. More
// templates raise the CDF method's estimate and leave the other's alone. They are
// computed when the spec changes, never per frame or per cursor move. The preset picker
// lists each preset's estimate in its mode, and f (full) changes it.
func TestTimeEstimates(t *testing.T) {
	a := newTestApp(t, 120, 40)
	press(t, a, "3")
	s := a.spec.Clone()
	s.Defaults()
	ds := engine.LoadedDataSize(s, a.data.Pool(), a.data.Test())
	total := engine.EstimateTime(s, ds, testRates)
	sum := total.Load
	for i, m := range s.Methods {
		one := s.Clone()
		one.Methods = []model.Method{m}
		e := engine.EstimateTime(one, ds, testRates)
		want := e.Seconds - e.Load
		if got := a.est.perSeconds[i]; math.Abs(got-want) > 1e-12*want {
			t.Errorf("method %d: estimate %g s, want %g", i+1, got, want)
		}
		sum += a.est.perSeconds[i]
	}
	// The run's items are the methods' (the curve protocol has no other stage).
	if math.Abs(sum-total.Seconds) > 1e-9*total.Seconds || a.est.seconds != total.Seconds {
		t.Errorf("methods + load = %g s, the run's estimate %g (shown %g)", sum, total.Seconds, a.est.seconds)
	}
	v := ansi.Strip(a.View())
	if !strings.Contains(v, "time: 1 "+a.est.per[0]+" · 2 "+a.est.per[1]+" · run "+a.est.total+", uncalibrated") {
		t.Fatalf("no time line in the Method pane:\n%s", v)
	}

	// Computed on change only.
	n := a.estimated
	for range 20 {
		a.View()
	}
	press(t, a, "j", "k", "]", "[")
	if a.estimated != n {
		t.Fatalf("%d estimates computed by frames and cursor moves, want 0", a.estimated-n)
	}
	raw := a.est.perSeconds[1]
	cdf := a.est.perSeconds[0]
	a.method.Form().Select("methods.0.templates")
	press(t, a, "enter", "backspace", "5", "0", "0", "enter")
	if a.spec.Methods[0].Templates != 500 {
		t.Fatalf("templates %d, want 500", a.spec.Methods[0].Templates)
	}
	if a.estimated == n {
		t.Fatal("a changed field computed no estimate")
	}
	if a.est.perSeconds[0] <= cdf || a.est.perSeconds[1] != raw {
		t.Errorf("templates 5 → 500: CDF %g → %g s (want more), raw %g → %g s (want the same)", cdf, a.est.perSeconds[0], raw, a.est.perSeconds[1])
	}

	// The picker lists each preset's estimate in its mode.
	b := New(context.Background(), Options{Presets: append(testPresets(), haarPreset())}, uitest.Styles())
	b.tick = func(int) tea.Cmd { return nil }
	b.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(t, b, "p")
	hs := haarPreset().Build(true)
	hs.Defaults()
	hds, _ := engine.ListingDataSize(hs)
	quick := approx(engine.EstimateTime(hs, hds, testRates).Seconds)
	if got := b.picker.est[2]; got != quick || !strings.HasPrefix(quick, "~") {
		t.Fatalf("picker estimate of mnist-haar %q, want %q", got, quick)
	}
	if v := ansi.Strip(b.View()); !strings.Contains(v, "mnist-haar "+quick+" Haar RLS") {
		t.Fatalf("the picker does not show the estimate %q:\n%s", quick, v)
	}
	press(t, b, "f")
	hs = haarPreset().Build(false)
	hs.Defaults()
	full := approx(engine.EstimateTime(hs, hds, testRates).Seconds)
	if got := b.picker.est[2]; got != full || full == quick {
		t.Fatalf("full mode: picker estimate %q, want %q (quick %q)", got, full, quick)
	}
	cs := testPresets()[1].Build(false)
	cs.Defaults()
	cds, ok := engine.ListingDataSize(cs)
	if want := approx(engine.EstimateTime(cs, cds, testRates).Seconds); !ok || b.picker.est[1] != want {
		t.Errorf("circle-rbf (a generated set, its size listed: %v) shows %q, want %q", ok, b.picker.est[1], want)
	}
}

// TestPickerStudyEstimate: the picker lists the time estimate of a study preset (a tune
// block) too, the whole study's as `gitui presets -v` gives it (study.ListingEstimate
// on the sizes a listing knows), in quick and full mode.
func TestPickerStudyEstimate(t *testing.T) {
	tuned := model.Preset{Name: "circle-tune", Summary: "RBF RLS's gamma tuned on the circle", Build: func(quick bool) *model.Spec {
		s := &model.Spec{Name: "circle-tune", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "circle", Pool: 600, TestSize: 300},
			Methods: []model.Method{{Kernel: "rbf", Gamma: 1}}, Sizes: []int{400}, Repeats: 1, Seed: 2,
			Tune: &model.TuneSpec{Params: map[string]string{"methods.0.gamma": "log:0.01..10"}, Trials: 9, Validation: 120}}
		if !quick {
			s.Tune.Trials = 27
		}
		return s
	}}
	b := New(context.Background(), Options{Presets: append(testPresets(), tuned)}, uitest.Styles())
	b.tick = func(int) tea.Cmd { return nil }
	b.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(t, b, "p")
	for _, quick := range []bool{true, false} {
		if !quick {
			press(t, b, "f")
		}
		s := tuned.Build(quick)
		s.Defaults()
		ds, ok := engine.ListingDataSize(s)
		e, err := study.ListingEstimate(s, ds, testRates)
		if !ok || err != nil {
			t.Fatalf("quick %v: listing size %v, study estimate %v", quick, ok, err)
		}
		if got, want := b.picker.est[2], approx(e.Seconds); got == "" || got != want {
			t.Errorf("quick %v: the picker lists circle-tune at %q, want the study's %q", quick, got, want)
		}
	}
}

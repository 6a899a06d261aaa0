package grouppane

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"gonum.org/v1/gonum/mat"

	"gitui/core/audio"
	"gitui/core/data"

	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// run feeds msg to the pane and then the message of its command (the orbit build).
func run(t *testing.T, m Model, msg any) Model {
	t.Helper()
	m, cmd := m.Update(msg)
	for cmd != nil {
		m, cmd = m.Update(cmd())
	}
	return m
}

func TestRotationOrbitGolden(t *testing.T) {
	spec := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"}, Group: model.GroupSpec{Kind: "none"},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	pool, test, err := engine.LoadData(spec.Data, "", 1)
	if err != nil {
		t.Skipf("embedded digits unavailable: %v", err)
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			s := spec.Clone()
			m := New(uitest.Styles(), s)
			m.SetSize(sz[0], sz[1])
			m.Focus(true)
			m = run(t, m, datapane.LoadedMsg{Tag: 1, Spec: s.Data, Pool: pool, Test: test})
			// Choosing a rotation kind fills in the angles it needs (±20° in 9 steps).
			s.Group.Kind = "rotation"
			m = run(t, m, form.ChangedMsg{Key: "group.kind"})
			if a := s.Group.Angles; a == nil || a.From != -20 || a.To != 20 || a.Count != 9 {
				t.Fatalf("angles not defaulted: %+v", a)
			}
			if m.Err() != nil {
				t.Fatalf("orbit: %v", m.Err())
			}
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			if !strings.Contains(ansi.Strip(v), "|G| = 9") {
				t.Fatalf("no group size:\n%s", ansi.Strip(v))
			}
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

func TestInvalidGroupIsNotBuilt(t *testing.T) {
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"}, Group: model.GroupSpec{Kind: "rotation"},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	pool, test, err := engine.LoadData(model.DataSpec{Name: "xperm", TestSize: 100}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	m := New(uitest.Styles(), s)
	m.SetSize(80, 24)
	m = run(t, m, datapane.LoadedMsg{Tag: 1, Pool: pool, Test: test})
	if m.Err() == nil || !strings.Contains(m.Err().Error(), "group.angles") {
		t.Fatalf("want the group.angles problem, got %v", m.Err())
	}
}

// TestSpectrogramOrbitGolden: the pitch-tempo group's preview draws a spectrogram (a
// harmonic tone made here, 0.3 s at 220 Hz) and its transforms, labelled in cents and
// playback rate: the identity, ±400 cents, x0.5 and x2, and two corners.
func TestSpectrogramOrbitGolden(t *testing.T) {
	p := audio.DefaultSpec()
	x := make([]float64, p.Rate*3/10)
	for i := range x {
		for h, a := range []float64{1, 0.6, 0.4, 0.25} {
			x[i] += a * math.Sin(2*math.Pi*220*float64(h+1)*float64(i)/float64(p.Rate))
		}
	}
	sp := audio.Spectrogram(&audio.Sound{Rate: p.Rate, Samples: x}, p)
	pool := &data.Dataset{Name: "tone", X: mat.NewDense(1, len(sp), sp), Y: []int{0}, Classes: []string{"0"}, Shape: []int{p.Bands, p.Frames}}
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "fsdd"}, Group: model.GroupSpec{Kind: "pitch-tempo"},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	m := New(uitest.Styles(), s)
	m.SetSize(120, 40)
	m = run(t, m, datapane.LoadedMsg{Tag: 1, Spec: s.Data, Pool: pool, Test: pool})
	if m.Err() != nil {
		t.Fatal(m.Err())
	}
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, m.View(), 120, 40)
	for _, want := range []string{"|G| = 25", "0c x1", "-400c x1", "+400c x1", "0c x0.5", "0c x2"} {
		if !strings.Contains(v, want) {
			t.Errorf("preview lacks %q:\n%s", want, v)
		}
	}
	golden.RequireEqual(t, []byte(v))
}

// TestShearFieldsShown: a rotation+shift group with shears and scales shows their
// fields, and the preview's |G| counts them: 9 shifts (radius 1) x 3 angles x 5 shears
// x 2 scales = 270. Without them, no shear or scale field is listed.
func TestShearFieldsShown(t *testing.T) {
	spec := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "embedded"},
		Group: model.GroupSpec{Kind: "rotation+shift", Radius: 1, Angles: &model.AngleSpec{From: -10, To: 10, Count: 3},
			Shears: &model.AngleSpec{From: -0.3, To: 0.3, Count: 5}, Scales: &model.AngleSpec{From: 0.9, To: 1.1, Count: 2}},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	pool, test, err := engine.LoadData(spec.Data, "", 1)
	if err != nil {
		t.Skipf("embedded digits unavailable: %v", err)
	}
	keys := func(s *model.Spec) string {
		var k []string
		for _, f := range Fields(s) {
			k = append(k, f.Key)
		}
		return strings.Join(k, " ")
	}
	for _, want := range []string{"group.shears.from", "group.shears.to", "group.shears.count", "group.scales.from", "group.scales.to", "group.scales.count"} {
		if !strings.Contains(keys(spec), want) {
			t.Errorf("fields %q lack %s", keys(spec), want)
		}
	}
	m := New(uitest.Styles(), spec)
	m.SetSize(120, 40)
	m.Focus(true)
	m = run(t, m, datapane.LoadedMsg{Tag: 1, Spec: spec.Data, Pool: pool, Test: test})
	if m.Err() != nil {
		t.Fatalf("orbit: %v", m.Err())
	}
	v := ansi.Strip(m.View())
	uitest.CheckFits(t, m.View(), 120, 40)
	for _, want := range []string{"|G| = 270", "shear from", "scales"} {
		if !strings.Contains(v, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	plain := spec.Clone()
	plain.Group.Shears, plain.Group.Scales = nil, nil
	if k := keys(plain); strings.Contains(k, "shear") || strings.Contains(k, "scale") {
		t.Errorf("without shears and scales the fields are %q", k)
	}
}

package previewpane

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/core/data"
	"gitui/core/data/embedded"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/internal/pix"
	"gitui/ui/internal/uitest"
	"gitui/ui/theme"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// digits returns the embedded MNIST digits (3,000 training digits, 300 per class),
// decoded once: the pane never modifies a data set.
var digits = sync.OnceValues(func() (*data.Dataset, *data.Dataset) {
	pool, test, err := embedded.Digits()
	if err != nil {
		panic(err)
	}
	return pool, test
})

// loaded returns the pane over spec with the embedded digits loaded, its group built,
// sized w×h.
func loaded(t *testing.T, st theme.Styles, spec *model.Spec, w, h int) Model {
	t.Helper()
	pool, test := digits()
	m := New(st, spec)
	m.SetSize(w, h)
	return run(m, datapane.LoadedMsg{Tag: 1, Spec: spec.Data, Pool: pool, Test: test})
}

// run feeds msg to the pane, then the messages of its commands (the group build).
func run(m Model, msg tea.Msg) Model {
	m, cmd := m.Update(msg)
	for cmd != nil {
		m, cmd = m.Update(cmd())
	}
	return m
}

func press(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

func rotationSpec() *model.Spec {
	return &model.Spec{Name: "t", Data: model.DataSpec{Name: "embedded"}, Seed: 1,
		Group: model.GroupSpec{Kind: model.GroupRotation, Angles: &model.AngleSpec{From: -40, To: 40, Count: 5}}}
}

// TestRendersDigitImages checks that the selected digit is drawn with pix.Image at the
// scale the pane chose, in shade runes without colour and half blocks with it, with
// rows of several classes, inside the pane's size (the 80×24 tab body and a grid box).
func TestRendersDigitImages(t *testing.T) {
	for _, c := range []struct {
		name string
		st   theme.Styles
		cell string // a rune only this style draws
	}{{"no-color", uitest.Styles(), "█"}, {"color", uitest.ColorStyles(), "▀"}} {
		for _, sz := range [][2]int{{78, 19}, {116, 36}} {
			m := loaded(t, c.st, rotationSpec(), sz[0], sz[1])
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			plain := ansi.Strip(v)
			if !strings.Contains(plain, "embedded · class 0 (1 of 10) · sample 1 of 300") {
				t.Fatalf("%s %v: no head line for the first digit:\n%s", c.name, sz, plain)
			}
			if !strings.Contains(v, c.cell) {
				t.Errorf("%s %v: no %q in the drawing", c.name, sz, c.cell)
			}
			i, _, _ := m.Selected()
			cell := m.cellFor()
			img := pix.Image(c.st, m.pool.X.RawRowView(i), 28, 28, cell.maxW)
			for _, l := range img {
				if !strings.Contains(v, l) {
					t.Fatalf("%s %v: line %q of the selected digit's image is not drawn", c.name, sz, ansi.Strip(l))
				}
			}
			if got := lineStarting(plain, "1 "); got < 0 {
				t.Errorf("%s %v: no row of class 1 under class 0:\n%s", c.name, sz, plain)
			}
		}
	}
}

// lineStarting returns the index of the first line of s starting with p, or -1.
func lineStarting(s, p string) int {
	for i, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, p) {
			return i
		}
	}
	return -1
}

// TestKeysMoveThroughSamples checks j/k (samples of the class) and l/h (classes): the
// selection, the head line and the orbit follow (no group: the orbit is x itself).
func TestKeysMoveThroughSamples(t *testing.T) {
	spec := rotationSpec()
	spec.Group = model.GroupSpec{Kind: model.GroupNone}
	m := loaded(t, uitest.Styles(), spec, 78, 19)
	first, c0, _ := m.Selected()
	m = run(m, press("j"))
	next, c1, _ := m.Selected()
	if c1 != c0 || next == first || m.pool.Y[next] != m.pool.Y[first] {
		t.Fatalf("j: sample %d (class %d) → %d (class %d): want the next sample of the same class", first, c0, next, c1)
	}
	if !strings.Contains(ansi.Strip(m.View()), "sample 2 of 300") {
		t.Errorf("j: head does not say sample 2:\n%s", ansi.Strip(m.View()))
	}
	_, orbit := m.Orbit()
	if len(orbit) != 1 || !slices.Equal(orbit[0], m.pool.X.RawRowView(next)) {
		t.Errorf("no group: the orbit row is not the selected sample itself")
	}
	m = run(m, press("k"))
	if i, _, _ := m.Selected(); i != first {
		t.Errorf("k after j: sample %d, want %d", i, first)
	}
	m = run(m, press("k")) // wraps to the last digit of the class
	if i, _, _ := m.Selected(); i != m.byClass[0][299] {
		t.Errorf("k on the first sample: %d, want the class's last %d", i, m.byClass[0][299])
	}
	m = run(m, press("l"))
	if i, c, _ := m.Selected(); c != 1 || m.pool.Classes[m.pool.Y[i]] != "1" || !strings.Contains(ansi.Strip(m.View()), "class 1 (2 of 10) · sample 1 of 300") {
		t.Errorf("l: class %d, sample %d:\n%s", c, i, ansi.Strip(m.View()))
	}
	m = run(m, press("h"))
	m = run(m, press("h")) // wraps to the last class
	if _, c, _ := m.Selected(); c != 9 {
		t.Errorf("h h from class 1: class %d, want 9", c)
	}
}

// TestOrbitFollowsGroup checks the orbit row against the group built independently
// (each image is g·x, exactly), and that a change of the group (form.ChangedMsg) redraws
// it under the new group.
func TestOrbitFollowsGroup(t *testing.T) {
	spec := rotationSpec()
	m := loaded(t, uitest.Styles(), spec, 116, 36)
	check := func(g model.GroupSpec) string {
		t.Helper()
		if m.GroupErr() != nil {
			t.Fatalf("%s: %v", g.Kind, m.GroupErr())
		}
		a, err := engine.BuildGroup(g, []int{28, 28}, spec.Seed)
		if err != nil {
			t.Fatal(err)
		}
		i, _, _ := m.Selected()
		x := m.pool.X.RawRowView(i)
		elems, orbit := m.Orbit()
		fit := 116 / (m.cellFor().w + 1) // the images that fit the row
		if want := min(a.Len(), maxOrbit, fit); len(elems) != want || elems[0] != 0 || elems[len(elems)-1] != a.Len()-1 {
			t.Fatalf("%s: elements %v of |G| = %d: want %d evenly spaced from 0 to the last", g.Kind, elems, a.Len(), want)
		}
		for k, e := range elems {
			want := make([]float64, len(x))
			a.Apply(want, x, e)
			if !slices.Equal(orbit[k], want) {
				t.Fatalf("%s: orbit image %d is not g%d·x", g.Kind, k, e)
			}
		}
		v := ansi.Strip(m.View())
		at := strings.Index(v, "orbit of the selected x")
		if at < 0 || !strings.Contains(v[at:], a.Name()) {
			t.Fatalf("%s: no orbit row naming %q:\n%s", g.Kind, a.Name(), v)
		}
		return v[at:]
	}
	rot := check(spec.Group)
	spec.Group = model.GroupSpec{Kind: model.GroupLocalShift, Radius: 2}
	m = run(m, form.ChangedMsg{Key: "group.kind"})
	shift := check(spec.Group)
	if rot == shift {
		t.Error("the orbit row did not change with the group")
	}
	m = run(m, press("j")) // a new sample: the orbit is applied to it, on the same group
	check(spec.Group)
}

// TestStaleAndErrors checks that an older load is dropped, that a load error and a group
// that does not build are shown, and that tiny sizes neither panic nor overflow.
func TestStaleAndErrors(t *testing.T) {
	spec := rotationSpec()
	m := loaded(t, uitest.Styles(), spec, 78, 19)
	m = run(m, datapane.LoadedMsg{Tag: 0, Err: os.ErrNotExist})
	if _, _, ok := m.Selected(); !ok {
		t.Fatal("a stale LoadedMsg replaced the data set")
	}
	spec.Group = model.GroupSpec{Kind: model.GroupPermutation} // permutations of blocks: not for 28×28 images
	m = run(m, form.ChangedMsg{Key: "group.kind"})
	if m.GroupErr() == nil || !strings.Contains(ansi.Strip(m.View()), "✗ group:") {
		t.Errorf("a permutation group on images: error %v, view:\n%s", m.GroupErr(), ansi.Strip(m.View()))
	}
	m = run(m, datapane.LoadedMsg{Tag: 2, Err: os.ErrNotExist})
	if _, _, ok := m.Selected(); ok || !strings.Contains(ansi.Strip(m.View()), "✗") {
		t.Errorf("a load error: selection kept or no error shown:\n%s", ansi.Strip(m.View()))
	}
	for _, sz := range [][2]int{{1, 1}, {20, 5}, {40, 8}} {
		m := loaded(t, uitest.Styles(), rotationSpec(), sz[0], sz[1])
		uitest.CheckFits(t, m.View(), sz[0], sz[1])
	}
}

package heatmap

import (
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/core/eval"
	"gitui/ui/internal/uitest"
)

func TestMain(m *testing.M) {
	uitest.Setup()
	os.Exit(m.Run())
}

// blockMatrix returns an n×n matrix with entry 1 within a class and 0.2 across classes
// (+ a small diagonal bump), labels cycling 0,1,2,... (so NOT sorted by class).
func blockMatrix(name string, n, classes int, minEig float64) eval.Matrix {
	lab := make([]int, n)
	for i := range lab {
		lab[i] = i % classes
	}
	d := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := 0.2
			if lab[i] == lab[j] {
				v = 1
			}
			if i == j {
				v = 1.5
			}
			d[i*n+j] = v
		}
	}
	return eval.Matrix{Name: name, N: n, Data: d, Labels: lab, MinEig: minEig}
}

func TestGolden(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := New(uitest.Styles())
			m.SetSize(sz[0], sz[1])
			m.Set(blockMatrix("base rbf", 60, 3, 0.012))
			m.Set(blockMatrix("invariant Haar", 60, 3, -0.03))
			v := m.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

func TestSortByClass(t *testing.T) {
	m := New(uitest.Styles())
	m.Set(blockMatrix("k", 30, 3, 0))
	got := m.Matrices()[0]
	if !sort.IntsAreSorted(got.Labels) {
		t.Fatalf("labels not sorted: %v", got.Labels)
	}
	// After sorting, the matrix is block diagonal: 10×10 blocks of 1 (1.5 on the
	// diagonal) and 0.2 elsewhere, exactly (a permutation moves values, never mixes them).
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			want := 0.2
			if i/10 == j/10 {
				want = 1
			}
			if i == j {
				want = 1.5
			}
			if v := got.Data[i*30+j]; v != want {
				t.Fatalf("K[%d][%d] = %g, want %g", i, j, v, want)
			}
		}
	}
}

func TestResample(t *testing.T) {
	// 4×4 → 2×2 block averages, computed by hand: [[1 2 3 4][5 6 7 8][9 10 11 12][13 14 15 16]]
	// top-left (1+2+5+6)/4 = 3.5, top-right 5.5, bottom-left 11.5, bottom-right 13.5.
	d := make([]float64, 16)
	for i := range d {
		d[i] = float64(i + 1)
	}
	px, lo, hi := Resample(eval.Matrix{N: 4, Data: d}, 2)
	want := []float64{3.5, 5.5, 11.5, 13.5}
	for i := range want {
		if math.Abs(px[i]-want[i]) > 1e-15 {
			t.Fatalf("pixel %d = %g, want %g", i, px[i], want[i])
		}
	}
	if lo != 3.5 || hi != 13.5 {
		t.Fatalf("range [%g, %g], want [3.5, 13.5]", lo, hi)
	}
	// Upsampling (N < p) repeats entries: the mean is preserved exactly.
	px, _, _ = Resample(eval.Matrix{N: 4, Data: d}, 8)
	s := 0.0
	for _, v := range px {
		s += v
	}
	if math.Abs(s/64-8.5) > 1e-12 {
		t.Fatalf("upsampled mean %g, want 8.5", s/64)
	}
}

func TestConstantMatrixAndColour(t *testing.T) {
	// max == min must not divide by zero; colour mode must fit the pane too.
	n := 10
	d := make([]float64, n*n)
	for i := range d {
		d[i] = 0.7
	}
	for _, st := range []bool{false, true} {
		m := New(uitest.Styles())
		if st {
			m = New(uitest.ColorStyles())
		}
		m.SetSize(60, 20)
		m.Set(eval.Matrix{Name: "flat", N: n, Data: d, MinEig: 0})
		v := m.View()
		uitest.CheckFits(t, v, 60, 20)
		if !strings.Contains(ansi.Strip(v), "PSD") {
			t.Fatalf("no PD verdict:\n%s", ansi.Strip(v))
		}
	}
	if level(5, 1, 1, 8) != 4 {
		t.Fatal("level with hi == lo should be the middle level")
	}
}

func TestSetPanicsOnBadShape(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "heatmap: ") {
			t.Fatalf("want a heatmap: panic, got %v", r)
		}
	}()
	m := New(uitest.Styles())
	m.Set(eval.Matrix{Name: "bad", N: 3, Data: make([]float64, 8)})
}

func TestVerdict(t *testing.T) {
	id := eval.Matrix{N: 2, Data: []float64{1, 0, 0, 1}}
	for _, c := range []struct {
		eig  float64
		want string
	}{{0.5, "PD"}, {0, "PSD"}, {-1e-12, "PSD"}, {-1e-3, "not PD"}} {
		id.MinEig = c.eig
		if v := Verdict(id); v != c.want {
			t.Errorf("λmin=%g: %q, want %q", c.eig, v, c.want)
		}
	}
}

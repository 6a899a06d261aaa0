package engine

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/core/group"
	"gitui/model"
)

// TestVSVTranslations: jitter 1 along the axes is the one-pixel shifts VSV always used
// ((0, ∓1) for hshift, (∓1, 0) for vshift, in that order); jitter 2 with directions 8
// adds ∓2 along each axis and the four diagonals at 1 and 2 pixels: 16 copies, each
// translation once, and vsvCopies counts them.
func TestVSVTranslations(t *testing.T) {
	shifts := func(a group.Action) [][2]int {
		var s [][2]int
		sub := a.(*group.SubsetSet)
		for i := range sub.Len() {
			// Apply to a one-hot image to read the translation back.
			x := make([]float64, 49)
			x[3*7+3] = 1
			v := make([]float64, 49)
			sub.Apply(v, x, i)
			p := slices.Index(v, 1)
			s = append(s, [2]int{p/7 - 3, p%7 - 3})
		}
		return s
	}
	m := model.Method{Learner: "vsv", Kernel: "rbf", Gamma: 0.1, C: 1, Tangents: []string{"hshift", "vshift"}}
	c, err := newChapelleMethod(m, []int{7, 7})
	if err != nil {
		t.Fatal(err)
	}
	u := c.vsv.(*unionSet)
	got := append(shifts(u.sets[0]), shifts(u.sets[1])...)
	want := [][2]int{{0, -1}, {0, 1}, {-1, 0}, {1, 0}}
	if !slices.Equal(got, want) || vsvCopies(m) != 4 {
		t.Errorf("jitter 1: %v (%d copies), want %v", got, vsvCopies(m), want)
	}
	m.Jitter, m.Directions = 2, 8
	if c, err = newChapelleMethod(m, []int{7, 7}); err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]bool{}
	for _, s := range c.vsv.(*unionSet).sets {
		for _, d := range shifts(s) {
			if seen[d] || d == [2]int{} {
				t.Errorf("translation %v twice or the identity", d)
			}
			seen[d] = true
		}
	}
	for _, d := range [][2]int{{0, 2}, {0, -2}, {2, 0}, {-2, 0}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}, {2, 2}, {-2, -2}, {2, -2}, {-2, 2}} {
		if !seen[d] {
			t.Errorf("jitter 2, 8 directions: no translation %v", d)
		}
	}
	if len(seen) != 16 || c.vsv.Len() != 16 || vsvCopies(m) != 16 {
		t.Errorf("jitter 2, 8 directions: %d translations (set %d, vsvCopies %d), want 16", len(seen), c.vsv.Len(), vsvCopies(m))
	}
}

// TestVSVRowPathMatchesGram runs deskewed VSVs (poly and rbf, 2-pixel jitter in 8
// directions for one) on the precomputed kernels and, with svmRowsBytes at 0, on kernel
// rows (learn.TrainVSVRows, float32 products): each mean accuracy over the two draws
// agrees within 0.005, two test digits in 400 (the float32 kernel values can move a
// near-tie), the row path logs both SVMs of every draw and the first one's test accuracy, and reports both trainings' pairs
// as stage smo, ending at 90 of 90.
func TestVSVRowPathMatchesGram(t *testing.T) {
	spec := func() *model.Spec {
		return &model.Spec{
			Name: "vsv-rows", Protocol: model.ProtocolCurve,
			Data: model.DataSpec{Name: "embedded", Pool: 600, TestSize: 200, Normalize: &noNorm},
			Methods: []model.Method{
				{Name: "poly", Kernel: "poly", Gamma: 0.01, Degree: 4, C: 100, Learner: "vsv", Tangents: []string{"hshift", "vshift"}, Preprocess: "deskew"},
				{Name: "rbf", Kernel: "rbf", Gamma: 0.02, C: 10, Learner: "vsv", Tangents: []string{"hshift", "vshift"}, Jitter: 2, Directions: 8},
			},
			Sizes: []int{150}, Repeats: 2, Seed: 5,
		}
	}
	want, _, _ := runEvents(t, spec())
	old := svmRowsBytes
	svmRowsBytes = 0
	defer func() { svmRowsBytes = old }()
	got, logs, prog := runEvents(t, spec())
	for i, se := range got.Series {
		for j, p := range se.Points {
			if w := want.Series[i].Points[j].Mean; math.Abs(p.Mean-w) > 0.005+1e-12 {
				t.Errorf("%s: row path %.4f, precomputed %.4f", se.Name, p.Mean, w)
			}
			if p.Mean < 0.6 {
				t.Errorf("%s: accuracy %.3f on 150 digits, want >= 0.6", se.Name, p.Mean)
			}
		}
	}
	first, retrained, alone := 0, 0, 0
	for _, l := range logs {
		if strings.Contains(l, "the first SVM alone scores") {
			alone++
		}
		if strings.Contains(l, "first SVM:") && strings.Contains(l, "retraining on") {
			first++
		}
		if strings.Contains(l, "retrained SVM:") {
			retrained++
		}
	}
	if first != 4 || retrained != 4 || alone != 4 {
		t.Errorf("%d first, %d retrained and %d first-alone lines, want 4 each (2 methods x 2 draws): %q", first, retrained, alone, logs)
	}
	var last eval.Progress
	for _, p := range prog {
		if p.Stage == "smo" {
			last = p
		}
	}
	if last.Done != 90 || last.Total != 90 {
		t.Errorf("last smo progress %+v, want 90 of 90 pairs", last)
	}
}

// TestVSVKernelNormMean: kernel_norm mean divides VSV's kernel by its training
// diagonal's mean c, and an SVM on (K/c, C) is the SVM on (K, c·C) (the dual scaled by
// c): on embedded digits, a poly VSV with kernel_norm mean and C = 1 scores as the raw
// kernel with C = c, within one test digit in 200 per draw (the solvers' float32 rows
// and absolute tolerance see different scales), on both routes.
func TestVSVKernelNormMean(t *testing.T) {
	spec := func(norm string, C float64) *model.Spec {
		return &model.Spec{
			Name: "vsv-norm", Protocol: model.ProtocolCurve,
			Data:    model.DataSpec{Name: "embedded", Pool: 600, TestSize: 200},
			Methods: []model.Method{{Kernel: "poly", Gamma: 2, Degree: 5, C: C, Learner: "vsv", Tangents: []string{"hshift"}, KernelNorm: norm}},
			Sizes:   []int{150}, Repeats: 2, Seed: 5,
		}
	}
	// The embedded digits are unit vectors (data.normalize): every diagonal is (1 + 2)^5.
	c := math.Pow(3, 5)
	for _, rows := range []bool{false, true} {
		if rows {
			old := svmRowsBytes
			svmRowsBytes = 0
			defer func() { svmRowsBytes = old }()
		}
		a, _, _ := runEvents(t, spec("mean", 1))
		b, _, _ := runEvents(t, spec("", c))
		ma, mb := a.Series[0].Points[0].Mean, b.Series[0].Points[0].Mean
		if math.Abs(ma-mb) > 0.005+1e-12 {
			t.Errorf("rows=%v: kernel_norm mean C=1 %.4f, raw kernel C=%g %.4f", rows, ma, c, mb)
		}
		if ma < 0.6 {
			t.Errorf("rows=%v: accuracy %.3f", rows, ma)
		}
	}
}

// TestLiuKernelNormMean: kernel_norm mean on Liu et al.'s kernels is their default (the
// Gram divided by its training diagonal's mean): the same accuracies as without it.
func TestLiuKernelNormMean(t *testing.T) {
	s := rowsSpec()
	s.Methods = s.Methods[:2]
	want, _, _ := runEvents(t, s)
	for i := range s.Methods {
		s.Methods[i].KernelNorm = "mean"
	}
	got, _, _ := runEvents(t, s)
	for i := range got.Series {
		if g, w := got.Series[i].Points[0].Mean, want.Series[i].Points[0].Mean; g != w {
			t.Errorf("%s: kernel_norm mean %.4f, default %.4f", got.Series[i].Name, g, w)
		}
	}
}

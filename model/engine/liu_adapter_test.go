package engine

import (
	"context"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"gitui/core/data/embedded"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/model"
)

// TestLiuAdapter checks that newLiuKernel hands a method's fields to kernel.Liu: a TI
// zero-fill method with shifts 2 gives bit for bit the Gram of kernel.NewLiu with the
// same options (and not the full-range one of shifts 0); an L-TI method with shifts 0
// gives the Gram of shifts 3 (the locality default); a TI-RI method's rotations reach
// the kernel. A radius too large for the image is an *InputError naming the method, the
// field and the largest radius.
func TestLiuAdapter(t *testing.T) {
	ctx := context.Background()
	pool, _, err := embedded.Digits()
	if err != nil {
		t.Fatal(err)
	}
	X := mat.DenseCopyOf(pool.X.Slice(0, 8, 0, 784))
	X.Scale(1.0/255, X)
	gram := func(m model.Method) []float64 {
		t.Helper()
		k, err := newLiuKernel(m, []int{28, 28}, nil)
		if err != nil {
			t.Fatal(err)
		}
		S, err := k.sym(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		return S.RawSymmetric().Data
	}
	direct := func(o kernel.LiuOptions) []float64 {
		t.Helper()
		k, err := kernel.NewLiu(o)
		if err != nil {
			t.Fatal(err)
		}
		S, err := k.SymGram(ctx, X)
		if err != nil {
			t.Fatal(err)
		}
		return S.RawSymmetric().Data
	}
	base := kernel.Poly{Gamma: 0.01, Degree: 8}
	m := poly("TI", "best")
	m.Translation, m.Shifts = "zero-fill", 2
	local := gram(m)
	if want := direct(kernel.LiuOptions{H: 28, W: 28, Base: base, Invariance: kernel.TI, Translation: kernel.ZeroFill, Shifts: 2}); !slices.Equal(local, want) {
		t.Error("TI zero-fill shifts 2: the method's Gram differs from kernel.NewLiu's with Shifts 2")
	}
	m.Shifts = 0
	if slices.Equal(local, gram(m)) {
		t.Error("TI zero-fill: shifts 2 and shifts 0 (every translation) give the same Gram: shifts is ignored")
	}

	l := poly("TI", "best")
	l.Translation, l.Locality = "zero-fill", &model.LocalitySpec{K1: 3, D1: 2, D2: 2}
	l3 := l
	l3.Shifts = 3
	if !slices.Equal(gram(l), gram(l3)) {
		t.Error("L-TI: shifts 0 differs from shifts 3, the documented default")
	}

	r := poly("TI-RI", "average")
	r.Translation, r.Shifts, r.Rotations = "cyclic", 1, &model.AngleSpec{From: -10, To: 10, Count: 3}
	if want := direct(kernel.LiuOptions{H: 28, W: 28, Base: base, Invariance: kernel.TIRI, Fit: kernel.AverageFit,
		Shifts: 1, Rotations: group.AngleRange(-10, 10, 3)}); !slices.Equal(gram(r), want) {
		t.Error("TI-RI cyclic shifts 1: the method's Gram differs from kernel.NewLiu's")
	}

	big := poly("TI", "best")
	big.Name, big.Translation, big.Shifts = "TI-SVM", "cyclic", 14
	_, err = newLiuKernel(big, []int{28, 28}, nil)
	wantInputError(t, "TI cyclic shifts 14", err, "TI-SVM: shifts 14 is too large for the 28x28 image: use a radius of at most 13 with cyclic translations")
}

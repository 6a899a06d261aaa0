package data

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestLabelKey(t *testing.T) {
	same := [][]string{
		{"7", "7.0", "+7", "7e0", " 7 ", "07"},
		{"-1", "-1.00", "-1e0"},
		{"0", "-0", "0.0", "+0"},
		{"0.5", ".5", "5e-1"},
		{"cat", " cat"},
	}
	for _, g := range same {
		for _, s := range g[1:] {
			if LabelKey(s) != LabelKey(g[0]) {
				t.Errorf("LabelKey(%q) = %q, LabelKey(%q) = %q: want one label", s, LabelKey(s), g[0], LabelKey(g[0]))
			}
		}
	}
	differ := [][2]string{{"7", "70"}, {"1", "-1"}, {"cat", "Cat"}, {"NaN", "nan"}, {"Inf", "1e400"}, {"1", "1.0000001"}}
	for _, p := range differ {
		if LabelKey(p[0]) == LabelKey(p[1]) {
			t.Errorf("LabelKey(%q) = LabelKey(%q) = %q: want different labels", p[0], p[1], LabelKey(p[0]))
		}
	}
}

// labelled returns a data set of one sample per entry of names (row i = [i, -i]), its
// classes in order of first appearance, as a reader makes them.
func labelled(names []string) *Dataset {
	var ci classIndex
	y := make([]int, len(names))
	x := mat.NewDense(len(names), 2, nil)
	for i, n := range names {
		y[i] = ci.add(n)
		x.Set(i, 0, float64(i))
		x.Set(i, 1, -float64(i))
	}
	return &Dataset{Name: "t", X: x, Y: y, Classes: ci.classes, Shape: []int{2}}
}

// TestAlignClassesProperty: for random training classes and a test set holding a random
// subset of them, in a random order and written differently ("7" vs "7.0"), every aligned
// test sample's class has the value of its original label; the rows are unchanged.
func TestAlignClassesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	spellings := func(v int) []string {
		if v < 0 {
			return []string{fmt.Sprint(v), fmt.Sprintf("%d.0", v)}
		}
		return []string{fmt.Sprint(v), fmt.Sprintf("%d.0", v), fmt.Sprintf("+%d", v)}
	}
	for trial := range 200 {
		k := 2 + rng.IntN(8)
		vals := rng.Perm(20)[:k] // k distinct label values, in a random (first-appearance) order
		for i := range vals {
			vals[i] -= 5 // some negative
		}
		var train []string
		for _, v := range vals {
			for range 1 + rng.IntN(3) {
				train = append(train, fmt.Sprint(v))
			}
		}
		pool := labelled(train)
		sub := vals[:1+rng.IntN(k)] // a subset of the classes (possibly one)
		var test []string
		for range 1 + rng.IntN(30) {
			v := sub[rng.IntN(len(sub))]
			sp := spellings(v)
			test = append(test, sp[rng.IntN(len(sp))])
		}
		ts := labelled(test)
		got, err := ts.AlignClasses(pool.Classes)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if !slices.Equal(got.Classes, pool.Classes) || got.Len() != ts.Len() || !mat.Equal(got.X, ts.X) {
			t.Fatalf("trial %d: classes %v (want %v), %d samples (want %d)", trial, got.Classes, pool.Classes, got.Len(), ts.Len())
		}
		for i, y := range got.Y {
			if LabelKey(pool.Classes[y]) != LabelKey(test[i]) {
				t.Fatalf("trial %d: test sample %d labelled %q is matched to training class %q", trial, i, test[i], pool.Classes[y])
			}
		}
	}
}

func TestAlignClassesUnknown(t *testing.T) {
	pool := labelled([]string{"3", "5", "7", "5"})
	test := labelled([]string{"7", "9", "2", "9", "5.0"})
	_, err := test.AlignClasses(pool.Classes)
	var ue *UnknownLabelError
	if !errors.As(err, &ue) {
		t.Fatalf("err = %v, want *UnknownLabelError", err)
	}
	if !slices.Equal(ue.Labels, []string{"9", "2"}) || !slices.Equal(ue.Counts, []int{2, 1}) {
		t.Errorf("unknown labels %v counts %v, want [9 2] [2 1]", ue.Labels, ue.Counts)
	}
	for _, w := range []string{`"9" (2 samples)`, `"2" (1 sample)`, `["3" "5" "7"]`} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q lacks %q", err, w)
		}
	}
	// A class name that no sample carries (e.g. IDX's fixed ten) is not an error.
	empty := labelled([]string{"7", "5"})
	empty.Classes = append(empty.Classes, "9")
	if _, err := empty.AlignClasses(pool.Classes); err != nil {
		t.Errorf("unused class name: %v", err)
	}
}

func TestKeepClasses(t *testing.T) {
	ds := labelled([]string{"cat", "dog", "7", "bird", "dog", "7.0", "cat"})
	got := ds.KeepClasses([]string{"7", "cat"})
	// Samples 0, 2, 5, 6 survive, in order; "7" is class 0, "cat" class 1.
	if !slices.Equal(got.Y, []int{1, 0, 0, 1}) || !slices.Equal(got.Classes, []string{"7", "cat"}) {
		t.Fatalf("Y %v classes %v", got.Y, got.Classes)
	}
	for k, i := range []int{0, 2, 5, 6} {
		if got.X.At(k, 0) != float64(i) {
			t.Errorf("row %d is sample %v, want %d", k, got.X.At(k, 0), i)
		}
	}
	if err := got.Validate(); err != nil {
		t.Error(err)
	}
	// A listed class absent from the data set is allowed.
	if sub := ds.KeepClasses([]string{"dog", "fish"}); sub.Len() != 2 || len(sub.Classes) != 2 {
		t.Errorf("subset: %d samples, classes %v", sub.Len(), sub.Classes)
	}
}

// TestCSVLabelsAcrossFiles reads a training and a test CSV with string and numeric labels
// written in different orders and spellings and checks the test set is matched by value.
func TestCSVLabelsAcrossFiles(t *testing.T) {
	train, err := ReadCSV(strings.NewReader("a,b,y\n1,0,cat\n0,1,dog\n1,1,7\n2,2,cat\n"), "train.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	test, err := ReadCSV(strings.NewReader("a,b,y\n0,1,7.0\n1,0,dog\n3,3,dog\n"), "test.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(train.Classes, []string{"cat", "dog", "7"}) || !slices.Equal(test.Classes, []string{"7.0", "dog"}) {
		t.Fatalf("classes %v and %v", train.Classes, test.Classes)
	}
	got, err := test.AlignClasses(train.Classes)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Y, []int{2, 1, 1}) {
		t.Errorf("aligned test labels %v, want [2 1 1] (7, dog, dog)", got.Y)
	}
	// Within one file, 7 and 7.0 are one class named as first written.
	one, err := ReadCSV(strings.NewReader("1,7\n2,7.0\n3,+7\n4,8\n"), "one.csv", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Y, []int{0, 0, 0, 1}) || !slices.Equal(one.Classes, []string{"7", "8"}) {
		t.Errorf("Y %v classes %v, want [0 0 0 1] [7 8]", one.Y, one.Classes)
	}
}

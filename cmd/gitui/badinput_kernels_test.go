package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputKernels checks the bad inputs of the SVM kernels and learners (Liu et al.'s kernels,
// Chapelle and Schoelkopf's learners) on small data files written here: NaN or infinite
// values, a kernel that overflows, shapes that do not fit the group, C <= 0 or not a
// number, degree < 1 or not whole, angles that repeat a rotation. Each must exit with
// status 2, end stderr with one "gitui: " line naming the problem and the fix, write no
// result.json and never panic. Each is refused before any heavy work (the data are 40
// samples; the whole table runs in about a second).
func TestBadInputKernels(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	const n = 40 // samples per file: 2 classes, 20 each
	labels := make([]float64, n)
	for i := range labels {
		labels[i] = float64(i % 2)
	}
	pixels := func(h, w int, bad float64) []float64 {
		x := make([]float64, n*h*w)
		for i := range x {
			x[i] = float64((i*7919)%101) / 100 // deterministic values in [0, 1]
		}
		if bad != 0 {
			x[3*h*w+5] = bad
		}
		return x
	}
	writeNPY(t, at("sq_x.npy"), []int{n, 6, 6}, pixels(6, 6, 0))
	writeNPY(t, at("sq_y.npy"), []int{n}, labels)
	writeNPY(t, at("rect_x.npy"), []int{n, 4, 6}, pixels(4, 6, 0))
	writeNPY(t, at("rect_y.npy"), []int{n}, labels)
	writeNPY(t, at("nan_x.npy"), []int{n, 6, 6}, pixels(6, 6, math.NaN()))
	writeNPY(t, at("nan_y.npy"), []int{n}, labels)
	writeNPY(t, at("inf_x.npy"), []int{n, 6, 6}, pixels(6, 6, math.Inf(1)))
	writeNPY(t, at("inf_y.npy"), []int{n}, labels)
	writeNPY(t, at("tiny_x.npy"), []int{n, 2, 2}, pixels(2, 2, 0))
	writeNPY(t, at("tiny_y.npy"), []int{n}, labels)
	writeNPY(t, at("seq_x.npy"), []int{n, 12, 3}, pixels(12, 3, 0))
	writeNPY(t, at("seq_y.npy"), []int{n}, labels)
	csv := func(name, bad string) {
		var b strings.Builder
		b.WriteString("a,b,c,label\n")
		for i := 0; i < n; i++ {
			v := fmt.Sprint(i % 5)
			if i == 7 {
				v = bad
			}
			fmt.Fprintf(&b, "1,%s,3,%d\n", v, i%2)
		}
		if err := os.WriteFile(at(name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	csv("nan.csv", "NaN")
	csv("inf.csv", "+Inf")
	spec := func(name, method string) string {
		p := at(name)
		y := fmt.Sprintf(`name: bad
protocol: sample-complexity
data: {name: file, path: %s, test_size: 10, normalize: false}
methods:
  - %s
sizes: [10]
`, at("sq_x.npy"), method)
		if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// liu-table2 --quick has the plain SVM (0), TI (1), RI (2), L-SVM (3), TI-RI (4),
	// L-TI (5), L-RI (6), L-TI-RI (7), TI and RI average fit (8, 9) and four rows "as the
	// paper" (10-13), all poly degree 8.
	liu := func(file string, sets ...string) []string {
		a := []string{"run", "liu-table2", "--quick", "--set", "data.name=file", "--set", "data.path=" + at(file),
			"--set", "sizes=[10]", "--set", "data.test_size=10", "--set", "repeats=1"}
		for _, s := range sets {
			a = append(a, "--set", s)
		}
		return a
	}
	// mnist-cdf --quick: CDF features over rotations (-20..20 degrees) times shifts.
	cdf := func(file string, sets ...string) []string {
		a := []string{"run", "mnist-cdf", "--quick", "--set", "data.name=file", "--set", "data.path=" + at(file),
			"--set", "sizes=[10]", "--set", "data.test_size=10"}
		for _, s := range sets {
			a = append(a, "--set", s)
		}
		return a
	}
	// chapelle-digits --quick: SVM (0), VSV (1, hshift and vshift), invariant SVM (2).
	chapelle := func(file string, sets ...string) []string {
		a := []string{"run", "chapelle-digits", "--quick", "--set", "data.name=file", "--set", "data.path=" + at(file),
			"--set", "sizes=[10]", "--set", "data.test_size=10", "--set", "data.classes=[0,1]"}
		for _, s := range sets {
			a = append(a, "--set", s)
		}
		return a
	}
	cases := []struct {
		name string
		args []string
		want []string // the problem and the fix, each a substring of the last line
	}{
		// NaN or infinite values in the data.
		{"NaN in CSV", liu("nan.csv"), []string{"nan.csv:9: field 2", "value is NaN", "remove or impute"}},
		{"+Inf in CSV", liu("inf.csv"), []string{"inf.csv:9: field 2", "value is infinite", "remove or clip"}},
		{"NaN in NPY", liu("nan_x.npy"), []string{"nan_x.npy", "value is NaN", "remove or impute"}},
		{"+Inf in NPY", liu("inf_x.npy"), []string{"inf_x.npy", "value is infinite", "remove or clip"}},
		// Kernels with non-finite parameters or values.
		{"gamma NaN", liu("sq_x.npy", "methods.0.gamma=NaN"), []string{"gamma must be a finite number", "give a finite value"}},
		{"gamma +Inf", liu("sq_x.npy", "methods.1.gamma=Inf"), []string{"gamma must be a finite number"}},
		{"gamma 1e400", liu("sq_x.npy", "methods.1.gamma=1e400"), []string{"gamma must be a finite number"}},
		{"gamma .inf in a spec file", []string{"run", spec("gamma.yaml", "{kernel: poly, gamma: .inf, degree: 8, learner: svm, c: 1000}")}, []string{"gamma +Inf must be >= 0 and finite"}},
		{"poly overflow (gamma 1e300)", liu("sq_x.npy", "methods.0.gamma=1e300"),
			[]string{"SVM: kernel values overflow", "poly(gamma=1e+300,degree=8)", "lower gamma or the degree"}},
		{"poly overflow in TI", liu("sq_x.npy", "methods.*.gamma=1e300"), []string{"kernel values overflow", "lower gamma or the degree"}},
		{"poly overflow in Table I", []string{"run", "liu-table1", "--quick", "--set", "data.name=file", "--set", "data.path=" + at("sq_x.npy"),
			"--set", "pd.sizes=[10]", "--set", "methods.1.gamma=1e300"}, []string{"kernel values overflow", "lower gamma or the degree"}},
		{"poly overflow in VSV", chapelle("sq_x.npy", "methods.*.kernel=poly", "methods.*.degree=8", "methods.*.gamma=1e300"),
			[]string{"kernel values overflow", "lower gamma or the degree"}},
		{"locality overflow", liu("sq_x.npy", "methods.3.locality.scale=1e300"), []string{"L-SVM: kernel values overflow", "lower the locality scale"}},
		// Shapes that do not fit the group.
		{"RI on 4x6 images", liu("rect_x.npy"), []string{"RI-SVM: invariance RI rotates images and needs square ones, the data are 4x6", "pad or crop"}},
		{"group rotation on 4x6 images", cdf("rect_x.npy"), []string{"group rotation+shift rotates images and needs square ones", "pad or crop"}},
		{"rotation tangent on 4x6 images", chapelle("rect_x.npy", `methods.1.tangents=["rotation"]`), []string{"VSV: tangent rotation rotates images and needs square ones"}},
		{"L-TI shifts larger than the image", liu("sq_x.npy", "methods.5.shifts=10"),
			[]string{"L-TI-SVM (±10): shifts 10 is too large for the 6x6 image", "use a radius of at most 2 with cyclic translations"}},
		{"L-TI cyclic shifts that wrap onto each other", liu("sq_x.npy", "methods.5.shifts=3"), []string{"shifts 3 is too large for the 6x6 image"}},
		{"L-TI zero-fill shifts larger than the image", liu("sq_x.npy", "methods.5.shifts=6", "methods.5.translation=zero-fill"),
			[]string{"shifts 6 is too large for the 6x6 image", "at most 5 with zero-fill translations"}},
		{"group radius larger than the image", cdf("sq_x.npy", "group.radius=10"), []string{"group.radius 10 is not smaller than the 6x6 image", "use a radius below 6"}},
		{"L-TI default shifts on 2x2 images", liu("tiny_x.npy", "methods.5.shifts=0"), []string{"shifts 3 is too large for the 2x2 image"}},
		{"shift tangents on 2x2 images", chapelle("tiny_x.npy"), []string{"tangent hshift needs images", "drop the tangent"}},
		{"permutations of 12 blocks", []string{"run", "xperm-curve", "--quick", "--set", "data.name=file", "--set", "data.path=" + at("seq_x.npy"),
			"--set", "sizes=[10]", "--set", "data.test_size=10"}, []string{"12! = 4.79e+08 elements", "set group.size"}},
		{"RI angles equal modulo 360", liu("sq_x.npy", "methods.2.rotations.to=340"), []string{"angles 0 and 4 are equal modulo 360 (-20, 340)", "distinct modulo 360"}},
		{"group angles equal modulo 360", cdf("sq_x.npy", "group.angles.from=0", "group.angles.to=360"), []string{"group.angles", "equal modulo 360"}},
		// C and degree.
		{"C = 0", liu("sq_x.npy", "methods.0.c=0"), []string{"c 0 must be > 0 and finite", "set c, e.g. 1000"}},
		{"C < 0", liu("sq_x.npy", "methods.3.c=-1"), []string{"c -1 must be > 0 and finite"}},
		{"C NaN", liu("sq_x.npy", "methods.0.c=NaN"), []string{"c must be a finite number"}},
		{"C .nan in a spec file", []string{"run", spec("c.yaml", "{kernel: poly, gamma: 0.01, degree: 8, learner: svm, c: .nan}")}, []string{"c NaN must be > 0 and finite"}},
		{"C = 0 for VSV", chapelle("sq_x.npy", "methods.1.c=0"), []string{"VSV): c 0 must be > 0"}},
		{"degree 0", liu("sq_x.npy", "methods.0.degree=0"), []string{"degree 0 is out of range", "use 1..64"}},
		{"degree -3", liu("sq_x.npy", "methods.1.degree=-3"), []string{"degree -3 is out of range"}},
		{"degree 2.5", liu("sq_x.npy", "methods.0.degree=2.5"), []string{"degree takes a whole number, not 2.5", "give an integer"}},
		{"degree 2.5 in a spec file", []string{"run", spec("degree.yaml", "{kernel: poly, gamma: 0.01, degree: 2.5, learner: svm, c: 1000}")},
			[]string{"line 5: methods.0.degree takes a whole number, not 2.5", "give an integer"}},
		{"locality degree 0", liu("sq_x.npy", "methods.3.locality.d1=0"), []string{"degrees d1, d2 >= 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			code, _, stderr := gitui(t, append(c.args, "--out", out)...)
			if code != exitUsage {
				t.Errorf("exit %d, want 2; stderr %q", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			t.Log(last) // go test -v lists every message
			if !strings.HasPrefix(last, "gitui: ") || strings.Contains(last, "internal error") {
				t.Errorf("last stderr line %q, want a gitui: line naming the problem", last)
			}
			for _, w := range c.want {
				if !strings.Contains(last, w) {
					t.Errorf("last stderr line %q lacks %q", last, w)
				}
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr shows a panic: %q", stderr)
			}
			if _, err := os.Stat(filepath.Join(out, "result.json")); err == nil {
				t.Error("result.json written for bad input")
			}
		})
	}
}

// writeNPY writes a little-endian float64 .npy file (format 1.0) of the given shape.
func writeNPY(t *testing.T, path string, shape []int, data []float64) {
	t.Helper()
	dims := make([]string, len(shape))
	for i, s := range shape {
		dims[i] = fmt.Sprint(s)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	header := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%s), }", tuple)
	// magic (6) + version (2) + length (2) + header + "\n", padded to a multiple of 64.
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	binary.Write(&b, binary.LittleEndian, data)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

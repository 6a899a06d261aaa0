package learn

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// libsvmModel is what svm-train (LIBSVM 3.24, -s 0 -t 4) wrote and printed.
type libsvmModel struct {
	labels []int
	rho    []float64
	nSV    []int
	sv     []int       // 0-based training indices (the 0:i column, minus one)
	coef   [][]float64 // (k-1) × total_sv, LIBSVM's sv_coef
	obj    []float64   // per pair, from "obj = %f, rho = %f"
	iter   []int       // per pair, from "#iter = %d"
	pred   []int       // svm-predict's output on the test kernel
}

// writePrecomputed writes LIBSVM's precomputed-kernel format, "label 0:i 1:K(i,1) ...",
// with every value in Go's shortest round-trip form, which strtod reads back exactly.
func writePrecomputed(path string, k mat.Matrix, y []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r, c := k.Dims()
	buf := make([]byte, 0, 32)
	for i := range r {
		fmt.Fprintf(w, "%d 0:%d", y[i], i+1)
		for j := range c {
			buf = strconv.AppendFloat(buf[:0], k.At(i, j), 'g', -1, 64)
			fmt.Fprintf(w, " %d:%s", j+1, buf)
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var (
	reIter = regexp.MustCompile(`#iter = (\d+)`)
	reObj  = regexp.MustCompile(`obj = (\S+), rho = (\S+)`)
)

// runLIBSVM trains svm-train -s 0 -t 4 -c C (plus extra flags) on pr and predicts pr.kt
// with svm-predict. It skips the test if the binaries are absent.
func runLIBSVM(t *testing.T, pr svmProblem, extra ...string) *libsvmModel {
	t.Helper()
	train, err := exec.LookPath("svm-train")
	if err != nil {
		t.Skip("svm-train not found: install Debian's libsvm-tools to compare with LIBSVM")
	}
	predict, err := exec.LookPath("svm-predict")
	if err != nil {
		t.Skip("svm-predict not found: install Debian's libsvm-tools to compare with LIBSVM")
	}
	dir := t.TempDir()
	trainFile, testFile := filepath.Join(dir, "train"), filepath.Join(dir, "test")
	modelFile, outFile := filepath.Join(dir, "model"), filepath.Join(dir, "out")
	if err := writePrecomputed(trainFile, pr.k, pr.y); err != nil {
		t.Fatal(err)
	}
	if err := writePrecomputed(testFile, pr.kt, pr.yt); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-s", "0", "-t", "4", "-c", strconv.FormatFloat(pr.c, 'g', -1, 64)}, extra...)
	args = append(args, trainFile, modelFile)
	out, err := exec.Command(train, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("svm-train %v: %v\n%s", args, err, out)
	}
	lm := &libsvmModel{}
	for _, m := range reIter.FindAllStringSubmatch(string(out), -1) {
		v, _ := strconv.Atoi(m[1])
		lm.iter = append(lm.iter, v)
	}
	for _, m := range reObj.FindAllStringSubmatch(string(out), -1) {
		v, _ := strconv.ParseFloat(m[1], 64)
		lm.obj = append(lm.obj, v)
	}
	parseLIBSVMModel(t, modelFile, lm)
	if out, err := exec.Command(predict, testFile, modelFile, outFile).CombinedOutput(); err != nil {
		t.Fatalf("svm-predict: %v\n%s", err, out)
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(string(b)) {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("svm-predict output %q: %v", f, err)
		}
		lm.pred = append(lm.pred, int(v))
	}
	return lm
}

func parseLIBSVMModel(t *testing.T, path string, lm *libsvmModel) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	ints := func(fs []string) []int {
		var v []int
		for _, s := range fs {
			x, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("model %s: %v", path, err)
			}
			v = append(v, x)
		}
		return v
	}
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "rho":
			for _, s := range fs[1:] {
				v, _ := strconv.ParseFloat(s, 64)
				lm.rho = append(lm.rho, v)
			}
		case "label":
			lm.labels = ints(fs[1:])
		case "nr_sv":
			lm.nSV = ints(fs[1:])
		}
		if fs[0] == "SV" {
			break
		}
	}
	k := len(lm.labels)
	lm.coef = make([][]float64, k-1)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != k {
			t.Fatalf("model %s: SV line %q has %d fields, want %d", path, sc.Text(), len(fs), k)
		}
		for c := range k - 1 {
			v, err := strconv.ParseFloat(fs[c], 64)
			if err != nil {
				t.Fatalf("model %s: %v", path, err)
			}
			lm.coef[c] = append(lm.coef[c], v)
		}
		idx, err := strconv.Atoi(strings.TrimPrefix(fs[k-1], "0:"))
		if err != nil {
			t.Fatalf("model %s: SV index %q: %v", path, fs[k-1], err)
		}
		lm.sv = append(lm.sv, idx-1)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// decision computes LIBSVM's decision values (svm_predict_values) from its model file on
// the test kernel kt: for pair (i, j), sum over class-i SVs of sv_coef[j-1] K plus
// class-j SVs of sv_coef[i] K, minus rho.
func (lm *libsvmModel) decision(kt mat.Matrix) *mat.Dense {
	k := len(lm.labels)
	start := make([]int, k)
	for c := 1; c < k; c++ {
		start[c] = start[c-1] + lm.nSV[c-1]
	}
	r, _ := kt.Dims()
	dec := mat.NewDense(r, len(lm.rho), nil)
	for t := range r {
		p := 0
		for i := range k {
			for j := i + 1; j < k; j++ {
				var sum float64
				for s := start[i]; s < start[i]+lm.nSV[i]; s++ {
					sum += lm.coef[j-1][s] * kt.At(t, lm.sv[s])
				}
				for s := start[j]; s < start[j]+lm.nSV[j]; s++ {
					sum += lm.coef[i][s] * kt.At(t, lm.sv[s])
				}
				dec.Set(t, p, sum-lm.rho[p])
				p++
			}
		}
	}
	return dec
}

// compareWithLIBSVM trains both and asserts that they agree: identical
// labels, SV sets and predictions; decision values within 1e-3 relative (to the largest
// |dec| of the pair's column, so that values near zero are judged on the column's scale);
// rho and obj as printed. It also logs how close the solutions are.
func compareWithLIBSVM(t *testing.T, pr svmProblem, opts *SVCOptions, extra ...string) *SVC {
	t.Helper()
	lm := runLIBSVM(t, pr, extra...)
	m, err := TrainSVC(context.Background(), pr.k, pr.y, pr.c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(m.Labels) != fmt.Sprint(lm.labels) {
		t.Fatalf("labels %v, LIBSVM %v", m.Labels, lm.labels)
	}
	if fmt.Sprint(m.SV) != fmt.Sprint(lm.sv) || fmt.Sprint(m.NSV) != fmt.Sprint(lm.nSV) {
		t.Errorf("support vectors differ: %d (nSV %v) vs LIBSVM %d (nSV %v)", len(m.SV), m.NSV, len(lm.sv), lm.nSV)
	}
	// The solver does svm-train's arithmetic in svm-train's order (float32 kernel rows,
	// no fused multiply-add on GOAMD64=v1), so it takes the same steps: equal iteration
	// counts and coefficients equal to the model file's %.17g values. (A build that
	// fuses multiply-adds may part ways by rounding; the 1e-3 criteria below still hold.)
	if len(lm.iter) != len(m.Pairs) {
		t.Fatalf("svm-train printed %d iteration counts for %d pairs", len(lm.iter), len(m.Pairs))
	}
	for p := range m.Pairs {
		if m.Pairs[p].Iter != lm.iter[p] {
			t.Errorf("pair %d: %d iterations, svm-train %d", p, m.Pairs[p].Iter, lm.iter[p])
		}
	}
	if len(m.SV) == len(lm.sv) {
		// LIBSVM's layout: the coefficient of SV s (class c) in pair (i, j) is
		// sv_coef[j-1][s] if c == i and sv_coef[i][s] if c == j.
		cls := make([]int, len(m.SV))
		for c, s := 0, 0; c < len(m.NSV); c++ {
			for range m.NSV[c] {
				cls[s] = c
				s++
			}
		}
		var maxCoef float64
		for p, pi := range m.Pairs {
			for s := range m.SV {
				var want float64
				switch cls[s] {
				case pi.I:
					want = lm.coef[pi.J-1][s]
				case pi.J:
					want = lm.coef[pi.I][s]
				}
				maxCoef = max(maxCoef, math.Abs(m.Coef.At(s, p)-want))
			}
		}
		if maxCoef > 1e-9*pr.c {
			t.Errorf("coefficients differ from the model file by up to %g (C = %g)", maxCoef, pr.c)
		}
	}
	var maxRho, maxObj float64
	for p := range m.Pairs {
		// The model file prints rho with %.17g (exact); 1e-9 relative allows for a
		// different summation order should the iterates ever part by rounding.
		d := math.Abs(m.Rho[p] - lm.rho[p])
		maxRho = max(maxRho, d)
		if d > 1e-9*max(1, math.Abs(lm.rho[p])) {
			t.Errorf("pair %d: rho %.17g, LIBSVM %.17g", p, m.Rho[p], lm.rho[p])
		}
		// obj is printed with %f: 6 decimals, so half a unit in the last place, plus
		// 1e-9 relative as for rho.
		if p < len(lm.obj) {
			d := math.Abs(m.Pairs[p].Obj - lm.obj[p])
			maxObj = max(maxObj, d)
			if d > 5e-7+1e-9*math.Abs(lm.obj[p]) {
				t.Errorf("pair %d: obj %.9f, LIBSVM %.6f", p, m.Pairs[p].Obj, lm.obj[p])
			}
		}
	}
	ours, err := m.DecisionValues(context.Background(), pr.kt)
	if err != nil {
		t.Fatal(err)
	}
	theirs := lm.decision(pr.kt)
	r, np := ours.Dims()
	var maxRel float64
	for p := range np {
		var scale float64
		for i := range r {
			scale = max(scale, math.Abs(theirs.At(i, p)))
		}
		for i := range r {
			rel := math.Abs(ours.At(i, p)-theirs.At(i, p)) / scale
			maxRel = max(maxRel, rel)
			if rel > 1e-3 {
				t.Fatalf("test %d pair %d: decision %.10g, LIBSVM %.10g (rel. %.2g)", i, p, ours.At(i, p), theirs.At(i, p), rel)
			}
		}
	}
	pred, err := m.Predict(context.Background(), pr.kt)
	if err != nil {
		t.Fatal(err)
	}
	diff, hit := 0, 0
	for i := range pred {
		if pred[i] != lm.pred[i] {
			diff++
		}
		if pred[i] == pr.yt[i] {
			hit++
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d predictions differ from svm-predict", diff, len(pred))
	}
	t.Logf("%s: n=%d, %d classes, %d SVs, test acc %.4f; max |drho| %.3g, max |dobj| %.3g, max rel. ddec %.3g; warnings %q",
		pr.name, len(pr.y), len(m.Labels), len(m.SV), float64(hit)/float64(len(pred)), maxRho, maxObj, maxRel, m.Warnings)
	return m
}

func TestSVMMatchesLIBSVMCircle(t *testing.T) {
	// Toy circle of Chapelle & Schoelkopf: RBF exp(-2||x-z||^2), C = 10.
	pr := circleProblem(300, 200, 2, 10, 1)
	for _, tc := range []struct {
		name  string
		opts  *SVCOptions
		flags []string
	}{
		{"shrinking", nil, nil},
		{"no-shrinking", &SVCOptions{NoShrinking: true}, []string{"-h", "0"}},
		{"small-cache", &SVCOptions{CacheMB: 0.01}, []string{"-m", "0.01"}},
	} {
		t.Run(tc.name, func(t *testing.T) { compareWithLIBSVM(t, pr, tc.opts, tc.flags...) })
	}
	t.Run("labels-minus-first", func(t *testing.T) {
		// -1 appears first: LIBSVM swaps so that +1 is the positive class.
		q := pr
		for i, v := range q.y {
			if v == -1 {
				q.y = append([]int(nil), pr.y...)
				q.y[0], q.y[i] = -1, q.y[0]
				q.k = mat.NewSymDense(len(q.y), nil)
				p := make([]int, len(q.y))
				for a := range p {
					p[a] = a
				}
				p[0], p[i] = i, 0
				for a := range p {
					for b := a; b < len(p); b++ {
						q.k.SetSym(a, b, pr.k.At(p[a], p[b]))
					}
				}
				q.kt = mat.NewDense(len(pr.yt), len(q.y), nil)
				for a := range pr.yt {
					for b := range p {
						q.kt.Set(a, b, pr.kt.At(a, p[b]))
					}
				}
				break
			}
		}
		m := compareWithLIBSVM(t, q, nil)
		if m.Labels[0] != 1 {
			t.Errorf("labels %v: want +1 first", m.Labels)
		}
	})
}

func TestSVMMatchesLIBSVMTenClasses(t *testing.T) {
	var pr svmProblem
	if os.Getenv("GITUI_DATA") != "" {
		// 500 MNIST training digits, pixels in [0,1], Liu et al.'s degree-8 polynomial
		// with gamma = 1/100 (FINDINGS.md), C = 10; 300 test digits.
		x, y := mnist(t, "train10k", 500)
		xt, yt := mnist(t, "t10k", 300)
		k := poly8(100)
		pr = svmProblem{name: "mnist-500-poly8", k: gramOf(x, k), y: y, kt: crossOf(xt, x, k), yt: yt, c: 10}
	} else {
		t.Log("GITUI_DATA not set: using 10 synthetic Gaussian blobs instead of MNIST")
		rng := rand.New(rand.NewPCG(2, 2))
		centres := make([][]float64, 10)
		for c := range centres {
			centres[c] = make([]float64, 20)
			for j := range centres[c] {
				centres[c][j] = 0.8 * rng.NormFloat64()
			}
		}
		x, y := blobsAt(500, centres, 0, rng)
		xt, yt := blobsAt(300, centres, 0, rng)
		k := poly8(100)
		pr = svmProblem{name: "blobs-500-poly8", k: gramOf(x, k), y: y, kt: crossOf(xt, x, k), yt: yt, c: 10}
	}
	compareWithLIBSVM(t, pr, nil)
	t.Run("no-shrinking", func(t *testing.T) {
		compareWithLIBSVM(t, pr, &SVCOptions{NoShrinking: true}, "-h", "0")
	})
}

func TestSVMMatchesLIBSVMIndefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	centres := make([][]float64, 3)
	for c := range centres {
		centres[c] = make([]float64, 5)
		for j := range centres[c] {
			centres[c][j] = rng.NormFloat64()
		}
	}
	x, y := blobsAt(240, centres, 1, rng)
	xt, yt := blobsAt(150, centres, 1, rng)
	t.Run("sigmoid", func(t *testing.T) {
		// tanh(0.5 <x,z> - 2): negative on the diagonal for points of small norm, so the
		// curvature K_ii + K_jj - 2 K_ij is often <= 0 and TAU is used.
		k := func(a, b []float64) float64 { return math.Tanh(0.5*dot(a, b) - 2) }
		pr := svmProblem{name: "sigmoid", k: gramOf(x, k), y: y, kt: crossOf(xt, x, k), yt: yt, c: 1}
		requireIndefinite(t, pr.k)
		m := compareWithLIBSVM(t, pr, nil)
		if !m.NonPositiveCurvature() || len(m.Warnings) == 0 {
			t.Errorf("sigmoid Gram: no non-positive curvature reported (warnings %q)", m.Warnings)
		}
	})
	t.Run("best-fit-shift", func(t *testing.T) {
		// Best-fit kernel max_s <shift_s x, z> over cyclic shifts s in {-2..2} of
		// 1-D signals (symmetric, as the shift set is closed under inverses).
		sig, ys := shiftSignals(200, 24, rng)
		sigt, yst := shiftSignals(100, 24, rand.New(rand.NewPCG(4, 4)))
		k := func(a, b []float64) float64 {
			best := math.Inf(-1)
			n := len(a)
			for s := -2; s <= 2; s++ {
				var v float64
				for i := range a {
					v += a[((i+s)%n+n)%n] * b[i]
				}
				best = max(best, v)
			}
			return best
		}
		pr := svmProblem{name: "best-fit-shift", k: gramOf(sig, k), y: ys, kt: crossOf(sigt, sig, k), yt: yst, c: 10}
		requireIndefinite(t, pr.k)
		compareWithLIBSVM(t, pr, nil)
	})
}

// shiftSignals draws n signals of length d from 3 random templates, each cyclically
// shifted by -2..2 and with noise of standard deviation 0.5; labels are 0, 1, 2.
func shiftSignals(n, d int, rng *rand.Rand) ([][]float64, []int) {
	tpl := make([][]float64, 3)
	r := rand.New(rand.NewPCG(99, 99)) // the same templates for training and test
	for c := range tpl {
		tpl[c] = make([]float64, d)
		for j := range tpl[c] {
			tpl[c][j] = r.NormFloat64()
		}
	}
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range n {
		c := rng.IntN(3)
		s := rng.IntN(5) - 2
		x[i] = make([]float64, d)
		for j := range d {
			x[i][j] = tpl[c][((j+s)%d+d)%d] + 0.5*rng.NormFloat64()
		}
		y[i] = c
	}
	return x, y
}

func requireIndefinite(t *testing.T, k *mat.SymDense) {
	t.Helper()
	var eig mat.EigenSym
	if !eig.Factorize(k, false) {
		t.Fatal("EigenSym failed")
	}
	v := eig.Values(nil)
	if v[0] >= 0 {
		t.Fatalf("Gram is not indefinite: smallest eigenvalue %g", v[0])
	}
	t.Logf("Gram eigenvalues from %.4g to %.4g", v[0], v[len(v)-1])
}

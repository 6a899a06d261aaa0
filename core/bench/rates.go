package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"gitui/core/feature"
	"gitui/core/group"
	"gitui/core/kernel"
	"gitui/core/learn"
	"gitui/core/linalg"

	"gonum.org/v1/gonum/mat"
)

// Rates are the measured speeds of the engine's hot paths on one machine and build, all
// with every core busy (GOMAXPROCS goroutines), that the time estimate of a run
// (model/engine.EstimateTime) multiplies its work counts by:
//
//	Sgemm   GFLOP/s of the float32 GEMM of CDF projections (2·rows·d·m·|G| flops)
//	Pool    projections pooled into CDF counts per second (rows·m·|G| of them)
//	Dgemm   GFLOP/s of float64 Gram matrices of dot products (2·n·m·d flops)
//	Kernel  elementwise kernel evaluations per second on top of the dot product
//	        (the polynomial's power, the Gaussian's exp), n·m of them
//	FFT     pairs per second of a cyclic cross-correlation of two 28×28 images (the TI
//	        kernels' pair: a spectrum product and an inverse transform of 784 points);
//	        a pair of d points costs d·log2(d) / (784·log2 784) of it
//	Reduce  GFLOP/s of a kernel RLS fit counted as 8/3·n³ + 100·n²·k flops (the
//	        tridiagonal reduction and its basis, and leave-one-out over the lambda grid)
//	        at ReduceSmallN samples, and at ReduceLargeN (ReduceLarge); ReduceAt(n)
//	        interpolates between them
//	SMO     work units per second of LIBSVM's SMO: a binary problem of n samples costs
//	        n² units (its kernel rows through the cache, iterations about linear in n)
//
// Calibrated is false for the built-in defaults (DefaultRates); Key names the machine
// and build they were measured on (RatesKey), When the time of the measurement.
type Rates struct {
	Sgemm  float64 `json:"sgemm_gflops"`
	Pool   float64 `json:"pool_per_s"`
	Dgemm  float64 `json:"dgemm_gflops"`
	Kernel float64 `json:"kernel_evals_per_s"`
	FFT    float64 `json:"fft_pairs_per_s"`
	Reduce float64 `json:"reduce_gflops"`
	// ReduceLarge is Reduce measured at ReduceLargeN samples (0 in a cache written
	// before it was measured): see ReduceAt.
	ReduceLarge float64   `json:"reduce_large_gflops,omitempty"`
	SMO         float64   `json:"smo_units_per_s"`
	Calibrated  bool      `json:"calibrated"`
	Key         string    `json:"key"`
	When        time.Time `json:"when"`
}

// DefaultRates returns conservative built-in rates for the build in use, for a machine
// that was never calibrated: about what 2 busy cores of a recent x86-64 server give
// (pure-Go float64 BLAS, with its level-3 products on the packed assembly GEMM where
// linalg.DgemmPacked, or OpenBLAS when linalg.BLAS() is not linalg.PureGoBLAS). They
// err towards slow, so an uncalibrated estimate is more often too long than too short.
func DefaultRates() Rates {
	r := Rates{Sgemm: 60, Pool: 4e8, Dgemm: 6, Kernel: 4e7, FFT: 5e5, Reduce: 1.5, SMO: 2e8, Key: RatesKey()}
	switch {
	case linalg.BLAS() != linalg.PureGoBLAS:
		r.Dgemm, r.Reduce = 40, 6
	case linalg.DgemmPacked():
		r.Dgemm, r.Reduce = 40, 4
	}
	return r
}

// RatesKey identifies the machine and build rates are measured on: the CPU model
// (/proc/cpuinfo), GOOS/GOARCH, GOMAXPROCS, the BLAS and its core, the float32 GEMM, the
// float64 GEMM and the FFT implementation. A cache under another key is not used (another build or machine
// is recalibrated).
func RatesKey() string {
	return strings.Join([]string{cpuModel(), runtime.GOOS + "/" + runtime.GOARCH,
		fmt.Sprintf("gomaxprocs=%d", runtime.GOMAXPROCS(0)), "blas=" + linalg.BLAS() + " " + linalg.BLASCore(),
		"sgemm=" + linalg.SgemmImpl(), "dgemm=" + linalg.DgemmImpl(), "fft=" + kernel.Cyclic28Impl()}, "|")
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or "unknown cpu".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown cpu"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown cpu"
}

// RatesFile returns the path of the rates cache: os.UserCacheDir()/gitui/rates.json.
func RatesFile() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("rates cache: %w", err)
	}
	return filepath.Join(d, "gitui", "rates.json"), nil
}

// LoadRates returns the rates of the cache (RatesFile) measured under this machine's and
// build's RatesKey, with ok true; otherwise DefaultRates and ok false (no cache, an
// unreadable one, or none for this machine and build). The cache keeps one entry per key,
// so the static and the OpenBLAS builds on one machine each keep their own.
func LoadRates() (Rates, bool) {
	path, err := RatesFile()
	if err != nil {
		return DefaultRates(), false
	}
	r, ok := readRates(path)[RatesKey()]
	if !ok || !r.valid() {
		return DefaultRates(), false
	}
	r.Calibrated = true
	return r, true
}

// ratesCache is the file format of the rates cache: the rates of each machine and build,
// by RatesKey.
type ratesCache struct {
	Rates map[string]Rates `json:"rates"`
}

// readRates returns the entries of the rates cache at path by key: none when it is
// missing or unreadable. A cache of one Rates object (written before the cache kept one
// entry per key) reads as that one entry.
func readRates(path string) map[string]Rates {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var c ratesCache
	if json.Unmarshal(b, &c) == nil && c.Rates != nil {
		return c.Rates
	}
	var r Rates
	if json.Unmarshal(b, &r) == nil && r.Key != "" {
		return map[string]Rates{r.Key: r}
	}
	return nil
}

// valid reports whether every rate is positive and finite.
func (r Rates) valid() bool {
	for _, v := range []float64{r.Sgemm, r.Pool, r.Dgemm, r.Kernel, r.FFT, r.Reduce, r.SMO} {
		if !(v > 0) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// ReduceSmallN and ReduceLargeN are the sizes of the two kernel RLS fits Calibrate
// times; ReduceCapN is the size past which ReduceAt stops growing.
const (
	ReduceSmallN = 500
	ReduceLargeN = 2000
	ReduceCapN   = 4000
)

// ReduceAt returns the kernel RLS fit's rate in GFLOP/s at n samples: the rate grows with
// n (level-3 products take more of the reduction's work, the fixed costs less), as a
// power law through the two calibrated points,
//
//	ReduceAt(n) = Reduce · (clamp(n, ReduceSmallN, ReduceCapN) / ReduceSmallN)^α,
//	α = clamp(log(ReduceLarge/Reduce) / log(ReduceLargeN/ReduceSmallN), 0, 0.5),
//
// constant past ReduceCapN (errs towards slow). Without ReduceLarge it is Reduce.
// Measured on an AMD EPYC (2 cores) the fit's rate was 5.0, 5.9 and 7.7 GFLOP/s at 500,
// 2,000 and 4,000 samples in the static build, 7.5, 11.6 and 12.8 with OpenBLAS.
func (r Rates) ReduceAt(n float64) float64 {
	if !(r.ReduceLarge > 0) || !(r.Reduce > 0) {
		return r.Reduce
	}
	a := math.Log(r.ReduceLarge/r.Reduce) / math.Log(float64(ReduceLargeN)/ReduceSmallN)
	a = math.Min(math.Max(a, 0), 0.5)
	x := math.Min(math.Max(n, ReduceSmallN), ReduceCapN) / ReduceSmallN
	return r.Reduce * math.Pow(x, a)
}

// SaveRates writes r into the rates cache (RatesFile) under r.Key, keeping the entries of
// other machines and builds, atomically (a temporary file, then rename), and returns its
// path.
func SaveRates(r Rates) (string, error) {
	path, err := RatesFile()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("rates cache: %w", err)
	}
	c := ratesCache{Rates: readRates(path)}
	if c.Rates == nil {
		c.Rates = map[string]Rates{}
	}
	c.Rates[r.Key] = r
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", fmt.Errorf("rates cache: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("rates cache: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("rates cache: %w", err)
	}
	return path, nil
}

// Calibrate measures Rates on this machine with synthetic data (no data set needed), in
// a few seconds in all: each rate is the best of repeated runs of its path over about
// budget (at least 0.1 s each; 0 means 0.3 s) of work, on every core. It returns the
// rates (Calibrated, Key and When set) and one Result per rate, in the form of `gitui
// bench --json` (name "rate-NAME", throughput in the rate's unit). It returns ctx.Err() if
// cancelled.
func Calibrate(ctx context.Context, budget time.Duration) (Rates, []Result, error) {
	if budget <= 0 {
		budget = 300 * time.Millisecond
	}
	budget = max(budget, 100*time.Millisecond)
	rng := rand.New(rand.NewPCG(7, 7))
	r := Rates{Calibrated: true, Key: RatesKey(), When: time.Now().UTC().Round(time.Second)}
	var out []Result
	// add records a rate; Seconds is the fastest timed run it comes from.
	add := func(name, unit string, v, s float64, params map[string]any) {
		out = append(out, Result{Name: "rate-" + name, Seconds: s, Throughput: v, Unit: unit, Params: withMachine(params)})
	}
	steps := []func() error{
		func() error { // float32 GEMM as the projections run it: B (m·|G| × d) packed once, GOMAXPROCS workers each multiplying its own 256-row block
			m, n, k := 256, 2048, 784
			w := runtime.GOMAXPROCS(0)
			pb := linalg.PackB(n, k, randF32(rng, n*k), k)
			as, cs := make([][]float32, w), make([][]float32, w)
			for i := range w {
				as[i], cs[i] = randF32(rng, m*k), make([]float32, m*n)
			}
			s, err := best(ctx, budget, func() error {
				var wg sync.WaitGroup
				for i := range w {
					wg.Go(func() { pb.MulNT(m, as[i], k, cs[i], n) })
				}
				wg.Wait()
				return nil
			})
			r.Sgemm = 2 * float64(w*m*n*k) / s / 1e9
			add("sgemm", "GFLOP/s", r.Sgemm, s, map[string]any{"m": m, "n": n, "k": k, "workers": w})
			return err
		},
		func() error { // CDF pooling: the feature map's pooling stage on 28×28 images, |G| = 49
			x := unitRowsOf(randDense(rng, 300, 784))
			tm := unitRowsOf(randDense(rng, 20, 784))
			f, err := feature.NewCDF(tm, group.LocalShifts(28, 28, 3), feature.CDFOptions{Bins: 25})
			if err != nil {
				return err
			}
			pool, proj := math.Inf(1), math.Inf(1)
			t0 := time.Now()
			for i := 0; i == 0 || time.Since(t0) < budget; i++ {
				_, tt, err := f.TransformTimed(ctx, x, nil)
				if err != nil {
					return err
				}
				pool, proj = min(pool, tt.Pooling.Seconds()), min(proj, tt.Projection.Seconds())
			}
			r.Pool = 300 * 20 * 49 / math.Max(pool, 1e-6)
			add("pool", "projections/s", r.Pool, pool, map[string]any{"n": 300, "m": 20, "g": 49, "bins": 25, "projection_s": proj})
			return nil
		},
		func() error { // float64 Gram of dot products, and the polynomial kernel on top
			x, z := randDense(rng, 600, 784), randDense(rng, 400, 784)
			lin, err := best(ctx, budget, func() error { _, err := kernel.Gram(ctx, kernel.Linear{}, x, z); return err })
			if err != nil {
				return err
			}
			poly, err := best(ctx, budget, func() error {
				_, err := kernel.Gram(ctx, kernel.Poly{Gamma: 1.0 / 784, Degree: 8}, x, z)
				return err
			})
			r.Dgemm = 2 * 600 * 400 * 784 / lin / 1e9
			// The power costs at least a tenth of a dot product's time (timing noise can
			// make the difference tiny or negative).
			r.Kernel = 600 * 400 / math.Max(poly-lin, lin/10)
			add("dgemm", "GFLOP/s", r.Dgemm, lin, map[string]any{"n": 600, "m": 400, "d": 784})
			add("kernel", "evals/s", r.Kernel, poly, map[string]any{"n": 600, "m": 400, "kernel": "poly degree 8"})
			return err
		},
		func() error { // TI best-fit pairs through the FFT, 28×28
			// 48,000 pairs (about 20 ms a run): at 4,800 pairs two calibrations minutes
			// apart gave 1.15 and 1.94 million pairs a second, at 48,000 six gave
			// 2.40-2.69 million.
			a, b := randDense(rng, 200, 784), randDense(rng, 240, 784)
			s, err := best(ctx, budget, func() error {
				sa, err := kernel.NewSpectra(ctx, 28, 28, kernel.Shift2D, a, nil)
				if err != nil {
					return err
				}
				sb, err := kernel.NewSpectra(ctx, 28, 28, kernel.Shift2D, b, nil)
				if err != nil {
					return err
				}
				_, err = kernel.CyclicGram(ctx, kernel.Linear{}, kernel.BestFit, sa, sb)
				return err
			})
			r.FFT = 200 * 240 / s
			add("fft", "pairs/s", r.FFT, s, map[string]any{"n": 240, "test": 200, "shifts": 784, "fft": kernel.Cyclic28Impl()})
			return err
		},
		func() error { // kernel RLS: reduction and leave-one-out over the default grid, at two sizes
			for _, n := range []int{ReduceSmallN, ReduceLargeN} {
				const k = 10
				x := randDense(rng, n, 64)
				K, err := kernel.SymGram(ctx, kernel.RBF{Gamma: 1.0 / 64}, x)
				if err != nil {
					return err
				}
				y := make([]int, n)
				for i := range y {
					y[i] = i % k
				}
				b := budget
				if n == ReduceLargeN {
					b = 0 // one fit: it takes seconds
				}
				s, err := best(ctx, b, func() error { _, err := learn.FitKernelRLS(ctx, K, y, k, learn.RLSOptions{}); return err })
				if err != nil {
					return err
				}
				fn := float64(n)
				rate := (8.0/3*fn*fn*fn + 100*fn*fn*k) / s / 1e9
				if n == ReduceSmallN {
					r.Reduce = rate
					add("reduce", "GFLOP/s", rate, s, map[string]any{"n": n, "classes": k})
				} else {
					r.ReduceLarge = rate
					add("reduce-large", "GFLOP/s", rate, s, map[string]any{"n": n, "classes": k})
				}
			}
			return nil
		},
		func() error { // SMO on clustered data, 10 classes one-vs-one
			const n, k = 400, 10
			x := randDense(rng, n, 32)
			y := make([]int, n)
			for i := range y {
				y[i] = i % k
				x.Set(i, y[i], x.At(i, y[i])+2)
			}
			K, err := kernel.SymGram(ctx, kernel.RBF{Gamma: 1.0 / 32}, x)
			if err != nil {
				return err
			}
			s, err := best(ctx, budget, func() error { _, err := learn.TrainSVC(ctx, K, y, 1000, nil); return err })
			r.SMO = SMOUnits(n, k) / s
			add("smo", "units/s", r.SMO, s, map[string]any{"n": n, "classes": k, "C": 1000})
			return err
		},
	}
	for _, step := range steps {
		if err := ctx.Err(); err != nil {
			return r, out, err
		}
		if err := step(); err != nil {
			if ctx.Err() != nil {
				return r, out, ctx.Err()
			}
			return r, out, fmt.Errorf("calibrate: %w", err)
		}
	}
	return r, out, nil
}

// SMOUnits is the SMO work of a one-vs-one C-SVC of n samples in k balanced classes:
// k(k-1)/2 binary problems of 2n/k samples, each (2n/k)² units (Rates.SMO); for k = 2,
// n².
func SMOUnits(n, k int) float64 {
	if k < 2 {
		k = 2
	}
	m := 2 * float64(n) / float64(k)
	return float64(k*(k-1)/2) * m * m
}

// best runs fn at least once and until budget has passed, and returns its fastest
// wall time in seconds.
func best(ctx context.Context, budget time.Duration, fn func() error) (float64, error) {
	b := math.Inf(1)
	t0 := time.Now()
	for i := 0; i == 0 || time.Since(t0) < budget; i++ {
		if err := ctx.Err(); err != nil {
			return b, err
		}
		s := time.Now()
		if err := fn(); err != nil {
			return b, err
		}
		b = min(b, math.Max(time.Since(s).Seconds(), 1e-9))
	}
	return b, nil
}

func randF32(rng *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return v
}

func randDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range m.RawMatrix().Data {
		m.RawMatrix().Data[i] = rng.Float64()
	}
	return m
}

func unitRowsOf(x *mat.Dense) *mat.Dense { unitRows(x); return x }

var (
	ratesOnce   sync.Once
	ratesCached Rates
)

// LoadRatesOnce is LoadRates read once per process (the cache changes only with `gitui
// bench --calibrate`, which runs in its own process).
func LoadRatesOnce() Rates {
	ratesOnce.Do(func() { ratesCached, _ = LoadRates() })
	return ratesCached
}

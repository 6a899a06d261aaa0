package bench

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"gitui/core/data"
	"gitui/core/feature"
	"gitui/core/group"
	"gitui/core/linalg"

	"gonum.org/v1/gonum/mat"
)

// Result is one timed hot path, as `gitui bench --json` prints it.
type Result struct {
	Name       string         `json:"name"`       // e.g. "features"
	Seconds    float64        `json:"seconds"`    // wall time of the timed part
	Throughput float64        `json:"throughput"` // work per second, in Unit
	Unit       string         `json:"unit"`       // e.g. "images/s"
	Params     map[string]any `json:"params"`     // sizes, BLAS, stage times, GFLOP/s
}

// MNISTTrainImages is the images file [Features] reads, relative to dataDir.
const MNISTTrainImages = "mnist/train10k-images-idx3-ubyte.gz"

// Features times the I-theory CDF feature map on the workload of the numpy peer
// (../shared/bench/cdf_features.py --n N --m M --g G --bins B):
//
//   - X: the first n images of dataDir/mnist/train10k-images-idx3-ubyte.gz, pixels/255,
//     rows scaled to unit norm (d = 784);
//   - m templates: distinct random training images (unit norm; seed fixed);
//   - G: g = 441 is 9 rotations in [-20, 20] degrees (bilinear, zero fill) followed by
//     the 49 zero-fill shifts of radius 3, as the peer; g = 49 is the shifts alone;
//   - features phi(x, t_j, tau_k) for tau_k = k/bins, k = -bins..bins.
//
// Seconds is the wall time of the feature map (transformed templates + projections +
// pooling; loading the data is not timed). Throughput is images/s. Params holds n, m, g,
// bins, d, blas, sgemm (linalg.SgemmImpl), gomaxprocs, and the stage seconds templates_s, projection_s,
// pooling_s (peer: "templates", "projection", "pooling") and gflops, the projection
// rate 2·n·d·m·g / projection_s / 1e9 with d = 784 as the peer counts it (coordinates
// that are zero in every image are dropped from the GEMM but still counted). Before returning, the features of the first
// image and template are checked against the plain definition in float64.
//
// It returns an [data.InputError] for a missing or bad data file, n < 1, n above the images
// available, m < 1 or m > n, g not 49 or 441, or bins < 1; ctx.Err() if cancelled.
func Features(ctx context.Context, dataDir string, n, m, g, bins int) (Result, error) {
	switch {
	case n < 1:
		return Result{}, inputErrorf("bench features: n = %d images: pass --n >= 1", n)
	case m < 1 || m > n:
		return Result{}, inputErrorf("bench features: m = %d templates with n = %d images: use 1 <= m <= n", m, n)
	case g != 49 && g != 441:
		return Result{}, inputErrorf("bench features: |G| = %d: use 49 (shifts) or 441 (9 rotations x 49 shifts)", g)
	case bins < 1:
		return Result{}, inputErrorf("bench features: bins = %d: use bins >= 1", bins)
	}
	return features(ctx, dataDir, n, m, bins, mnistGroup(g), nil)
}

// FeaturesGroupFile is [Features] with the group read from path: an integer .npy of
// shape (|G|, 784), one permutation of the pixels per row (group.NewPermSet: the identity
// first or added), so a group a user brings can be timed against a built-in one of the
// same |G| on the same gather and GEMM paths. Params gain "group_file" and "g" is |G|.
// It returns an [InputError] for a file that cannot be read or is not such an array, and
// for the inputs Features refuses (n, m, bins).
func FeaturesGroupFile(ctx context.Context, dataDir string, n, m, bins int, path string) (Result, error) {
	arr, err := data.LoadIntNPY(path)
	if err != nil {
		return Result{}, inputErrorf("bench features: --group: %v", err)
	}
	if len(arr.Shape) != 2 || arr.Shape[1] != 784 {
		return Result{}, inputErrorf("bench features: --group %s has shape %v: give permutations of the 784 MNIST pixels, shape (|G|, 784)", path, arr.Shape)
	}
	rows := make([][]int, arr.Shape[0])
	for i := range rows {
		rows[i] = arr.Data[i*784 : (i+1)*784]
	}
	act, err := group.NewPermSet(ctx, rows, filepath.Base(path))
	if err != nil {
		return Result{}, inputErrorf("bench features: --group %s: %v", path, err)
	}
	return features(ctx, dataDir, n, m, bins, act, map[string]any{"group_file": path})
}

// features times CDF features of the first n MNIST training images under act (see
// [Features]); extra params are added to the result's.
func features(ctx context.Context, dataDir string, n, m, bins int, act group.Action, extra map[string]any) (Result, error) {
	switch {
	case n < 1:
		return Result{}, inputErrorf("bench features: n = %d images: pass --n >= 1", n)
	case m < 1 || m > n:
		return Result{}, inputErrorf("bench features: m = %d templates with n = %d images: use 1 <= m <= n", m, n)
	case bins < 1:
		return Result{}, inputErrorf("bench features: bins = %d: use bins >= 1", bins)
	}
	g := act.Len()
	x, err := loadImages(filepath.Join(dataDir, MNISTTrainImages), n, "--n")
	if err != nil {
		return Result{}, fmt.Errorf("bench features: %w", asInput(err))
	}
	unitRows(x)
	tmpl, err := feature.DataTemplates(x, m, rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		return Result{}, fmt.Errorf("bench features: %w", err)
	}
	f, err := feature.NewCDF(tmpl, act, feature.CDFOptions{Bins: bins})
	if err != nil {
		return Result{}, fmt.Errorf("bench features: %w", err)
	}
	start := time.Now()
	phi, tm, err := f.TransformTimed(ctx, x, nil)
	wall := time.Since(start).Seconds()
	if err != nil {
		return Result{}, err
	}
	if err := checkFirst(phi, x, tmpl, act, f.Thresholds(0), m); err != nil {
		return Result{}, err
	}
	proj := tm.Projection.Seconds()
	params := map[string]any{
		"n": n, "m": m, "g": g, "bins": bins, "d": 784,
		"templates_s":  tm.Templates.Seconds(),
		"projection_s": proj,
		"pooling_s":    tm.Pooling.Seconds(),
		"gflops":       2 * float64(n) * 784 * float64(m) * float64(g) / proj / 1e9,
		"sgemm":        linalg.SgemmImpl(),
	}
	for k, v := range extra {
		params[k] = v
	}
	return Result{
		Name:       "features",
		Seconds:    wall,
		Throughput: float64(n) / wall,
		Unit:       "images/s",
		Params:     withMachine(params),
	}, nil
}

// mnistGroup returns the peer's transformation set for 28×28 images.
func mnistGroup(g int) group.Action {
	sh := group.LocalShifts(28, 28, 3)
	if g == 49 {
		return sh
	}
	return group.Product(sh, group.Rotations(28, 28, group.AngleRange(-20, 20, 9)))
}

// loadImages reads the first n images of an IDX file (all of them if n <= 0) as an
// n×(rows·cols) matrix in [0, 1]; flag names the option that sets n, for the error when
// the file holds fewer.
func loadImages(path string, n int, flag string) (*mat.Dense, error) {
	f, err := openMNIST(path, "images")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := data.ReadIDXImages(f)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	if n <= 0 {
		n = img.N
	}
	if img.N < n {
		return nil, fmt.Errorf("%s holds %d images, %d asked for: pass %s <= %d", path, img.N, n, flag, img.N)
	}
	d := img.Rows * img.Cols
	x := mat.NewDense(n, d, nil)
	for i, v := range img.Pix[:n*d] {
		x.RawMatrix().Data[i] = float64(v) / 255
	}
	return x, nil
}

// openMNIST opens the MNIST file path (what: "images" or "labels"); a missing file is
// an error saying how to point at the data or fetch it.
func openMNIST(path, what string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("MNIST %s not found at %s: pass --data DIR (or set GITUI_DATA) to a directory holding mnist/, or run `gitui data fetch mnist` (%w)", what, path, err)
	}
	return f, err
}

// unitRows scales every non-zero row of x to unit norm.
func unitRows(x *mat.Dense) {
	r, _ := x.Dims()
	for i := range r {
		row := x.RawRowView(i)
		var ss float64
		for _, v := range row {
			ss += v * v
		}
		if ss > 0 {
			s := 1 / math.Sqrt(ss)
			for k := range row {
				row[k] *= s
			}
		}
	}
}

// checkFirst compares the CDF features of image 0 and template 0 with the definition
// in float64, allowing a count to differ only for projections within 1e-5 of a threshold
// (the float32 GEMM is accurate to ~1e-6 here).
func checkFirst(phi, x, tmpl *mat.Dense, g group.Action, tau []float64, m int) error {
	d := g.Dim()
	p := make([]float64, g.Len())
	gt := make([]float64, d)
	for i := range p {
		g.Apply(gt, tmpl.RawRowView(0), i)
		p[i] = mat.Dot(mat.NewVecDense(d, gt), x.RowView(0))
	}
	c := math.Sqrt((tau[1]-tau[0])/float64(m)) / float64(len(p))
	for k, t := range tau {
		cnt, near := 0, 0
		for _, v := range p {
			if v <= t {
				cnt++
			}
			if math.Abs(v-t) <= 1e-5 {
				near++
			}
		}
		if math.Abs(phi.At(0, k)-c*float64(cnt)) > c*float64(near)+1e-12 {
			return fmt.Errorf("bench features: self-check failed at threshold %d: got %v, want %v: this is a bug, please report it", k, phi.At(0, k), c*float64(cnt))
		}
	}
	return nil
}

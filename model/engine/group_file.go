package engine

// The engine's half of the groups a user brings (the spec's half is
// model/group_file.go): building them from files or generators, their memory, the Haar
// kernel's closure check and the run log's line.

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"

	"gitui/core/data"
	"gitui/core/group"
	"gitui/internal/bytefmt"
	"gitui/model"
)

// dims returns the number of coordinates of a sample of the given shape.
func dims(shape []int) int {
	d := 1
	for _, s := range shape {
		d *= s
	}
	return d
}

// fileGroup returns the builder of a group of FileGroupKinds made by make on samples of
// the given shape with d coordinates, after refusing a shape the kind cannot act on;
// make keeps a seeded sample of g.Size elements itself. Errors are *InputError naming
// the field, the file, the row and the fix.
func fileGroup(make func(ctx context.Context, g model.GroupSpec, shape []int, d int, rng *rand.Rand) (group.Action, error)) func(context.Context, model.GroupSpec, []int, *rand.Rand) (group.Action, error) {
	return func(ctx context.Context, g model.GroupSpec, shape []int, rng *rand.Rand) (group.Action, error) {
		if err := model.FileGroupShape(g, shape, "group", "the data"); err != nil {
			return nil, inputErr(err)
		}
		return make(ctx, g, shape, dims(shape), rng)
	}
}

func buildDihedral(_ context.Context, g model.GroupSpec, shape []int, _ int, rng *rand.Rand) (group.Action, error) {
	return sampleGroup(group.Dihedral(shape[0]), g, rng), nil
}

func buildMirror(_ context.Context, g model.GroupSpec, shape []int, _ int, rng *rand.Rand) (group.Action, error) {
	return sampleGroup(group.Mirror(shape[0], shape[1], g.Axis != "vertical"), g, rng), nil
}

func buildReversal(_ context.Context, g model.GroupSpec, shape []int, _ int, rng *rand.Rand) (group.Action, error) {
	A := 1
	if len(shape) == 2 {
		A = shape[1]
	}
	return sampleGroup(group.Reversal(shape[0], A), g, rng), nil
}

func buildPermutationFile(ctx context.Context, g model.GroupSpec, shape []int, d int, rng *rand.Rand) (group.Action, error) {
	arr, err := data.LoadIntNPY(g.Path)
	if err != nil {
		return nil, inputErr(fmt.Errorf("group.path: %w", err))
	}
	if len(arr.Shape) != 2 || arr.Shape[1] != d {
		return nil, inputErr(fmt.Errorf("group.path %s has shape %v, want (|G|, %d): one permutation of the %d coordinates of the data (shape %v) per row", g.Path, arr.Shape, d, d, shape))
	}
	s, err := group.NewPermSet(ctx, permRows(arr, d), filepath.Base(g.Path))
	if err != nil {
		return nil, inputErr(fmt.Errorf("group.path %s: %w", g.Path, err))
	}
	return sampleGroup(s, g, rng), nil
}

func buildLinearFile(ctx context.Context, g model.GroupSpec, shape []int, d int, rng *rand.Rand) (group.Action, error) {
	arr, err := data.LoadFloatNPY(g.Path)
	if err != nil {
		return nil, inputErr(fmt.Errorf("group.path: %w", err))
	}
	if len(arr.Shape) != 3 || arr.Shape[1] != d || arr.Shape[2] != d {
		return nil, inputErr(fmt.Errorf("group.path %s has shape %v, want (|G|, %d, %d): one orthogonal matrix acting on the %d coordinates of the data (shape %v) per entry", g.Path, arr.Shape, d, d, d, shape))
	}
	if err := checkGroupMemory(g, shape); err != nil {
		return nil, err
	}
	s, err := group.NewLinearSet(ctx, arr.Data, arr.Shape[0], d, filepath.Base(g.Path))
	if err != nil {
		return nil, inputErr(fmt.Errorf("group.path %s: %w", g.Path, err))
	}
	return sampleGroup(s, g, rng), nil
}

func buildGenerated(ctx context.Context, g model.GroupSpec, _ []int, d int, rng *rand.Rand) (group.Action, error) {
	c, err := generatedChain(ctx, g, d)
	if err != nil {
		return nil, err
	}
	order := c.Order()
	name := fmt.Sprintf("generated group of order %s", group.FormatOrder(order))
	if g.Size > 0 && order.Cmp(big.NewInt(int64(g.Size))) > 0 {
		return c.Sample(ctx, g.Size, rng, fmt.Sprintf("%d of the %s", g.Size, name))
	}
	if err := checkEnumerable(order, d); err != nil {
		return nil, err
	}
	s, err := c.Enumerate(ctx, maxEnumerated, name)
	if err != nil {
		return nil, inputErr(err)
	}
	return s, nil
}

// generatedChain reads the generators of a generated group (inline or from
// GeneratorsPath) and returns their stabiliser chain, built under ctx (a cancelled
// chain returns ctx.Err()). The last chain built is kept (lastChain), so the estimate
// and the build that follows it do the work once.
func generatedChain(ctx context.Context, g model.GroupSpec, d int) (*group.Chain, error) {
	gens, where, err := generators(g, d)
	if err != nil {
		return nil, err
	}
	// The chain's transversal tables grow with the degree and the orbits (S_1000: about
	// 4 GB): they are bounded by the memory limit, and a chain past it is refused.
	limit, source, err := data.AvailableMemory()
	if err != nil {
		return nil, err
	}
	key := chainKey(d, limit, gens)
	lastChain.Lock()
	defer lastChain.Unlock()
	if lastChain.key == key {
		return lastChain.c, nil
	}
	c, err := group.NewChainLimit(ctx, d, gens, limit)
	if err == nil && c.Bytes() <= maxCachedChain {
		lastChain.key, lastChain.c = key, c
	}
	if errors.Is(err, group.ErrChainTooLarge) {
		return nil, inputErr(memoryError(fmt.Sprintf("%s: %v, the memory available (%s): use data with fewer coordinates or fewer generators (%s=SIZE sets the limit)", where, err, source, MemoryEnv)))
	}
	if err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", where, err))
	}
	return c, nil
}

// estimateChainDegree is the degree from which the estimate no longer builds a generated
// group's chain (S_100: 0.2 s; S_200: 3 s).
const estimateChainDegree = 128

// generators reads the generators of a generated group, inline or from GeneratorsPath,
// as permutations of d coordinates, and the field they came from ("group.generators" or
// "group.generators_path FILE"). Errors are *InputError naming the field and the fix.
func generators(g model.GroupSpec, d int) ([][]int, string, error) {
	gens, where := g.Generators, "group.generators"
	if g.GeneratorsPath != "" {
		where = "group.generators_path " + g.GeneratorsPath
		arr, err := data.LoadIntNPY(g.GeneratorsPath)
		if err != nil {
			return nil, where, inputErr(fmt.Errorf("group.generators_path: %w", err))
		}
		if len(arr.Shape) != 2 || arr.Shape[1] != d {
			return nil, where, inputErr(fmt.Errorf("%s has shape %v, want (k, %d): one permutation of the %d coordinates of the data per row", where, arr.Shape, d, d))
		}
		gens = permRows(arr, d)
	}
	for i, p := range gens {
		if len(p) != d {
			return nil, where, inputErr(fmt.Errorf("%s: generator %d has %d entries, the data have %d coordinates: give permutations of 0..%d", where, i, len(p), d, d-1))
		}
	}
	return gens, where, nil
}

// lastChain holds the last stabiliser chain generatedChain built and the key of its
// inputs (degree, memory limit, generators): the run's estimate builds the chain to learn
// the group's order (for small degrees), and BuildGroup then needs the same chain.
var lastChain struct {
	sync.Mutex
	key [sha256.Size]byte
	c   *group.Chain
}

// maxCachedChain bounds the chain lastChain keeps alive between runs (the TUI's process
// lives on): larger tables are rebuilt (a 10,000-cycle's 800 MB take 0.3 s).
const maxCachedChain = 64 << 20

// chainKey is the SHA-256 of d, the memory limit and the generators' images.
func chainKey(d int, limit int64, gens [][]int) [sha256.Size]byte {
	h := sha256.New()
	var b [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	put(int64(d))
	put(limit)
	put(int64(len(gens)))
	for _, p := range gens {
		for _, v := range p {
			put(int64(v))
		}
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// permRows returns the rows of a (|rows|, d) array of permutations (group.path,
// group.generators_path), sharing a's storage.
func permRows(arr *data.IntArray, d int) [][]int {
	rows := make([][]int, arr.Shape[0])
	for i := range rows {
		rows[i] = arr.Data[i*d : (i+1)*d]
	}
	return rows
}

// permTableBytes is the memory of one listed permutation of d coordinates in a
// group.PermSet: the image table and its inverse (int32), two slice headers, and its key
// while the set is built (4·d bytes and a map entry).
func permTableBytes(d int) float64 { return 12*float64(d) + 2*24 + 88 }

// checkEnumerable refuses (an *InputError) to list a generated group of the given order
// on d coordinates when it has more than 362,880 elements or its tables exceed
// data.AvailableMemory: the message gives the order and the fix (group.size).
func checkEnumerable(order *big.Int, d int) error {
	fix := fmt.Errorf("the generators give a group of %s elements: give group.size to sample some, e.g. 1000", group.FormatOrder(order))
	if !order.IsInt64() || order.Int64() > maxEnumerated {
		return inputErr(fix)
	}
	limit, _, err := data.AvailableMemory()
	if err != nil {
		return err
	}
	if float64(order.Int64())*permTableBytes(d) > float64(limit) {
		return inputErr(fix)
	}
	return nil
}

// fileCost returns the cost of a group of FileGroupKinds whose order on samples with
// d coordinates order returns (ok false: unknown here, cost 0, and BuildGroup refuses it
// with its own message): the order capped at g.Size, and its permutation tables. Files'
// headers are read for their sizes; a file that cannot be read, or generators that do
// not build, cost 0.
func fileCost(order func(g model.GroupSpec, d int) (float64, bool)) func(model.GroupSpec, []int) (float64, float64, EstimateItem) {
	return func(g model.GroupSpec, shape []int) (float64, float64, EstimateItem) {
		d := dims(shape)
		o, ok := order(g, d)
		if !ok {
			return 0, 0, EstimateItem{}
		}
		if g.Size > 0 && float64(g.Size) < o {
			o = float64(g.Size)
		}
		bytes := o * permTableBytes(d)
		return o, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.4g permutations of %d coordinates", o, d), Bytes: bytes, Fix: "use a smaller group.size"}
	}
}

func dihedralCost(model.GroupSpec, int) (float64, bool) { return 8, true }

func involutionCost(model.GroupSpec, int) (float64, bool) { return 2, true }

func permutationFileCost(g model.GroupSpec, _ int) (float64, bool) {
	if shape, err := data.NPYShape(g.Path); err == nil && len(shape) == 2 {
		return float64(shape[0] + 1), true
	}
	return 0, true
}

// generatedCost is the cost of a generated group. The estimate runs where nothing may
// wait (the TUI's panes, before a run's context exists): it builds the chain only for
// small degrees, where it takes milliseconds. Otherwise group.size bounds the tables and
// the chain, built before the sample is drawn, counts with at least its first level
// (exact from the generators' orbit; nothing for S_n and A_n); without group.size the
// order is unknown here and BuildGroup refuses a group too large to list.
func generatedCost(g model.GroupSpec, shape []int) (order, bytes float64, item EstimateItem) {
	d := dims(shape)
	if d >= estimateChainDegree {
		if g.Size <= 0 {
			return 0, 0, item
		}
		chain := 0.0
		if gens, _, err := generators(g, d); err == nil {
			b, _ := group.ChainBytesBound(context.Background(), d, gens)
			chain = float64(b)
		}
		order = float64(g.Size)
		bytes = order*permTableBytes(d) + chain
		return order, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.4g permutations of %d coordinates, and the generators' stabiliser chain (%s at least)", order, d, bytefmt.IEC(chain)), Bytes: bytes,
			Fix: "use generators of a smaller group, or data with fewer coordinates"}
	}
	return fileCost(generatedOrder)(g, shape)
}

// generatedOrder is the order of a generated group of small degree d, from its chain
// (ok false where the generators do not build or the group is too large to list
// without group.size).
func generatedOrder(g model.GroupSpec, d int) (float64, bool) {
	c, err := generatedChain(context.Background(), g, d)
	if err != nil {
		return 0, false
	}
	order, _ := new(big.Float).SetInt(c.Order()).Float64()
	if g.Size <= 0 && order > maxEnumerated {
		return 0, false // BuildGroup refuses with the order and the fix
	}
	return order, true
}

// linearFileCost is the cost of a group of orthogonal matrices from a file: its order
// capped at g.Size, and the matrices (|G|·d² float64), all kept even when a sample is
// used.
func linearFileCost(g model.GroupSpec, shape []int) (order, bytes float64, item EstimateItem) {
	d := dims(shape)
	n := 0.0
	if shape, err := data.NPYShape(g.Path); err == nil && len(shape) == 3 {
		n = float64(shape[0] + 1)
	}
	order = n
	if g.Size > 0 {
		order = min(order, float64(g.Size))
	}
	bytes = n * 8 * float64(d) * float64(d)
	return order, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.0f orthogonal %dx%d matrices", order, d, d), Bytes: bytes,
		Fix: "use fewer matrices or data with fewer coordinates (the matrices are d x d)"}
}

// haarGroupCheck refuses (an *InputError) the Haar kernel of method m over a group of
// FileGroupKinds that turned out not to be closed under composition (a file of rows or
// matrices that is only a set): the Haar kernel and exact invariance need a group.
func haarGroupCheck(m model.Method, g group.Action) error {
	c, ok := g.(interface {
		Closed() bool
		Describe() string
	})
	if !m.IsHaar() || !ok || c.Closed() {
		return nil
	}
	what := c.Describe()
	if i := strings.Index(what, " (they generate"); i > 0 {
		what = what[:i]
	}
	return inputErr(fmt.Errorf("%s: the Haar kernel averages over a whole group, and %s is %s: give the whole group (or its generators, with group.kind generated), or use CDF features", m.DisplayName(), g.Name(), what))
}

// groupLine is the run log's line for the spec's group: "group NAME: |G| = N", followed
// for sets that know their closure by what they are ("a group of 8 elements" or "a set of
// 50 permutations, not closed under composition (...)").
func groupLine(g group.Action) string {
	line := fmt.Sprintf("group %s: |G| = %d", g.Name(), g.Len())
	if c, ok := g.(interface{ Describe() string }); ok {
		line += ", " + c.Describe()
	}
	return line
}

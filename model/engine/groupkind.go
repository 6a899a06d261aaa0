package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gitui/core/group"
	"gitui/model"
)

// groupKindEngine is what the engine does for one group kind (model.GroupKinds): build
// the group acting on samples of a shape, and estimate its order and element tables. The
// registry of the kinds' spec fields and checks is model (specfields.go, group_file.go);
// this table says how each kind is built and costed, so that neither BuildGroup nor the
// estimate switches over the kinds.
type groupKindEngine struct {
	// build returns the group g acting on samples of shape, a seeded sample of g.Size
	// elements (drawn with rng) when g.Size > 0 is below its order; nil for no group.
	// Errors are *InputError naming the field and the fix.
	build func(ctx context.Context, g model.GroupSpec, shape []int, rng *rand.Rand) (group.Action, error)
	// cost returns the order of g on samples of shape (0 when it cannot act on them:
	// build then refuses) and the bytes of its element tables, with the term describing
	// them. nil: order 0, no tables.
	cost func(g model.GroupSpec, shape []int) (order, bytes float64, item EstimateItem)
}

// groupKinds maps every group kind (and the empty kind, read as none) to its engine
// (filled by init: the builders' memory checks cost groups through it).
var groupKinds map[string]groupKindEngine

func init() {
	groupKinds = map[string]groupKindEngine{
		"":                         {build: buildNoGroup},
		model.GroupNone:            {build: buildNoGroup},
		model.GroupPermutation:     {build: buildPermutations, cost: permutationCost},
		model.GroupCyclicShift:     {build: imageGroup(false, buildCyclicShifts), cost: cyclicShiftCost},
		model.GroupLocalShift:      {build: imageGroup(false, buildLocalShifts), cost: localShiftCost},
		model.GroupRotation:        {build: imageGroup(true, buildRotations), cost: rotationCost},
		model.GroupRotationShift:   {build: imageGroup(true, buildRotationShifts), cost: rotationShiftCost},
		model.GroupPitchTempo:      {build: pitchTempo(group.DensePitchTempo)},
		model.GroupPitchTempoPaper: {build: pitchTempo(group.PaperPitchTempo)},
		model.GroupDihedral:        {build: fileGroup(buildDihedral), cost: fileCost(dihedralCost)},
		model.GroupMirror:          {build: fileGroup(buildMirror), cost: fileCost(involutionCost)},
		model.GroupReversal:        {build: fileGroup(buildReversal), cost: fileCost(involutionCost)},
		model.GroupPermutations:    {build: fileGroup(buildPermutationFile), cost: fileCost(permutationFileCost)},
		model.GroupLinear:          {build: fileGroup(buildLinearFile), cost: linearFileCost},
		model.GroupGenerated:       {build: fileGroup(buildGenerated), cost: generatedCost},
	}
}

// groupKindOf returns the engine of group kind k, false for an unknown kind.
func groupKindOf(k string) (groupKindEngine, bool) {
	gk, ok := groupKinds[k]
	return gk, ok
}

func buildNoGroup(context.Context, model.GroupSpec, []int, *rand.Rand) (group.Action, error) {
	return nil, nil
}

// sampleGroup keeps a seeded sample of g.Size elements of a when g.Size > 0 is below
// its order (group.Sample: the identity included).
func sampleGroup(a group.Action, g model.GroupSpec, rng *rand.Rand) group.Action {
	if g.Size > 0 && g.Size < a.Len() {
		return group.Sample(a, g.Size, rng)
	}
	return a
}

func buildPermutations(_ context.Context, g model.GroupSpec, shape []int, rng *rand.Rand) (group.Action, error) {
	if len(shape) != 2 {
		return nil, inputErr(fmt.Errorf("group permutation acts on sequences (shape L x A), the data have shape %v: use data xperm or another group", shape))
	}
	if err := group.CheckPermutations(shape[0], g.Size); err != nil {
		return nil, inputErr(fmt.Errorf("group permutation of %d blocks: %w: set group.size to sample some, e.g. 1000", shape[0], err))
	}
	return group.Permutations(shape[0], shape[1], rng, g.Size), nil
}

// imageGroup returns the builder of a group acting on h x w images by make: it refuses
// other shapes and a radius that does not fit, and, when rotates, a missing
// group.angles and non-square images.
func imageGroup(rotates bool, make func(g model.GroupSpec, shape []int, h, w int) (group.Action, error)) func(context.Context, model.GroupSpec, []int, *rand.Rand) (group.Action, error) {
	return func(_ context.Context, g model.GroupSpec, shape []int, rng *rand.Rand) (group.Action, error) {
		if rotates && (g.Angles == nil || g.Angles.Count < 1) {
			return nil, inputErr(fmt.Errorf("group.angles is missing: give from, to and count, e.g. {from: -20, to: 20, count: 9}"))
		}
		if len(shape) != 2 || shape[0] < 2 || shape[1] < 2 {
			return nil, inputErr(fmt.Errorf("group %s needs image data (shape h x w), the data have shape %v: pick a data set of images or group permutation/none", g.Kind, shape))
		}
		if g.Radius >= shape[0] || g.Radius >= shape[1] {
			return nil, inputErr(fmt.Errorf("group.radius %d is not smaller than the %dx%d image: use a radius below %d", g.Radius, shape[0], shape[1], min(shape[0], shape[1])))
		}
		h, w := shape[0], shape[1]
		if rotates {
			if err := squareForRotation("group "+g.Kind, h, w); err != nil {
				return nil, err
			}
		}
		a, err := make(g, shape, h, w)
		if err != nil {
			return nil, err
		}
		return sampleGroup(a, g, rng), nil
	}
}

func buildCyclicShifts(_ model.GroupSpec, _ []int, h, w int) (group.Action, error) {
	return group.AllCyclicShifts(h, w), nil
}

func buildLocalShifts(g model.GroupSpec, _ []int, h, w int) (group.Action, error) {
	return group.LocalShifts(h, w, g.Radius), nil
}

func buildRotations(g model.GroupSpec, _ []int, h, w int) (group.Action, error) {
	return group.Rotations(h, w, group.AngleRange(g.Angles.From, g.Angles.To, g.Angles.Count)), nil
}

// buildRotationShifts builds rotation+shift: rotate (shear and scale), then shift (as
// the numpy peer does): Product(a, b) applies b first.
func buildRotationShifts(g model.GroupSpec, shape []int, h, w int) (group.Action, error) {
	var lin group.Action = group.Rotations(h, w, group.AngleRange(g.Angles.From, g.Angles.To, g.Angles.Count))
	if g.Shears != nil || g.Scales != nil {
		if p := model.AffineProblems(g, "group"); len(p) > 0 {
			return nil, inputErr(fmt.Errorf("%s", p[0]))
		}
		shears, scales := []float64{0}, []float64{1}
		if g.Shears != nil {
			shears = group.AngleRange(g.Shears.From, g.Shears.To, g.Shears.Count)
		}
		if g.Scales != nil {
			scales = group.AngleRange(g.Scales.From, g.Scales.To, g.Scales.Count)
		}
		// A value within rounding of the identity (an evenly spaced list through 0 or
		// 1) is the identity, so that element 0 of the group is.
		for i, k := range shears {
			if math.Abs(k) < 1e-12 {
				shears[i] = 0
			}
		}
		for i, z := range scales {
			if math.Abs(z-1) < 1e-12 {
				scales[i] = 1
			}
		}
		// Up to 3600·64·64 linear maps of 96·d bytes each: refuse tables that do not
		// fit before building them (the TUI's preview builds the group without a run's
		// estimate).
		if err := checkGroupMemory(g, shape); err != nil {
			return nil, err
		}
		degrees := group.AngleRange(g.Angles.From, g.Angles.To, g.Angles.Count)
		if err := group.CheckAffine(degrees, shears, scales); err != nil {
			return nil, inputErr(fmt.Errorf("group %s: %w: give distinct finite angles, shears and scales", g.Kind, err))
		}
		// Rotation, shear and scale compose into one resampling per element.
		lin = group.Affine(h, w, degrees, shears, scales)
	}
	return group.Product(group.LocalShifts(h, w, g.Radius), lin), nil
}

// pitchTempo returns the builder of a pitch-tempo group made by make on spectrograms
// (bands x frames), 12 semitone bins an octave.
func pitchTempo(make func(bands, frames, perOctave int) *group.PitchTempo) func(context.Context, model.GroupSpec, []int, *rand.Rand) (group.Action, error) {
	return func(_ context.Context, g model.GroupSpec, shape []int, rng *rand.Rand) (group.Action, error) {
		if len(shape) != 2 {
			return nil, inputErr(fmt.Errorf("group %s acts on spectrograms (bands x frames), the data have shape %v: use spoken-digit data with audio.representation spectrogram", g.Kind, shape))
		}
		return sampleGroup(make(shape[0], shape[1], 12), g, rng), nil
	}
}

// The estimate's costs of the built-in kinds (groupCost).

// linearMaps returns the number of linear maps of g: its angles, times its shears and
// scales for rotation+shift (GroupSpec.LinearCount); 0 without angles.
func linearMaps(g model.GroupSpec, affine bool) float64 {
	if g.Angles == nil {
		return 0
	}
	if affine {
		return float64(g.LinearCount())
	}
	return float64(g.Angles.Count)
}

// shiftSide returns the number of shifts |dy|, |dx| <= r: (2r+1)².
func shiftSide(r int) float64 { return float64(2*r+1) * float64(2*r+1) }

// imageCost caps order at g.Size and returns it with the term of the rotation tables
// (bytes, count linear maps of d pixels); affine names shears and scales too.
func imageCost(g model.GroupSpec, shape []int, order, bytes float64, affine bool) (float64, float64, EstimateItem) {
	if g.Size > 0 && float64(g.Size) < order {
		order = float64(g.Size)
	}
	d := 1.0
	for _, s := range shape {
		d *= float64(s)
	}
	count := linearMaps(g, affine)
	if affine && (g.Shears != nil || g.Scales != nil) {
		return order, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.0f rotations x shears x scales of %.0f pixels", count, d), Bytes: bytes, Fix: "use fewer group.angles, group.shears or group.scales"}
	}
	return order, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.0f rotations of %.0f pixels", count, d), Bytes: bytes, Fix: "use fewer group.angles"}
}

func permutationCost(g model.GroupSpec, shape []int) (order, bytes float64, item EstimateItem) {
	if len(shape) != 2 {
		return 0, 0, item
	}
	L := shape[0]
	full := 1.0
	for i := 2; i <= min(L, 171); i++ {
		full *= float64(i)
	}
	if g.Size <= 0 || float64(g.Size) >= full {
		if full > maxEnumerated {
			return 0, 0, item // BuildGroup refuses to enumerate it, with its own message
		}
		g.Size = 0
	}
	order = full
	if g.Size > 0 {
		order = float64(g.Size)
	}
	// Each permutation: L ints, a slice header, and its key in the sampler's set.
	bytes = order * (8*float64(L) + 24 + float64(L) + 88)
	return order, bytes, EstimateItem{What: fmt.Sprintf("group tables: %.4g permutations of %d blocks", order, L), Bytes: bytes, Fix: "use a smaller group.size"}
}

func cyclicShiftCost(g model.GroupSpec, shape []int) (float64, float64, EstimateItem) {
	order := 0.0
	if len(shape) == 2 {
		order = float64(shape[0]) * float64(shape[1])
	}
	return imageCost(g, shape, order, 0, false)
}

func localShiftCost(g model.GroupSpec, shape []int) (float64, float64, EstimateItem) {
	return imageCost(g, shape, shiftSide(g.Radius), 0, false)
}

func rotationCost(g model.GroupSpec, shape []int) (float64, float64, EstimateItem) {
	count := linearMaps(g, false)
	return imageCost(g, shape, count, tapBytes*count*float64(dims(shape)), false)
}

func rotationShiftCost(g model.GroupSpec, shape []int) (float64, float64, EstimateItem) {
	count := linearMaps(g, true)
	return imageCost(g, shape, count*shiftSide(g.Radius), tapBytes*count*float64(dims(shape)), true)
}

package engine

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/core/group"
	"gitui/model"
)

// nearestCentroid is a toy method: each test row takes the class whose training rows'
// mean is nearest to it.
type nearestCentroid struct{ name string }

func (c nearestCentroid) Name() string { return c.name }

func (c nearestCentroid) Prepare(_ context.Context, pool, test *data.Dataset, _ *eval.Clock) (eval.Fitter, error) {
	return centroidFitter{pool: pool, test: test}, nil
}

type centroidFitter struct{ pool, test *data.Dataset }

func (f centroidFitter) FitPredict(_ context.Context, idx []int, _ *rand.Rand, _ *eval.Clock) ([]int, error) {
	k, d := len(f.pool.Classes), f.pool.Dim()
	mean := make([][]float64, k)
	count := make([]float64, k)
	for c := range mean {
		mean[c] = make([]float64, d)
	}
	for _, i := range idx {
		y := f.pool.Y[i]
		count[y]++
		for j := range d {
			mean[y][j] += f.pool.X.At(i, j)
		}
	}
	pred := make([]int, f.test.Len())
	for i := range pred {
		best := -1.0
		for c := range k {
			if count[c] == 0 {
				continue
			}
			dist := 0.0
			for j := range d {
				v := f.test.X.At(i, j) - mean[c][j]/count[c]
				dist += v * v
			}
			if best < 0 || dist < best {
				best, pred[i] = dist, c
			}
		}
	}
	return pred, nil
}

// TestToyFamily registers a new method family (nearest centroid on raw features) the way
// a real one is added: the model's registry (model.NewFamily in model.Families) and the
// engine's entry (familyEngines), nothing else; Validate, MethodName, the estimate, the
// heatmap's Gram and a run on X_perm then take it.
func TestToyFamily(t *testing.T) {
	toy := model.NewFamily("toy", "nearest centroid", "nearest class mean on raw features", []string{model.LearnerRLS},
		func(m model.Method) bool { return m.IsRaw() && m.Name == "centroid" },
		func(model.Method) string { return "centroid" })
	families := model.Families
	model.Families = append([]*model.Family{toy}, families...)
	familyEngines[toy] = familyEngine{
		build: func(_ *builder, m model.Method, _ group.Action) (eval.Method, error) {
			return nearestCentroid{name: m.DisplayName()}, nil
		},
		estimate: estimateFeatures,
		gram:     featureGram,
	}
	t.Cleanup(func() { model.Families = families; delete(familyEngines, toy) })

	s := &model.Spec{
		Name: "toy", Protocol: model.ProtocolCurve, Seed: 1, Repeats: 1,
		Data:    model.DataSpec{Name: "xperm", TestSize: 200},
		Group:   model.GroupSpec{Kind: model.GroupPermutation},
		Methods: []model.Method{{Features: model.FeaturesRaw, Name: "centroid"}, {Features: model.FeaturesRaw}},
		Sizes:   []int{40},
	}
	if err := resolve(s); err != nil {
		t.Fatal(err)
	}
	if f := model.FamilyOf(s.Methods[0]); f != toy {
		t.Fatalf("FamilyOf = %v, want the toy family", f)
	}
	pool, test, err := LoadData(s.Data, "", s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	if est := EstimateBytes(s, LoadedDataSize(s, pool, test)); est.Bytes <= 0 {
		t.Errorf("estimate of the toy family: %v bytes", est.Bytes)
	}
	var out *eval.Outcome
	matrices := 0
	for e := range Start(context.Background(), s, RunOptions{}) {
		switch e := e.(type) {
		case eval.Matrix:
			matrices++
		case eval.Done:
			if e.Err != nil {
				t.Fatal(e.Err)
			}
			out = e.Outcome
		}
	}
	if matrices == 0 {
		t.Error("no heatmap matrix was sent")
	}
	i := slices.IndexFunc(out.Series, func(s eval.Series) bool { return s.Name == "centroid" })
	if i < 0 {
		t.Fatalf("no series centroid among %d", len(out.Series))
	}
	if acc := out.Series[i].Points[0].Mean; acc <= 0.5 || acc > 1 {
		t.Errorf("nearest centroid on X_perm: accuracy %v, want above chance (0.5)", acc)
	}
}

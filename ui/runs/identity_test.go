package runs

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// entryOf is the Runs pane's entry of a run of s (its flattened spec and methods).
func entryOf(t *testing.T, s *model.Spec) Entry {
	t.Helper()
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := store.Flatten(raw)
	if err != nil {
		t.Fatal(err)
	}
	return Entry{Spec: raw, Params: p}
}

// TestCompareMatchesMethodsByIdentity: compare matches methods by their series name (and
// then by family), not by position: deleting one of five methods reads "B has no Haar
// RLS" and nothing else; a changed gamma of a method that moved is one difference, named
// after the first run's index; a changed bins keeps the CDF method matched (by family).
func TestCompareMatchesMethodsByIdentity(t *testing.T) {
	five := func() *model.Spec {
		s := &model.Spec{Name: "x", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"}, Sizes: []int{10}, Repeats: 1,
			Methods: []model.Method{{Features: "raw"}, {Features: "bow"}, {Features: "cdf", Bins: 5, Templates: 5},
				{Kernel: "haar", Base: "rbf", Gamma: 2.5}, {Features: "cdf", Bins: 25, Templates: 25, Learner: "1nn"}}}
		s.Defaults()
		return s
	}
	a, b := five(), five()
	b.Methods = append(b.Methods[:3], b.Methods[4])
	d := diffByIdentity([]Entry{entryOf(t, a), entryOf(t, b)})
	if len(d.keys) != 0 || !reflect.DeepEqual(d.missing, []string{"B has no Haar RLS"}) {
		t.Fatalf("method 3 deleted: keys %v, missing %v; want none and [B has no Haar RLS]", d.keys, d.missing)
	}
	// The Haar method moved to the front with another gamma: one difference.
	c := five()
	haar := c.Methods[3]
	haar.Gamma = 1
	c.Methods = append([]model.Method{haar}, append(c.Methods[:3], c.Methods[4])...)
	d = diffByIdentity([]Entry{entryOf(t, a), entryOf(t, c)})
	if !reflect.DeepEqual(d.keys, []string{"methods.3.gamma"}) || len(d.missing) != 0 {
		t.Fatalf("moved Haar with gamma 1: keys %v, missing %v; want [methods.3.gamma]", d.keys, d.missing)
	}
	cmp := NewCompare(uitest.Styles(), []Entry{entryOf(t, a), entryOf(t, c)})
	if got := cmp.value(1, cmp.runs[1], "methods.3.gamma"); got != "1" {
		t.Errorf("run B's value of the first run's method 3 gamma: %q, want 1", got)
	}
	// CDF(5,5) RLS with other bins is still the CDF RLS method (matched by family).
	e := five()
	e.Methods[2].Bins = 10
	d = diffByIdentity([]Entry{entryOf(t, a), entryOf(t, e)})
	if !reflect.DeepEqual(d.keys, []string{"methods.2.bins"}) || len(d.missing) != 0 {
		t.Fatalf("bins changed: keys %v, missing %v", d.keys, d.missing)
	}
	if v := strings.Join(d.missing, ";"); strings.Contains(v, "CDF") {
		t.Fatal(v)
	}
}

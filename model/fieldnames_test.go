package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSpecFieldNamesCoverEveryTag: the names --set may add to an encoded spec are derived
// from the json tags of Spec and the structs it holds, so they include every omitempty
// field (the 101 names the hand list optionalKeys held, a sample of which is checked) and
// every key of a fully populated spec's encoding.
func TestSpecFieldNamesCoverEveryTag(t *testing.T) {
	names := specFieldNames()
	for _, k := range strings.Fields("description sizes test_path label_column range_sample feature_kernel antithetic inv_gamma kernel_norm test_transform bands_per_octave generators_path refit_top grid_points startup workers score params axis") {
		if !names[k] {
			t.Errorf("%q is not a known spec field name", k)
		}
	}
	if names["-"] || names[""] {
		t.Error("an empty or ignored tag became a name")
	}
	// Every key of every object in the encoding of a spec with a tune block is known.
	s := &Spec{Name: "x", Protocol: ProtocolCurve, Data: DataSpec{Name: "xperm"}, Methods: []Method{{Features: "cdf", Bins: 5, Templates: 5}},
		Sizes: []int{10}, Repeats: 1, Tune: &TuneSpec{Params: map[string]string{"methods.0.lambda": "log:1e-9..1e-3"}, Trials: 3}}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var tree map[string]any
	if err := json.Unmarshal(b, &tree); err != nil {
		t.Fatal(err)
	}
	var walk func(v any, inParams bool)
	walk = func(v any, inParams bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if !inParams && !names[k] {
					t.Errorf("encoded key %q is not a known field name", k)
				}
				walk(c, k == "params")
			}
		case []any:
			for _, c := range v {
				walk(c, false)
			}
		}
	}
	walk(tree, false)
	// --set of a field the encoding omitted (omitempty) is accepted.
	if err := s.Set("methods.0.range_sample=100"); err != nil {
		t.Errorf("--set of an omitted field: %v", err)
	}
	if err := s.Set("methods.0.no_such_field=1"); err == nil {
		t.Error("--set of an unknown field was accepted")
	}
}

package presets

import (
	"strings"
	"testing"

	"gitui/model"
)

// TestPresetsValidate builds the quick and full variant of every preset (Build panics on
// an invalid spec) and checks that the quick variant is smaller than the full one.
func TestPresetsValidate(t *testing.T) {
	for _, p := range All() {
		full, quick := p.Build(false), p.Build(true)
		if err := full.Validate(); err != nil {
			t.Errorf("%s (full): %v", p.Name, err)
		}
		if err := quick.Validate(); err != nil {
			t.Errorf("%s (quick): %v", p.Name, err)
		}
		if full.Name != p.Name || quick.Name != p.Name {
			t.Errorf("%s: spec names %q and %q", p.Name, full.Name, quick.Name)
		}
		known := map[string]bool{model.ProtocolCurve: true, model.ProtocolGrid: true, model.ProtocolGroupSize: true, model.ProtocolApprox: true}
		if known[full.Protocol] && cost(quick) >= cost(full) {
			t.Errorf("%s: the quick variant is not smaller than the full one", p.Name)
		}
	}
}

// cost is a rough measure of a spec's work: repeats x methods x (training sizes, grid
// cells, group sizes), plus the templates of a kernel-approximation check.
func cost(s *model.Spec) int {
	work := 0
	for _, n := range s.Sizes {
		work += n
	}
	if s.Grid != nil {
		work += s.Grid.Size * len(s.Grid.Bins) * len(s.Grid.Templates)
	}
	work *= max(1, len(s.GroupSizes))
	for _, m := range s.Methods {
		work += m.Templates
	}
	if s.Approx != nil {
		for _, m := range s.Approx.Templates {
			work += m
		}
	}
	return work * s.Repeats * max(1, len(s.Methods))
}

func TestLookup(t *testing.T) {
	if _, err := Lookup("xperm-curve"); err != nil {
		t.Fatal(err)
	}
	_, err := Lookup("nope")
	if err == nil || !strings.Contains(err.Error(), "xperm-curve") {
		t.Errorf("Lookup(nope) = %v, want an error listing the presets", err)
	}
}

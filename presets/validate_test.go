package presets

import (
	"encoding/json"
	"testing"
)

// TestPresetsValidateReadOnly checks that every preset comes with its defaults filled
// (Build resolves the spec: Defaults changes nothing more) and that Validate leaves its
// spec byte-identical (its JSON encoding), for the quick and the full variant.
func TestPresetsValidateReadOnly(t *testing.T) {
	for _, p := range All() {
		for _, quick := range []bool{true, false} {
			s := p.Build(quick)
			before, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("%s (quick %v): %v", p.Name, quick, err)
			}
			if after, _ := json.Marshal(s); string(after) != string(before) {
				t.Errorf("%s (quick %v): Validate changed the spec:\nbefore %s\nafter  %s", p.Name, quick, before, after)
			}
			d := s.Clone()
			d.Defaults()
			if filled, _ := json.Marshal(d); string(filled) != string(before) {
				t.Errorf("%s (quick %v): Build left defaults unfilled:\nbuilt    %s\ndefaults %s", p.Name, quick, before, filled)
			}
		}
	}
}

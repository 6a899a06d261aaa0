package form

import (
	"fmt"
	"testing"

	"gitui/model"
)

// TestFromSpecTakesTheRegistryRange checks that every editable spec-level field of the
// registry becomes a form field that accepts its Min and Max and refuses one step beyond
// (the range `--set` and Validate accept: model's TestSpecFieldRanges).
func TestFromSpecTakesTheRegistryRange(t *testing.T) {
	n := 0
	for _, sf := range model.SpecFields {
		if !Editable(sf.Kind) {
			continue
		}
		f := FromSpec(sf.Key)
		if f.Label != sf.Label || f.Help != sf.Help || f.Min != sf.Min || f.Max != sf.Max {
			t.Errorf("%s: form field %+v differs from the registry's %+v", sf.Key, f, sf)
		}
		if f.Kind != Int && f.Kind != Float && f.Kind != IntList || sf.Max > 1e12 {
			continue
		}
		n++
		for _, c := range []struct {
			x  float64
			ok bool
		}{{sf.Min, true}, {sf.Max, true}, {sf.Min - 1, false}, {sf.Max + 1, false}} {
			text := fmt.Sprint(c.x)
			if f.Kind != Float {
				text = fmt.Sprintf("%.0f", c.x)
			}
			_, err := parse(f, text)
			if (err == nil) != c.ok {
				t.Errorf("%s: %v accepted %v, want %v (%v)", sf.Key, c.x, err == nil, c.ok, err)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d bounded fields checked", n)
	}
}

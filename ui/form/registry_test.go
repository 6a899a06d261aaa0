package form

import (
	"fmt"
	"strings"
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

// TestRegistryRangeMatchesSet checks one range in CLI and TUI: lambda 1e308
// and 1e-320 are refused by the TUI's method field as by --set, 0 (leave-one-out) is
// taken, and a seed of 2^53+1 reaches the spec to the last digit.
func TestRegistryRangeMatchesSet(t *testing.T) {
	s := model.Spec{Methods: []model.Method{{Features: "raw", Learner: "rls"}}}
	lambda, _ := FromMethod(0, model.MethodFieldOf("lambda"), s.Methods[0])
	for _, c := range []struct {
		text string
		ok   bool
	}{{"1e308", false}, {"1e-320", false}, {"1e7", false}, {"0", true}, {"1e-6", true}, {"1e6", true}} {
		_, errTUI := parse(lambda, c.text)
		sp := s
		sp.Methods = append([]model.Method(nil), s.Methods...)
		errCLI := sp.Set("methods.0.lambda=" + c.text)
		if (errTUI == nil) != c.ok || (errCLI == nil) != c.ok {
			t.Errorf("lambda %s: TUI err %v, --set err %v; want accepted=%v by both", c.text, errTUI, errCLI, c.ok)
		}
	}
	seed := FromSpec("seed")
	got, err := parse(seed, "9007199254740993")
	if err != nil || got != "9007199254740993" {
		t.Errorf("seed 2^53+1 parsed as %q, %v", got, err)
	}
	if _, err := parse(seed, "18446744073709551615"); err == nil || !strings.Contains(err.Error(), "18446744073709551615 is out of range") {
		t.Errorf("seed 2^64-1: %v, want out of range quoting the text", err)
	}
	if _, err := parse(FromSpec("repeats"), "0"); err == nil {
		t.Error("repeats 0 accepted by the TUI")
	}
}

package ui

import (
	"testing"

	"gitui/model"
)

// TestCopyMethodUniqueName checks that `a` (copy method) gives the copy a name no other
// method has ("raw RLS (2)", then "raw RLS (3)"), so that the spec still validates and the
// copies never pool into one series; and that once its settings change, the copy's name
// follows them again (bag-of-words RLS, no suffix needed).
func TestCopyMethodUniqueName(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.setFocus(paneMethod)
	a.spec.Methods = []model.Method{{Features: "raw"}}
	a.spec.Defaults()
	press(t, a, "a", "a")
	var got []string
	for _, m := range a.spec.Methods {
		got = append(got, m.DisplayName())
	}
	want := []string{"raw RLS", "raw RLS (2)", "raw RLS (3)"}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("names after two copies %q, want %q", got, want)
	}
	c := a.spec.Clone()
	c.Defaults()
	if err := c.Validate(); err != nil {
		t.Fatalf("spec after copies does not validate: %v", err)
	}
	if !a.method.Form().Select("methods.2.features") {
		t.Fatal("no features field for the copy")
	}
	press(t, a, "l") // raw -> bow
	if m := a.spec.Methods[2]; m.Features != "bow" || m.DisplayName() != "bag-of-words RLS" {
		t.Fatalf("copy after features bow: features %q, name %q, want bag-of-words RLS", m.Features, m.DisplayName())
	}
}

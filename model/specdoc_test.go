package model

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestSpecReferenceCurrent fails when docs/spec.md is not what the field registry
// generates: after a change to MethodFields, Families, the spec-level registry or the
// Spec struct, run `go generate ./model` and commit docs/spec.md.
func TestSpecReferenceCurrent(t *testing.T) {
	got, err := os.ReadFile("../docs/spec.md")
	if err != nil {
		t.Fatalf("%v: run go generate ./model", err)
	}
	if want := SpecReference(); !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("docs/spec.md is stale (line %d is %q, the registry gives %q): run go generate ./model", i+1, g, w)
			}
		}
	}
}

// TestSpecReferenceCoversRegistry checks that the reference names every method field,
// every family, every spec-level field of the registry and every key of the Spec
// struct, and says where each conditional field applies.
func TestSpecReferenceCoversRegistry(t *testing.T) {
	doc := string(SpecReference())
	for _, f := range MethodFields {
		if !strings.Contains(doc, "\n### "+f.Key+"\n") || !strings.Contains(doc, "| [`"+f.Key+"`]") {
			t.Errorf("method field %s has no section or row", f.Key)
		}
		if !strings.Contains(doc, cell(f.AppliesTo)) {
			t.Errorf("method field %s: where it applies (%q) is missing", f.Key, f.AppliesTo)
		}
	}
	for _, f := range Families {
		if !strings.Contains(doc, "| `"+f.Key+"` |") {
			t.Errorf("family %s is missing", f.Key)
		}
	}
	for _, f := range specLevelFields() {
		if !strings.Contains(doc, "| `"+f.Key+"` |") {
			t.Errorf("spec-level field %s is missing", f.Key)
		}
		if f.AppliesTo != "" && !strings.Contains(doc, cell(f.AppliesTo)) {
			t.Errorf("spec-level field %s: where it applies (%q) is missing", f.Key, f.AppliesTo)
		}
	}
	for _, k := range []string{"seed", "repeats", "protocol", "data.name", "data.audio.split", "group.angles.count", "test_transform.kind", "sweep.values"} {
		if !strings.Contains(doc, "| `"+k+"` |") {
			t.Errorf("spec key %s is missing", k)
		}
	}
	if strings.Contains(doc, "| `methods` |") {
		t.Error("methods is listed as a spec-level key; its fields have their own table")
	}
}

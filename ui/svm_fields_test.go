package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/ui/form"
)

// TestBadSVMValuesInline edits an SVM method with a polynomial kernel in the method pane:
// C = 0 reaches the spec and model validation shows its message inline and disables
// run; a negative C, degree 0 and a fractional degree are refused by the field itself,
// inline, and the spec keeps its value. No run starts.
func TestBadSVMValuesInline(t *testing.T) {
	a := newTestApp(t, 120, 40)
	started := 0
	a.start = func(ctx context.Context, spec *model.Spec, o engine.RunOptions) <-chan eval.Event {
		started++
		return fakeStart(ctx, spec, o)
	}
	a.spec.Methods[0] = model.Method{Kernel: "poly", Gamma: 0.01, Degree: 8, Learner: "svm", C: 1000}
	a.spec.Defaults()
	a.Update(form.ChangedMsg{Key: "methods"})
	if !a.keys.Run.Enabled() {
		t.Fatalf("run disabled for a valid SVM spec: %v", a.issues)
	}
	a.setFocus(paneMethod)
	typeInto := func(field, text string) { t.Helper(); typeField(t, a, field, text) }

	// C = 0: accepted by the field (0 means unset), refused by Spec.Validate.
	typeInto("methods.0.c", "0")
	if a.spec.Methods[0].C != 0 {
		t.Fatalf("C = %v, want 0 in the spec", a.spec.Methods[0].C)
	}
	if is := strings.Join(a.method.Form().Issues(), "\n"); !strings.Contains(is, "c 0 must be > 0") {
		t.Fatalf("method pane issues %q lack the C message", is)
	}
	if v := ansi.Strip(a.View()); !strings.Contains(v, "c 0 must be > 0") {
		t.Fatalf("C message not shown:\n%s", v)
	}
	if a.keys.Run.Enabled() {
		t.Fatal("run enabled with C = 0")
	}
	press(t, a, "r")

	// C < 0: refused by the field, the spec keeps 0.
	typeInto("methods.0.c", "-1")
	if e := a.method.Form().FieldError("methods.0.c"); !strings.Contains(e, "negative") || a.spec.Methods[0].C != 0 {
		t.Fatalf("C = -1: inline error %q, C %v", e, a.spec.Methods[0].C)
	}
	press(t, a, "esc")
	typeInto("methods.0.c", "1000")
	if a.spec.Methods[0].C != 1000 || !a.keys.Run.Enabled() {
		t.Fatalf("C = 1000: spec C %v, run enabled %v (%v)", a.spec.Methods[0].C, a.keys.Run.Enabled(), a.issues)
	}

	// degree < 1 and a fraction: refused inline, the spec keeps 8.
	for _, c := range []struct{ text, want string }{{"0", "out of range"}, {"2.5", "not a whole number"}} {
		typeInto("methods.0.degree", c.text)
		if e := a.method.Form().FieldError("methods.0.degree"); !strings.Contains(e, c.want) || a.spec.Methods[0].Degree != 8 {
			t.Fatalf("degree %s: inline error %q, degree %d", c.text, e, a.spec.Methods[0].Degree)
		}
		if v := ansi.Strip(a.View()); !strings.Contains(v, c.want) {
			t.Fatalf("degree %s: message not shown:\n%s", c.text, v)
		}
		press(t, a, "esc")
	}
	if started != 0 {
		t.Fatalf("%d runs started with bad input", started)
	}
}

// TestLiuFieldsReachTheSpec steps the invariance, psd and kernel norm fields of an SVM
// method in the method pane and checks that each value reaches the spec.
func TestLiuFieldsReachTheSpec(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.spec.Methods[0] = model.Method{Kernel: "poly", Gamma: 0.01, Degree: 8, Learner: "svm", C: 1000}
	a.spec.Defaults()
	a.Update(form.ChangedMsg{Key: "methods"})
	a.setFocus(paneMethod)
	for _, c := range []struct {
		field string
		get   func(m model.Method) string
		want  string
	}{
		{"methods.0.invariance", func(m model.Method) string { return m.Invariance }, "TI"},
		{"methods.0.psd", func(m model.Method) string { return m.PSD }, "clip"},
		{"methods.0.kernel_norm", func(m model.Method) string { return m.KernelNorm }, "cosine"},
	} {
		if !a.method.Form().Select(c.field) {
			t.Fatalf("no %s field in the method pane", c.field)
		}
		press(t, a, "l")
		if got := c.get(a.spec.Methods[0]); got != c.want {
			t.Errorf("%s stepped once: spec has %q, want %q", c.field, got, c.want)
		}
	}
}

// typeField selects field in the method pane, clears it and types text, as a user would.
func typeField(t *testing.T, a *App, field, text string) {
	t.Helper()
	if !a.method.Form().Select(field) {
		t.Fatalf("no %s field in the method pane", field)
	}
	press(t, a, "enter")
	for range 12 {
		press(t, a, "backspace")
	}
	for _, r := range text {
		press(t, a, string(r))
	}
	press(t, a, "enter")
}

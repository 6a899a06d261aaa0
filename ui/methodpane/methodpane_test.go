package methodpane

import (
	"strings"
	"testing"

	"gitui/model"
)

// TestFieldsFromSchema checks that the pane lists, for a method of each family, exactly
// the scalar fields of the schema (model.MethodFields) that apply to it, in the schema's
// order, followed by the protocol fields; and a few fields by name, so that a mistake in
// the schema's predicates shows here too.
func TestFieldsFromSchema(t *testing.T) {
	cases := []struct {
		m        model.Method
		has, not []string
	}{
		{model.Method{Features: "raw"}, []string{"features", "kernel", "learner", "lambda", "name"}, []string{"bins", "templates", "c", "psd", "kernel_norm", "gamma"}},
		{model.Method{Features: "cdf", Bins: 5, Templates: 5}, []string{"bins", "templates", "template_kind", "eps", "thresholds"}, []string{"c", "invariance"}},
		{model.Method{Kernel: "rbf"}, []string{"gamma", "invariance", "lambda"}, []string{"degree", "c", "psd", "fit"}},
		{model.Method{Kernel: "poly", Gamma: 0.01, Degree: 8, C: 1, Learner: "svm", Invariance: "TI"},
			[]string{"gamma", "degree", "invariance", "fit", "translation", "shifts", "psd", "kernel_norm", "c"}, []string{"lambda", "inv_gamma", "bins"}},
		{model.Method{Kernel: "rbf", Gamma: 1, C: 1, Learner: "invariant-svm", Tangents: []string{"hshift"}},
			[]string{"gamma", "c", "inv_gamma", "smooth"}, []string{"invariance", "psd", "lambda"}},
	}
	for _, c := range cases {
		s := &model.Spec{Protocol: model.ProtocolCurve, Methods: []model.Method{c.m}}
		s.Defaults()
		var keys []string
		for _, f := range Fields(s, 0) {
			if k, ok := strings.CutPrefix(f.Key, "methods.0."); ok {
				keys = append(keys, k)
			}
		}
		var want []string
		for _, f := range model.MethodFields {
			if f.Applies(s.Methods[0]) && f.Kind != model.KindList && f.Kind != model.KindObject {
				want = append(want, f.Key)
			}
		}
		if strings.Join(keys, ",") != strings.Join(want, ",") {
			t.Errorf("%s: fields %v, want %v", s.Methods[0].DisplayName(), keys, want)
		}
		got := "," + strings.Join(keys, ",") + ","
		for _, k := range c.has {
			if !strings.Contains(got, ","+k+",") {
				t.Errorf("%s: no %s field", s.Methods[0].DisplayName(), k)
			}
		}
		for _, k := range c.not {
			if strings.Contains(got, ","+k+",") {
				t.Errorf("%s: %s field shown where it does not apply", s.Methods[0].DisplayName(), k)
			}
		}
	}
}

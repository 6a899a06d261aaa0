package form

import (
	"fmt"

	"gitui/model"
)

// kinds maps the registry's field kinds to the form's editors; kinds without an editor
// (lists of choices, objects, lists of reals) are edited in a spec file.
var kinds = map[model.FieldKind]Kind{
	model.KindInt: Int, model.KindFloat: Float, model.KindLogFloat: LogFloat,
	model.KindEnum: Enum, model.KindText: Text, model.KindBool: Bool, model.KindIntList: IntList,
}

// Editable reports whether the form has an editor for fields of kind k.
func Editable(k model.FieldKind) bool { _, ok := kinds[k]; return ok }

// FromSpec returns the form field of the spec-level field key of the registry
// (model.SpecFields): its label, kind, choices, range, step and help, so that the TUI
// accepts exactly what `--set` and Validate accept. It panics when the registry has no
// such field or the form no editor for its kind (a programmer error).
func FromSpec(key string) Field {
	f := model.SpecFieldOf(key)
	if f == nil {
		panic("form: the registry has no spec field " + key)
	}
	k, ok := kinds[f.Kind]
	if !ok {
		panic(fmt.Sprintf("form: spec field %s of kind %s has no editor", key, f.Kind))
	}
	return Field{Key: f.Key, Label: f.Label, Kind: k, Options: f.Choices, Help: f.Help, Zero: f.Zero,
		Min: f.Min, Max: f.Max, StepMin: f.UIMin, StepMax: f.UIMax, Step: f.Step}
}

// FromMethod returns the form field of method field f of method i (mt, its value): the
// registry's label, kind, choices (with "" first when the empty value means something),
// range, step, help and what zero means for mt. ok is false when the form has no editor
// for f's kind.
func FromMethod(i int, f *model.MethodField, mt model.Method) (Field, bool) {
	k, ok := kinds[f.Kind]
	if !ok {
		return Field{}, false
	}
	ff := Field{Key: fmt.Sprintf("methods.%d.%s", i, f.Key), Label: f.Label, Kind: k, Help: f.Help,
		Min: f.Min, Max: f.Max, StepMin: f.UIMin, StepMax: f.UIMax, Step: f.Step, Zero: f.ZeroText(mt)}
	if f.Kind == model.KindEnum {
		ff.Options = f.Choices
		if ff.Zero != "" {
			ff.Options = append([]string{""}, f.Choices...)
		}
	}
	if ff.Zero == "" && k == LogFloat {
		ff.Zero = "unset: must be > 0"
	}
	return ff, true
}

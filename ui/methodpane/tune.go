package methodpane

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/model"
	"gitui/ui/form"
)

// TuneMarkedMsg reports what t did on the field Key: marked it to tune with the
// distribution Dist (in `gitui tune --param` syntax), unmarked it (Dist ""), or could
// not mark it (Err, a one-line reason naming the fix).
type TuneMarkedMsg struct {
	Key, Dist string
	Err       error
}

// Tuned returns the fields marked to tune, key → distribution (a copy).
func (m *Model) Tuned() map[string]string {
	out := make(map[string]string, len(m.tune))
	for k, v := range m.tune {
		out[k] = v
	}
	return out
}

// toggleTune marks the selected field to tune with its default distribution
// (DefaultDist), or unmarks it when it is marked.
func (m *Model) toggleTune() tea.Cmd {
	f, ok := m.form.Selected()
	if !ok {
		return nil
	}
	msg := TuneMarkedMsg{Key: f.Key}
	if _, marked := m.tune[f.Key]; marked {
		delete(m.tune, f.Key)
	} else if msg.Dist, msg.Err = DefaultDist(m.spec, f); msg.Err == nil {
		m.tune[f.Key] = msg.Dist
	}
	return func() tea.Msg { return msg }
}

// pruneTune drops the marks of fields that no method lists any more (a method deleted,
// its feature map or learner changed).
func (m *Model) pruneTune() {
	listed := map[string]bool{}
	for i := range m.spec.Methods {
		for _, f := range Fields(m.spec, i) {
			listed[f.Key] = true
		}
	}
	for k := range m.tune {
		if !listed[k] {
			delete(m.tune, k)
		}
	}
}

// tuneNote is the note the form draws after a marked field's value.
func (m *Model) tuneNote(key string) string {
	if d, ok := m.tune[key]; ok {
		return "● tune " + d
	}
	return ""
}

// DefaultDist returns the distribution a study gives field f of spec s when t marks
// it, in `gitui tune --param` syntax:
//
//   - a positive real on a log scale (lambda, gamma, C): log:v/100..v·100 around the
//     current value v, within the registry's stepping range (UIMin..UIMax); around the
//     geometric middle of that range when v is 0 (automatic or unset);
//   - a whole number (bins, templates): ⌈v/3⌉..3v within the registry's range, on a log
//     scale when it spans a decade or more; at 0 (the whole pool, for range_sample) with
//     a step above 1: step..10·step, on a log scale;
//   - another real: v/2..2v (0..10 steps when v is 0), within the registry's range;
//   - a choice: every option that validates with the rest of the spec; a switch: both.
//
// It refuses protocol fields (a study sets its own training sizes) and kinds a range
// cannot express (lists, text), and checks the result as `gitui tune` will
// (Spec.TuneSpace), so that a marked field never blocks the study.
func DefaultDist(s *model.Spec, f form.Field) (string, error) {
	if !strings.HasPrefix(f.Key, "methods.") {
		return "", fmt.Errorf("%s is not tuned: a study tunes a method's fields (it sets its own training sizes); mark a field above the protocol", f.Label)
	}
	cur, _ := strconv.ParseFloat(form.Get(s, f.Key), 64)
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }
	var dist string
	switch f.Kind {
	case form.LogFloat:
		lo, hi := f.StepMin, f.StepMax
		if lo <= 0 {
			lo = math.Max(f.Min, 1e-12)
		}
		if hi <= 0 || hi > 1e12 {
			hi = 1e12
		}
		v := cur
		if v <= 0 {
			v = math.Sqrt(lo * hi)
		}
		dist = "log:" + g(math.Max(lo, v/100)) + ".." + g(math.Min(hi, v*100))
	case form.Int:
		v := math.Max(1, cur)
		lo, hi := math.Max(math.Max(1, f.Min), math.Ceil(v/3)), 3*v
		if cur == 0 && f.Step > 1 { // 0 means "all" or "automatic" (range_sample): around its step
			lo, hi = f.Step, 10*f.Step
		}
		if f.Max > 0 {
			hi = math.Min(hi, f.Max)
		}
		if hi <= lo {
			return "", fmt.Errorf("%s has no room to tune around %s: edit it first, or give --param to `gitui tune`", f.Label, g(v))
		}
		dist = strconv.Itoa(int(lo)) + ".." + strconv.Itoa(int(hi))
		if hi/lo >= 10 {
			dist = "log:" + dist
		}
	case form.Float:
		lo, hi := cur/2, cur*2
		if cur <= 0 {
			st := f.Step
			if st <= 0 {
				st = 1
			}
			lo, hi = f.Min, f.Min+10*st
		}
		lo = math.Max(lo, f.Min)
		if f.Max > f.Min {
			hi = math.Min(hi, f.Max)
		}
		dist = g(lo) + ".." + g(hi)
	case form.Enum, form.Bool:
		opts := f.Options
		if f.Kind == form.Bool {
			opts = []string{"false", "true"}
		}
		var ok []string
		for _, o := range opts {
			if o == "" {
				continue
			}
			c := s.Clone()
			c.Tune = nil
			if c.Set(f.Key+"="+strconv.Quote(o)) == nil && validDefaults(c) || f.Kind == form.Bool {
				ok = append(ok, o)
			}
		}
		if len(ok) < 2 {
			return "", fmt.Errorf("%s has fewer than two choices that fit this spec: nothing to tune", f.Label)
		}
		dist = strings.Join(ok, ",")
	default:
		return "", fmt.Errorf("%s is not tuned from the pane: give --param %s=... to `gitui tune`", f.Label, f.Key)
	}
	c := s.Clone()
	c.Tune = &model.TuneSpec{Params: map[string]string{f.Key: dist}}
	if _, err := c.TuneSpace(); err != nil {
		return "", fmt.Errorf("%s=%s: %w", f.Key, dist, err)
	}
	return dist, nil
}

// validDefaults fills the defaults of s, a scratch copy, and reports whether it then
// validates.
func validDefaults(s *model.Spec) bool {
	s.Defaults()
	return s.Validate() == nil
}

package form

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gitui/model"
)

// tree returns the JSON object tree of s (what Spec.Set edits).
func tree(s *model.Spec) map[string]any {
	b, err := json.Marshal(s)
	if err != nil {
		panic("form: " + err.Error())
	}
	var t map[string]any
	if err := json.Unmarshal(b, &t); err != nil {
		panic("form: " + err.Error())
	}
	return t
}

// Get returns the value at the dotted JSON path key of s ("methods.0.bins") as it would
// be typed in a field: numbers plainly, strings unquoted, lists as "a,b,c"; an absent
// (omitted zero) value is "".
func Get(s *model.Spec, key string) string { return getIn(tree(s), key) }

// getIn is Get on a tree already built by tree.
func getIn(t map[string]any, key string) string {
	var node any = t
	for _, p := range strings.Split(key, ".") {
		switch n := node.(type) {
		case map[string]any:
			node = n[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n) {
				return ""
			}
			node = n[i]
		default:
			return ""
		}
	}
	return text(node)
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = text(e)
		}
		return strings.Join(parts, ",")
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// SetArgs returns the --set assignments that turn base into cur, sorted by key: one
// "key=value" per differing leaf, and a whole list where list lengths differ (values in
// JSON, as Spec.Set parses them). Applying them to a copy of base with Spec.Set yields
// a spec whose JSON equals cur's.
func SetArgs(base, cur *model.Spec) []string {
	var out []string
	diff("", tree(base), tree(cur), &out)
	sort.Strings(out)
	return out
}

func diff(prefix string, a, b any, out *[]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch bv := b.(type) {
	case map[string]any:
		am, ok := a.(map[string]any)
		if !ok {
			emit(prefix, b, out)
			return
		}
		for k, v := range bv {
			diff(join(k), am[k], v, out)
		}
		for k, v := range am {
			if _, ok := bv[k]; !ok {
				emit(join(k), zeroLike(v), out)
			}
		}
	case []any:
		if equalJSON(a, b) {
			return
		}
		al, ok := a.([]any)
		if !ok || len(al) != len(bv) || !sameShape(al, bv) {
			emit(prefix, b, out)
			return
		}
		for i := range bv {
			diff(join(strconv.Itoa(i)), al[i], bv[i], out)
		}
	default:
		if !equalJSON(a, b) {
			emit(prefix, b, out)
		}
	}
}

// sameShape reports whether two lists hold objects in both (diffed element-wise) or
// scalars (a changed scalar list is emitted whole, which reads better: sizes=[10,100]).
func sameShape(a, b []any) bool {
	for i := range a {
		_, am := a[i].(map[string]any)
		_, bm := b[i].(map[string]any)
		if !am || !bm {
			return false
		}
	}
	return true
}

func zeroLike(v any) any {
	switch v.(type) {
	case string:
		return ""
	case float64:
		return 0
	case bool:
		return false
	}
	return nil
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func emit(key string, v any, out *[]string) {
	if s, ok := v.(string); ok && !looksJSON(s) {
		*out = append(*out, key+"="+s)
		return
	}
	b, _ := json.Marshal(v)
	*out = append(*out, key+"="+string(b))
}

// looksJSON reports whether a string value would be parsed as JSON by Spec.Set (and so
// must be passed quoted to stay a string).
func looksJSON(s string) bool {
	var v any
	return json.Unmarshal([]byte(s), &v) == nil
}

// CommandLine returns the headless command that reproduces cur starting from the
// preset named preset (built with quick): `gitui run PRESET [--quick] --set k=v ...`.
// base is that preset's spec; with base nil the spec is named by file instead.
func CommandLine(preset string, quick bool, base, cur *model.Spec) string {
	if base == nil {
		return "gitui run SPEC.json   (save the spec with s; no preset to start from)"
	}
	b, c := base.Clone(), cur.Clone()
	b.Defaults()
	c.Defaults()
	parts := []string{"gitui", "run", preset}
	if quick {
		parts = append(parts, "--quick")
	}
	for _, a := range SetArgs(b, c) {
		parts = append(parts, "--set", model.ShellQuote(a))
	}
	return strings.Join(parts, " ")
}

// RunName names a run of cur started from base, the spec of the preset (or file) it was
// loaded from: cur.Name when the user changed it from base.Name, else base.Name followed by
// what differs (SetArgs), joined by " · ": the value alone for data.name, group.kind and
// protocol, the key's last part=value for the rest, at most three such parts and then
// "+N more" ("xperm-curve · mnist · cyclic-shift", "mnist-cdf · lambda=1e-06"). A whole
// list of methods replaced reads "N methods". With base nil or nothing changed it is
// cur.Name.
func RunName(base, cur *model.Spec) string {
	if base == nil || cur.Name != base.Name {
		return cur.Name
	}
	b, c := base.Clone(), cur.Clone()
	b.Defaults()
	c.Defaults()
	var parts []string
	for _, a := range SetArgs(b, c) {
		k, v, _ := strings.Cut(a, "=")
		switch {
		case k == "name":
			continue
		case k == "data.name" || k == "group.kind" || k == "protocol":
			parts = append(parts, v)
		case k == "methods":
			parts = append(parts, fmt.Sprintf("%d methods", len(c.Methods)))
		default:
			if i := strings.LastIndexByte(k, '.'); i >= 0 {
				k = k[i+1:]
			}
			if len(v) > 24 {
				v = v[:23] + "…"
			}
			parts = append(parts, k+"="+v)
		}
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("+%d more", len(parts)-3))
	}
	return strings.Join(append([]string{cur.Name}, parts...), " · ")
}

// Apply applies "key=value" assignments to s in order with Spec.Set.
func Apply(s *model.Spec, args []string) error {
	for _, a := range args {
		if err := s.Set(a); err != nil {
			return fmt.Errorf("apply %s: %w", a, err)
		}
	}
	return nil
}

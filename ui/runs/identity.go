package runs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gitui/model"
)

// methodID is one method of a run as compare matches it: its series name and its family
// (features, kernel, learner).
type methodID struct{ name, family string }

// methodIDs returns the methods of e's spec, in order (none when the spec does not decode).
func methodIDs(e Entry) []methodID {
	var s model.Spec
	if json.Unmarshal(e.Spec, &s) != nil {
		return nil
	}
	out := make([]methodID, len(s.Methods))
	for i, m := range s.Methods {
		out[i] = methodID{m.DisplayName(), m.Features + "/" + m.Kernel + "/" + m.Learner}
	}
	return out
}

// matchMethods matches the methods of run b to those of the reference a by identity, not
// by position: first by series name, then the rest by family in order (a method whose
// bins changed is still the same CDF method). It returns, for each method of b, the index
// of its counterpart in a or -1.
func matchMethods(a, b []methodID) []int {
	to := make([]int, len(b))
	used := make([]bool, len(a))
	for j := range b {
		to[j] = -1
		for i := range a {
			if !used[i] && a[i].name == b[j].name {
				to[j], used[i] = i, true
				break
			}
		}
	}
	for j := range b {
		if to[j] >= 0 {
			continue
		}
		for i := range a {
			if !used[i] && a[i].family == b[j].family {
				to[j], used[i] = i, true
				break
			}
		}
	}
	return to
}

// identityDiff is the compare view's spec diff: the runs' flattened specs with each
// method's keys named after its counterpart in the first run (methods.I.field, I its
// index there), so that deleting or moving a method differs by that method alone. keys
// are the differing keys, sorted (a method the first run lacks reads "methods[NAME].field");
// params[r] maps each key to run r's value; missing lists "B has no Haar RLS" for every
// method of one run without a counterpart in another.
type identityDiff struct {
	keys    []string
	params  []map[string]string
	own     []map[int]int // own[r][I]: run r's index of the first run's method I
	missing []string
}

func diffByIdentity(runs []Entry) identityDiff {
	d := identityDiff{params: make([]map[string]string, len(runs)), own: make([]map[int]int, len(runs))}
	if len(runs) == 0 {
		return d
	}
	ref := methodIDs(runs[0])
	inRef := make([]bool, len(ref))
	for r, e := range runs {
		ids := methodIDs(e)
		to := matchMethods(ref, ids)
		if r == 0 {
			for j := range to {
				to[j] = j
			}
		}
		p, own := map[string]string{}, map[int]int{}
		for j, i := range to {
			if i >= 0 {
				own[i] = j
			}
		}
		for k, v := range e.Params {
			key := k
			if rest, ok := strings.CutPrefix(k, "methods."); ok {
				idx, field, _ := strings.Cut(rest, ".")
				j, err := strconv.Atoi(idx)
				if err == nil && j >= 0 && j < len(ids) {
					if to[j] >= 0 {
						key = "methods." + strconv.Itoa(to[j])
					} else {
						key = "methods[" + ids[j].name + "]"
					}
					if field != "" {
						key += "." + field
					}
				}
			}
			if key == "name" || key == "description" {
				continue
			}
			p[key] = v
		}
		d.params[r], d.own[r] = p, own
		for j, i := range to {
			if i >= 0 {
				inRef[i] = true
			} else if r > 0 {
				d.missing = append(d.missing, fmt.Sprintf("%s has no %s", Letter(0), ids[j].name))
			}
		}
		if r > 0 {
			have := make([]bool, len(ref))
			for _, i := range to {
				if i >= 0 {
					have[i] = true
				}
			}
			for i, ok := range have {
				if !ok {
					d.missing = append(d.missing, fmt.Sprintf("%s has no %s", Letter(r), ref[i].name))
				}
			}
		}
	}
	// A method some run lacks is said once above; its fields are not listed one by one.
	absent := func(k string) bool {
		if strings.HasPrefix(k, "methods[") {
			return true
		}
		if rest, ok := strings.CutPrefix(k, "methods."); ok {
			idx, _, _ := strings.Cut(rest, ".")
			for r := range runs {
				if !hasMethod(d.params[r], idx) {
					return true
				}
			}
		}
		return false
	}
	for _, k := range Diff(d.params...) {
		if k != "methods" && !absent(k) {
			d.keys = append(d.keys, k)
		}
	}
	sort.Strings(d.keys)
	return d
}

// localKey returns run r's own positional key of the identity key k ("methods.I.field"
// of the first run's method I -> "methods.J.field" of r's counterpart J), k itself for
// keys outside the methods, "" when r has no counterpart.
func (d identityDiff) localKey(r int, k string) string {
	rest, ok := strings.CutPrefix(k, "methods.")
	if !ok {
		return k
	}
	idx, field, _ := strings.Cut(rest, ".")
	i, err := strconv.Atoi(idx)
	if err != nil {
		return ""
	}
	j, ok := d.own[r][i]
	if !ok {
		return ""
	}
	return "methods." + strconv.Itoa(j) + "." + field
}

// hasMethod reports whether params hold any key of method index idx (methods.idx.*).
func hasMethod(params map[string]string, idx string) bool {
	prefix := "methods." + idx + "."
	for k := range params {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

package parcoords

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// AccKey is the key of the headline-accuracy axis (always the last axis).
const AccKey = "acc"

// Run is one run as the view draws it.
type Run struct {
	// ID tells runs apart (the Runs pane passes the run directory).
	ID string
	// Params is the spec flattened to dotted keys ("methods.0.lambda" → "0.01").
	Params map[string]string
	// Acc is the headline accuracy, NaN when the run has no point.
	Acc float64
	// Mark, when set, labels a run that is not one of the others (a study's baseline,
	// "your setting"): it is drawn apart, its line over the others in its own colour and
	// MarkGlyph where it crosses each axis, and named in the header's legend
	// ("◆ your setting") and in the selected axis's description with its value there.
	// It is on the axes' scales and in the brushes as any run.
	Mark string
}

// MarkGlyph is drawn where a marked run (Run.Mark) crosses an axis.
const MarkGlyph = "◆"

// value returns r's value of field key ("" when missing; the accuracy for AccKey).
func (r Run) value(key string) string {
	if key == AccKey {
		if math.IsNaN(r.Acc) {
			return ""
		}
		return strconv.FormatFloat(r.Acc, 'g', -1, 64)
	}
	return r.Params[key]
}

// Fields returns the spec fields that vary among runs (a field missing from some runs
// varies), most distinct values first, then by key. Last come a categorical field with
// a different value in every run (an identifier, such as a name, when there are more
// than three runs: it groups nothing) and the seeds (a key ending in "seed": draws of
// one setting, not a parameter). A field whose values equal, run by run,
// those of a field ranked before it (methods.1.lambda set with methods.0.lambda) is
// left out; same counts them.
func Fields(runs []Run) (fields []string, same int) {
	keys := map[string]bool{}
	for _, r := range runs {
		for k := range r.Params {
			if k != AccKey {
				keys[k] = true
			}
		}
	}
	type field struct {
		key   string
		rank  int
		ident bool
		sig   string
	}
	var fs []field
	for k := range keys {
		vals := make([]string, len(runs))
		distinct := map[string]bool{}
		present := map[string]bool{}
		for i, r := range runs {
			vals[i] = r.value(k)
			distinct[vals[i]] = true
			if vals[i] != "" {
				present[vals[i]] = true
			}
		}
		if len(distinct) < 2 {
			continue
		}
		ident := len(runs) > 3 && len(present) == len(runs) && NewAxis(k, vals).Kind == Categorical ||
			k == "seed" || strings.HasSuffix(k, ".seed")
		fs = append(fs, field{key: k, rank: len(distinct), ident: ident, sig: strings.Join(vals, "\x00")})
	}
	sort.Slice(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.ident != b.ident {
			return !a.ident
		}
		if a.rank != b.rank {
			return a.rank > b.rank
		}
		return a.key < b.key
	})
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.sig] {
			same++
			continue
		}
		seen[f.sig] = true
		fields = append(fields, f.key)
	}
	return fields, same
}

// ShortNames returns, for each key, the shortest tail of its dotted segments that no
// other key of keys ends with ("methods.0.lambda" → "lambda", or "0.lambda" beside
// "methods.1.lambda").
func ShortNames(keys []string) map[string]string {
	out := map[string]string{}
	for _, k := range keys {
		segs := strings.Split(k, ".")
		for n := 1; n <= len(segs); n++ {
			tail := strings.Join(segs[len(segs)-n:], ".")
			unique := true
			for _, o := range keys {
				if o != k && (o == tail || strings.HasSuffix(o, "."+tail)) {
					unique = false
					break
				}
			}
			if unique || n == len(segs) {
				out[k] = tail
				break
			}
		}
	}
	return out
}

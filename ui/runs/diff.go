package runs

import "sort"

// Diff returns the dotted keys whose values are not the same in every one of ps
// (a key missing from some is a difference), sorted.
func Diff(ps ...map[string]string) []string {
	keys := map[string]bool{}
	for _, p := range ps {
		for k := range p {
			keys[k] = true
		}
	}
	var out []string
	for k := range keys {
		v0, ok0 := ps[0][k]
		for _, p := range ps[1:] {
			if v, ok := p[k]; ok != ok0 || v != v0 {
				out = append(out, k)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

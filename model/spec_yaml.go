package model

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// wholeFields and realFields are the YAML names of the Spec fields (at any depth) that
// hold whole numbers (int, []int) and real numbers (float64, []float64).
var wholeFields, realFields = numberFields(reflect.TypeOf(Spec{}))

// numberFields walks the struct type t and returns the YAML names of its integer and
// floating-point fields, lists of them included.
func numberFields(t reflect.Type) (whole, real map[string]bool) {
	whole, real = map[string]bool{}, map[string]bool{}
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			e := f.Type
			for e.Kind() == reflect.Pointer || e.Kind() == reflect.Slice {
				e = e.Elem()
			}
			switch e.Kind() {
			case reflect.Int, reflect.Int64, reflect.Uint64:
				whole[name] = true
			case reflect.Float64:
				real[name] = true
			case reflect.Struct:
				walk(e)
			}
		}
	}
	walk(t)
	return whole, real
}

// checkWholeNumbers returns an error naming the first fraction, non-finite or
// out-of-range number that a YAML spec gives to a whole-number field such as degree or
// bins: yaml.v3 truncates a float decoded into an int, so `degree: 2.5` would otherwise
// run degree 2. Integral floats (8.0) pass.
func checkWholeNumbers(root *yaml.Node) error {
	inside := map[*yaml.Node]bool{} // anchors being walked: a cyclic alias would recurse forever
	budget := 1 << 20               // nodes, aliases expanded: a spec has a few hundred
	var walk func(n *yaml.Node, path []string, field string) error
	walk = func(n *yaml.Node, path []string, field string) error {
		if budget--; budget < 0 {
			return fmt.Errorf("the YAML expands to more than %d values through its aliases: write the spec out", 1<<20)
		}
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if err := walk(c, path, field); err != nil {
					return err
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				if err := walk(n.Content[i+1], append(path, k), k); err != nil {
					return err
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if err := walk(c, append(path, strconv.Itoa(i)), field); err != nil {
					return err
				}
			}
		case yaml.AliasNode: // *anchor: check the value it stands for, under this key
			if n.Alias == nil {
				return nil
			}
			if inside[n.Alias] {
				return fmt.Errorf("line %d: the alias *%s refers to a value that contains it: remove the cycle", n.Line, n.Value)
			}
			inside[n.Alias] = true
			defer delete(inside, n.Alias)
			return walk(n.Alias, path, field)
		case yaml.ScalarNode:
			if !wholeFields[field] || n.ShortTag() != "!!float" {
				return nil
			}
			var v float64
			if err := n.Decode(&v); err != nil || v != math.Trunc(v) || math.Abs(v) >= math.MaxInt64 {
				return fmt.Errorf("line %d: %s takes a whole number, not %s: give an integer", n.Line, strings.Join(path, "."), n.Value)
			}
		}
		return nil
	}
	return walk(root, nil, "")
}

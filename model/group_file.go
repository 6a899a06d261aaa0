package model

// The groups a user brings (docs/groups.md): permutation groups from a file of rows or from
// generators (Schreier–Sims, enumerated or sampled uniformly), orthogonal matrices from a
// file, and the built-in dihedral, mirror and reversal kinds. Everything here is reached
// from BuildGroup, groupCost, Validate and the test_transform checks through one call
// each, so that it moves with them.

import (
	"fmt"
	"strings"

	"gitui/core/group"
)

// FileGroupKinds are the group kinds of this file: "permutations" (Path: an integer .npy
// of shape (|G|, d), one permutation per row, coordinate i going to row[i]), "generated"
// (Generators or GeneratorsPath: the group they generate, listed when it fits, else
// sampled uniformly with Size), "linear" (Path: a .npy of shape (|G|, d, d), orthogonal
// matrices), "dihedral" (the 8 symmetries of square images), "mirror" (Axis horizontal,
// the default, or vertical) and "reversal" (of the blocks of a sequence, the rows of
// shape L x A).
var FileGroupKinds = []string{"permutations", "generated", "linear", "dihedral", "mirror", "reversal"}

// fileGroupKind reports whether k is one of FileGroupKinds.
func fileGroupKind(k string) bool { return in(k, FileGroupKinds) }

// haarGroupKind reports whether the Haar kernel may be asked for over group kind k: the
// full groups (permutation, cyclic-shift) and the kinds of this file, whose closure is
// checked when the group is built (haarGroupCheck).
func haarGroupKind(k string) bool {
	return k == "permutation" || k == "cyclic-shift" || fileGroupKind(k)
}

// normPreservingKind reports whether every element of group kind k keeps the norm of a
// sample exactly or up to rounding (permutations and orthogonal matrices), so that
// test_transform copies need no renormalisation.
func normPreservingKind(k string) bool {
	return k == "cyclic-shift" || k == "permutation" || fileGroupKind(k)
}

// fileGroupKeys are the registry keys (SpecFields) of the fields of FileGroupKinds.
var fileGroupKeys = []string{"group.path", "group.generators", "group.generators_path", "group.axis"}

// validateFileGroup reports through bad the problems the spec alone shows in the fields
// of this file, for the group at field ("group", "test_transform", "methods.2.group"):
// a missing path or generators, malformed inline generators, an unknown mirror axis,
// and, for a group other than the spec's own (whose fields validateApplies checks), a
// field set where it does not apply, by the registry's rule (SpecFields).
func validateFileGroup(g GroupSpec, field string, bad func(string, ...any)) {
	k := g.Kind
	if field != "group" {
		s := &Spec{Group: g}
		for _, key := range fileGroupKeys {
			if f := specField(key); f.IsSet(s) && !f.Applies(s) {
				bad("%s.%s applies to %s, not %s.kind %s: drop it", field, strings.TrimPrefix(key, "group."), f.AppliesTo, field, k)
			}
		}
	}
	switch k {
	case "permutations":
		if g.Path == "" {
			bad("%s.path is empty: name the integer .npy file of shape (|G|, d) whose rows are the permutations", field)
		}
	case "linear":
		if g.Path == "" {
			bad("%s.path is empty: name the .npy file of shape (|G|, d, d) holding the orthogonal matrices", field)
		}
	case "generated":
		switch {
		case g.Generators == nil && g.GeneratorsPath == "":
			bad("%s.generators is empty: list permutations, e.g. [[1, 0, 2], [1, 2, 0]], or name an integer .npy in %s.generators_path", field, field)
		case g.Generators != nil && g.GeneratorsPath != "":
			bad("%s.generators and %s.generators_path are both set: keep one", field, field)
		case g.Generators != nil:
			if len(g.Generators) == 0 {
				bad("%s.generators is an empty list: give at least one permutation", field)
			}
			for i, p := range g.Generators {
				if err := group.CheckPerm(p, len(g.Generators[0])); err != nil {
					bad("%s.generators.%d %v", field, i, err)
					break
				}
			}
		}
	case "mirror":
		if g.Axis != "" && g.Axis != "horizontal" && g.Axis != "vertical" {
			bad("%s.axis %q is unknown: use horizontal (left-right) or vertical (up-down)", field, g.Axis)
		}
	}
}

// fileGroupShape returns an error naming field and the fix unless a group of kind
// g.Kind can act on samples of the given shape (what names the data). Kinds that read a
// file are checked against the file when the group is built.
func fileGroupShape(g GroupSpec, shape []int, field, what string) error {
	switch g.Kind {
	case "dihedral":
		if len(shape) != 2 || shape[0] != shape[1] || shape[0] < 2 {
			return fmt.Errorf("%s dihedral turns square images by 90°, %s has shape %v: use kind mirror for other images", field, what, shape)
		}
	case "mirror":
		if len(shape) != 2 {
			return fmt.Errorf("%s mirror acts on images (shape h x w), %s has shape %v: use kind reversal for sequences", field, what, shape)
		}
		if (g.Axis == "vertical" && shape[0] < 2) || (g.Axis != "vertical" && shape[1] < 2) {
			return fmt.Errorf("%s mirror of %s (shape %v) along that axis is the identity: use the other axis", field, what, shape)
		}
	case "reversal":
		if len(shape) > 2 || len(shape) == 0 || shape[0] < 2 {
			return fmt.Errorf("%s reversal reverses sequences (shape L or L x A, L >= 2), %s has shape %v: use another kind", field, what, shape)
		}
	}
	return nil
}

// FileGroupKind reports whether k is one of FileGroupKinds (the engine builds those
// through its own path).
func FileGroupKind(k string) bool { return fileGroupKind(k) }

// FileGroupShape returns an error naming field and the fix unless a group of g's kind
// (one of FileGroupKinds) can act on samples of the given shape; what names the data.
func FileGroupShape(g GroupSpec, shape []int, field, what string) error {
	return fileGroupShape(g, shape, field, what)
}

// NormPreservingKind reports whether the group kind k keeps every sample's norm (a
// permutation of coordinates or an orthogonal map), so a transformed test copy need not
// be put back on the unit sphere.
func NormPreservingKind(k string) bool { return normPreservingKind(k) }

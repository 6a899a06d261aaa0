package grouppane

import "gitui/ui/form"

// fileGroupFields are the fields of the group kinds a user brings (model.FileGroupKinds):
// the file of a permutations or linear group, the generators file of a generated group
// (inline generators come from a spec file or --set), the axis of a mirror.
func fileGroupFields(kind string) []form.Field {
	switch kind {
	case "permutations":
		return []form.Field{{Key: "group.path", Label: "permutations", Kind: form.Text,
			Help: "integer .npy of shape (|G|, d): row i says where each coordinate goes under element i"}}
	case "linear":
		return []form.Field{{Key: "group.path", Label: "matrices", Kind: form.Text,
			Help: ".npy of shape (|G|, d, d): orthogonal matrices (within 1e-6)"}}
	case "generated":
		return []form.Field{{Key: "group.generators_path", Label: "generators", Kind: form.Text,
			Help: "integer .npy of shape (k, d): the group they generate (Schreier–Sims); set |G| sample for a large one"}}
	case "mirror":
		return []form.Field{{Key: "group.axis", Label: "axis", Kind: form.Enum, Options: []string{"horizontal", "vertical"},
			Help: "horizontal: left-right mirror; vertical: up-down"}}
	}
	return nil
}

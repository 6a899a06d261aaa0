package engine

import "gitui/model"

// resolve fills the defaults of s and validates it, as a spec is resolved where it is
// loaded or edited (model.Spec.Validate only reads the spec).
func resolve(s *model.Spec) error {
	s.Defaults()
	return s.Validate()
}

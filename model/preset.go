package model

// Preset is a named spec: one per paper figure or table. Build returns a fresh, validated
// spec; quick selects the variant that finishes in under a minute on 2 cores.
type Preset struct {
	Name    string
	Summary string
	Build   func(quick bool) *Spec
}

// Package model holds the nouns the interface, the command line and the presets share:
// the experiment Spec (declarative, strict), the field registry, validation and the
// Result of a run. The engine that turns a spec into core objects and runs it is its
// child package model/engine; model never imports its children.
//
// # Overview
//
// A Spec names a data set, a transformation group, a protocol with its sizes, and a list
// of methods. Each Method belongs to one Family (family.go): feature methods (raw,
// bag-of-words, CDF and moment pooling; Mroueh et al.), kernel RLS and 1-NN (linear, RBF,
// Haar), Liu et al.'s SVM kernels (TI, RI, TI-RI, locality; best or average fit) and
// Chapelle and Schoelkopf's learners (invariant SVM, VSV). The fields of a method are
// declared once in MethodFields, with their kind, range or choices, default, help and a
// predicate saying when each applies, and what each decides (the features, the kernel,
// its normalisation, the learner or only the name). Defaults, Validate, DisplayName, the
// engine's builders and cache keys (KeyOf), the TUI's method pane, `--set` messages and
// `gitui presets -v` read that table.
//
// # Specs are strict
//
// Validate refuses, before anything runs and one line per problem naming the field and
// the fix: a value out of range or unknown; a field set (to a value other than zero or
// its default) where it does not apply, e.g. "methods.0.bins applies to features cdf,
// not raw"; two methods with one series name; and combinations that cannot run (the Haar
// kernel on a sampled group). ParseSpec also refuses unknown keys, duplicate keys and
// data after the spec. The TUI calls Tidy after an edit, so that values left behind by a
// change of protocol, group kind or method family are dropped instead of refused.
//
// Validate only reads the spec. Its error is Problems, one Problem per mistake keyed by
// the dotted path of the field at fault ("methods.2.gamma", "group.radius"), so that a
// caller picks the problems of some fields by key (the TUI's panes) and the command line
// prints them one a line. Defaults are filled once, where a spec is loaded or edited
// (LoadSpec, ParseSpec, the presets, the command line after --set, the TUI on a copy of
// the spec in its panes, a study's refit), before it is validated.
//
// # Names
//
// A method's series name is Name when the user wrote one, else derived from its settings
// when the run starts (DisplayName), so that `--set methods.2.bins=7` renames the series.
//
// # Errors
//
// Bad input (a spec, a data file, a size larger than the pool) is an *InputError (the
// same type as data.InputError), which the command line maps to exit status 2.
//
// # Concurrency
//
// A Spec is not safe for concurrent mutation; engine.Start works on a clone.
package model

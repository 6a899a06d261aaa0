package model

import "strings"

// Problem is one thing wrong with a spec, as Validate finds it: the field at fault and
// the line that says what is wrong with it and what to use instead.
type Problem struct {
	// Field is the dotted JSON path of the field at fault. It is a key of the field
	// registry (SpecFields: "data.pool", "group.radius", "sizes", "grid"), a field of
	// method N ("methods.N.KEY", KEY one of MethodFields: "methods.2.gamma"), method N
	// as a whole ("methods.N"), or a path inside an object or list of those
	// ("data.audio.split", "test_transform.kind", "methods.1.group.kind",
	// "group.generators.3") or of the tune block ("tune.eta", "tune.params"). It is ""
	// for a line about the spec as a whole: the count of the problems left out
	// ("and 5 more").
	Field string
	// Msg is the whole line, naming the field, the bad value and the fix, e.g.
	// "group.radius 70 is out of range: use 0..64 pixels".
	Msg string
}

// Error returns p.Msg.
func (p Problem) Error() string { return p.Msg }

// Under reports whether p is about the field prefix or a field inside it: prefix
// "group" covers "group" and "group.radius", not "group_sizes" nor "methods.0.group".
func (p Problem) Under(prefix string) bool {
	return p.Field == prefix || strings.HasPrefix(p.Field, prefix) && strings.HasPrefix(p.Field[len(prefix):], ".")
}

// Problems is the error Validate returns: the problems of a spec in the order they were
// found, each said once. Error joins their messages with newlines (one problem a line,
// as the command line prints them); Unwrap lets errors.As find a single Problem.
type Problems []Problem

// Error returns the messages of ps, one a line.
func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Msg)
	}
	return b.String()
}

// Unwrap returns each Problem of ps as an error (errors.Is and errors.As visit them).
func (ps Problems) Unwrap() []error {
	out := make([]error, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// Under returns the problems of ps that are about one of the fields prefixes or a field
// inside one (Problem.Under), in their order; nil when there is none.
func (ps Problems) Under(prefixes ...string) Problems {
	var out Problems
	for _, p := range ps {
		for _, pre := range prefixes {
			if p.Under(pre) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Messages returns the message of each problem of ps, in order (nil for none).
func (ps Problems) Messages() []string {
	if len(ps) == 0 {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Msg
	}
	return out
}

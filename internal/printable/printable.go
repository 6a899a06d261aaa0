// Package printable makes text that comes from files safe to write to a terminal.
//
// A class label in a CSV, a series name in a result.json shared by a colleague, or a
// spec's name can hold bytes a terminal acts on: ESC starts a sequence that sets the
// window title, recolours or clears the screen, C1 codes do the same on terminals that
// read 8-bit controls, and bidirectional overrides reorder what is shown. Every such
// string passes through String (or, for a whole JSON document, JSON) before a view or
// a terminal write, so that it is shown, never obeyed.
package printable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// unsafe reports whether a terminal would act on r rather than show it: the C0 controls
// U+0000–U+001F (ESC, CR, LF, tab, BEL, ...), DEL U+007F, the C1 controls
// U+0080–U+009F, and the bidirectional marks, embeddings, overrides and isolates
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
func unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Safe reports whether String(s) == s: s is valid UTF-8 and holds no rune a terminal
// acts on (see String).
func Safe(s string) bool {
	for i, r := range s {
		if unsafe(r) || r == utf8.RuneError && isInvalid(s, i) {
			return false
		}
	}
	return true
}

// isInvalid reports whether the RuneError at byte i of s is an invalid byte rather than
// an encoded U+FFFD.
func isInvalid(s string, i int) bool {
	_, w := utf8.DecodeRuneInString(s[i:])
	return w == 1
}

// String returns s with every rune a terminal would act on written as a visible escape:
// a control below U+0100 (C0, DEL, C1) as \xNN, a bidirectional mark or override as
// \u{NNNN}, and each byte that is not valid UTF-8 as \xNN. Everything else, including
// every printable non-ASCII letter, is unchanged, and s itself is returned (no
// allocation) when nothing needs escaping. The result holds no control byte, so it
// cannot move the cursor, recolour or clear the terminal, or break a table's row.
func String(s string) string {
	if Safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range s {
		switch {
		case r == utf8.RuneError && isInvalid(s, i):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafe(r) && r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafe(r):
			fmt.Fprintf(&b, `\u{%04x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Strings applies String to every element of ss in place and returns ss.
func Strings(ss []string) []string {
	for i, s := range ss {
		ss[i] = String(s)
	}
	return ss
}

// JSON returns the JSON document b with String applied to every string value and
// object key, so that whatever decodes it holds no control character. When no string
// needs it (the common case: a scan of b finds no escape sequence and no unsafe rune)
// b itself is returned unchanged; otherwise the document is re-encoded, numbers kept
// as written (json.Number), object keys in sorted order. A b that is not valid JSON is
// returned unchanged: its decoder reports the error.
func JSON(b []byte) []byte {
	if !mayNeed(b) {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return b
	}
	if dec.More() { // trailing data: leave it to the caller's decoder to refuse
		return b
	}
	v, changed := clean(v)
	if !changed {
		return b
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return b
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n"))
}

// mayNeed reports whether b could hold a string String would change: an escape
// sequence (\u001b is how JSON writes ESC) or, outside JSON's own whitespace, an unsafe
// rune or invalid UTF-8.
func mayNeed(b []byte) bool {
	if bytes.Contains(b, []byte(`\u`)) || bytes.Contains(b, []byte(`\r`)) ||
		bytes.Contains(b, []byte(`\n`)) || bytes.Contains(b, []byte(`\t`)) ||
		bytes.Contains(b, []byte(`\b`)) || bytes.Contains(b, []byte(`\f`)) {
		return true
	}
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && w == 1 || unsafe(r) && r != '\n' && r != '\r' && r != '\t' {
			return true
		}
		i += w
	}
	return false
}

// clean applies String to every string and key of the decoded JSON value v.
func clean(v any) (any, bool) {
	switch t := v.(type) {
	case string:
		s := String(t)
		return s, s != t
	case []any:
		changed := false
		for i, e := range t {
			var c bool
			t[i], c = clean(e)
			changed = changed || c
		}
		return t, changed
	case map[string]any:
		changed := false
		out := make(map[string]any, len(t))
		for k, e := range t {
			ce, c := clean(e)
			ck := String(k)
			changed = changed || c || ck != k
			out[ck] = ce
		}
		return out, changed
	}
	return v, false
}

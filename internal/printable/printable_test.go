package printable

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "plain"},
		{"T-shirt/top", "T-shirt/top"},
		{"chiffre é ∑ 数字", "chiffre é ∑ 数字"},
		{"\x1b]0;PWNED\x07\x1b[2J", `\x1b]0;PWNED\x07\x1b[2J`},
		{"a\tb\nc\rd", `a\x09b\x0ac\x0dd`},
		{"del\x7f", `del\x7f`},
		{"c1\u009b31m", `c1\x9b31m`},
		{"rtl\u202eevil", `rtl\u{202e}evil`},
		{"iso\u2066x\u2069", `iso\u{2066}x\u{2069}`},
		{"bad\xffutf8", `bad\xffutf8`},
		{"\uFFFD kept", "\uFFFD kept"}, // an encoded replacement character is text
	}
	for _, c := range cases {
		if got := String(c.in); got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if Safe(c.in) != (c.in == c.want) {
			t.Errorf("Safe(%q) = %v, want %v", c.in, Safe(c.in), c.in == c.want)
		}
	}
}

// noControl fails when s holds a byte below 0x20, DEL, invalid UTF-8, or a rune unsafe
// would flag.
func noControl(t *testing.T, what, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("%s %q is not valid UTF-8", what, s)
	}
	for _, r := range s {
		if unsafe(r) {
			t.Fatalf("%s %q holds %U", what, s, r)
		}
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a", "\x1b[2J", "\u202e", "\xff\xfe", "\u0085", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		noControl(t, "String", out)
		if String(out) != out {
			t.Fatalf("String is not idempotent on %q", s)
		}
		if Safe(s) != (out == s) {
			t.Fatalf("Safe(%q) = %v but String changed it: %v", s, Safe(s), out != s)
		}
	})
}

// strs collects every string and key of a decoded JSON value.
func strs(v any, out *[]string) {
	switch t := v.(type) {
	case string:
		*out = append(*out, t)
	case []any:
		for _, e := range t {
			strs(e, out)
		}
	case map[string]any:
		for k, e := range t {
			*out = append(*out, k)
			strs(e, out)
		}
	}
}

func FuzzJSON(f *testing.F) {
	f.Add(`{"name":"x","series":[{"name":"a\u001b[2Jb","points":[{"x":1e3,"mean":0.5}]}]}`)
	f.Add(`{"k\u202e":["\u0007",12345678901234567890,"plain"]}`)
	f.Add(`"\ud800"`)
	f.Fuzz(func(t *testing.T, doc string) {
		var before any
		if json.Unmarshal([]byte(doc), &before) != nil {
			return
		}
		out := JSON([]byte(doc))
		var after any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("JSON(%q) = %q does not decode: %v", doc, out, err)
		}
		var ss []string
		strs(after, &ss)
		for _, s := range ss {
			noControl(t, "decoded string", s)
		}
	})
}

func TestJSONKeepsSafeDocuments(t *testing.T) {
	doc := []byte(`{"b": 1.50, "a": "é\\u", "big": 12345678901234567890}`)
	if got := JSON(doc); string(got) != string(doc) {
		t.Errorf("a safe document changed: %s", got)
	}
	evil := []byte(`{"n": 1.50, "big": 12345678901234567890, "s": "\u001b]0;x\u0007"}`)
	got := string(JSON(evil))
	want := `{"big":12345678901234567890,"n":1.50,"s":"\\x1b]0;x\\x07"}`
	if got != want {
		t.Errorf("JSON(evil) = %s, want %s", got, want)
	}
}

package model

import (
	"os/exec"
	"testing"
)

// TestShellQuote checks the quoting against reference strings and, where a POSIX shell
// is available, that the shell reads each quoted argument back as the original.
func TestShellQuote(t *testing.T) {
	cases := map[string]string{"a=1": "a=1", "/opt/gitui": "/opt/gitui", "sizes=[1,2]": "'sizes=[1,2]'",
		"x='y'": `'x='\''y'\'''`, "": "''", "a b": "'a b'", "$HOME": "'$HOME'"}
	for in, want := range cases {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for in := range cases {
		out, err := exec.Command(sh, "-c", "printf %s "+ShellQuote(in)).Output()
		if err != nil || string(out) != in {
			t.Errorf("sh reads %s back as %q (%v), want %q", ShellQuote(in), out, err, in)
		}
	}
}

package model

import "strings"

// ShellQuote quotes an argument for a POSIX shell when it holds anything but letters,
// digits and ._-+=,:/ (an empty argument included): in single quotes, each single quote
// inside closed, escaped with a backslash and reopened. It is the one shell quoting of
// gitui: the TUI's reproducing command line and the Slurm job scripts both use it.
func ShellQuote(a string) string {
	safe := a != ""
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-+=,:/", r)) {
			safe = false
			break
		}
	}
	if safe {
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

package main

import (
	"fmt"
	"os"
	"strings"
)

// colorMode resolves the workbench's colour setting: the --color flag if given, else
// $GITUI_COLOR, else "auto". It returns "auto", "always" or "never", or an error naming
// the flag or variable and the values it takes.
func colorMode(flagVal, env string) (string, error) {
	v, what := flagVal, "--color"
	if v == "" {
		v, what = env, "GITUI_COLOR"
	}
	switch m := strings.ToLower(strings.TrimSpace(v)); m {
	case "":
		return "auto", nil
	case "auto", "always", "never":
		return m, nil
	default:
		return "", fmt.Errorf("%s %q: use auto, always or never", what, v)
	}
}

// applyColorMode makes the workbench's renderer see mode through the environment it
// reads (termenv): "never" sets NO_COLOR=1 (the shade runes, no colour); "always"
// unsets NO_COLOR and sets CLICOLOR_FORCE=1 (at least 16 colours even where the
// terminal is not detected), and, when COLORTERM is unset on a TERM of screen (which
// detection takes for no colour at all) or plain xterm (16 colours),
// TERM=xterm-256color so that the heatmap gets its 256-colour scale; "auto" changes
// nothing. It must run before the renderer is built (ui.Run builds it).
func applyColorMode(mode string) {
	switch mode {
	case "never":
		os.Setenv("NO_COLOR", "1")
	case "always":
		os.Unsetenv("NO_COLOR")
		os.Setenv("CLICOLOR_FORCE", "1")
		if t := os.Getenv("TERM"); os.Getenv("COLORTERM") == "" && (t == "xterm" || t == "screen" || strings.HasPrefix(t, "screen.")) {
			os.Setenv("TERM", "xterm-256color")
		}
	}
}

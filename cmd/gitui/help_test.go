package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"gitui/model"
	"gitui/presets"
)

// TestHelpEveryCommand checks that `gitui help CMD` and `gitui CMD --help` (and -h)
// print, on stdout with exit 0 and nothing on stderr, the same usage: the synopsis and
// every flag the command parses, and that nothing ran (no run directory appears).
func TestHelpEveryCommand(t *testing.T) {
	names := []string{"tui"}
	for _, c := range sortedCommands() {
		names = append(names, c.Name)
	}
	for _, want := range []string{"run", "resume", "presets", "data", "bench", "export", "version", "completion", "help"} {
		if !slices.Contains(names, want) {
			t.Fatalf("command %q is not registered (have %v)", want, names)
		}
	}
	t.Chdir(t.TempDir()) // `gitui run --help` must not create runs/ here
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			code, viaHelp, stderr := gitui(t, "help", name)
			if code != exitOK || stderr != "" {
				t.Fatalf("gitui help %s: exit %d, stderr %q", name, code, stderr)
			}
			c := tuiCommand
			args := []string{"--help"}
			if name != "tui" {
				c = commands[name]
				args = []string{name, "--help"}
			}
			if !strings.HasPrefix(viaHelp, "usage: gitui "+c.Synopsis+"\n") {
				t.Errorf("gitui help %s starts %q, want the synopsis", name, firstLine(viaHelp))
			}
			if name == "tui" {
				return // gitui --help is the overview, checked below
			}
			for _, a := range [][]string{args, {name, "-h"}} {
				code, out, stderr := gitui(t, a...)
				if code != exitOK || stderr != "" || out != viaHelp {
					t.Errorf("gitui %s: exit %d, stderr %q, stdout differs from gitui help %s: %q", strings.Join(a, " "), code, stderr, name, out)
				}
			}
			if fs := flagsOf(c); fs != nil {
				fs.VisitAll(func(f *flag.Flag) {
					if !strings.Contains(viaHelp, "--"+f.Name) {
						t.Errorf("gitui help %s does not list --%s", name, f.Name)
					}
				})
			}
		})
	}
	if ents, _ := os.ReadDir("."); len(ents) != 0 {
		t.Errorf("asking for help left files behind: %v", ents)
	}
	code, out, _ := gitui(t, "--help")
	if code != exitOK || !strings.Contains(out, "gitui export RESULT.json|RUN_DIR|STUDY_DIR...") || !strings.Contains(out, "gitui completion bash|zsh|fish") {
		t.Errorf("gitui --help: exit %d, overview %q", code, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if len([]rune(l)) > 80 && !strings.HasPrefix(l, "  gitui ") {
			t.Errorf("overview line wider than 80 columns: %q", l)
		}
	}
	code, _, stderr := gitui(t, "help", "frobnicate")
	if code != exitUsage || !strings.Contains(stderr, `unknown command "frobnicate"`) {
		t.Errorf("gitui help frobnicate: exit %d, stderr %q", code, stderr)
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestVersionCommit checks vcsCommit on build information with and without VCS
// settings (CI builds with -buildvcs=false, which records none).
func TestVersionCommit(t *testing.T) {
	cases := []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{nil, "unknown"},
		{&debug.BuildInfo{}, "unknown"},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}}, "unknown"},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4e2f4c7d0a1b2c3d4e5f60718293a4b5c6d7e8f9"}, {Key: "vcs.modified", Value: "false"}}}, "4e2f4c7d0a1b"},
		{&debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "4e2f4c7d0a1b2c3d4e5f60718293a4b5c6d7e8f9"}, {Key: "vcs.modified", Value: "true"}}}, "4e2f4c7d0a1b+modified"},
	}
	for _, c := range cases {
		if got := vcsCommit(c.bi); got != c.want {
			t.Errorf("vcsCommit(%+v) = %q, want %q", c.bi, got, c.want)
		}
	}
	code, out, _ := gitui(t, "version")
	if code != exitOK || !strings.HasPrefix(out, "gitui "+model.VersionString()+" (commit ") || !strings.Contains(out, "BLAS: ") || !strings.Contains(out, ", sgemm: ") || !strings.Contains(out, ", dgemm: ") {
		t.Errorf("gitui version: exit %d, %q", code, out)
	}
}

// TestColorMode checks the precedence flag > GITUI_COLOR > auto and the refusal of an
// unknown value, naming where it came from.
func TestColorMode(t *testing.T) {
	cases := []struct{ flag, env, want, err string }{
		{"", "", "auto", ""},
		{"", "never", "never", ""},
		{"always", "never", "always", ""},
		{"NEVER", "", "never", ""},
		{"", "sometimes", "", "GITUI_COLOR"},
		{"yes", "", "", "--color"},
	}
	for _, c := range cases {
		got, err := colorMode(c.flag, c.env)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "auto, always or never")):
			t.Errorf("colorMode(%q, %q) error %v, want one naming %s and the values", c.flag, c.env, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("colorMode(%q, %q) = %q, %v; want %q", c.flag, c.env, got, err, c.want)
		}
	}
	code, _, stderr := gitui(t, "--color", "purple")
	if code != exitUsage || !strings.Contains(stderr, `--color "purple": use auto, always or never`) {
		t.Errorf("gitui --color purple: exit %d, stderr %q", code, stderr)
	}
}

// TestComplete checks the candidates of the hidden __complete command the scripts call:
// sub-commands, preset names, flags, flag values, and --set keys (spec-level from the
// Spec's JSON fields, methods.N.KEY for N over the preset's methods).
func TestComplete(t *testing.T) {
	lines := func(args ...string) []string {
		t.Helper()
		code, out, _ := gitui(t, append([]string{completeCmd}, args...)...)
		if code != exitOK {
			t.Fatalf("__complete %v: exit %d", args, code)
		}
		return strings.Fields(out)
	}
	has := func(got []string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("candidates %v lack %q", got, w)
			}
		}
	}
	has(lines(""), "run", "resume", "presets", "data", "bench", "export", "completion", "version", "help")
	if got := lines("r"); !slices.Equal(got, []string{"resume", "run"}) {
		t.Errorf("gitui r<TAB> = %v, want [resume run]", got)
	}
	var all []string
	for _, p := range presets.All() {
		all = append(all, p.Name)
	}
	has(lines("run", ""), all...)
	has(lines("run", "xperm-curve", "--"), "--quick", "--out", "--data", "--seed", "--set", "--help")
	has(lines("--co"), "--color")
	if got := lines("--color", ""); !slices.Equal(got, []string{"always", "auto", "never"}) {
		t.Errorf("--color <TAB> = %v", got)
	}
	has(lines("data", ""), "list", "fetch")
	has(lines("data", "fetch", ""), "mnist", "fashion-mnist")
	has(lines("completion", ""), "bash", "zsh", "fish")
	keys := lines("run", "xperm-curve", "--quick", "--set", "")
	has(keys, "repeats=", "sizes=", "seed=", "data.name=", "group.kind=", "methods.*.lambda=", "methods.0.bins=")
	n := len(presetSpec(t, "xperm-curve").Methods)
	has(keys, "methods."+strconv.Itoa(n-1)+".templates=")
	if slices.Contains(keys, "methods."+strconv.Itoa(n)+".templates=") {
		t.Errorf("--set keys offer methods.%d of a preset with %d methods", n, n)
	}
	for _, f := range model.MethodFields {
		has(keys, "methods.0."+f.Key+"=")
	}
	for _, k := range keys { // every key offered is one Spec.Set accepts
		if strings.HasPrefix(k, "methods.*") {
			continue
		}
		s := presetSpec(t, "xperm-curve")
		if err := s.Set(k + "null"); err != nil && strings.Contains(err.Error(), "unknown field") {
			t.Errorf("offered key %s is refused: %v", k, err)
		}
	}
	if got := lines("run", "xperm-curve", "--set", "methods.1.la"); !slices.Equal(got, []string{"methods.1.lambda="}) {
		t.Errorf("--set methods.1.la<TAB> = %v", got)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.json"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if got := lines("export", dir+"/"); !slices.Equal(got, []string{dir + "/a.json", dir + "/sub/"}) {
		t.Errorf("export %s/<TAB> = %v", dir, got)
	}
	if got := lines("run", "x", "--out", dir+"/"); !slices.Equal(got, []string{dir + "/sub/"}) {
		t.Errorf("--out %s/<TAB> = %v, want the directory only", dir, got)
	}
	if got := lines("export", "r.json", "--table", ""); !slices.Equal(got, []string{"csv", "latex", "md"}) {
		t.Errorf("export --table <TAB> = %v, want csv latex md", got)
	}
	if got := lines("export", "r.json", "--out", dir+"/"); !slices.Equal(got, []string{dir + "/a.json", dir + "/sub/"}) {
		t.Errorf("export --out %s/<TAB> = %v, want files (the table's file)", dir, got)
	}
	if got := lines("frobnicate", ""); len(got) != 0 {
		t.Errorf("an unknown command completes to %v", got)
	}
}

// TestCompletionScripts checks that each script is printed, calls the hidden command,
// and is valid syntax for its shell where that shell is installed (bash -n, zsh -n,
// fish -n); an unknown shell exits 2.
func TestCompletionScripts(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		code, out, stderr := gitui(t, "completion", sh)
		if code != exitOK || !strings.Contains(out, "gitui "+completeCmd) {
			t.Fatalf("completion %s: exit %d, stderr %q, script %q", sh, code, stderr, out)
		}
		bin, err := exec.LookPath(sh)
		if err != nil {
			t.Logf("%s not installed: syntax not checked", sh)
			continue
		}
		f := filepath.Join(t.TempDir(), "gitui."+sh)
		os.WriteFile(f, []byte(out), 0o644)
		if b, err := exec.Command(bin, "-n", f).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v: %s", sh, err, b)
		}
	}
	code, _, stderr := gitui(t, "completion", "tcsh")
	if code != exitUsage || !strings.Contains(stderr, "use bash, zsh or fish") {
		t.Errorf("completion tcsh: exit %d, stderr %q", code, stderr)
	}
}

// TestBashCompletionEndToEnd sources the bash script with a gitui built from this
// package on PATH and completes `gitui run xperm-curve --set methods.0.la` and
// `gitui ru`, as bash would on TAB.
func TestBashCompletionEndToEnd(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not installed")
	}
	bin := t.TempDir()
	if b, err := exec.Command("go", "build", "-o", filepath.Join(bin, "gitui"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v: %s", err, b)
	}
	_, script, _ := gitui(t, "completion", "bash")
	probe := func(line string) string {
		t.Helper()
		sh := script + `
COMP_LINE='` + line + `'; COMP_POINT=${#COMP_LINE}
read -r -a COMP_WORDS <<< "$COMP_LINE"; COMP_CWORD=$((${#COMP_WORDS[@]}-1))
_gitui; printf '%s\n' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "-c", sh)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("bash: %v: %s", err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := probe("gitui ru"); got != "run" {
		t.Errorf("gitui ru<TAB> = %q, want run", got)
	}
	if got := probe("gitui run xperm-curve --set methods.0.la"); got != "methods.0.lambda=" {
		t.Errorf("--set methods.0.la<TAB> = %q", got)
	}
	if got := probe("gitui run xperm-curve --set methods.0.learner=r"); got != "" {
		t.Logf("value completion after '=': %q", got) // values are not completed; must not break
	}
}

func presetSpec(t *testing.T, name string) *model.Spec {
	t.Helper()
	p, err := presets.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p.Build(false)
}

// TestApplyColorMode checks the profile the workbench's renderer (termenv on a
// terminal) detects after applyColorMode: never gives no colour even with a capable
// TERM; always gives 256 colours on TERM=screen and plain xterm (which detection takes
// for no colour and for 16) and leaves a richer COLORTERM alone; auto changes nothing.
func TestApplyColorMode(t *testing.T) {
	profile := func() termenv.Profile {
		return termenv.NewOutput(io.Discard, termenv.WithTTY(true)).EnvColorProfile()
	}
	cases := []struct {
		mode, term, colorterm string
		want                  termenv.Profile
	}{
		{"never", "xterm-256color", "truecolor", termenv.Ascii},
		{"always", "screen", "", termenv.ANSI256},
		{"always", "xterm", "", termenv.ANSI256},
		{"always", "xterm-256color", "truecolor", termenv.TrueColor},
		{"auto", "screen", "", termenv.Ascii}, // why --color always exists: screen is taken for no colour
		{"auto", "xterm", "", termenv.ANSI},
	}
	for _, c := range cases {
		t.Setenv("TERM", c.term)
		t.Setenv("COLORTERM", c.colorterm)
		t.Setenv("NO_COLOR", "")
		os.Unsetenv("NO_COLOR")
		t.Setenv("CLICOLOR_FORCE", "")
		os.Unsetenv("CLICOLOR_FORCE")
		applyColorMode(c.mode)
		if got := profile(); got != c.want {
			t.Errorf("%s on TERM=%s COLORTERM=%q: profile %v, want %v", c.mode, c.term, c.colorterm, got, c.want)
		}
	}
}

// TestRegisterTUICommand checks what a command added with register gets: dispatch,
// its usage from --help, and a SIGHUP channel in its context exactly when it is marked
// TUI (as `gitui open` must be); a duplicate name panics.
func TestRegisterTUICommand(t *testing.T) {
	got := map[string]bool{}
	for _, tui := range []bool{true, false} {
		name := fmt.Sprintf("test-cmd-%v", tui)
		register(command{Name: name, Synopsis: name + " [--x N]", Summary: "a test command", TUI: tui,
			Run: func(ctx context.Context, args []string, _, _ io.Writer) error {
				fs := flag.NewFlagSet(name, flag.ContinueOnError)
				fs.Int("x", 0, "a number")
				if _, err := parseInterleaved(fs, args); err != nil {
					return err
				}
				got[name] = hangup(ctx) != nil
				return nil
			}})
		t.Cleanup(func() { delete(commands, name) })
		if code, _, stderr := gitui(t, name); code != exitOK {
			t.Fatalf("%s: exit %d, %q", name, code, stderr)
		}
		if got[name] != tui {
			t.Errorf("%s: hang-up channel %v, want %v", name, got[name], tui)
		}
		if code, out, _ := gitui(t, "help", name); code != exitOK || !strings.Contains(out, "usage: gitui "+name+" [--x N]") || !strings.Contains(out, "--x int") {
			t.Errorf("help %s: exit %d, %q", name, code, out)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering run twice did not panic")
		}
	}()
	register(command{Name: "run", Run: cmdRun})
}

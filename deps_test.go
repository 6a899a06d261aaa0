// Package gitui_test holds checks over the whole module: the dependency direction of
// docs/design.md ("Arrows point down only: cmd -> ui -> model/store -> model/engine ->
// model -> core, presets -> model").
package gitui_test

import (
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// layerRules lists, for each layer (an import path and everything below it, or with
// exact set that package alone), the layers it must never depend on, directly or through
// another package, in its code or its tests.
var layerRules = []struct {
	from      string
	exact     bool
	forbidden []string
}{
	{"gitui/core", false, []string{"gitui/model", "gitui/ui", "gitui/presets", "gitui/cmd"}},
	{"gitui/model", false, []string{"gitui/ui", "gitui/presets", "gitui/cmd"}},
	// the model package never imports its children
	{"gitui/model", true, []string{"gitui/model/store", "gitui/model/engine"}},
	// the engine does not know the run directory
	{"gitui/model/engine", false, []string{"gitui/model/store"}},
	{"gitui/model/store", false, []string{"gitui/ui", "gitui/presets", "gitui/cmd"}},
	{"gitui/presets", false, []string{"gitui/ui", "gitui/cmd"}},
	// The panes' contract is Bubble Tea's vocabulary only: every pane imports it.
	{"gitui/ui/pane", false, []string{"gitui/core", "gitui/model", "gitui/presets", "gitui/cmd", "gitui/ui/datapane", "gitui/ui/form", "gitui/ui/theme"}},
}

// within reports whether path is layer or a package below it.
func within(path, layer string) bool {
	return path == layer || strings.HasPrefix(path, layer+"/")
}

// packagePath returns the import path of a `go list -test` entry: "p [p.test]" (p
// compiled with its tests), "p_test [p.test]" (its external tests) and "p.test" (the
// test binary) are all p.
func packagePath(s string) string {
	s, _, _ = strings.Cut(s, " ")
	s = strings.TrimSuffix(s, ".test")
	return strings.TrimSuffix(s, "_test")
}

// violations returns one line "pkg depends on dep" for each package of deps (import
// path to its transitive dependencies) that depends on a layer its rule forbids,
// sorted.
func violations(deps map[string][]string) []string {
	var out []string
	for pkg, ds := range deps {
		p := packagePath(pkg)
		for _, r := range layerRules {
			if r.exact && p != r.from || !within(p, r.from) {
				continue
			}
			for _, d := range ds {
				d = packagePath(d)
				for _, f := range r.forbidden {
					if within(d, f) {
						out = append(out, p+" depends on "+d)
					}
				}
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// TestDependencyDirection runs `go list -test -deps` over the module and checks that
// core never depends on model, ui, presets or cmd, model never on ui, presets or cmd,
// the model package never on its children model/store and model/engine, the engine
// never on the store, the store never on ui, presets or cmd, and presets never on ui or
// cmd, tests included. It skips if the go command is not on
// PATH.
func TestDependencyDirection(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH: cannot list the module's dependencies")
	}
	out, err := exec.Command(goCmd, "list", "-test", "-f", "{{.ImportPath}}\t{{join .Deps \" \"}}", "./...").Output()
	if err != nil {
		msg := err.Error()
		if ee, ok := err.(*exec.ExitError); ok {
			msg += ": " + string(ee.Stderr)
		}
		t.Fatalf("go list: %s", msg)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, ds, _ := strings.Cut(line, "\t")
		deps[pkg] = strings.Fields(ds)
	}
	for _, layer := range []string{"gitui/core/kernel", "gitui/model", "gitui/model/engine", "gitui/model/store", "gitui/presets"} {
		if _, ok := deps[layer]; !ok {
			t.Fatalf("go list did not list %s: the check would see nothing", layer)
		}
	}
	for _, v := range violations(deps) {
		t.Error(v)
	}
}

// TestViolations checks the rule on a made-up module: core importing model (directly
// or through a test), model importing ui, the model package importing its child store
// (through its tests), the engine importing the store, the store importing ui and
// presets importing cmd are reported; the allowed arrows (cmd -> ui -> model/store ->
// model/engine -> model -> core, presets -> model), the store's own tests and a
// look-alike path (gitui/models) are not.
func TestViolations(t *testing.T) {
	deps := map[string][]string{
		"gitui/core/eval": {"gitui/core/kernel", "gitui/core/group", "fmt"},
		"gitui/core/kernel_test [gitui/core/kernel.test]": {"gitui/core/kernel", "gitui/model"},
		"gitui/core/group":                    {"gitui/models"},
		"gitui/model":                         {"gitui/core/eval", "gitui/ui/curves"},
		"gitui/presets [gitui/presets.test]":  {"gitui/model", "gitui/cmd/gitui"},
		"gitui/ui":                            {"gitui/model", "gitui/presets", "gitui/core/eval"},
		"gitui/cmd/gitui":                     {"gitui/ui", "gitui/model"},
		"gitui/model_test [gitui/model.test]": {"gitui/model/store"},
		"gitui/model/store":                   {"gitui/model", "gitui/model/engine", "gitui/ui/runs"},
		"gitui/model/store_test [gitui/model/store.test]": {"gitui/model/store", "gitui/model"},
		"gitui/model/engine":                              {"gitui/model", "gitui/model/store"},
	}
	want := []string{
		"gitui/core/kernel depends on gitui/model",
		"gitui/model depends on gitui/model/store",
		"gitui/model depends on gitui/ui/curves",
		"gitui/model/engine depends on gitui/model/store",
		"gitui/model/store depends on gitui/ui/runs",
		"gitui/presets depends on gitui/cmd/gitui",
	}
	if got := violations(deps); !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

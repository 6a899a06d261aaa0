package model

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// registryFiles may compare kinds as strings: they are the registries of the kinds
// (paths from the repository root).
var registryFiles = []string{
	"model/family.go",           // method kinds and families
	"model/specfields.go",       // group kinds and their predicates
	"model/group_file.go",       // the group kinds read from files
	"model/engine/family.go",    // the engine's entry of each family
	"model/engine/groupkind.go", // the engine's entry of each group kind
}

// kindAllowed names the comparisons of a kind that remain outside the registry files,
// as "path: trimmed line"; the test fails when one of them is gone (shrink the list) or
// a new one appears.
var kindAllowed = []string{
	// The translations of a spec's invariance and template kind into core's typed
	// options, and core's own switch over its typed invariance.
	"model/engine/liu.go: switch m.Invariance {",
	"model/engine/methods.go: switch m.TemplateOf {",
	"core/kernel/liu.go: switch k.o.Invariance {",
}

// kindComparison matches a comparison of a method kind field with a string literal, a
// switch over a kind field, or a comparison of a group kind (a Kind field, or a variable
// k or kind) with a literal naming a group kind.
var (
	methodKindCompare = regexp.MustCompile(`\.(Kernel|Features|Learner|Solver|FeatureKernel|Base|Invariance|Fit|TemplateOf)\s*(==|!=)\s*"`)
	kindSwitch        = regexp.MustCompile(`switch\s+([\w.]*\.(Kernel|Features|Learner|Solver|FeatureKernel|Base|Invariance|Fit|TemplateOf)|([\w.]*\.)?(g|[Gg]roup|tt)\.Kind)\s*\{`)
	groupKindCompare  = regexp.MustCompile(`(\.Kind|\bk|\bkind)\s*(==|!=)\s*"([^"]+)"`)
)

// TestNoKindComparisonOutsideRegistry greps the non-test Go sources of the repository
// for string comparisons of a kind (features, kernel, learner, solver, base,
// feature_kernel, group kind) outside the registry files: code outside them asks the
// registry (predicates on Method, the family, the group kind's entry) instead.
func TestNoKindComparisonOutsideRegistry(t *testing.T) {
	root := ".."
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if slices.Contains(registryFiles, rel) {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			hit := methodKindCompare.MatchString(line) || kindSwitch.MatchString(line)
			for _, m := range groupKindCompare.FindAllStringSubmatch(line, -1) {
				hit = hit || slices.Contains(GroupKinds, m[3])
			}
			if hit {
				found = append(found, rel+": "+strings.TrimSpace(line))
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		if !slices.Contains(kindAllowed, f) {
			t.Errorf("a kind compared as a string outside the registry files (use a predicate, the family or the group kind's entry): %s", f)
		}
	}
	for _, a := range kindAllowed {
		if !slices.Contains(found, a) {
			t.Errorf("kindAllowed names %q, which is gone: drop it from the list", a)
		}
	}
}

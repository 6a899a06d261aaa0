package gitui_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/model/study"
	"gitui/presets"
)

// mdLink matches the target of a markdown link: [text](target).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestReadme checks what keeps the README a newcomer's page: at most 400 lines, every
// preset of `gitui presets` named in it (the presets tables), and every relative link
// of README.md and docs/*.md pointing at a file that exists.
func TestReadme(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	if n := strings.Count(readme, "\n"); n > 400 {
		t.Errorf("README.md has %d lines: keep it at most 400 and move the rest under docs/", n)
	}
	for _, p := range presets.All() {
		if !strings.Contains(readme, "| `"+p.Name+"` |") {
			t.Errorf("preset %s has no row in the README's presets tables", p.Name)
		}
	}
	files, _ := filepath.Glob("docs/*.md")
	for _, f := range append(files, "README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which does not exist", f, m[1])
			}
		}
	}
}

// TestDocsAgreeOnTuneWorkers checks that every page stating the default of tune.workers
// (docs/runs.md, docs/tune.md) states study.DefaultWorkers, so the two cannot drift apart.
func TestDocsAgreeOnTuneWorkers(t *testing.T) {
	want := strconv.Itoa(study.DefaultWorkers)
	pats := map[string]*regexp.Regexp{
		"docs/runs.md": regexp.MustCompile(`The default is N = (\d+) \(` + "`study.DefaultWorkers`"),
		"docs/tune.md": regexp.MustCompile("`tune.workers` \\(default (\\d+)\\)"),
	}
	for f, re := range pats {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := re.FindAllStringSubmatch(string(b), -1)
		if len(m) == 0 {
			t.Errorf("%s no longer states the default of tune.workers as %q: keep one statement the test can find", f, re)
		}
		for _, s := range m {
			if s[1] != want {
				t.Errorf("%s gives tune.workers' default as %s, study.DefaultWorkers is %s", f, s[1], want)
			}
		}
	}
}

// TestDocsNameFormats checks that docs/data.md names every registered data file format
// (its Name, in any case: "CSV", ".npy"), so a format added to the registry is documented.
func TestDocsNameFormats(t *testing.T) {
	b, err := os.ReadFile("docs/data.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.ToLower(string(b))
	for _, f := range data.Formats() {
		if !strings.Contains(doc, strings.ToLower(f.Name)) {
			t.Errorf("docs/data.md does not name the %s format: describe it beside the other user files", f.Name)
		}
	}
}

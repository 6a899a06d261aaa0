package gitui_test

import (
	"io/fs"
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

// trackerRefs matches what points outside the repository for a reason a reader cannot
// follow: a numbered issue of the project's tracker or its possessive, a helper's branch
// tag in parentheses, after "branch" or opening a comment, and the design notes kept beside the repository
// (the upper-case file name) instead of docs/design.md.
var trackerRefs = regexp.MustCompile(`(?i:\bissues? ?[-#]?[0-9]+|\bthe issue's\b)|\(h-[a-z]{3,}[a-z0-9-]*\)|\bbranch h-[a-z]|// h-[a-z]{3,}[a-z0-9-]*:|\bDESIGN\.md`)

// TestNoTrackerReferences checks that code, comments and docs speak of the code: no file
// of the module (.go, .md, .py, .sh; vendor and hidden folders aside) cites the issue
// tracker, a branch tag or a design file outside the repository. A comment says what the
// code does and why; a contract it follows is stated there or on a page under docs/.
func TestNoTrackerReferences(t *testing.T) {
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && (d.Name() == "vendor" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".md", ".py", ".sh":
		default:
			return nil
		}
		p = filepath.ToSlash(p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range trackerRefs.FindAllString(line, -1) {
				t.Errorf("%s:%d: %q refers outside the repository: say what the code does, or point to docs/", p, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

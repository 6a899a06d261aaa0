package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenRefusesBadPaths: `gitui open` refuses a missing path and a file that is not a
// result.json before taking the terminal: exit 2 and one line on stderr naming the path;
// --help prints its usage on stdout and exits 0.
func TestOpenRefusesBadPaths(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "x.json")
	os.WriteFile(bad, []byte("{}"), 0o644)
	for _, c := range []struct{ arg, want string }{
		{filepath.Join(dir, "missing"), "missing: no such run directory or result.json"},
		{bad, "x.json has schema"},
	} {
		code, out, errs := gitui(t, "open", c.arg)
		if code != exitUsage || out != "" || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("open %s: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.arg, code, out, errs, c.want)
		}
	}
	code, out, errs := gitui(t, "open", "--help")
	if code != 0 || !strings.HasPrefix(out, "usage: gitui open") || errs != "" {
		t.Errorf("open --help: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

package main

import (
	"archive/zip"
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDataFetchEMNISTChecksumExit2 serves a zip whose Letters members are not the
// official files: `gitui data fetch emnist-letters --url` refuses them with exit 2 and a
// one-line error, and leaves nothing in the data directory.
func TestDataFetchEMNISTChecksumExit2(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"emnist-letters-train-images-idx3-ubyte.gz", "emnist-letters-train-labels-idx1-ubyte.gz",
		"emnist-letters-test-images-idx3-ubyte.gz", "emnist-letters-test-labels-idx1-ubyte.gz"} {
		w, _ := zw.Create("gzip/" + name)
		w.Write([]byte("not the official " + name))
	}
	zw.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.ServeContent(w, r, "gzip.zip", time.Time{}, bytes.NewReader(buf.Bytes()))
	}))
	defer srv.Close()
	dir := t.TempDir()
	code, _, stderr := gitui(t, "data", "fetch", "emnist-letters", "--url", srv.URL+"/gzip.zip", "--data", dir)
	if code != 2 || !strings.Contains(stderr, "checksum mismatch for emnist-letters-") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Fatalf("exit %d, stderr %q; want 2 and one line naming the checksum mismatch", code, stderr)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "emnist-letters"))
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
	if code, _, _ := gitui(t, "data", "list", "--url", "http://x/"); code != 2 {
		t.Errorf("--url with list: exit %d, want 2", code)
	}
}

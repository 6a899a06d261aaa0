// Package testenv finds the real data that some tests need and skips those tests,
// with a message saying how to provide the data, when it is absent.
//
// # Overview
//
// MNISTDir returns a directory holding mnist/ (the IDX files of the MNIST test set and
// the 10k training pool): the environment variable GITUI_DATA when set, else
// ../shared/data beside the module root, as on every developer machine and in CI.
//
// # Concurrency
//
// MNISTDir only reads the environment and the file system; it is safe for parallel tests.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// skipMsg tells how to make the data visible.
const skipMsg = "MNIST not found: set GITUI_DATA to a directory holding mnist/ (CI has ../shared/data)"

// MNISTDir returns the directory that holds mnist/: $GITUI_DATA if set, else
// <module root>/../shared/data, where the module root is the first directory at or
// above the working directory holding go.mod. If neither holds mnist/ it calls
// t.Skip with a message saying how to provide the data.
func MNISTDir(t testing.TB) string {
	t.Helper()
	if dir, ok := find(); ok {
		return dir
	}
	t.Skip(skipMsg)
	return ""
}

// find looks for a directory holding mnist/ as MNISTDir documents.
func find() (string, bool) {
	if env := os.Getenv("GITUI_DATA"); env != "" {
		return env, hasMNIST(env)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			cand := filepath.Join(dir, "..", "shared", "data")
			return filepath.Clean(cand), hasMNIST(cand)
		}
		if filepath.Dir(dir) == dir {
			return "", false
		}
	}
}

// hasMNIST reports whether dir/mnist is a directory.
func hasMNIST(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "mnist"))
	return err == nil && st.IsDir()
}

package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

func TestMNISTDirFromEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "mnist"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GITUI_DATA", dir)
	if got := MNISTDir(t); got != dir {
		t.Fatalf("MNISTDir = %q, want %q", got, dir)
	}
}

func TestFindEnvWithoutMNIST(t *testing.T) {
	t.Setenv("GITUI_DATA", t.TempDir())
	if _, ok := find(); ok {
		t.Fatal("find reported mnist/ in an empty directory")
	}
}

func TestFindFromModuleRoot(t *testing.T) {
	t.Setenv("GITUI_DATA", "")
	dir, ok := find()
	// The module root is two levels up from this package; the candidate is ../shared/data beside it.
	wd, _ := os.Getwd()
	want := filepath.Clean(filepath.Join(wd, "..", "..", "..", "shared", "data"))
	if dir != want {
		t.Fatalf("candidate = %q, want %q", dir, want)
	}
	if ok != hasMNIST(want) {
		t.Fatalf("ok = %v but hasMNIST(%q) = %v", ok, want, !ok)
	}
}

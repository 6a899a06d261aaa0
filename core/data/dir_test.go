package data

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestResolveDir(t *testing.T) {
	t.Setenv(EnvDataDir, "/env/dir")
	if d, err := ResolveDir("/flag/dir"); err != nil || d != "/flag/dir" {
		t.Fatalf("flag: %q %v", d, err)
	}
	if d, err := ResolveDir(""); err != nil || d != "/env/dir" {
		t.Fatalf("env: %q %v", d, err)
	}
	t.Setenv(EnvDataDir, "")
	t.Setenv("XDG_CACHE_HOME", "/cache")
	t.Setenv("HOME", "/home/u")
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache directory on this system")
	}
	if d, err := ResolveDir(""); err != nil || d != filepath.Join(cache, "gitui") {
		t.Fatalf("cache: %q %v", d, err)
	}
}

// writeSet writes a tiny IDX pair dir/<prefix>-{images-idx3,labels-idx1}-ubyte[.gz].
func writeSet(t *testing.T, dir, prefix string, n int, gz bool) {
	t.Helper()
	img, lab := tinyImages(n, 2, 3, uint64(n))
	ib, lb := idxBytes(t, img, lab, gz)
	ext := ""
	if gz {
		ext = ".gz"
	}
	writeFile(t, dir, prefix+"-images-idx3-ubyte"+ext, ib)
	writeFile(t, dir, prefix+"-labels-idx1-ubyte"+ext, lb)
}

func TestOpen(t *testing.T) {
	root := t.TempDir()
	mn := filepath.Join(root, "mnist")
	writeSet(t, mn, "train10k", 6, true)
	writeSet(t, mn, "t10k", 4, false)
	loc := Locations{Dir: root, System: map[string][]string{"fashion-mnist": {filepath.Join(root, "sys")}}}
	ds, err := loc.Open("mnist", "train")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 6 || ds.Name != "mnist-train10k" {
		t.Fatalf("train10k fallback: n=%d name=%s", ds.Len(), ds.Name)
	}
	// The full training files win over the 10k pool once present.
	writeSet(t, mn, "train", 9, false)
	if ds, err = loc.Open("mnist", "train"); err != nil || ds.Len() != 9 || ds.Name != "mnist-train" {
		t.Fatalf("full train: %v", err)
	}
	if ds, err = loc.Open("mnist", "test"); err != nil || ds.Len() != 4 {
		t.Fatalf("test: %v", err)
	}

	// Fashion-MNIST: absent everywhere, then found in the system directory.
	_, err = loc.Open("fashion-mnist", "test")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	for _, w := range []string{filepath.Join(root, "fashion-mnist"), filepath.Join(root, "sys"), "apt-get install dataset-fashion-mnist"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	writeSet(t, filepath.Join(root, "sys"), "t10k", 3, true)
	ds, err = loc.Open("fashion-mnist", "test")
	if err != nil || ds.Len() != 3 || ds.Classes[9] != "Ankle boot" {
		t.Fatalf("fashion: %v", err)
	}

	src := loc.Available()
	var got []string
	for _, s := range src {
		if s.Err != nil {
			t.Fatalf("%+v", s)
		}
		got = append(got, s.Name+"/"+s.Split+"/"+s.Prefix+"/"+strconv.Itoa(s.N))
	}
	want := "mnist/train/train/9 mnist/train/train10k/6 mnist/test/t10k/4 fashion-mnist/test/t10k/3"
	if strings.Join(got, " ") != want {
		t.Fatalf("Available = %v, want %s", got, want)
	}
}

func TestOpenErrors(t *testing.T) {
	root := t.TempDir()
	_, err := Open(root, "mnist", "train")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	for _, w := range []string{filepath.Join(root, "mnist", "train-"), "train10k-", "--data DIR holding mnist/", "gitui data fetch mnist"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if _, err := Open(root, "cifar", "train"); err == nil || !strings.Contains(err.Error(), "mnist, fashion-mnist") {
		t.Errorf("unknown name: %v", err)
	}
	if _, err := Open(root, "mnist", "val"); err == nil || !strings.Contains(err.Error(), "train or test") {
		t.Errorf("unknown split: %v", err)
	}
	// Images without labels: say which file is missing.
	img, lab := tinyImages(2, 2, 2, 1)
	ib, _ := idxBytes(t, img, lab, false)
	writeFile(t, filepath.Join(root, "mnist"), "t10k-images-idx3-ubyte", ib)
	if _, err := Open(root, "mnist", "test"); err == nil || !strings.Contains(err.Error(), "t10k-labels-idx1-ubyte[.gz]") {
		t.Errorf("half pair: %v", err)
	}
}

func TestRealFashionMNIST(t *testing.T) {
	sys := "/usr/share/datasets/fashion-mnist"
	if _, err := os.Stat(sys); err != nil {
		t.Skip("Fashion-MNIST not installed: apt-get install dataset-fashion-mnist")
	}
	ds, err := Open(t.TempDir(), "fashion-mnist", "test")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 10000 || ds.Shape[0] != 28 || ds.Shape[1] != 28 {
		t.Fatalf("n=%d shape=%v", ds.Len(), ds.Shape)
	}
	// The Fashion-MNIST test set has exactly 1,000 images per class (Xiao et al. 2017).
	for c, k := range ClassCounts(ds.Y, 10) {
		if k != 1000 {
			t.Fatalf("class %d has %d images", c, k)
		}
	}
	// Available reads headers only: the training file declares 60,000 images.
	found := false
	for _, s := range Available(t.TempDir()) {
		if s.Name == "fashion-mnist" && s.Split == "train" {
			found = s.N == 60000 && s.Err == nil
		}
	}
	if !found {
		t.Fatal("Available did not list fashion-mnist train with 60000 images")
	}
}

func TestSourceString(t *testing.T) {
	s := Source{Name: "mnist", Split: "test", Prefix: "t10k", Images: "/d/t10k-images-idx3-ubyte.gz", N: 10000, Rows: 28, Cols: 28}
	if got, want := s.String(), "mnist\ttest\tt10k\t10000 × 28x28\t/d/t10k-images-idx3-ubyte.gz"; got != want {
		t.Fatalf("String = %q, want %q", got, want)
	}
	s.Err = errors.New("bad")
	if !strings.Contains(s.String(), "unreadable: bad") {
		t.Fatalf("String = %q", s.String())
	}
}

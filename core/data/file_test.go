package data

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadFileDispatch(t *testing.T) {
	dir := t.TempDir()
	img, lab := tinyImages(3, 2, 2, 5)
	ib, lb := idxBytes(t, img, lab, true)
	writeFile(t, dir, "u-images-idx3-ubyte.gz", ib)
	writeFile(t, dir, "u-labels-idx1-ubyte.gz", lb)
	cases := []struct {
		name    string
		content []byte
		n, d    int
	}{
		{"a.csv", []byte("x,y,l\n1,2,a\n3,4,b\n"), 2, 2},
		{"b.tsv", []byte("1\t2\ta\n"), 1, 2},
		{"c.csv.gz", gz([]byte("1,2,3,a\n4,5,6,b\n7,8,9,a\n")), 3, 3},
		{"d.svm", []byte("1 1:1\n-1 5:2\n"), 2, 5},
		{"e.libsvm", []byte("1 2:1\n"), 1, 2},
		{"f.txt", gz([]byte("3 1:1 2:2\n")), 1, 2},
		{"u-images-idx3-ubyte.gz", nil, 3, 4},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if c.content != nil {
			writeFile(t, dir, c.name, c.content)
		}
		ds, err := LoadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ds.Len() != c.n || ds.Dim() != c.d {
			t.Fatalf("%s: n=%d d=%d, want %d, %d", c.name, ds.Len(), ds.Dim(), c.n, c.d)
		}
	}
	for _, c := range []struct{ name, want string }{
		{"x.arrow", "unknown file kind"},
		{"data.npy", "_x.npy with ..._y.npy"},
		{"train_x.npy", "no labels file"},
	} {
		if _, err := LoadFile(filepath.Join(dir, c.name)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	// A parse error keeps its position through LoadFile.
	writeFile(t, dir, "bad.csv", []byte("1,2,a\n1,x,b\n"))
	_, err := LoadFile(filepath.Join(dir, "bad.csv"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != 2 || !strings.HasPrefix(err.Error(), filepath.Join(dir, "bad.csv")+":2: field 2: ") {
		t.Fatalf("err = %v", err)
	}
}

package bench

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/core/group"
)

// writeRows writes permutation rows as an int64 .npy file.
func writeRows(t *testing.T, path string, rows [][]int) {
	t.Helper()
	var body bytes.Buffer
	for _, r := range rows {
		for _, v := range r {
			binary.Write(&body, binary.LittleEndian, int64(v))
		}
	}
	h := fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }", len(rows), len(rows[0]))
	for (11+len(h))%64 != 0 {
		h += " "
	}
	h += "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&b, binary.LittleEndian, uint16(len(h)))
	b.WriteString(h)
	b.Write(body.Bytes())
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFeaturesGroupFile: the dihedral group of MNIST images given as a file is timed on
// the same path (its features checked against the plain definition by features), and
// bad files are input errors naming the fix.
func TestFeaturesGroupFile(t *testing.T) {
	tmp := t.TempDir()
	d8 := group.Dihedral(28)
	var rows [][]int
	for i := range d8.Len() {
		rows = append(rows, d8.Perm(i))
	}
	good := filepath.Join(tmp, "d8.npy")
	writeRows(t, good, rows)
	short := filepath.Join(tmp, "short.npy")
	writeRows(t, short, [][]int{{1, 0, 2}})
	ctx := context.Background()
	for _, c := range []struct{ path, want string }{
		{short, "has shape [1 3]: give permutations of the 784 MNIST pixels"},
		{filepath.Join(tmp, "none.npy"), "none.npy"},
	} {
		_, err := FeaturesGroupFile(ctx, tmp, 10, 5, 5, c.path)
		var ie *data.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError with %q", c.path, err, c.want)
		}
	}
	dir := dataDir(t)
	r, err := FeaturesGroupFile(ctx, dir, 200, 10, 25, good)
	if err != nil {
		t.Fatal(err)
	}
	if r.Params["g"] != 8 || r.Params["group_file"] != good || r.Throughput <= 0 {
		t.Errorf("params %+v", r.Params)
	}
}

package grouppane

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"gonum.org/v1/gonum/mat"

	"gitui/core/data"
	"gitui/model"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/internal/uitest"
)

// writePerms writes rows (one permutation each) as an int64 .npy of shape (len(rows), d),
// what numpy.save writes for G.astype(numpy.int64).
func writePerms(t *testing.T, path string, rows [][]int) {
	t.Helper()
	var body bytes.Buffer
	for _, r := range rows {
		for _, v := range r {
			binary.Write(&body, binary.LittleEndian, int64(v))
		}
	}
	h := fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }", len(rows), len(rows[0]))
	for (10+len(h)+1)%64 != 0 {
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

// TestFileGroupFieldsFromRegistry: the fields of the kinds a user brings are the
// registry's (model.SpecFields through form.FromSpec), one per kind, before the sample
// size, and none of them for a built-in kind.
func TestFileGroupFieldsFromRegistry(t *testing.T) {
	for kind, want := range map[string][]string{
		"permutations": {"group.kind", "group.path", "group.size"},
		"linear":       {"group.kind", "group.path", "group.size"},
		"generated":    {"group.kind", "group.generators_path", "group.size"},
		"mirror":       {"group.kind", "group.axis", "group.size"},
		"dihedral":     {"group.kind", "group.size"},
		"reversal":     {"group.kind", "group.size"},
		"cyclic-shift": {"group.kind", "group.size"},
	} {
		s := &model.Spec{Group: model.GroupSpec{Kind: kind}}
		var got []string
		for _, f := range Fields(s) {
			got = append(got, f.Key)
			if !reflect.DeepEqual(f, form.FromSpec(f.Key)) {
				t.Errorf("%s: field %s is not the registry's: %+v", kind, f.Key, f)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: fields %v, want %v", kind, got, want)
		}
	}
}

// TestFileGroupPreview: for a group from a file the preview shows |G|, whether it is a
// group (closed) or only a set, in the words of core/group, and the orbit of one sample.
func TestFileGroupPreview(t *testing.T) {
	dir := t.TempDir()
	closed := filepath.Join(dir, "closed.npy") // the identity and the swap of the first two coordinates
	writePerms(t, closed, [][]int{{0, 1, 2, 3, 4, 5}, {1, 0, 2, 3, 4, 5}})
	set := filepath.Join(dir, "set.npy") // a 3-cycle without its square: not closed
	writePerms(t, set, [][]int{{0, 1, 2, 3, 4, 5}, {1, 2, 0, 3, 4, 5}})
	x := []float64{1, 2, 3, 4, 5, 6}
	pool := &data.Dataset{Name: "toy", X: mat.NewDense(1, 6, x), Y: []int{0}, Classes: []string{"0"}, Shape: []int{6}}
	for _, c := range []struct {
		path string
		want []string
	}{
		{closed, []string{"|G| = 2", "closed.npy", "group (closed)", "a group of 2 elements", "orbit of one sample", "g1"}},
		{set, []string{"|G| = 2", "set.npy", "set", "a set of 2 permutations, not closed under", "they generate a group of 3", "Haar kernel needs a group"}},
	} {
		s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: "toy.csv"},
			Group: model.GroupSpec{Kind: "permutations", Path: c.path}, Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
		m := New(uitest.Styles(), s)
		m.SetSize(100, 30)
		m = run(t, m, datapane.LoadedMsg{Tag: 1, Spec: s.Data, Pool: pool, Test: pool})
		if m.Err() != nil {
			t.Fatalf("%s: %v", c.path, m.Err())
		}
		v := ansi.Strip(m.View())
		uitest.CheckFits(t, m.View(), 100, 30)
		for _, w := range c.want {
			if !strings.Contains(v, w) {
				t.Errorf("%s: preview lacks %q:\n%s", filepath.Base(c.path), w, v)
			}
		}
		if c.path == set && strings.Contains(v, "group (closed)") {
			t.Errorf("a set shown as a group:\n%s", v)
		}
	}
	// A built-in kind says nothing of closure.
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: "toy.csv"},
		Group: model.GroupSpec{Kind: "permutation"}, Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	if what, how := closure(s.Group, nil); what != "" || how != "" {
		t.Errorf("built-in kind: %q, %q", what, how)
	}
}

// TestStaleDataIgnored: a data set loaded for an older request (a smaller tag) that
// arrives after a newer one does not replace the sample the orbit is drawn from.
func TestStaleDataIgnored(t *testing.T) {
	mk := func(v float64) *data.Dataset {
		return &data.Dataset{Name: "toy", X: mat.NewDense(1, 4, []float64{v, v, v, v}), Y: []int{0}, Classes: []string{"0"}, Shape: []int{4}}
	}
	s := &model.Spec{Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "file", Path: "toy.csv"},
		Group: model.GroupSpec{Kind: "reversal"}, Methods: []model.Method{{Features: "raw"}}, Sizes: []int{10}, Seed: 1}
	m := New(uitest.Styles(), s)
	m.SetSize(80, 24)
	m = run(t, m, datapane.LoadedMsg{Tag: 2, Spec: s.Data, Pool: mk(2), Test: mk(2)})
	m = run(t, m, datapane.LoadedMsg{Tag: 1, Spec: s.Data, Pool: mk(1), Test: mk(1)})
	if m.sample == nil || m.sample[0] != 2 {
		t.Fatalf("the stale load (tag 1) replaced the newer one (tag 2): sample %v", m.sample)
	}
	if m.Err() != nil || len(m.orbit.xs) == 0 || m.orbit.xs[0][0] != 2 {
		t.Fatalf("orbit not of the newer data: %v %v", m.Err(), m.orbit.xs)
	}
	// A stale failure does not clear it either; a newer load (tag 3) does replace it.
	m = run(t, m, datapane.LoadedMsg{Tag: 1, Err: fmt.Errorf("cancelled")})
	if m.sample == nil {
		t.Fatal("a stale failed load cleared the sample")
	}
	m = run(t, m, datapane.LoadedMsg{Tag: 3, Spec: s.Data, Pool: mk(3), Test: mk(3)})
	if m.sample[0] != 3 {
		t.Fatalf("the newer load (tag 3) was not taken: %v", m.sample)
	}
}

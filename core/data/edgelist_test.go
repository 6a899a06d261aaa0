package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// writeEdgeList writes the edges of the flattened n×n adjacency matrix a (i < j, and
// self-loops) to path, one "u v" per line.
func writeEdgeList(t *testing.T, path string, a []float64, n int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# an edge list\n")
	for i := range n {
		for j := i; j < n; j++ {
			if a[i*n+j] != 0 {
				fmt.Fprintf(&b, "%d %d\n", i, j)
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEdgeListsMatchGenerated: graphs of the graphs generator written as an edge-list
// folder (both layouts) and as an .npy of adjacency matrices (n, N, N) with labels load
// back as the same adjacency matrices, labels and shape [N, N].
func TestEdgeListsMatchGenerated(t *testing.T) {
	const nodes = 12
	g := Graphs(40, nodes, 4, rand.New(rand.NewPCG(1, 2)))
	d := nodes * nodes

	// Layout 1: a folder per class.
	byClass := t.TempDir()
	for i := range g.Len() {
		writeEdgeList(t, filepath.Join(byClass, g.Classes[g.Y[i]], fmt.Sprintf("g%03d.txt", i)), g.X.RawRowView(i), nodes)
	}
	// Layout 2: labels.csv, in the generator's order, with a header and mixed separators.
	listed := t.TempDir()
	var lab strings.Builder
	lab.WriteString("file,label\n")
	for i := range g.Len() {
		name := fmt.Sprintf("graphs/%d.edges", i)
		writeEdgeList(t, filepath.Join(listed, name), g.X.RawRowView(i), nodes)
		sep := ","
		if i%2 == 1 {
			sep = "\t"
		}
		fmt.Fprintf(&lab, "%s%s%s\n", name, sep, g.Classes[g.Y[i]])
	}
	if err := os.WriteFile(filepath.Join(listed, EdgeListLabels), []byte(lab.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The .npy pair: x of shape (n, N, N) float64, y int64.
	npyDir := t.TempDir()
	var xb bytes.Buffer
	binary.Write(&xb, binary.LittleEndian, g.X.RawMatrix().Data)
	xp := writeFile(t, npyDir, "adj_x.npy", rawNPY("<f8", false, fmt.Sprintf("(%d, %d, %d)", g.Len(), nodes, nodes), xb.Bytes()))
	ys := make([]int64, g.Len())
	for i, y := range g.Y {
		ys[i] = int64(y)
	}
	npyWrite(t, npyDir, "adj_y.npy", ys)

	for _, c := range []struct {
		name string
		path string
	}{{"class folders", byClass}, {"labels.csv", listed}, {"npy", xp}} {
		ds, err := LoadFile(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(ds.Shape) != 2 || ds.Shape[0] != nodes || ds.Shape[1] != nodes || ds.Dim() != d || ds.Len() != g.Len() {
			t.Fatalf("%s: shape %v, %d x %d", c.name, ds.Shape, ds.Len(), ds.Dim())
		}
		// Every loaded graph is one of the generated ones with the same class name.
		want := map[string]string{}
		for i := range g.Len() {
			want[fmt.Sprint(g.X.RawRowView(i))] = g.Classes[g.Y[i]]
		}
		for i := range ds.Len() {
			cls, ok := want[fmt.Sprint(ds.X.RawRowView(i))]
			got := ds.Classes[ds.Y[i]]
			if c.name == "npy" { // numeric labels: the family's index
				got = g.Classes[mustAtoi(t, got)]
			}
			if !ok || cls != got {
				t.Fatalf("%s: graph %d (class %s) is not a generated graph of that class", c.name, i, got)
			}
		}
		if c.name == "labels.csv" && !mat.Equal(ds.X, g.X) {
			t.Errorf("labels.csv: the graphs are not in the listed order")
		}
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var v int
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestEdgeListsSmall: N is the largest node number plus one over all files (isolated
// nodes beyond a graph's own), edges are undirected, repeats count once, and classes are
// named after their folders.
func TestEdgeListsSmall(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("path/a.txt", "0 1\n1,2\n\n2\t1\n")
	write("star/b.txt", "# centre 0\n0 1\n0 2\n0 3\n")
	write(".hidden/c.txt", "0 9\n")
	ds, err := LoadEdgeLists(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, [][]float64{
		{0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0},
		{0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0},
	}, []int{0, 1}, []string{"path", "star"}, []int{4, 4})
}

// TestEdgeListsBadInput: each bad folder is refused with one line naming the file (and
// line) and the fix.
func TestEdgeListsBadInput(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"not numbers", map[string]string{"a/g.txt": "0 1\n1 x\n"}, `g.txt:2: "1 x" is not two node numbers: write one edge per line as "u v"`},
		{"three columns", map[string]string{"a/g.txt": "0 1 0.5\n"}, `"0 1 0.5" is not two node numbers`},
		{"negative", map[string]string{"a/g.txt": "-1 2\n"}, `"-1 2" is not two node numbers`},
		{"too many nodes", map[string]string{"a/g.txt": "0 5000\n"}, "g.txt:1: node 5000 is above 4095"},
		{"outside a class folder", map[string]string{"g.txt": "0 1\n"}, `graph file "g.txt" is not in a class folder`},
		{"empty", map[string]string{}, "no graphs: put one edge-list file per graph in a folder per class"},
		{"no edges", map[string]string{"a/g.txt": "# nothing\n"}, "the graph files hold no edges"},
		{"missing listed file", map[string]string{"labels.csv": "g.txt,a\n"}, "labels.csv:1: graph file"},
		{"labels line", map[string]string{"labels.csv": "g.txt\n", "g.txt": "0 1\n"}, `labels.csv:1: "g.txt" is not "FILE,LABEL"`},
		{"listed twice", map[string]string{"labels.csv": "g.txt,a\ng.txt,b\n", "g.txt": "0 1\n"}, `labels.csv:2: graph "g.txt" is listed again (first on line 1)`},
		{"long line", map[string]string{"a/g.txt": strings.Repeat("1", 70000) + " 1\n"}, "longer than 64 KiB"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, body := range c.files {
				p := filepath.Join(dir, rel)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadFile(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line containing %q", err, c.want)
			}
		})
	}
}

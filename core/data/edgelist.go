package data

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"gitui/internal/ctxio"
)

// EdgeListLabels is the name of the labels file of an edge-list folder (LoadEdgeLists).
const EdgeListLabels = "labels.csv"

// maxEdgeListNodes bounds the node numbers of an edge-list folder: a graph of N nodes is
// a sample of N² coordinates.
const maxEdgeListNodes = 4096

// LoadEdgeLists reads a folder of graphs, one edge-list file per graph, as a data set of
// flattened N×N adjacency matrices (Shape [N, N]), on which node relabellings act as
// P A Pᵀ (NodePermutation). Two layouts:
//
//   - dir/labels.csv lists "FILE,LABEL" per line (a comma, a tab or spaces between; an
//     optional header "file,label"; '#' starts a comment): FILE is a graph file's path
//     relative to dir, LABEL its class;
//   - otherwise every subfolder of dir is a class named after it, and every file in it
//     (hidden files skipped) a graph of that class.
//
// A graph file holds one undirected edge per line, two node numbers "u v" (0-based,
// separated by spaces, a tab or a comma); empty lines and lines starting with '#' are
// skipped; a repeated edge counts once, and "u u" is a self-loop (A_uu = 1). N is the
// largest node number in any file plus one, so every graph has the same N nodes, those
// its file never names being isolated. Graphs come in the order of the labels file, or
// by class folder and then file name (sorted); classes are named in order of first
// appearance.
//
// Errors name the file, the line and the fix: a line that is not two node numbers, a
// node number above 4095, a file the labels file names that does not exist, a graph
// file outside a class folder, a folder without graphs, and N² values per graph that do
// not fit the value cap (MaxValues and the memory available). Reads stop with ctx's
// error once ctx is done.
func LoadEdgeLists(ctx context.Context, dir string) (*Dataset, error) {
	files, labels, err := edgeListFiles(dir)
	if err != nil {
		return nil, err
	}
	graphs := make([][][2]int, len(files))
	n := 0
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if graphs[i], err = readEdgeList(ctx, f); err != nil {
			return nil, err
		}
		for _, e := range graphs[i] {
			n = max(n, e[0]+1, e[1]+1)
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%s: the graph files hold no edges: write one edge per line as \"u v\" (0-based node numbers)", dir)
	}
	limit, why, capErr := valueCap()
	if capErr != nil {
		return nil, capErr
	}
	if uint64(len(files))*uint64(n)*uint64(n) > limit {
		return nil, fmt.Errorf("%s: %d graphs of %d nodes are %d values, more than %s: use fewer or smaller graphs", dir, len(files), n, len(files)*n*n, why)
	}
	d := n * n
	x := make([]float64, len(files)*d)
	var ci classIndex
	y := make([]int, len(files))
	for i, g := range graphs {
		a := x[i*d : (i+1)*d]
		for _, e := range g {
			a[e[0]*n+e[1]], a[e[1]*n+e[0]] = 1, 1
		}
		y[i] = ci.add(labels[i])
	}
	return &Dataset{Name: filepath.Base(filepath.Clean(dir)), X: mat.NewDense(len(files), d, x), Y: y, Classes: ci.classes, Shape: []int{n, n}}, nil
}

// edgeListFiles returns the graph files of the edge-list folder dir and their labels,
// from dir/labels.csv or from the class folders (see LoadEdgeLists).
func edgeListFiles(dir string) (files, labels []string, err error) {
	lp := filepath.Join(dir, EdgeListLabels)
	if _, err := os.Stat(lp); err == nil {
		return edgeListLabelsFile(dir, lp)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		if !e.IsDir() {
			return nil, nil, fmt.Errorf("%s: graph file %q is not in a class folder: put each graph in a folder named after its class, or list \"file,label\" lines in %s", dir, name, lp)
		}
		sub, err := os.ReadDir(filepath.Join(dir, name))
		if err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", dir, err)
		}
		for _, f := range sub {
			if strings.HasPrefix(f.Name(), ".") || f.IsDir() {
				continue
			}
			files = append(files, filepath.Join(dir, name, f.Name()))
			labels = append(labels, name)
		}
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s: no graphs: put one edge-list file per graph in a folder per class (%s/CLASS/GRAPH.txt), or list \"file,label\" lines in %s", dir, dir, lp)
	}
	return files, labels, nil
}

// edgeListLabelsFile reads the labels file lp of the edge-list folder dir.
func edgeListLabelsFile(dir, lp string) (files, labels []string, err error) {
	f, err := os.Open(lp)
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", lp, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		parts := fieldsOf(t)
		if line == 1 && len(parts) == 2 && strings.EqualFold(parts[0], "file") && strings.EqualFold(parts[1], "label") {
			continue
		}
		if len(parts) != 2 {
			return nil, nil, &ParseError{File: lp, Line: line, Msg: fmt.Sprintf("%q is not \"FILE,LABEL\": give a graph file (relative to %s) and its class per line", t, dir)}
		}
		if prev, ok := seen[parts[0]]; ok {
			return nil, nil, &ParseError{File: lp, Line: line, Msg: fmt.Sprintf("graph %q is listed again (first on line %d): list each graph once", parts[0], prev)}
		}
		seen[parts[0]] = line
		p := filepath.Join(dir, parts[0])
		if st, err := os.Stat(p); err != nil || st.IsDir() {
			return nil, nil, &ParseError{File: lp, Line: line, Msg: fmt.Sprintf("graph file %q does not exist: fix the name or drop the line", p)}
		}
		files = append(files, p)
		labels = append(labels, parts[1])
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", lp, lineErr(err))
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("%s lists no graphs: give one \"file,label\" line per graph file", lp)
	}
	return files, labels, nil
}

// fieldsOf splits a line at commas, tabs and runs of spaces.
func fieldsOf(t string) []string {
	return strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// readEdgeList reads the edges of one graph file (see LoadEdgeLists).
func readEdgeList(ctx context.Context, path string) ([][2]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(ctxio.Reader(ctx, f))
	var edges [][2]int
	for line := 1; sc.Scan(); line++ {
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		parts := fieldsOf(t)
		var e [2]int
		ok := len(parts) == 2
		for i := 0; ok && i < 2; i++ {
			v, err := strconv.Atoi(parts[i])
			ok = err == nil && v >= 0
			e[i] = v
		}
		if !ok {
			return nil, &ParseError{File: path, Line: line, Msg: fmt.Sprintf("%q is not two node numbers: write one edge per line as \"u v\" (0-based node numbers)", t)}
		}
		if e[0] >= maxEdgeListNodes || e[1] >= maxEdgeListNodes {
			return nil, &ParseError{File: path, Line: line, Msg: fmt.Sprintf("node %d is above %d: number the nodes of each graph from 0 (graphs of at most %d nodes)", max(e[0], e[1]), maxEdgeListNodes-1, maxEdgeListNodes)}
		}
		edges = append(edges, e)
	}
	if err := sc.Err(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("load %s: %w", path, lineErr(err))
	}
	return slices.Clip(edges), nil
}

// lineErr explains bufio.ErrTooLong (a line past 64 KiB, which an edge or a label line
// never needs: the file is not an edge list) and passes other errors on.
func lineErr(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return fmt.Errorf("a line is longer than 64 KiB: this is not an edge list (one \"u v\" or \"file,label\" per line): %w", err)
	}
	return err
}

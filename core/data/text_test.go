package data

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCSVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, text string
		opts       CSVOptions
		x          [][]float64
		y          []int
		classes    []string
		shape      []int
	}{
		{"header, string labels last", "a,b,species\n1,2,setosa\n3,4.5,virginica\n-1e-3,6,setosa\n", CSVOptions{},
			[][]float64{{1, 2}, {3, 4.5}, {-1e-3, 6}}, []int{0, 1, 0}, []string{"setosa", "virginica"}, []int{2}},
		{"no header, numeric labels first appearance", "1,2,7\n3,4,3\n5,6,7\n", CSVOptions{},
			[][]float64{{1, 2}, {3, 4}, {5, 6}}, []int{0, 1, 0}, []string{"7", "3"}, []int{2}},
		{"label by name, first column, semicolons", "cls; p1; p2; p3; p4\nb;1;2;3;4\na;5;6;7;8\n", CSVOptions{Label: "cls", Shape: []int{2, 2}},
			[][]float64{{1, 2, 3, 4}, {5, 6, 7, 8}}, []int{0, 1}, []string{"b", "a"}, []int{2, 2}},
		{"label by index, tabs, BOM, CRLF", "\ufeffx\ty\tz\r\n1\tpos\t2\r\n3\tneg\t4\r\n", CSVOptions{Label: "1"},
			[][]float64{{1, 2}, {3, 4}}, []int{0, 1}, []string{"pos", "neg"}, []int{2}},
		{"negative index, forced no header", "1,2,3\n4,5,6\n", CSVOptions{Label: "-3", Header: HeaderNo},
			[][]float64{{2, 3}, {5, 6}}, []int{0, 1}, []string{"1", "4"}, []int{2}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, "f"+string(rune('a'+i))+".csv", []byte(c.text))
			ds, err := LoadCSV(p, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := ds.Validate(); err != nil {
				t.Fatal(err)
			}
			checkData(t, ds, c.x, c.y, c.classes, c.shape)
		})
	}
}

// checkData compares a Dataset with expected rows, labels, classes and shape (exact:
// every value is a short decimal parsed by strconv on both sides).
func checkData(t *testing.T, ds *Dataset, x [][]float64, y []int, classes []string, shape []int) {
	t.Helper()
	if ds.Len() != len(x) {
		t.Fatalf("n = %d, want %d", ds.Len(), len(x))
	}
	for i, row := range x {
		for j, v := range row {
			if got := ds.X.At(i, j); got != v {
				t.Fatalf("X[%d,%d] = %v, want %v", i, j, got, v)
			}
		}
		if ds.Y[i] != y[i] {
			t.Fatalf("Y = %v, want %v", ds.Y, y)
		}
	}
	if strings.Join(ds.Classes, "|") != strings.Join(classes, "|") {
		t.Fatalf("classes %q, want %q", ds.Classes, classes)
	}
	if len(ds.Shape) != len(shape) {
		t.Fatalf("shape %v, want %v", ds.Shape, shape)
	}
	for k := range shape {
		if ds.Shape[k] != shape[k] {
			t.Fatalf("shape %v, want %v", ds.Shape, shape)
		}
	}
}

// wantParseError checks that err is a *ParseError at line with all words in its message.
func wantParseError(t *testing.T, err error, line int, words ...string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v (%T), want *ParseError", err, err)
	}
	if pe.Line != line {
		t.Errorf("line = %d, want %d (%v)", pe.Line, line, err)
	}
	for _, w := range words {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
}

func TestCSVErrors(t *testing.T) {
	parse := []struct {
		name, text string
		line       int
		words      []string
	}{
		{"ragged", "a,b,c\n1,2,x\n1,2\n", 3, []string{"2 fields", "3", "same length"}},
		{"NaN", "1,2,x\n1,NaN,y\n", 2, []string{"field 2", "NaN", "impute"}},
		{"Inf", "1,2,x\n-Inf,1,y\n", 2, []string{"field 1", "infinite"}},
		{"huge", "1,2,x\n1e301,1,y\n", 2, []string{"1e+301", "rescale"}},
		{"out of range", "1,2,x\n1e400,1,y\n", 2, []string{"out of range"}},
		{"not a number", "1,2,x\n1,abc,y\n", 2, []string{"field 2", `"abc" is not a number`}},
		{"empty value", "1,2,x\n1,,y\n", 2, []string{"field 2", "empty value"}},
		{"empty label", "1,2,x\n1,2,\n", 2, []string{"field 3", "empty label"}},
		{"bad quote", "1,2,x\n1,\"2,y\n", 2, []string{"quot"}},
	}
	for _, c := range parse {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.text), "f.csv", CSVOptions{})
			wantParseError(t, err, c.line, append(c.words, "f.csv:")...)
		})
	}
	plain := []struct {
		name, text string
		opts       CSVOptions
		words      []string
	}{
		{"empty", "", CSVOptions{}, []string{"empty"}},
		{"header only", "a,b\n", CSVOptions{}, []string{"no data rows"}},
		{"one column", "1\n2\n", CSVOptions{}, []string{"at least one feature"}},
		{"no such name", "a,b\n1,2\n", CSVOptions{Label: "c"}, []string{`no column named "c"`, `["a" "b"]`}},
		{"index out of range", "1,2\n", CSVOptions{Label: "5"}, []string{"outside the 2 columns"}},
		{"bad shape", "1,2,3,x\n", CSVOptions{Shape: []int{2, 2}}, []string{"shape [2 2]", "3 feature columns"}},
		{"name without header", "1,2\n", CSVOptions{Label: "b", Header: HeaderNo}, []string{"no header"}},
	}
	for _, c := range plain {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.text), "f.csv", c.opts)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
	if _, err := LoadCSV(filepath.Join(t.TempDir(), "none.csv"), CSVOptions{}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.csv") {
		t.Errorf("missing file: %v", err)
	}
}

func TestLIBSVM(t *testing.T) {
	text := "# comment line\n+1 3:0.5 1:2 # trailing\n-1 qid:3 2:-1\n\n1 4:1e-2\n"
	ds, err := ReadLIBSVM(strings.NewReader(text), "t.svm", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := ds.Validate(); err != nil {
		t.Fatal(err)
	}
	checkData(t, ds, [][]float64{{2, 0, 0.5, 0}, {0, -1, 0, 0}, {0, 0, 0, 1e-2}}, []int{0, 1, 0}, []string{"1", "-1"}, []int{4})
	ds, err = ReadLIBSVM(strings.NewReader(text), "t.svm", 6)
	if err != nil || ds.Dim() != 6 {
		t.Fatalf("dim 6: %v", err)
	}

	bad := []struct {
		name, text string
		line       int
		words      []string
	}{
		{"zero index", "1 1:1\n1 0:3\n", 2, []string{"field 2", "1-based"}},
		{"bad label", "1 1:1\nx 1:1\n", 2, []string{"field 1", "label"}},
		{"NaN label", "nan 1:1\n", 1, []string{"NaN"}},
		{"no colon", "1 1:1 2\n", 1, []string{"field 3", "index:value"}},
		{"bad value", "1 1:1 2:z\n", 1, []string{"field 3", `"z" is not a number`}},
		{"inf value", "1 1:1 2:inf\n", 1, []string{"infinite"}},
		{"duplicate", "1 2:1 1:1 2:3\n", 1, []string{"index 2 appears twice"}},
		{"above dim", "1 7:1\n", 1, []string{"exceeds the dimension 6"}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadLIBSVM(strings.NewReader(c.text), "t.svm", 6)
			wantParseError(t, err, c.line, c.words...)
		})
	}
	for _, c := range []struct{ text, word string }{
		{"", "no samples"}, {"# only\n", "no samples"}, {"1\n-1\n", "no features"},
		{"1 268435456:1\n", "over 1024 times larger"},
	} {
		if _, err := ReadLIBSVM(strings.NewReader(c.text), "t.svm", 0); err == nil || !strings.Contains(err.Error(), c.word) {
			t.Errorf("%q: err = %v, want %q", c.text, err, c.word)
		}
	}
}

package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedData is the shared data directory of tests (GITUI_DATA, else ../shared/data
// from the project's root).
func sharedData() string {
	if d := os.Getenv(EnvDataDir); d != "" {
		return d
	}
	return "../../../shared/data"
}

func TestReadUSPSScalesAndOrders(t *testing.T) {
	// Pixel i of the first digit is -1 + i/128 (so (v+1)/2 = i/256), the second's all 1.
	text := uspsLine("6.0000", func(i int) string { return fmt.Sprintf("%.6f", -1+float64(i)/128) }) +
		"\n" + strings.TrimSuffix(uspsLine("9", func(int) string { return "1" }), "\n")
	for _, in := range [][]byte{[]byte(text), gz([]byte(text))} {
		ds, err := ReadUSPS(bytes.NewReader(in), "zip.train")
		if err != nil {
			t.Fatal(err)
		}
		if ds.Len() != 2 || ds.Dim() != 256 || ds.Shape[0] != 16 || ds.Shape[1] != 16 {
			t.Fatalf("%d digits of %d values, shape %v; want 2 of 256, [16 16]", ds.Len(), ds.Dim(), ds.Shape)
		}
		if ds.Classes[ds.Y[0]] != "6" || ds.Classes[ds.Y[1]] != "9" {
			t.Errorf("labels %s, %s; want 6, 9", ds.Classes[ds.Y[0]], ds.Classes[ds.Y[1]])
		}
		for i := range 256 {
			if got, want := ds.X.At(0, i), float64(i)/256; math.Abs(got-want) > 1e-6 {
				t.Fatalf("pixel %d = %g, want %g (row-major, scaled to [0, 1])", i, got, want)
			}
			if ds.X.At(1, i) != 1 {
				t.Fatalf("ink pixel %d = %g, want 1", i, ds.X.At(1, i))
			}
		}
	}
}

func TestReadUSPSErrorsNameFileAndLine(t *testing.T) {
	ok := uspsLine("1", func(int) string { return "0" })
	for _, c := range []struct{ text, want string }{
		{ok + uspsLine("2", func(int) string { return "0" })[:100] + "\n", "zip.test:2: 50 fields, want 257"},
		{ok + ok + uspsLine("11", func(int) string { return "0" }), "zip.test:3: field 1: label \"11\" is not a digit"},
		{ok + uspsLine("4.5", func(int) string { return "0" }), "zip.test:2: field 1: label \"4.5\""},
		{uspsLine("4", func(i int) string {
			if i == 9 {
				return "1.2"
			}
			return "0"
		}), "zip.test:1: field 11: pixel \"1.2\" is not a number in [-1, 1]"},
		{"", "zip.test: no digit in the file"},
	} {
		_, err := ReadUSPS(strings.NewReader(c.text), "zip.test")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}

func TestReadUSPSLIBSVM(t *testing.T) {
	// LIBSVM's numbering 1..10: label 10 is digit 9, 1 is digit 0; absent is 0 -> 0.5.
	ds, err := ReadUSPSLIBSVM(strings.NewReader("10 1:-1 256:1\n1 2:0.5\n"), "usps")
	if err != nil {
		t.Fatal(err)
	}
	if ds.Classes[ds.Y[0]] != "9" || ds.Classes[ds.Y[1]] != "0" {
		t.Errorf("labels %s, %s; want 9, 0 (1..10 shifted down)", ds.Classes[ds.Y[0]], ds.Classes[ds.Y[1]])
	}
	if ds.X.At(0, 0) != 0 || ds.X.At(0, 255) != 1 || ds.X.At(0, 1) != 0.5 || ds.X.At(1, 1) != 0.75 {
		t.Errorf("pixels %g %g %g %g, want 0 1 0.5 0.75", ds.X.At(0, 0), ds.X.At(0, 255), ds.X.At(0, 1), ds.X.At(1, 1))
	}
	// Digits 0..9 stay as they are.
	ds, err = ReadUSPSLIBSVM(strings.NewReader("0 1:1\n9 1:1\n"), "usps")
	if err != nil || ds.Classes[ds.Y[0]] != "0" || ds.Classes[ds.Y[1]] != "9" {
		t.Errorf("0..9 labels: %v", err)
	}
	for _, bad := range []string{"0 1:1\n10 1:1\n", "3 1:2\n", "3 257:1\n", "12 1:0\n"} {
		if _, err := ReadUSPSLIBSVM(strings.NewReader(bad), "usps"); err == nil || !strings.Contains(err.Error(), "usps") {
			t.Errorf("%q: error %v, want one naming the file", bad, err)
		}
	}
}

func TestOpenUSPSFindsFilesAndBinary(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenUSPS(context.Background(), dir, "train"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "gitui data fetch usps") {
		t.Fatalf("missing files: %v, want ErrNotFound naming the fetch", err)
	}
	os.MkdirAll(filepath.Join(dir, "usps"), 0o755)
	var train strings.Builder
	for d := range 10 {
		train.WriteString(uspsLine(fmt.Sprint(d), func(i int) string { return fmt.Sprint(float64(i%3) - 1) }))
	}
	os.WriteFile(filepath.Join(dir, "usps", "zip.train.gz"), gz([]byte(train.String())), 0o644)
	os.WriteFile(filepath.Join(dir, "usps", "usps.t"), []byte("10 1:1\n1 1:-1\n"), 0o644)
	pool, test, ok, err := LoadNamed(context.Background(), LoadRequest{Name: "usps-binary", Dir: dir})
	if !ok || err != nil {
		t.Fatal(ok, err)
	}
	if pool.Len() != 10 || test.Len() != 2 || len(pool.Classes) != 2 {
		t.Fatalf("pool %d, test %d, classes %v", pool.Len(), test.Len(), pool.Classes)
	}
	for i, c := range pool.Y {
		if want := i / 5; c != want {
			t.Errorf("digit %d in class %d, want %d (0-4 against 5-9)", i, c, want)
		}
	}
	if test.Y[0] != 1 || test.Y[1] != 0 {
		t.Errorf("LIBSVM test labels %v, want [1 0] (digits 9 and 0)", test.Y)
	}
	av := Locations{Dir: dir}.Available()
	if len(av) != 2 || av[0].Name != "usps" || av[0].N != 10 || av[1].N != 2 || av[0].Note == "" {
		t.Errorf("Available = %+v", av)
	}
}

// TestUSPSReal reads the shared copy of USPS: the counts and class counts of its README.
func TestUSPSReal(t *testing.T) {
	dir := sharedData()
	if findUSPS(dir, "train") == "" {
		t.Skipf("USPS not in %s/usps: set %s to a directory holding usps/", dir, EnvDataDir)
	}
	want := map[string][]int{
		"train": {1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644},
		"test":  {359, 264, 198, 166, 200, 160, 170, 147, 166, 177},
	}
	for split, counts := range want {
		ds, err := OpenUSPS(context.Background(), dir, split)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]int, 10)
		for _, c := range ds.Y {
			got[c]++
		}
		if fmt.Sprint(got) != fmt.Sprint(counts) {
			t.Errorf("%s class counts %v, want %v", split, got, counts)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range ds.X.RawMatrix().Data {
			lo, hi = min(lo, v), max(hi, v)
		}
		if lo != 0 || hi != 1 {
			t.Errorf("%s pixels in [%g, %g], want [0, 1]", split, lo, hi)
		}
	}
}

package data

import (
	"bytes"
	"context"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// writeParquet writes rows to dir/name with the library's own writer.
func writeParquet[T any](t *testing.T, dir, name string, rows []T) string {
	t.Helper()
	var b bytes.Buffer
	w := parquet.NewGenericWriter[T](&b)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type pqRow struct {
	A     float64 `parquet:"a"`
	B     int32   `parquet:"b"`
	C     uint16  `parquet:"c"`
	On    bool    `parquet:"on"`
	Label string  `parquet:"label"`
}

// TestLoadParquet checks a file written by the library: numeric columns are the
// features, the last column the labels (as a CSV's), and data.label_column picks
// another by name or index, through LoadFile's registry (by extension, and by the
// magic bytes under another name, which takes no label_column: that is chosen by name)
// and SizeOfFile.
func TestLoadParquet(t *testing.T) {
	dir := t.TempDir()
	rows := []pqRow{{1.5, -2, 65535, true, "cat"}, {0, 3, 1, false, "dog"}, {-4, 7, 2, true, "cat"}}
	p := writeParquet(t, dir, "pets.parquet", rows)
	ds, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Len() != 3 || ds.Dim() != 4 || ds.Name != "pets" || strings.Join(ds.Classes, ",") != "cat,dog" || ds.Y[2] != 0 {
		t.Fatalf("n=%d d=%d name=%q classes=%q y=%v", ds.Len(), ds.Dim(), ds.Name, ds.Classes, ds.Y)
	}
	if got := ds.X.RawRowView(0); got[0] != 1.5 || got[1] != -2 || got[2] != 65535 || got[3] != 1 {
		t.Errorf("row 0 = %v, want [1.5 -2 65535 1]", got)
	}
	if err := ds.Validate(); err != nil {
		t.Error(err)
	}
	if sz, err := SizeOfFile(context.Background(), p); err != nil || sz != (FileSize{Rows: 3, Dim: 4}) {
		t.Errorf("SizeOfFile = %+v, %v; want 3×4", sz, err)
	}
	if !HasLabelColumn(p) {
		t.Error("HasLabelColumn(.parquet) = false")
	}
	if _, err := LoadFileLabel(p, "b"); err == nil || !strings.Contains(err.Error(), `column "label" is STRING (BYTE_ARRAY), not a number`) {
		t.Errorf("label b with a text feature: err = %v, want the text column refused", err)
	}
	type numRow struct {
		A float64 `parquet:"a"`
		K int64   `parquet:"k"`
		B float32 `parquet:"b"`
	}
	q := writeParquet(t, dir, "num.parquet", []numRow{{1, 7, 0.5}, {2, 8, 0.25}, {3, 7, 0.125}})
	b, _ := os.ReadFile(q)
	writeFile(t, dir, "num.bin", b) // found by its magic bytes PAR1
	if ds, err := LoadFile(filepath.Join(dir, "num.bin")); err != nil || ds.Dim() != 2 || strings.Join(ds.Classes, ",") != "0.5,0.25,0.125" {
		t.Errorf("num.bin by its magic: %v", err)
	}
	for _, label := range []string{"k", "1", "-2"} {
		ds, err := LoadFileLabel(q, label)
		if err != nil {
			t.Fatalf("label %s: %v", label, err)
		}
		if ds.Dim() != 2 || strings.Join(ds.Classes, ",") != "7,8" || ds.X.At(2, 1) != 0.125 {
			t.Errorf("label %s: d=%d classes=%q x=%v", label, ds.Dim(), ds.Classes, ds.X.RawMatrix().Data)
		}
	}
	if _, err := LoadFileLabel(q, "z"); err == nil || !strings.Contains(err.Error(), `no column named "z"`) {
		t.Errorf("label z: err = %v", err)
	}
}

// TestParquetRefusals checks the one-line refusals: a nested column, a text feature, a
// null value, a gzipped file.
func TestParquetRefusals(t *testing.T) {
	dir := t.TempDir()
	type nested struct {
		A    float64 `parquet:"a"`
		Tags []int32 `parquet:"tags"`
		L    int32   `parquet:"l"`
	}
	type text struct {
		Name string  `parquet:"name"`
		A    float64 `parquet:"a"`
		L    int32   `parquet:"l"`
	}
	type null struct {
		A *float64 `parquet:"a,optional"`
		L int32    `parquet:"l"`
	}
	one := 1.0
	for _, c := range []struct {
		path, want string
	}{
		{writeParquet(t, dir, "n.parquet", []nested{{1, []int32{1, 2}, 0}}), `column "tags" is nested or repeated`},
		{writeParquet(t, dir, "t.parquet", []text{{"x", 1, 0}}), `column "name" is`},
		{writeParquet(t, dir, "u.parquet", []null{{&one, 0}, {nil, 1}}), `row 2, column "a" is null`},
	} {
		_, err := LoadFile(c.path)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want one line with %q", filepath.Base(c.path), err, c.want)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "t.parquet"))
	writeFile(t, dir, "g.parquet.gz", gz(b))
	if _, err := LoadFile(filepath.Join(dir, "g.parquet.gz")); err == nil || !strings.Contains(err.Error(), "gunzip it") {
		t.Errorf("gzipped: err = %v", err)
	}
}

// TestParquetCorrupt checks that truncated and damaged files give an error, never a
// panic or a line on stderr (the library logs with package log and may panic on
// corrupt input: openParquet and loadParquet recover).
func TestParquetCorrupt(t *testing.T) {
	dir := t.TempDir()
	var rows []pqRow
	for i := range 200 {
		rows = append(rows, pqRow{float64(i), int32(i), uint16(i), i%2 == 0, []string{"a", "b", "c"}[i%3]})
	}
	good, _ := os.ReadFile(writeParquet(t, dir, "good.parquet", rows))
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	defer func() { os.Stderr = stderr }()
	var bad [][]byte
	for _, n := range []int{0, 3, 4, 12, len(good) / 2, len(good) - 9, len(good) - 1} {
		bad = append(bad, good[:n])
	}
	for i := 4; i < len(good)-8; i += max(1, len(good)/97) {
		for _, v := range []byte{0x00, 0xff, 0x7f} {
			b := bytes.Clone(good)
			b[i] = v
			bad = append(bad, b)
		}
	}
	bad = append(bad, append(append([]byte("PAR1"), bytes.Repeat([]byte{0xee}, 64)...), "PAR1"...))
	errs := 0
	for k, b := range bad {
		p := filepath.Join(dir, "bad.parquet")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("case %d: panic %v", k, r)
				}
			}()
			if _, err := LoadFile(p); err != nil {
				errs++
				if strings.Contains(err.Error(), "\n") {
					t.Errorf("case %d: error of more than one line: %q", k, err)
				}
			}
			SizeOfFile(context.Background(), p)
		}()
	}
	w.Close()
	os.Stderr = stderr
	var out bytes.Buffer
	out.ReadFrom(r)
	if out.Len() > 0 || logged.Len() > 0 {
		t.Errorf("the reader wrote to stderr on corrupt files: %q %q", out.String(), logged.String())
	}
	if errs < len(bad)/4 {
		t.Errorf("%d of %d damaged files refused: expected most", errs, len(bad))
	}
	t.Logf("%d of %d damaged files refused (the rest decode: a flipped value byte is still a file)", errs, len(bad))
}

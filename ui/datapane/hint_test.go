package datapane

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/data"
	"gitui/model"
)

// TestFileHintMatchesLoader checks that the training-file hint says where the CSV
// loader takes the label from by default: a file whose last column holds "a"/"b" and
// whose first holds numbers loads with classes a, b and two features, and the hint
// names the last column (and never the first).
func TestFileHintMatchesLoader(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(path, []byte("7,0.5,a\n8,0.25,b\n7,1,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ds, err := data.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if ds.Dim() != 2 || strings.Join(ds.Classes, ",") != "a,b" {
		t.Fatalf("loaded %d features and classes %v, want 2 features and classes a, b", ds.Dim(), ds.Classes)
	}
	var help string
	for _, f := range Fields(&model.Spec{Data: model.DataSpec{Name: "file"}}) {
		if f.Key == "data.path" {
			help = f.Help
		}
	}
	if !strings.Contains(help, "last column") || strings.Contains(help, "first") {
		t.Errorf("data.path hint %q does not say the label is in the last column", help)
	}
}

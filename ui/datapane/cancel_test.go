package datapane

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"

	"gitui/model"
	"gitui/ui/theme"
)

// TestPathChangeCancelsPreview checks that an abandoned preview stops: a file whose load
// takes seconds starts loading, the path then changes, and the first load must stop
// within a second with context.Canceled (not run on to the end), its result must
// be dropped (the pane keeps no data of the old path) and the stale message must ask for
// the memory back (a command), while the new path's result is kept.
func TestPathChangeCancelsPreview(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.csv.gz")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
	bw := bufio.NewWriter(zw)
	for i := range 4_000_000 { // about 3 s to count and parse uncancelled
		bw.WriteByte('0' + byte(i%7))
		bw.WriteString(",0.5,0.75,")
		bw.WriteByte('a' + byte(i%2))
		bw.WriteByte('\n')
	}
	bw.Flush()
	zw.Close()
	f.Close()
	small := filepath.Join(dir, "small.csv")
	os.WriteFile(small, []byte("1,0,a\n0,1,b\n1,1,a\n0,0,b\n1,0,a\n0,1,b\n1,1,a\n0,0,b\n1,0,a\n0,1,b\n"), 0o644)

	spec := &model.Spec{Data: model.DataSpec{Name: "file", Path: big}}
	m := New(theme.NewStyles(lipgloss.DefaultRenderer(), theme.Default()), spec, "")
	first := m.Load()
	done := make(chan LoadedMsg, 1)
	go func() { done <- first().(LoadedMsg) }()
	time.Sleep(200 * time.Millisecond) // the load is under way

	spec.Data.Path = small
	second := m.Load()
	t0 := time.Now()
	var stale LoadedMsg
	select {
	case stale = <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("the load of the old path did not stop within 3 s of the path change")
	}
	if d := time.Since(t0); d > time.Second {
		t.Errorf("the old load stopped %v after the path changed, want under 1 s", d)
	}
	if !errors.Is(stale.Err, context.Canceled) || stale.Pool != nil {
		t.Errorf("old load: err %v, pool %v; want context.Canceled and no data", stale.Err, stale.Pool)
	}
	m, cmd := m.Update(stale)
	if cmd == nil || m.Pool() != nil || !m.Loading() {
		t.Errorf("stale message: cmd %v, pool %v, loading %v; want a release command, no pool, still loading", cmd != nil, m.Pool(), m.Loading())
	}
	m, _ = m.Update(second())
	if m.Pool() == nil || m.Err() != nil || m.Loading() {
		t.Fatalf("new path: pool %v, err %v, loading %v; want it loaded", m.Pool(), m.Err(), m.Loading())
	}
}

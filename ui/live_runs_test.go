package ui

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// liveStore writes a store holding one 2-task sharded run (slurm.json, shards/0 with
// one cell of 4) and returns the store, the run directory and a func appending a cell
// to shard 1's journal.
func liveStore(t *testing.T) (string, string, func(rep int, acc float64)) {
	t.Helper()
	storeDir := t.TempDir()
	dir := filepath.Join(storeDir, "20261126-020000-xperm-slurm")
	sp := &model.Spec{Name: "xperm-slurm", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"},
		Methods: []model.Method{{Features: "raw"}}, Sizes: []int{20, 50}, Repeats: 2, Seed: 1}
	put := func(path string, v any) {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(filepath.Join(dir, store.SpecFile), sp)
	put(filepath.Join(dir, store.SlurmFile), store.SlurmState{Tasks: 2})
	for i := range 2 {
		put(filepath.Join(dir, store.ShardsDir, string(rune('0'+i)), store.SpecFile), sp)
	}
	cell := func(shard, rep int, acc float64) {
		p := filepath.Join(dir, store.ShardsDir, string(rune('0'+shard)), store.CellsFile)
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(store.CellRecord{Series: "raw RLS", X: 20, Rep: rep, Acc: acc})
		f.Write(append(b, '\n'))
		f.Close()
	}
	cell(0, 0, 0.5)
	return storeDir, dir, func(rep int, acc float64) { cell(1, rep, acc) }
}

// TestRunsPaneFollowsShardedRun: the Runs pane shows the sharded run as running
// elsewhere and schedules a re-read; each tick re-reads it (the count of cells grows
// with the journals); once opened, its pinned curve follows the journals on the tick
// even outside the Runs pane; when result.json appears the pin stops being followed
// and no further tick is scheduled.
func TestRunsPaneFollowsShardedRun(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no squeue
	storeDir, dir, add := liveStore(t)
	a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir, StartRuns: true}, uitest.Styles())
	a.now = func() time.Time { return t0 }
	a.tick = func(int) tea.Cmd { return nil }
	ticks := 0
	a.runsTickCmd = func() tea.Cmd { ticks++; return nil }
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	exec(t, a, a.Init())
	if v := ansi.Strip(a.View()); !strings.Contains(v, "running elsewhere (0 of 2 shards done, 1 of 4 cells)") {
		t.Fatalf("no running-elsewhere row:\n%s", v)
	}
	if ticks != 1 {
		t.Fatalf("%d ticks scheduled after the load, want 1", ticks)
	}
	add(1, 0.7)
	exec(t, a, func() tea.Msg { return runsTickMsg{} })
	if st := a.runs.Entries()[0].Status; st != "running elsewhere (0 of 2 shards done, 2 of 4 cells)" || ticks != 2 {
		t.Fatalf("after a tick: status %q, %d ticks", st, ticks)
	}
	press(t, a, "enter")
	if a.focus != paneCurves || len(a.livePins) != 1 || len(a.curves.Pinned()) != 1 {
		t.Fatalf("enter did not pin the run to follow (focus %v, %d live pins)", a.focus, len(a.livePins))
	}
	if p := a.curves.Pinned()[0].Series[0].Points[0]; p.Runs != 2 || p.Mean != 0.6 {
		t.Fatalf("pinned point %+v, want mean 0.6 of 2 runs", p)
	}
	add(0, 0.5) // the same cell again (a requeued shard): counted once
	put := filepath.Join(dir, store.ShardsDir, "1", store.CellsFile)
	f, _ := os.OpenFile(put, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"series":"raw RLS","x":50,"rep":0,"acc":0.9}` + "\n")
	f.Close()
	exec(t, a, func() tea.Msg { return runsTickMsg{} })
	s := a.curves.Pinned()[0].Series[0]
	if len(s.Points) != 2 || s.Points[0].Runs != 2 || s.Points[1].Mean != 0.9 {
		t.Fatalf("the pinned curve did not follow the journals: %+v", s.Points)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, store.SpecFile))
	r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", Points: []model.Point{{X: 20, Mean: 0.6, Runs: 2}, {X: 50, Mean: 0.8, Runs: 2}}}}}
	if err := r.WriteFile(filepath.Join(dir, store.ResultFile)); err != nil {
		t.Fatal(err)
	}
	n := ticks
	exec(t, a, func() tea.Msg { return runsTickMsg{} })
	if len(a.livePins) != 0 || ticks != n || a.curves.Pinned()[0].Series[0].Points[1].Mean != 0.8 {
		t.Fatalf("after result.json: %d live pins, %d new ticks, curve %+v", len(a.livePins), ticks-n, a.curves.Pinned()[0].Series[0].Points)
	}
}

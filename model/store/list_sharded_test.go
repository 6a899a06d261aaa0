package store

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gitui/core/eval"
	"gitui/model"
)

// shardedRun writes, under a new store, the directory of a 3-task `gitui slurm` run of
// spec(0.1) (2 methods × 2 sizes × 2 repeats = 8 cells) with array job 101: shard 0 is
// complete with 3 cells, shard 1 has 3 cells (one of them also in shard 0) and a torn
// last line, shard 2 has not started. It returns the store and the run directory.
func shardedRun(t *testing.T) (string, string) {
	t.Helper()
	storeDir := t.TempDir()
	dir := filepath.Join(storeDir, "xperm-slurm")
	writeShard := func(i int, complete bool, cells []CellRecord, torn string) {
		sd := filepath.Join(dir, ShardsDir, string(rune('0'+i)))
		if err := os.MkdirAll(sd, 0o755); err != nil {
			t.Fatal(err)
		}
		writeJSON(t, filepath.Join(sd, SpecFile), spec(0.1))
		writeJSON(t, filepath.Join(sd, MetaFile), RunMeta{Shard: string(rune('0'+i)) + "/3", Complete: complete})
		var b strings.Builder
		for _, c := range cells {
			j, _ := json.Marshal(c)
			b.Write(j)
			b.WriteByte('\n')
		}
		b.WriteString(torn)
		if err := os.WriteFile(filepath.Join(sd, CellsFile), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(t, filepath.Join(dir, SpecFile), spec(0.1))
	writeJSON(t, filepath.Join(dir, SlurmFile), SlurmState{Tasks: 3, Submissions: []Submission{{Indices: "0-2", ArrayID: "101", MergeID: "102"}}})
	writeShard(0, true, []CellRecord{
		{Series: "raw RLS", X: 20, Rep: 0, Acc: 0.5}, {Series: "raw RLS", X: 20, Rep: 1, Acc: 0.7},
		{Series: "CDF(5,5) RLS", X: 50, Rep: 0, Acc: 0.8},
	}, "")
	writeShard(1, false, []CellRecord{
		{Series: "raw RLS", X: 50, Rep: 1, Acc: 0.9}, {Series: "raw RLS", X: 20, Rep: 1, Acc: 0.7},
		{Series: "CDF(5,5) RLS", X: 50, Rep: 1, Acc: 0.9},
	}, `{"series":"raw RLS","x":50,"re`)
	if err := os.MkdirAll(filepath.Join(dir, ShardsDir, "2"), 0o755); err != nil {
		t.Fatal(err)
	}
	return storeDir, dir
}

// noSqueue puts an empty directory first and alone on PATH: no squeue.
func noSqueue(t *testing.T) { t.Setenv("PATH", t.TempDir()) }

// TestShardedRunIsOneLiveRow: a sharded run is one row (its shards are not listed),
// "running elsewhere (1 of 3 shards done, 5 of 8 cells)" (the cell in two shards counts
// once, the torn line not at all), its curves rebuilt from the union of the journals
// with the engine's mean and sample std over repeats, in the spec's order of methods;
// it is Live until result.json exists, then done.
func TestShardedRunIsOneLiveRow(t *testing.T) {
	noSqueue(t)
	storeDir, dir := shardedRun(t)
	es, errs := Load([]string{storeDir}, true)
	if len(errs) > 0 || len(es) != 1 {
		t.Fatalf("want one row, got %d (errors %v)", len(es), errs)
	}
	e := es[0]
	if want := "running elsewhere (1 of 3 shards done, 5 of 8 cells)"; e.Status != want || !e.Sharded || !e.Live() {
		t.Fatalf("status %q (sharded %v, live %v), want %q", e.Status, e.Sharded, e.Live(), want)
	}
	if len(e.Jobs) != 1 || e.Jobs[0] != "101" {
		t.Errorf("jobs %v, want [101]", e.Jobs)
	}
	want := map[string][]eval.SeriesPoint{
		"raw RLS":      {{X: 20, Mean: 0.6, Std: math.Sqrt(0.02), Runs: 2}, {X: 50, Mean: 0.9, Std: 0, Runs: 1}},
		"CDF(5,5) RLS": {{X: 50, Mean: 0.85, Std: math.Sqrt(0.005), Runs: 2}},
	}
	if len(e.Series) != len(want) || e.Series[0].Name != "CDF(5,5) RLS" {
		t.Fatalf("series %+v: want both, in the spec's order of methods (CDF first), not the journals'", e.Series)
	}
	for _, s := range e.Series {
		w := want[s.Name]
		if len(s.Points) != len(w) {
			t.Fatalf("%s: points %+v, want %+v", s.Name, s.Points, w)
		}
		for i, p := range s.Points {
			if p.X != w[i].X || p.Runs != w[i].Runs || math.Abs(p.Mean-w[i].Mean) > 1e-12 || math.Abs(p.Std-w[i].Std) > 1e-12 {
				t.Errorf("%s point %d: %+v, want %+v (±1e-12)", s.Name, i, p, w[i])
			}
		}
	}
	if math.Abs(e.Acc-0.9) > 1e-12 {
		t.Errorf("headline %v, want 0.9 (the best mean at each series' largest x)", e.Acc)
	}
	// The merge wrote result.json: an ordinary done run, its curves the result's.
	raw, _ := json.Marshal(spec(0.1))
	r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", Points: []model.Point{{X: 50, Mean: 0.77, Runs: 2}}}}}
	if err := r.WriteFile(filepath.Join(dir, ResultFile)); err != nil {
		t.Fatal(err)
	}
	es, _ = Load([]string{storeDir}, true)
	if len(es) != 1 || es[0].Status != "done" || es[0].Live() || len(es[0].Series) != 1 || es[0].Series[0].Points[0].Mean != 0.77 {
		t.Fatalf("after result.json: %+v", es)
	}
}

// TestShardedRunGrows: re-reading picks up cells appended to a shard's journal (the
// torn line completed, a new cell after it) and a shard marked complete.
func TestShardedRunGrows(t *testing.T) {
	noSqueue(t)
	_, dir := shardedRun(t)
	j := filepath.Join(dir, ShardsDir, "1", CellsFile)
	f, err := os.OpenFile(j, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`p":0,"acc":0.7}` + "\n" + `{"series":"CDF(5,5) RLS","x":20,"rep":0,"acc":0.6}` + "\n")
	f.Close()
	writeJSON(t, filepath.Join(dir, ShardsDir, "1", MetaFile), RunMeta{Shard: "1/3", Complete: true})
	es, errs := Load([]string{dir}, false)
	if len(errs) > 0 || len(es) != 1 {
		t.Fatalf("load %s: %d rows, %v", dir, len(es), errs)
	}
	if want := "running elsewhere (2 of 3 shards done, 7 of 8 cells)"; es[0].Status != want {
		t.Fatalf("status %q, want %q", es[0].Status, want)
	}
	for _, s := range es[0].Series {
		if s.Name == "raw RLS" && (s.Points[1].Runs != 2 || math.Abs(s.Points[1].Mean-0.8) > 1e-12) {
			t.Errorf("raw RLS at 50: %+v, want mean 0.8 of 2 runs", s.Points[1])
		}
	}
}

// TestShardedRunSqueue: with squeue on PATH the status ends with the array's task
// states, counted from `squeue -h -r -j 101 -o %T`; when squeue lists nothing it says
// so; without squeue (noSqueue) nothing is added (checked above).
func TestShardedRunSqueue(t *testing.T) {
	bin := t.TempDir()
	args := filepath.Join(bin, "args")
	out := filepath.Join(bin, "out")
	script := "#!/bin/sh\necho \"$@\" >" + args + "\ncat " + out + "\n"
	if err := os.WriteFile(filepath.Join(bin, "squeue"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+"/usr/bin:/bin")
	os.WriteFile(out, []byte("RUNNING\nPENDING\nRUNNING\n"), 0o644)
	_, dir := shardedRun(t)
	es, _ := Load([]string{dir}, false)
	if want := "running elsewhere (1 of 3 shards done, 5 of 8 cells); squeue: 2 running, 1 pending"; len(es) != 1 || es[0].Status != want {
		t.Fatalf("status %q, want %q", es[0].Status, want)
	}
	if b, _ := os.ReadFile(args); strings.TrimSpace(string(b)) != "-h -r -j 101 -o %T" {
		t.Errorf("squeue called with %q", b)
	}
	os.WriteFile(out, nil, 0o644)
	es, _ = Load([]string{dir}, false)
	if !strings.HasSuffix(es[0].Status, "; squeue: none queued") {
		t.Errorf("status %q, want it to end with squeue: none queued", es[0].Status)
	}
}

// TestShardsOnly: a folder holding only shards/*/ (no spec.json or slurm.json at the
// top, e.g. `gitui run --shard` by hand) is one row too, its spec and task count taken
// from the shards.
func TestShardsOnly(t *testing.T) {
	noSqueue(t)
	_, dir := shardedRun(t)
	os.Remove(filepath.Join(dir, SpecFile))
	os.Remove(filepath.Join(dir, SlurmFile))
	es, errs := Load([]string{dir}, false)
	if len(errs) > 0 || len(es) != 1 || es[0].Name != "xperm-tiny" {
		t.Fatalf("%+v %v", es, errs)
	}
	if want := "running elsewhere (1 of 3 shards done, 5 of 8 cells)"; es[0].Status != want {
		t.Fatalf("status %q, want %q", es[0].Status, want)
	}
}

// TestPlannedCells: the cells of a sample-complexity spec are methods × sizes × repeats,
// a size reaching the pool cap counting once (the engine draws the whole pool once);
// a grid, or another protocol, leaves the total unknown (0).
func TestPlannedCells(t *testing.T) {
	count := func(s *model.Spec) int {
		raw, _ := json.Marshal(s)
		return plannedCells(raw)
	}
	s := spec(0.1) // 2 methods, sizes 20 and 50, 2 repeats
	if n := count(s); n != 8 {
		t.Errorf("%d cells, want 8", n)
	}
	s.Data.Pool = 50
	if n := count(s); n != 6 {
		t.Errorf("pool 50: %d cells, want 6 (size 50 draws the whole pool once)", n)
	}
	s.Grid = &model.GridSpec{}
	if n := count(s); n != 0 {
		t.Errorf("with a grid: %d, want 0 (unknown)", n)
	}
	s.Grid, s.Protocol = nil, model.ProtocolSweep
	if n := count(s); n != 0 {
		t.Errorf("sweep: %d, want 0 (unknown)", n)
	}
}

package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// storeApp returns a sized app whose runs go into the store of a temporary
// XDG_DATA_HOME, with its Init done (data loaded, store listed).
func storeApp(t *testing.T, storeDir string) *App {
	t.Helper()
	a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir}, uitest.Styles())
	a.tick = func(int) tea.Cmd { return nil }
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	exec(t, a, a.Init())
	return a
}

func tempStore(t *testing.T) string {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	storeDir, err := store.StoreDir()
	if err != nil {
		t.Fatal(err)
	}
	return storeDir
}

// runDirs returns the run directories of store.
func runDirs(t *testing.T, storeDir string) []string {
	t.Helper()
	ents, err := os.ReadDir(storeDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(storeDir, e.Name()))
		}
	}
	return dirs
}

// journal returns the cells of DIR/cells.jsonl as the store reads them (store.ReadJournal),
// failing on a line that fails its check.
func journal(t *testing.T, dir string) []store.CellRecord {
	t.Helper()
	j, err := store.ReadJournal(filepath.Join(dir, store.CellsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(j.Damaged) > 0 {
		t.Fatalf("%s: damaged journal lines %v", dir, j.Damaged)
	}
	return j.Cells
}

func logHas(a *App, s string) bool {
	for _, l := range a.run.LogLines() {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

// TestRunSavedInStore runs the quick tiny preset with the real engine by pressing r,
// without s, and checks that the store holds one run directory with a complete
// result.json whose points are the ones the curves show, a journal of every cell
// (sizes × repeats × methods), log.txt, and no lock; the run log names the directory;
// and the next workbench lists that run as done at start-up.
func TestRunSavedInStore(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine for a second")
	}
	storeDir := tempStore(t)
	a := storeApp(t, storeDir)
	if !logHas(a, "no runs yet") {
		t.Errorf("an empty store is not announced: %q", a.run.LogLines())
	}
	press(t, a, "r") // exec pumps the run to its end
	if a.r.running || a.r.err != nil {
		t.Fatalf("run running=%v err=%v", a.r.running, a.r.err)
	}
	dirs := runDirs(t, storeDir)
	if len(dirs) != 1 {
		t.Fatalf("store holds %v, want one run directory", dirs)
	}
	dir := dirs[0]
	if !strings.HasSuffix(dir, "-xperm-tiny") || !logHas(a, "saved in "+dir+" (done") {
		t.Errorf("run log does not say where the run went (%s): %q", dir, a.run.LogLines())
	}
	res, err := model.ReadResult(filepath.Join(dir, store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	spec := tinySpec(true)
	if res.Partial || len(res.Series) != len(spec.Methods) {
		t.Fatalf("result partial=%v with %d series, want complete with %d", res.Partial, len(res.Series), len(spec.Methods))
	}
	for _, s := range res.Series {
		if len(s.Points) != len(spec.Sizes) {
			t.Errorf("%s has %d points, want %d", s.Name, len(s.Points), len(spec.Sizes))
		}
		for _, p := range s.Points {
			got, ok := a.curves.Current().Point(s.Name, p.X)
			if !ok || got.Mean != p.Mean || got.Std != p.Std || got.Runs != p.Runs {
				t.Errorf("%s at %g: stored %+v, curves show %+v", s.Name, p.X, p, got)
			}
		}
	}
	if n, want := len(journal(t, dir)), len(spec.Sizes)*spec.Repeats*len(spec.Methods); n != want {
		t.Errorf("journal holds %d cells, want %d", n, want)
	}
	for _, f := range []string{store.SpecFile, store.MetaFile, LogFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, LogFile)); !strings.Contains(string(b), "saved in "+dir) {
		t.Errorf("log.txt does not say where the result went:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, store.LockFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock is still there after the run: %v", err)
	}

	b := storeApp(t, storeDir)
	if !logHas(b, "1 run; newest:") || !logHas(b, filepath.Base(dir)+"  done") {
		t.Errorf("the next workbench does not list the run: %q", b.run.LogLines())
	}
}

// TestCancelledRunSavedPartial cancels a real run (x) after its first points arrived
// and checks that the store keeps its journal and a partial result.json holding
// exactly the journaled cells' sizes, and that the next workbench lists it as cancelled.
func TestCancelledRunSavedPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the engine")
	}
	storeDir := tempStore(t)
	a := storeApp(t, storeDir)
	a.loadPreset(0, false) // full: 5 sizes × 5 repeats × 2 methods, here 40 repeats:
	a.spec.Repeats = 40    // long enough (seconds) that x always comes before the end
	a.revalidate()
	exec(t, a, a.data.Load())
	a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	if !a.r.running {
		t.Fatalf("run did not start: %s", a.status)
	}
	for {
		msg := nextBatch(a.r.id, a.r.batches)()
		a.Update(msg)
		if _, ok := msg.(runFinishedMsg); ok {
			break
		}
		if len(a.curves.Current().Series) > 0 && !a.r.cancelling {
			press(t, a, "x", "y") // x asks; y cancels
		}
	}
	if !errors.Is(a.r.err, context.Canceled) {
		t.Fatalf("run ended with %v, want cancelled", a.r.err)
	}
	dirs := runDirs(t, storeDir)
	if len(dirs) != 1 {
		t.Fatalf("store holds %v, want one run directory", dirs)
	}
	dir := dirs[0]
	res, err := model.ReadResult(filepath.Join(dir, store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	cells := journal(t, dir)
	full := 5 * 40 * 2
	if !res.Partial || len(cells) == 0 || len(cells) >= full {
		t.Fatalf("partial=%v with %d journaled cells, want a partial result of 1..%d cells", res.Partial, len(cells), full-1)
	}
	t.Logf("cancelled after %d of %d cells", len(cells), full)
	runs := 0
	for _, s := range res.Series {
		for _, p := range s.Points {
			runs += p.Runs
		}
	}
	if runs != len(cells) {
		t.Errorf("the partial result counts %d runs, the journal %d cells", runs, len(cells))
	}
	// Cancelled, not "partial (failed)", in this run's log and at start-up.
	if !logHas(a, "saved in "+dir+" (cancelled") {
		t.Errorf("run log does not say where the cancelled run went: %q", a.run.LogLines())
	}
	b := storeApp(t, storeDir)
	if !logHas(b, filepath.Base(dir)+"  cancelled") || logHas(b, "failed") {
		t.Errorf("the next workbench does not list the run as cancelled: %q", b.run.LogLines())
	}
}

// TestRunWithoutCellsLeavesNothing checks that a run that ends with an error before its
// first cell (refused by the engine, or cancelled at once) leaves no directory in the
// store, and that the run log says nothing was saved.
func TestRunWithoutCellsLeavesNothing(t *testing.T) {
	storeDir := tempStore(t)
	for _, runErr := range []error{errors.New("data.path: no such file: give an existing file"), context.Canceled} {
		a := storeApp(t, storeDir)
		a.start = func(ctx context.Context, _ *model.Spec, _ engine.RunOptions) <-chan eval.Event {
			ch := make(chan eval.Event, 1)
			ch <- eval.Done{Err: runErr}
			close(ch)
			return ch
		}
		press(t, a, "r")
		if a.r.running || !errors.Is(a.r.err, runErr) {
			t.Fatalf("run running=%v err=%v", a.r.running, a.r.err)
		}
		if dirs := runDirs(t, storeDir); len(dirs) != 0 {
			t.Errorf("%v: store holds %v, want nothing", runErr, dirs)
		}
		if !logHas(a, "nothing saved: no cell had finished") {
			t.Errorf("%v: run log %q", runErr, a.run.LogLines())
		}
	}
}

// TestCancelledBeforeFirstCellTUI: a run of the real engine cancelled before its first
// cell concludes as `gitui run` does (store.RunDir.Conclude; cmd/gitui's
// TestCancelledBeforeFirstCellCLI): nothing is left in the store, and the run log says so.
func TestCancelledBeforeFirstCellTUI(t *testing.T) {
	storeDir := tempStore(t)
	a := storeApp(t, storeDir)
	a.start = func(ctx context.Context, spec *model.Spec, o engine.RunOptions) <-chan eval.Event {
		c, cancel := context.WithCancel(ctx)
		cancel()
		return engine.Start(c, spec, o)
	}
	press(t, a, "r")
	if a.r.running || !errors.Is(a.r.err, context.Canceled) {
		t.Fatalf("run running=%v err=%v, want cancelled", a.r.running, a.r.err)
	}
	if dirs := runDirs(t, storeDir); len(dirs) != 0 {
		t.Errorf("a run cancelled before its first cell left %v", dirs)
	}
	if !logHas(a, "nothing saved: no cell had finished") {
		t.Errorf("run log %q", a.run.LogLines())
	}
}

// TestStoreStatus checks the status newestRuns gives each kind of run directory, and
// that the newest come first.
func TestStoreStatus(t *testing.T) {
	storeDir := t.TempDir()
	write := func(name, file, body string) {
		os.MkdirAll(filepath.Join(storeDir, name), 0o755)
		if file != "" {
			os.WriteFile(filepath.Join(storeDir, name, file), []byte(body), 0o644)
		}
	}
	write("20261101-000000-a", store.ResultFile, `{"schema":"gitui.result/v1"}`)
	write("20261102-000000-b", store.ResultFile, `{"partial":true}`)
	write("20261103-000000-c", store.CellsFile, `{"series":"x"}`+"\n")
	write("20261104-000000-d", store.LockFile, "1 otherhost\n")
	write("20261104-000000-d", store.ResultFile, `{"partial":true,"error":"boom"}`)
	write("20261105-000000-e", store.LockFile, "2147483600\n") // no such process: stale
	write("20261105-000000-e", store.CellsFile, "")
	total, runs, err := newestRuns(storeDir, 10)
	if err != nil || total != 5 {
		t.Fatalf("total %d, err %v", total, err)
	}
	want := []storedRun{{"20261105-000000-e", "empty"}, {"20261104-000000-d", "partial (failed)"},
		{"20261103-000000-c", "interrupted (gitui resume finishes it)"}, {"20261102-000000-b", "partial"}, {"20261101-000000-a", "done"}}
	for i := range want {
		if i >= len(runs) || runs[i] != want[i] {
			t.Fatalf("runs %v, want %v", runs, want)
		}
	}
	self := "20261106-000000-f"
	write(self, store.LockFile, strconv.Itoa(os.Getpid())+"\n")
	if _, runs, _ := newestRuns(storeDir, 1); len(runs) != 1 || !strings.HasPrefix(runs[0].status, "running") {
		t.Errorf("a directory locked by a live process: %v", runs)
	}
	if n, runs, err := newestRuns(filepath.Join(storeDir, "none"), 3); n != 0 || runs != nil || err != nil {
		t.Errorf("missing store: %d %v %v", n, runs, err)
	}
}

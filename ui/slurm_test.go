package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"gitui/model/store"
	"gitui/ui/internal/uitest"
)

// slurmApp returns a sized app with a run store and, as the binary its job scripts
// run, a fake gitui that logs its arguments to the returned file and, for `run ...
// --shard i/N --out D`, journals one cell into D marked complete.
func slurmApp(t *testing.T, path string) (*App, string, string) {
	t.Helper()
	t.Setenv("PATH", path)
	t.Setenv("FAKE_SLURM_DIR", t.TempDir())
	bin := t.TempDir()
	log := filepath.Join(bin, "calls")
	script := `#!/bin/sh
echo "$@" >>` + log + `
if [ "$1" = run ]; then
  mkdir -p "$6" && cp "$2" "$6/spec.json"
  printf '{"shard":"%s","complete":true,"started":"2026-11-26T02:00:00Z","version":"t"}\n' "$4" >"$6/run.json"
  printf '{"series":"raw RLS","x":20,"rep":%s,"acc":0.5}\n' "${4%/*}" >"$6/cells.jsonl"
fi
`
	if err := os.WriteFile(filepath.Join(bin, "gitui"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	storeDir := t.TempDir()
	a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir, DataDir: t.TempDir()}, uitest.Styles())
	a.now = func() time.Time { return t0 }
	a.tick = func(int) tea.Cmd { return nil }
	a.runsTickCmd = func() tea.Cmd { return nil }
	a.gituiBin = filepath.Join(bin, "gitui")
	a.Update(tea.WindowSizeMsg{Width: 160, Height: 30})
	exec(t, a, a.Init())
	return a, storeDir, log
}

func fakeSlurmPath(t *testing.T) string {
	fake, err := filepath.Abs(filepath.Join("..", "testdata", "slurm", "fake"))
	if err != nil {
		t.Fatal(err)
	}
	return fake + string(os.PathListSeparator) + "/usr/bin:/bin"
}

// TestSlurmSendSubmits: S in the run pane opens the prompt with its defaults (4 tasks,
// 01:00:00, a new folder of the run store); with 3 tasks, enter writes the job scripts
// there as gitui slurm does and submits them through the (fake) sbatch: slurm.json
// records array 101 and merge 102, each index ran `gitui run SPEC --shard i/3 --out
// DIR/shards/i` and the merge `gitui merge DIR`; the Runs pane then lists the run as
// running elsewhere, its 3 shards done.
func TestSlurmSendSubmits(t *testing.T) {
	a, storeDir, calls := slurmApp(t, fakeSlurmPath(t))
	press(t, a, "4", "S")
	dir := filepath.Join(storeDir, store.RunDirName(a.spec.Name, t0))
	v := ansi.Strip(a.View())
	if !a.slurm.open || !strings.Contains(v, "Send to Slurm") || !strings.Contains(v, "tasks      4") ||
		!strings.Contains(v, "time       01:00:00") || !strings.Contains(v, dir) || !strings.Contains(v, "submits them with sbatch") {
		t.Fatalf("S did not open the prompt with its defaults:\n%s", v)
	}
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlU})
	exec(t, a, cmd)
	press(t, a, "3", "enter")
	if a.slurm.open {
		t.Fatalf("the prompt stayed open: %s", a.slurm.err)
	}
	st, err := store.ReadSlurmState(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Tasks != 3 || len(st.Submissions) != 1 || st.Submissions[0].ArrayID != "101" || st.Submissions[0].MergeID != "102" || st.Submissions[0].Indices != "0-2" {
		t.Fatalf("slurm.json: %+v", st)
	}
	arr, err := os.ReadFile(filepath.Join(dir, store.SlurmArrayScript))
	if err != nil || !strings.Contains(string(arr), "#SBATCH --array=0-2\n") || !strings.Contains(string(arr), "#SBATCH --time=01:00:00\n") || strings.Contains(string(arr), "--partition") {
		t.Fatalf("array.sbatch (%v):\n%s", err, arr)
	}
	b, _ := os.ReadFile(calls)
	got := string(b)
	for i := range 3 {
		want := "run " + filepath.Join(dir, store.SpecFile) + " --shard " + string(rune('0'+i)) + "/3 --out " + filepath.Join(dir, store.ShardsDir, string(rune('0'+i)))
		if !strings.Contains(got, want) {
			t.Errorf("no call %q in:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "merge "+dir+" --data ") {
		t.Errorf("the merge did not run:\n%s", got)
	}
	if !strings.Contains(a.status, "sent to Slurm: array 101, merge 102") {
		t.Errorf("status %q", a.status)
	}
	press(t, a, "7")
	es := a.runs.Entries()
	if len(es) != 1 || es[0].Path != dir || !strings.HasPrefix(es[0].Status, "running elsewhere (3 of 3 shards done, 3 ") || !es[0].Live() {
		t.Fatalf("Runs pane: %+v", es)
	}
}

// TestSlurmSendWithoutSbatch: without sbatch on PATH, enter writes the scripts and says
// where ("sbatch not found: the scripts are in DIR; submit them on the cluster"), with
// no submission recorded; the row is listed with its 4 shards not started.
func TestSlurmSendWithoutSbatch(t *testing.T) {
	a, storeDir, calls := slurmApp(t, t.TempDir())
	press(t, a, "4", "S")
	if !strings.Contains(ansi.Strip(a.View()), "sbatch is not on PATH") {
		t.Fatal("the prompt does not say that sbatch is missing")
	}
	press(t, a, "enter")
	dir := filepath.Join(storeDir, store.RunDirName(a.spec.Name, t0))
	if want := "sbatch not found: the scripts are in " + dir + "; submit them on the cluster"; a.status != want {
		t.Fatalf("status %q, want %q", a.status, want)
	}
	st, err := store.ReadSlurmState(dir)
	if err != nil || st.Tasks != 4 || len(st.Submissions) != 0 {
		t.Fatalf("slurm.json %+v (%v)", st, err)
	}
	for _, f := range []string{store.SlurmArrayScript, store.SlurmMergeScript, store.SpecFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	if _, err := os.Stat(calls); err == nil {
		t.Error("gitui ran without sbatch")
	}
	press(t, a, "7")
	if es := a.runs.Entries(); len(es) != 1 || !strings.HasPrefix(es[0].Status, "running elsewhere (0 of 4 shards done, 0 ") {
		t.Fatalf("Runs pane: %+v", es)
	}
}

// TestSlurmSendRefuses: a bad field keeps the prompt open with one line naming it, and
// nothing is written into the store; esc closes the prompt.
func TestSlurmSendRefuses(t *testing.T) {
	a, storeDir, _ := slurmApp(t, t.TempDir())
	for _, c := range []struct {
		field int
		value string
		want  string
	}{
		{slurmTasks, "x", `tasks "x": give a whole number of array tasks, 1..1001`},
		{slurmTasks, "0", "tasks 0: give 1..1001"},
		{slurmTime, "1h", `time "1h": give [D-]HH:MM:SS`},
		{slurmPartition, "a b", `partition "a b": give a partition name`},
		{slurmDir, "", "directory: give a folder on a file system every node sees"},
	} {
		press(t, a, "4", "S")
		a.slurm.vals[c.field] = c.value
		press(t, a, "enter")
		if !a.slurm.open || !strings.HasPrefix(a.slurm.err, c.want) || !strings.Contains(ansi.Strip(a.View()), c.want) {
			t.Errorf("%s=%q: open %v, err %q, want %q", slurmLabels[c.field], c.value, a.slurm.open, a.slurm.err, c.want)
		}
		press(t, a, "esc")
		if a.slurm.open {
			t.Fatal("esc did not close the prompt")
		}
	}
	if ents, _ := os.ReadDir(storeDir); len(ents) != 0 {
		t.Errorf("refused sends wrote %d entries into the store", len(ents))
	}
}

// TestSlurmPromptEditing: the prompt's fields take the readline keys of the other text
// boxes (lineedit): typed text, backspace, ctrl+w (the word before), ctrl+u (all), and
// control characters of a paste are dropped.
func TestSlurmPromptEditing(t *testing.T) {
	a, _, _ := slurmApp(t, t.TempDir())
	press(t, a, "4", "S")
	key := func(k tea.KeyMsg) { _, cmd := a.Update(k); exec(t, a, cmd) }
	key(tea.KeyMsg{Type: tea.KeyCtrlU})
	press(t, a, "12", "3", "backspace")
	if got := a.slurm.vals[slurmTasks]; got != "12" {
		t.Fatalf("tasks after ctrl+u, 12, 3, backspace: %q, want 12", got)
	}
	press(t, a, "tab") // partition
	press(t, a, "gpu long")
	key(tea.KeyMsg{Type: tea.KeyCtrlW})
	key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("cpu\x07")})
	if got := a.slurm.vals[slurmPartition]; got != "gpu cpu" {
		t.Fatalf("partition after gpu long, ctrl+w, a paste of cpu and a bell: %q, want \"gpu cpu\"", got)
	}
}

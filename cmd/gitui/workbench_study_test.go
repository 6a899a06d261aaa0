package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"gitui/model"
	"gitui/model/store"
	"gitui/model/study"
	"gitui/ui"
	"gitui/ui/theme"
)

// workbenchStudySpec is a study of a CDF method's bins and templates on 600 X_perm
// samples (a validation split of 120; rungs 4, 12, 36; 9 trials), refit at n 90 with
// the runner-up refit too (tune.refit_top 2): it runs in seconds.
const workbenchStudySpec = `{"name": "xperm-tune-tiny", "protocol": "sample-complexity", "seed": 1,
  "data": {"name": "xperm", "pool": 600, "test_size": 200},
  "group": {"kind": "permutation"},
  "methods": [{"features": "cdf", "bins": 5, "templates": 5}],
  "sizes": [90], "repeats": 1,
  "tune": {"params": {"methods.0.bins": "2..15", "methods.0.templates": "2..15"}, "refit_top": 2}}`

// A study started in the workbench (T on a spec with a tune block) concludes as
// `gitui tune` does with the same spec and seed: the same study.json (best, its test
// accuracy and refit size, the top refits, every trial; search_seconds aside), the same
// best.spec.json, and the refit's result.json copied into the study directory.
func TestWorkbenchStudyEqualsTune(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a study twice, a few seconds each")
	}
	w, out, status := workbenchAndTune(t, workbenchStudySpec)
	if w.Baseline == nil || w.Baseline.Test == nil {
		t.Errorf("study.json's baseline %+v: want one, refit and tested", w.Baseline)
	}
	if !strings.Contains(out, "best of 9 configurations") {
		t.Errorf("gitui tune's stdout lacks the best's line:\n%s", out)
	}
	if c := study.Comparison(&w); !strings.Contains(out, c) || !strings.Contains(status, firstWords(c)) {
		t.Errorf("the comparison %q is not in gitui tune's stdout or the workbench's status %q:\n%s", c, status, out)
	}
}

// The spec's own setting (bins 3, templates 3) beats a space of CDFs with 2 templates
// (2 or 3 bins): in the workbench as with gitui tune, the baseline is the best and the
// status line says so.
func TestWorkbenchStudyBaselineWins(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a study twice, a few seconds each")
	}
	spec := strings.NewReplacer(`"bins": 5, "templates": 5`, `"bins": 3, "templates": 3`,
		`{"methods.0.bins": "2..15", "methods.0.templates": "2..15"}`, `{"methods.0.bins": "2,3", "methods.0.templates": "2"}`).Replace(workbenchStudySpec)
	w, out, status := workbenchAndTune(t, spec)
	if w.Baseline == nil || !w.Baseline.Best || w.Best == nil || !w.Best.Baseline {
		t.Fatalf("study.json baseline %+v, best %+v: want the baseline the best", w.Baseline, w.Best)
	}
	if !strings.Contains(out, "it is the best") || !strings.Contains(status, "(your setting)") {
		t.Errorf("gitui tune's stdout or the workbench's status %q does not say the baseline is the best:\n%s", status, out)
	}
}

// firstWords is the start of line s that a status line shows before it is cut to the
// terminal's width.
func firstWords(s string) string { return s[:min(len(s), 40)] }

// workbenchAndTune runs the study of specJSON with gitui tune and in the workbench (T),
// checks that the two conclude the same (study.json, best.spec.json, the refit's
// result.json copied), and returns the workbench's study.json, gitui tune's stdout and
// the workbench's last status line.
func workbenchAndTune(t *testing.T, specJSON string) (study.File, string, string) {
	t.Helper()
	dir := t.TempDir()
	specPath := filepath.Join(dir, "spec.json")
	if err := os.WriteFile(specPath, []byte(specJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(dir, "cli")
	var out, errb bytes.Buffer
	if code := run([]string{"tune", specPath, "--out", cli}, &out, &errb); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, errb.String())
	}

	spec, err := model.LoadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	storeDir := filepath.Join(dir, "store")
	a := ui.New(context.Background(), ui.Options{Initial: spec, Store: storeDir}, theme.NewStyles(nil, theme.Default()))
	tm := teatest.NewTestModel(t, a, teatest.WithInitialTermSize(240, 40))
	keys := func(s string) { tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}) }
	keys("3")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("r run")) }, teatest.WithDuration(30*time.Second))
	keys("T")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("study done:")) }, teatest.WithDuration(120*time.Second))
	keys("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second))
	status := final.(*ui.App).Status()

	dirs, _ := filepath.Glob(filepath.Join(storeDir, "*-tune"))
	if len(dirs) != 1 {
		t.Fatalf("the run store holds %v, want one study directory", dirs)
	}
	wb := dirs[0]
	c, w := readStudyFile(t, cli), readStudyFile(t, wb)
	if w.Best == nil || w.Best.Test == nil || len(w.Top) != 2 || w.Top[1].Test == nil {
		t.Fatalf("the workbench's study.json has best %+v, top %+v: want a tested best and 2 tested top refits", w.Best, w.Top)
	}
	if !reflect.DeepEqual(c, w) {
		t.Fatalf("study.json differs:\ngitui tune: best %+v top %+v\nworkbench:  best %+v top %+v", c.Best, c.Top, w.Best, w.Top)
	}
	for _, f := range []string{study.BestSpecFile, store.ResultFile} {
		if _, err := os.Stat(filepath.Join(wb, f)); err != nil {
			t.Errorf("the workbench's study directory: %v", err)
		}
	}
	cb, _ := os.ReadFile(filepath.Join(cli, study.BestSpecFile))
	wbb, _ := os.ReadFile(filepath.Join(wb, study.BestSpecFile))
	if !bytes.Equal(cb, wbb) {
		t.Errorf("best.spec.json differs:\ngitui tune: %s\nworkbench:  %s", cb, wbb)
	}
	r, err := model.ReadResult(filepath.Join(wb, store.ResultFile))
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Series[0].Points[0].Mean; got != *w.Best.Test {
		t.Errorf("the workbench's result.json: test %v, its study.json %v", got, *w.Best.Test)
	}
	return w, out.String(), status
}

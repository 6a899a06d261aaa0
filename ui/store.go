package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/model/store"
)

// storedRun is one run directory of the store as the start-up summary shows it.
type storedRun struct {
	name   string // the folder name: time, then the spec's name
	status string // done, partial, running, interrupted or empty
}

// storeListedMsg: the newest runs of the store were read at start-up.
type storeListedMsg struct {
	store string
	total int
	runs  []storedRun
	err   error
}

// listStore returns the command that reads the newest n runs of store.
func listStore(store string, n int) tea.Cmd {
	return func() tea.Msg {
		total, runs, err := newestRuns(store, n)
		return storeListedMsg{store: store, total: total, runs: runs, err: err}
	}
}

// newestRuns returns the number of run directories in store and the newest n of them
// (names start with the time, so the order of names is the order of starts), each
// with its status:
//
//   - done: result.json is complete;
//   - partial: result.json holds the cells of a cancelled or failed run;
//   - running: a live process holds its lock (a detached workbench finishing it);
//   - interrupted: cells.jsonl holds cells but there is no result (`gitui resume DIR`);
//   - empty: nothing was journaled.
//
// A store that does not exist yet holds no runs (no error).
func newestRuns(store string, n int) (int, []storedRun, error) {
	ents, err := os.ReadDir(store)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil, nil
	}
	if err != nil {
		return 0, nil, fmt.Errorf("read the run store %s: %w", store, err)
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(names)))
	var runs []storedRun
	for _, name := range names[:min(n, len(names))] {
		runs = append(runs, storedRun{name: name, status: runStatus(filepath.Join(store, name))})
	}
	return len(names), runs, nil
}

// runStatus returns the status of the run directory dir (store.Status; an interrupted
// run says how to finish it).
func runStatus(dir string) string {
	st := store.Status(dir)
	if st == "interrupted" {
		return "interrupted (gitui resume finishes it)"
	}
	return st
}

// logStore writes the start-up summary of the store into the run pane's log.
func (a *App) logStore(m storeListedMsg) {
	now := a.now()
	switch {
	case m.err != nil:
		a.run.Logf(now, "%v", m.err)
		return
	case m.total == 0:
		a.run.Logf(now, "run store %s: no runs yet (every run is saved there)", m.store)
		return
	}
	runs := "runs"
	if m.total == 1 {
		runs = "run"
	}
	a.run.Logf(now, "run store %s: %d %s; newest:", m.store, m.total, runs)
	for _, r := range m.runs {
		a.run.Logf(now, "  %s  %s", r.name, r.status)
	}
}

package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/model"
	"gitui/model/store"
	"gitui/model/study"
	"gitui/ui/form"
	"gitui/ui/internal/specmsg"
	"gitui/ui/methodpane"
	"gitui/ui/tunepane"
)

// The workbench's side of `gitui tune`: t in the Method pane marks fields to tune
// (methodpane), T starts a study of them in the background (model/study, in a new
// directory of the run store, beside the runs) and opens the Tune view (ui/tunepane),
// which follows the study's journal rung by rung; x there cancels it (after a y/n), b
// loads its best spec into the panes as an ordinary run.

// studyRun is the study started from the workbench.
type studyRun struct {
	id         int
	dir        string
	name       string
	keys       []string
	running    bool
	cancelling bool
	cancel     context.CancelFunc
	started    time.Time
	ended      time.Time
	err        error
	// marks are the Method pane's marks the study was started with (markSig).
	marks string
	// over is closed when the study's goroutine has ended (its journal closed and its
	// lock released).
	over chan struct{}
}

// studyProgressMsg: the study id scored a job; snap is its directory read since.
type studyProgressMsg struct {
	id   int
	snap tunepane.Snapshot
	err  error
}

// studyDoneMsg: study id ended (err: ctx.Err() when cancelled, nil when concluded:
// best.spec.json, its refit and study.json with the test accuracy written); snap is its
// directory read then.
type studyDoneMsg struct {
	id      int
	snap    tunepane.Snapshot
	err     error
	readErr error
}

// studyTickMsg: a second passed while study id runs (the view's elapsed time).
type studyTickMsg struct{ id int }

// handleStudy applies the messages of the study family; those of an older study are
// dropped.
func (a *App) handleStudy(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case studyProgressMsg:
		if msg.id != a.study.id || !a.study.running {
			return nil
		}
		if msg.err == nil {
			a.tv.Set(a.studyStatus(), msg.snap)
		}
		return a.waitStudy()
	case studyDoneMsg:
		if msg.id != a.study.id {
			return nil
		}
		a.finishStudy(msg)
	case studyTickMsg:
		if msg.id != a.study.id || !a.study.running {
			return nil // idle: the tick stops here
		}
		a.tv.SetStatus(a.studyStatus())
		return tea.Tick(time.Second, func(time.Time) tea.Msg { return studyTickMsg{id: msg.id} })
	}
	return nil
}

// studyStatus is the workbench's side of the study for the view.
func (a *App) studyStatus() tunepane.Status {
	s := a.study
	st := tunepane.Status{Name: s.name, Dir: s.dir, Keys: s.keys, Running: s.running, Cancelling: s.cancelling}
	end := s.ended
	if s.running {
		end = a.now()
	}
	if !s.started.IsZero() {
		st.Elapsed = end.Sub(s.started)
	}
	if s.err != nil && !errors.Is(s.err, context.Canceled) {
		st.Err = s.err.Error()
	}
	return st
}

// tuneKey is T: it opens the Tune view of the running study, or of the last one while
// the marks are those it was started with (or none); else it starts a study of the
// marked fields (r in the view starts another of the same marks).
func (a *App) tuneKey() tea.Cmd {
	marks := a.method.Tuned()
	if a.study.running || a.study.dir != "" && (len(marks) == 0 || markSig(marks) == a.study.marks) {
		a.tuneOpen = true
		return nil
	}
	return a.startStudy()
}

// markSig is the marks in one comparable string (key=dist, sorted by key).
func markSig(marks map[string]string) string {
	var kv []string
	for k, d := range marks {
		kv = append(kv, k+"="+d)
	}
	sort.Strings(kv)
	return strings.Join(kv, " ")
}

// handleTuneKey routes a key while the Tune view is open.
func (a *App) handleTuneKey(k tea.KeyMsg) tea.Cmd {
	if key.Matches(k, a.keys.Quit) && a.tv.Focused() != tunepane.SecAxes {
		if a.r.running || a.study.running {
			a.confirm = confirmQuit
			return nil
		}
		return tea.Quit
	}
	switch a.tv.Key(k) {
	case tunepane.Close:
		a.tuneOpen = false
	case tunepane.OpenBest:
		return a.openBest()
	case tunepane.Cancel:
		a.confirm = confirmStudy
	case tunepane.Start:
		return a.startStudy()
	}
	return nil
}

// studySpec returns the spec of a study of the fields marked in the Method pane
// (key → distribution) on spec s, and its tuned keys: the methods with a mark are kept
// (their keys renumbered), and when more than one is, the study also chooses among
// them (the key "method"). A tune block of s itself (a tune preset) is kept for its
// settings, and for its parameters when no mark renumbers them.
func studySpec(s *model.Spec, marks map[string]string) (*model.Spec, []string, error) {
	c := s.Clone()
	tb := model.TuneSpec{}
	if s.Tune != nil {
		tb = *s.Tune
	}
	params := map[string]string{}
	if len(marks) > 0 {
		used := map[int]bool{}
		for k := range marks {
			i, err := methodIndex(k)
			if err != nil || i >= len(c.Methods) {
				return nil, nil, fmt.Errorf("%s is not a field of the spec's methods: unmark it (t)", k)
			}
			used[i] = true
		}
		var keep []int
		for i := range c.Methods {
			if used[i] {
				keep = append(keep, i)
			}
		}
		if len(keep) < len(c.Methods) {
			var ms []model.Method
			for _, i := range keep {
				ms = append(ms, c.Methods[i])
			}
			c.Methods = ms
			tb.Params = nil // its keys name the old indices
		}
		for k, d := range marks {
			i, _ := methodIndex(k)
			rest := strings.SplitN(k, ".", 3)[2]
			params[fmt.Sprintf("methods.%d.%s", slices.Index(keep, i), rest)] = d
		}
		if len(keep) > 1 {
			var idx []string
			for j := range keep {
				idx = append(idx, strconv.Itoa(j))
			}
			params[model.TuneMethodKey] = strings.Join(idx, ",")
		}
	}
	for k, d := range tb.Params {
		if _, ok := params[k]; !ok {
			params[k] = d
		}
	}
	if len(params) == 0 {
		return nil, nil, errors.New("nothing to tune: mark fields with t in the Method pane")
	}
	tb.Params = params
	c.Tune = &tb
	c.Defaults()
	if err := c.Validate(); err != nil {
		return nil, nil, fmt.Errorf("the study's spec does not validate: %s", strings.SplitN(err.Error(), "\n", 2)[0])
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return c, keys, nil
}

// methodIndex returns N of a key methods.N.FIELD.
func methodIndex(k string) (int, error) {
	parts := strings.SplitN(k, ".", 3)
	if len(parts) != 3 || parts[0] != "methods" {
		return 0, fmt.Errorf("%s is not a method's field", k)
	}
	return strconv.Atoi(parts[1])
}

// startStudy starts a study of the marked fields on a copy of the spec, in a new
// directory of the run store, and opens the Tune view.
func (a *App) startStudy() tea.Cmd {
	switch {
	case a.study.running:
		a.setStatus("a study is running: x in the Tune view cancels it", true)
		return nil
	case a.blocker() != "":
		a.refuse(a.blocker())
		return nil
	case a.opts.Store == "":
		a.setStatus("cannot tune: there is no run store to keep the study in", true)
		return nil
	}
	spec, keys, err := studySpec(a.spec, a.method.Tuned())
	if err != nil {
		a.setStatus("cannot tune: "+err.Error(), true)
		return nil
	}
	now := a.now()
	dir, err := store.ClaimRunDir(a.opts.Store, store.RunDirName(spec.Name+"-tune", now))
	if err != nil {
		a.setStatus("cannot tune: "+err.Error(), true)
		return nil
	}
	st, err := study.Open(dir, spec)
	if err != nil {
		os.Remove(dir)
		a.setStatus("cannot tune: "+err.Error(), true)
		return nil
	}
	ctx, cancel := context.WithCancel(a.ctx)
	id := a.study.id + 1
	notify, done, over := make(chan struct{}, 1), make(chan error, 1), make(chan struct{})
	go searchStudy(ctx, st, a.opts.DataDir, notify, done, over)
	a.study = studyRun{id: id, dir: dir, name: spec.Name, keys: keys, running: true, cancel: cancel, started: now, over: over, marks: markSig(a.method.Tuned())}
	a.studyPump = studyPump{notify: notify, done: done}
	a.tuneOpen = true
	a.tv.Set(a.studyStatus(), tunepane.Snapshot{})
	a.run.Logf(now, "tune %s in %s", strings.Join(keys, ", "), dir)
	a.setStatus("tuning "+strings.Join(keys, ", "), false)
	return tea.Batch(a.waitStudy(), tea.Tick(time.Second, func(time.Time) tea.Msg { return studyTickMsg{id: id} }))
}

// studyPump holds the channels of the running study's goroutine.
type studyPump struct {
	notify <-chan struct{}
	done   <-chan error
}

// waitStudy returns the command that waits for the study's next scored job (a
// studyProgressMsg) or its end (a studyDoneMsg), and reads its directory then.
func (a *App) waitStudy() tea.Cmd {
	id, dir, p := a.study.id, a.study.dir, a.studyPump
	return func() tea.Msg {
		select {
		case <-p.notify:
			snap, err := tunepane.Load(dir)
			return studyProgressMsg{id: id, snap: snap, err: err}
		case err := <-p.done:
			snap, rerr := tunepane.Load(dir)
			return studyDoneMsg{id: id, snap: snap, err: err, readErr: rerr}
		}
	}
}

// searchStudy runs st to its conclusion in its own goroutine (study.Start, as `gitui
// tune` does: the search, best.spec.json, the refit of the best in DIR/refit, the refits
// of tune.refit_top and study.json with the test accuracy); it signals notify after
// every scored job and every refit's end (never blocking), sends the outcome on done
// (buffered) and closes over once the study is closed (its journal closed, its lock
// released). A study that stopped on bad input before scoring anything leaves nothing
// behind; a panic is reported as an error.
func searchStudy(ctx context.Context, st *study.Study, dataDir string, notify chan<- struct{}, done chan<- error, over chan<- struct{}) {
	var err error
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the study panicked: %v", r)
		}
		done <- err
		close(over)
	}()
	for e := range study.Start(ctx, st, study.Options{DataDir: dataDir}) {
		switch e := e.(type) {
		case study.Done:
			err = e.Err
		case study.Log, study.Searched, study.Refitted:
			select {
			case notify <- struct{}{}:
			default:
			}
		}
	}
}

// finishStudy ends the study: the view's last state, a status line and the run log.
func (a *App) finishStudy(m studyDoneMsg) {
	now := a.now()
	a.study.running, a.study.cancelling, a.study.ended, a.study.err = false, false, now, m.err
	if m.readErr == nil {
		a.tv.Set(a.studyStatus(), m.snap)
	} else {
		a.tv.SetStatus(a.studyStatus())
	}
	switch {
	case errors.Is(m.err, context.Canceled):
		a.setStatus(fmt.Sprintf("study cancelled after %d jobs: `gitui resume %s` continues it", len(m.snap.Jobs), a.study.dir), false)
	case m.err != nil:
		a.setStatus("study failed: "+m.err.Error(), true)
	default:
		msg := "study done"
		if f := m.snap.File; f != nil && f.Best != nil {
			test := ""
			if f.Best.Test != nil {
				test = fmt.Sprintf(", test %.4f refit at n %d", *f.Best.Test, f.Best.N)
			}
			who := fmt.Sprintf("trial %d", f.Best.Trial)
			if p := study.SettingText(f.Best.Params); p != "" {
				who += ": " + p
			}
			if f.Best.Baseline {
				who = "your setting"
			}
			msg = fmt.Sprintf("study done: best %s %.4f at n %d (%s)%s; b in the Tune view opens its spec", model.TuneScoreName(f.Score), f.Best.Validation, f.Best.ValidationN, who, test)
			if c := study.Comparison(f); c != "" && !f.Best.Baseline {
				msg = fmt.Sprintf("study done: %s (refit at n %d); b in the Tune view opens the best's spec", c, f.Best.N)
			}
		}
		a.setStatus(msg, false)
	}
	a.run.Logf(now, "%s (%s)", a.status, a.study.dir)
}

// cancelStudy asks the running study to stop; its scored jobs stay in the journal.
func (a *App) cancelStudy() {
	if !a.study.running || a.study.cancelling {
		return
	}
	a.study.cancelling = true
	a.study.cancel()
	a.tv.SetStatus(a.studyStatus())
}

// stopStudy cancels the running study and waits until its goroutine has closed the
// journal (after the program stopped: `gitui resume DIR` continues it).
func (a *App) stopStudy() {
	if a.study.over == nil {
		return
	}
	if a.study.running && a.study.cancel != nil {
		a.study.cancel()
	}
	<-a.study.over
}

// openBest loads the study's best.spec.json into the panes, as an ordinary run's spec:
// r then runs its refit into the run store.
func (a *App) openBest() tea.Cmd {
	path := a.tv.Snapshot().BestSpec
	s, err := model.LoadSpec(path)
	if err != nil {
		a.setStatus("cannot open the best spec: "+err.Error(), true)
		return nil
	}
	s.Defaults()
	a.spec, a.preset, a.quick, a.base = s, path, false, s.Clone()
	cmd := a.fanOut(specmsg.Msg{Spec: s})
	a.revalidate()
	a.tuneOpen = false
	a.setFocus(paneMethod)
	a.setStatus("loaded the study's best spec: r runs it", false)
	a.run.Logf(a.now(), "loaded %s into the panes", path)
	return cmd
}

// tuneMarked says what t did in the Method pane.
func (a *App) tuneMarked(m methodpane.TuneMarkedMsg) {
	switch {
	case m.Err != nil:
		a.setStatus("cannot tune: "+m.Err.Error(), true)
	case m.Dist == "":
		a.setStatus("unmarked "+m.Key, false)
	default:
		a.setStatus(fmt.Sprintf("%d marked, T tunes: %s ~ %s", len(a.method.Tuned()), m.Key, m.Dist), false)
	}
	a.method.SetCommand(a.commandLine())
}

// commandLine is the headless command the Method pane shows: `gitui run PRESET --set
// ...` reproducing the panes; with fields marked to tune, `gitui tune PRESET --set ...
// --param KEY=DIST ...` running the study T starts (its methods reduced to the marked
// ones, as studySpec does).
func (a *App) commandLine() string {
	run := form.CommandLine(a.preset, a.quick, a.base, a.spec) + dataArg(a.opts.DataDir, a.base)
	marks := a.method.Tuned()
	if len(marks) == 0 || a.base == nil {
		return run
	}
	s, keys, err := studySpec(a.spec, marks)
	if err != nil {
		return run
	}
	params := s.Tune.Params
	plain := s.Clone()
	plain.Tune = a.spec.Tune
	cmd := "gitui tune" + strings.TrimPrefix(form.CommandLine(a.preset, a.quick, a.base, plain), "gitui run")
	for _, k := range keys {
		cmd += " --param " + model.ShellQuote(k+"="+params[k])
	}
	return cmd + dataArg(a.opts.DataDir, a.base)
}

// tuneHelp is the footer while the Tune view is open.
func (a *App) tuneHelp() string {
	return a.help.ShortHelpView(append(a.tv.ShortHelp(), a.keys.Quit))
}

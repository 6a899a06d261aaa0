package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/store"
)

// LogFile is the run log the workbench keeps in each run directory of its store
// (store.LogFile): the engine's log lines, where the result went and, after a hang-up,
// that the run went on without a terminal.
const LogFile = store.LogFile

// job is one run of the workbench on its way into the run store. Its goroutine (pipe)
// passes the engine's events on to the workbench and tees their log lines into
// DIR/log.txt; when the engine is done the run directory concludes the run
// (store.RunDir.Conclude, as `gitui run` does). Only then does it close its output and
// done, so a run the workbench sees ending is already in the store, and a caller waiting
// on done (the program after a hang-up, or after ctrl+c) knows the result is written.
type job struct {
	id      int
	label   string
	started time.Time
	rd      *store.RunDir // nil when the run is not saved (no store, or it could not be opened)
	done    chan struct{}
	batches <-chan []eval.Event // the coalesced output the UI reads (set by startRun)

	mu  sync.Mutex
	log *os.File // DIR/log.txt while the run goes; nil when not saved or closed

	// saved is written by the pipe goroutine before done is closed; read it after.
	saved savedRun
}

// savedRun is where a finished job went.
type savedRun struct {
	dir    string // the run directory; "" when nothing was kept
	status string // store.ResultStatus: done, cancelled, partial or partial (failed)
	note   string // one line for the run log: where the run went, or why nothing was kept
	err    error  // writing the result failed (the journal still holds the cells)
}

// newJob returns the job of run id, started at now, saved into a new directory of
// storeDir, and a line for the run log saying where. When storeDir is "" or the directory
// cannot be made, rd is nil and the run still goes, unsaved (the note says why when
// the directory failed).
func newJob(id int, label, storeDir string, spec *model.Spec, meta store.RunMeta, now time.Time) (j *job, note string) {
	j = &job{id: id, label: label, started: now, done: make(chan struct{})}
	if storeDir == "" {
		return j, "" // no store (tests; Run says why at start-up)
	}
	dir, err := store.ClaimRunDir(storeDir, store.RunDirName(spec.Name, now))
	if err == nil {
		j.rd, err = store.OpenRunDir(dir, spec, meta)
		if err != nil {
			os.Remove(dir)
		}
	}
	if err != nil {
		return j, "this run is not saved: " + err.Error()
	}
	if f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644); err == nil {
		j.log = f
	}
	j.logLine(now, "start "+label+" in "+dir)
	return j, "saving into " + dir
}

// Dir returns the job's run directory ("" when the run is not saved).
func (j *job) Dir() string {
	if j.rd == nil {
		return ""
	}
	return j.rd.Path
}

// logLine appends a time-stamped line to DIR/log.txt (nothing when not saved). Write
// errors are ignored: the log is a courtesy, the journal is the record. Safe for
// concurrent use.
func (j *job) logLine(t time.Time, line string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.log != nil {
		fmt.Fprintf(j.log, "%s %s\n", t.Format("2006-01-02 15:04:05"), line)
	}
}

func (j *job) closeLog() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.log != nil {
		j.log.Close()
		j.log = nil
	}
}

// pipe starts the job's goroutine over the engine's events in and returns its output:
// every event of in, in order, the final eval.Done last, sent after the result was
// written. A panic while saving is recovered into saved.err.
func (j *job) pipe(in <-chan eval.Event) <-chan eval.Event {
	out := make(chan eval.Event, 64)
	go func() {
		defer close(j.done)
		defer close(out)
		var final eval.Done
		got := false
		for e := range in {
			switch e := e.(type) {
			case eval.Done:
				final, got = e, true
				continue
			case eval.Log:
				t := e.Time
				if t.IsZero() {
					t = time.Now()
				}
				j.logLine(t, e.Line)
			}
			out <- e
		}
		err := final.Err
		if !got {
			err = errors.New("the engine ended without a Done event")
		}
		j.saveRecovered(final.Outcome, err)
		if got {
			out <- final
		}
	}()
	return out
}

// saveRecovered is save with a panic turned into saved.err (the lock is released).
func (j *job) saveRecovered(out *eval.Outcome, runErr error) {
	defer func() {
		if r := recover(); r != nil {
			j.saved = savedRun{dir: j.Dir(), err: fmt.Errorf("saving the run panicked: %v", r)}
			j.saved.note = fmt.Sprintf("not saved: %v (the finished cells are in %s)", j.saved.err, j.Dir())
			j.closeLog()
			if j.rd != nil {
				j.rd.Close()
			}
		}
	}()
	j.save(out, runErr)
}

// save concludes the run in its directory (store.RunDir.Conclude: a complete or partial
// result, or nothing kept when it ended with an error before its first cell) and
// writes where it went into the run log.
func (j *job) save(out *eval.Outcome, runErr error) {
	rd := j.rd
	if rd == nil {
		return
	}
	c, err := rd.Conclude(out, runErr, time.Since(j.started))
	if c.Discarded {
		j.closeLog()
		j.saved = savedRun{note: "nothing saved: no cell had finished"}
		return
	}
	if c.Refused {
		j.closeLog()
		j.saved = savedRun{note: "nothing saved: " + runErr.Error()}
		return
	}
	s := savedRun{dir: rd.Path, status: c.Status}
	if c.Result != nil { // cancelled, partial or partial (failed), as the Runs pane says
		s.status = store.ResultStatus(c.Result.Partial, c.Result.Error)
	}
	if err != nil {
		s.err = err
		s.note = "result not written: " + err.Error()
	} else {
		s.note = fmt.Sprintf("saved in %s (%s, %d cells)", rd.Path, s.status, c.Added)
	}
	j.logLine(time.Now(), s.note)
	j.closeLog()
	j.saved = s
}

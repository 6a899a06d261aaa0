package ui

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/data"
	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/lineedit"
)

// The fields of the Slurm prompt (S in the run pane), in order.
const (
	slurmTasks = iota
	slurmPartition
	slurmTime
	slurmDir
	slurmFields
)

var slurmLabels = [slurmFields]string{"tasks", "partition", "time", "directory"}

// slurmPrompt is the prompt S opens in the run pane: how to send the current spec to
// Slurm as a job array (tasks, partition, time limit, output directory).
type slurmPrompt struct {
	open    bool
	field   int
	vals    [slurmFields]string
	err     string // why the last attempt was refused, shown under the fields
	sending bool   // the scripts are being written and submitted
	sbatch  bool   // sbatch was on PATH when the prompt opened
}

// slurmSentMsg: the scripts were written into dir (and submitted when sbatch was found).
type slurmSentMsg struct {
	dir       string
	indices   string // the --array value
	submitted bool
	sub       store.Submission
	local     bool // dir is node-local (tmpfs)
	err       error
}

// openSlurm opens the Slurm prompt with its defaults: 4 tasks, the cluster's
// partition, 01:00:00, and a new folder of the run store (so the Runs pane lists it).
func (a *App) openSlurm() {
	if b := a.blocker(); b != "" {
		a.setStatus("cannot send to Slurm: "+b, true)
		return
	}
	dir := store.RunDirName(a.spec.Name, a.now())
	if a.opts.Store != "" {
		dir = filepath.Join(a.opts.Store, dir)
	}
	_, err := osexec.LookPath("sbatch")
	a.slurm = slurmPrompt{open: true, vals: [slurmFields]string{"4", "", "01:00:00", dir}, sbatch: err == nil}
}

// handleSlurm takes every key while the Slurm prompt is open: tab/↓ and shift+tab/↑
// move between fields, typed text edits the field (lineedit: backspace, ctrl+u, ctrl+w), enter sends,
// esc closes.
func (a *App) handleSlurm(k tea.KeyMsg) tea.Cmd {
	p := &a.slurm
	if p.sending {
		return nil
	}
	v := &p.vals[p.field]
	switch k.Type {
	case tea.KeyEsc:
		p.open = false
	case tea.KeyTab, tea.KeyDown:
		p.field = (p.field + 1) % slurmFields
	case tea.KeyShiftTab, tea.KeyUp:
		p.field = (p.field + slurmFields - 1) % slurmFields
	case tea.KeyEnter:
		return a.sendSlurm()
	default:
		*v, _ = lineedit.Apply(*v, k) // backspace, ctrl+u, ctrl+w, typed or pasted text
	}
	return nil
}

// slurmOptions reads the prompt's fields into Slurm options and the output directory,
// with one line naming a bad field and its fix.
func (a *App) slurmOptions() (store.SlurmOptions, string, error) {
	p := &a.slurm
	o := store.SlurmOptions{Partition: strings.TrimSpace(p.vals[slurmPartition]), Time: strings.TrimSpace(p.vals[slurmTime]), CPUs: 2}
	t := strings.TrimSpace(p.vals[slurmTasks])
	n, err := strconv.Atoi(t)
	if err != nil {
		return o, "", fmt.Errorf("tasks %q: give a whole number of array tasks, 1..%d", t, store.MaxArrayTasks)
	}
	o.Tasks = n
	if err := o.Validate(""); err != nil {
		return o, "", err
	}
	dir := strings.TrimSpace(p.vals[slurmDir])
	if dir == "" {
		return o, "", errors.New("directory: give a folder on a file system every node sees")
	}
	switch a.spec.Protocol {
	case model.ProtocolApprox, model.ProtocolPD:
		return o, "", fmt.Errorf("protocol %s is not made of independent cells: run it here with r", a.spec.Protocol)
	}
	dd := a.opts.DataDir
	if dd == "" {
		if dd, err = data.ResolveDir(""); err != nil {
			return o, "", err
		}
	}
	if o.Data, err = filepath.Abs(dd); err != nil {
		return o, "", fmt.Errorf("the data directory %s: %w", dd, err)
	}
	o.Gitui = a.gituiBin
	if o.Gitui == "" {
		if o.Gitui, err = os.Executable(); err != nil {
			return o, "", fmt.Errorf("cannot find this gitui binary (%w): send with gitui slurm instead", err)
		}
	}
	return o, dir, nil
}

// sendSlurm checks the prompt and returns the command that writes the job scripts of
// the current spec (store.WriteSlurm, as `gitui slurm` does) and, when sbatch is on
// PATH, submits them (store.SubmitSlurm).
func (a *App) sendSlurm() tea.Cmd {
	o, dir, err := a.slurmOptions()
	if err != nil {
		a.slurm.err = err.Error()
		return nil
	}
	a.slurm.err, a.slurm.sending = "", true
	spec := a.spec.Clone()
	ctx := a.ctx
	return func() tea.Msg {
		st, local, err := store.WriteSlurm(dir, spec, o, "")
		if err != nil {
			return slurmSentMsg{dir: dir, err: err}
		}
		abs, ix := filepath.Dir(st.Spec), o.ArrayRange()
		if _, lerr := osexec.LookPath("sbatch"); lerr != nil {
			return slurmSentMsg{dir: abs, indices: ix, local: local}
		}
		sub, err := store.SubmitSlurm(ctx, abs, st, ix)
		return slurmSentMsg{dir: abs, indices: ix, submitted: true, sub: sub, local: local, err: err}
	}
}

// slurmSent reports the outcome of sendSlurm in the status line and the run log; on
// success the prompt closes, and a directory outside the run store joins the folders
// the Runs pane reads.
func (a *App) slurmSent(m slurmSentMsg) {
	a.slurm.sending = false
	now := a.now()
	if m.err != nil {
		if m.sub.ArrayID == "" {
			a.slurm.err = m.err.Error()
			a.setStatus("Slurm: "+m.err.Error(), true)
			return
		}
		a.setStatus("Slurm: "+m.err.Error(), true) // the array went in; the merge did not
	}
	a.slurm.open = false
	if a.opts.Store == "" || filepath.Dir(m.dir) != filepath.Clean(a.opts.Store) {
		a.opts.Open = append(a.opts.Open, m.dir)
	}
	if m.local {
		a.run.Logf(now, "warning: %s is on a node-local file system (tmpfs): other nodes cannot see it", m.dir)
	}
	switch {
	case !m.submitted:
		a.setStatus("sbatch not found: the scripts are in "+m.dir+"; submit them on the cluster", false)
		arr, mrg := store.SbatchCommands(m.dir, m.indices, "<array job id>")
		a.run.Logf(now, "sbatch not found: the scripts are in %s; submit them on the cluster:", m.dir)
		a.run.Logf(now, "  %s", store.ShellLine(arr))
		a.run.Logf(now, "  %s", store.ShellLine(mrg))
	case m.err == nil:
		a.setStatus(fmt.Sprintf("sent to Slurm: array %s, merge %s; follow it in the Runs pane (7)", m.sub.ArrayID, m.sub.MergeID), false)
		a.run.Logf(now, "sent to Slurm: array job %s, merge job %s, in %s", m.sub.ArrayID, m.sub.MergeID, m.dir)
	}
}

// slurmView draws the Slurm prompt.
func (a *App) slurmView(w, h int) string {
	p := &a.slurm
	lines := []string{a.st.Bold.Render("Send "+a.spec.Name+" to Slurm") + a.st.Muted.Render(" as a job array: each task runs its share of the cells into DIR/shards/<i>, then gitui merge DIR"), ""}
	for i, l := range slurmLabels {
		mark, v := "  ", p.vals[i]
		if i == p.field {
			mark, v = "▸ ", v+"▏"
		}
		if i == slurmPartition && p.vals[i] == "" && i != p.field {
			v = a.st.Muted.Render("(the cluster's default)")
		}
		lines = append(lines, fmt.Sprintf("%s%-10s %s", mark, l, v))
	}
	lines = append(lines, "")
	if !p.sbatch {
		lines = append(lines, a.st.Muted.Render("sbatch is not on PATH: enter writes the scripts only, to submit on the cluster"))
	} else {
		lines = append(lines, a.st.Muted.Render("enter writes the scripts and submits them with sbatch"))
	}
	if p.sending {
		lines = append(lines, "sending…")
	}
	if p.err != "" {
		lines = append(lines, a.st.Warn.Render(p.err))
	}
	return strings.Join(lines, "\n")
}

// slurmHelp is the footer while the Slurm prompt is open.
func (a *App) slurmHelp() string {
	return a.help.ShortHelpView([]key.Binding{
		key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab/↓", "next field")),
		key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))})
}

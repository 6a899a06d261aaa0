package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"gitui/core/data"
	"gitui/core/eval"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/ui/curves"
	"gitui/ui/datapane"
	"gitui/ui/form"
	"gitui/ui/grouppane"
	"gitui/ui/heatmap"
	"gitui/ui/methodpane"
	"gitui/ui/pane"
	"gitui/ui/runpane"
	"gitui/ui/runs"
	"gitui/ui/theme"
	"gitui/ui/tunepane"
)

// Options configure the workbench. DataDir is the resolved data directory ("" when
// none); Presets are offered by the picker (cmd/gitui passes presets.All()); Initial
// is the spec loaded at start (nil: the first preset's quick variant, preferring
// xperm-curve); OutDir is where s exports results (and where a panic saves the partial
// result of a run that is not in the store).
//
// Store is the run store: every run started with r is saved into a new directory
// there (store.RunDirName), with the layout of `gitui run --out` plus log.txt. Run
// fills it with store.StoreDir() when empty; an App made with New and no Store saves
// nothing (tests).
//
// Hangup, when set, delivers SIGHUP (a closed terminal or SSH connection): Run then
// restores the terminal as far as it still can, stops drawing and reading, lets the
// current run finish into the store and returns ErrHangup. cmd/gitui passes a channel
// on which SIGHUP does not cancel the context.
//
// Open lists further run directories, folders of run directories and result.json
// files for the Runs pane (`gitui open`); with StartRuns (or a non-empty Open) the
// workbench starts on the Runs pane. Mouse turns on mouse capture: a click focuses a pane
// or a tab and selects the form field or run under it, the wheel scrolls the pane under
// the pointer (see handleMouse; it is off by default, as capture stops the terminal's
// own text selection).
//
// AskAbove is the time estimate (engine.EstimateTime, on the data sizes a listing knows)
// above which r asks before it starts a run: 0 means 10 minutes, a negative value never
// asks.
type Options struct {
	DataDir   string
	Presets   []model.Preset
	Initial   *model.Spec
	OutDir    string
	Store     string
	Hangup    <-chan os.Signal
	Open      []string
	StartRuns bool
	Mouse     bool
	AskAbove  time.Duration
}

// runState is the engine side of the current run, as the UI sees it.
type runState struct {
	id         int
	label      string
	spec       *model.Spec
	cancel     context.CancelFunc
	batches    <-chan []eval.Event
	running    bool
	cancelling bool
	started    time.Time
	outcome    *eval.Outcome
	err        error
	result     *model.Result // set when the run finished
	job        *job          // the run's way into the store (set at start)
	gotMatrix  bool
	gotDone    bool
	// stale: a preset was loaded while the run was going, so the spec in the panes is
	// no longer the run's (its end computes no sample Gram matrices of that spec).
	stale bool
}

type confirmKind int

const (
	confirmNone confirmKind = iota
	confirmQuit
	confirmRestart
	confirmDelete
	confirmCancel
	confirmStudy // x in the Tune view: cancel the study
	confirmLong  // r on a run estimated above Options.AskAbove: r again starts it
)

type picker struct {
	open  bool
	cur   int // index into the presets shown (after the filter)
	quick bool
	// filter narrows the presets to those whose name or summary holds every word of
	// it; filtering is true while it is typed (after /).
	filter    string
	filtering bool
	// est is each preset's time estimate in the picker's mode ("~40 s"; "" unknown),
	// computed when the picker opens and when f changes the mode (pickerEstimates).
	est []string
}

// App is the root model: it owns the spec the panes edit, the run, the layout and the
// global keys, and routes messages to the panes (keys to the focused pane only).
type App struct {
	opts   Options
	ctx    context.Context
	start  starter
	tick   func(id int) tea.Cmd
	now    func() time.Time
	st     theme.Styles
	keys   keyMap
	help   help.Model
	w, h   int
	lay    layout
	focus  paneID
	config paneID // configuration pane shown in grid mode

	spec   *model.Spec
	preset string
	quick  bool
	base   *model.Spec // the preset's spec, for the command line
	// problems are the Validate problems of the spec in the panes (with its defaults
	// filled), each pane showing those of its fields; issues are their messages, for the
	// status line and the run log.
	problems model.Problems
	issues   []string
	// est is the time estimate of the spec in the panes (estimate.go), computed by
	// revalidate; estimated counts the computations (tests: never per frame).
	est       estimates
	estimated int

	data   datapane.Model
	group  grouppane.Model
	method methodpane.Model
	run    runpane.Model
	curves curves.Model
	heat   heatmap.Model
	runs   runs.Model
	// panes are the declared panes (paneDecls) as components, indexed by paneID: the
	// root sizes, focuses, draws and asks them through pane.Component.
	panes []pane.Component
	zoom  bool // the focused pane fills the body (z)
	// livePins maps the label of each pinned sharded run still running elsewhere to its
	// directory: its curves are re-read on the runs tick.
	livePins map[string]string
	// runsTicking is set while a runs tick is pending (one at a time).
	runsTicking bool
	// runsTickCmd returns the command of one runs tick (tests replace it).
	runsTickCmd func() tea.Cmd
	// slurm is the prompt of S (send the spec to Slurm); gituiBin, when set, is the
	// binary its job scripts run (default: this executable).
	slurm    slurmPrompt
	gituiBin string

	r       runState
	jobs    []*job // every run started, for the program to wait on at exit
	pins    []*model.Result
	gramTag int
	confirm confirmKind
	longWhy string // confirmLong's estimate: "about 3 h 10 min (Haar RLS 3 h)"
	picker  picker
	// helpOpen: the full help (?) fills the body, at page helpPage (helpview.go).
	helpOpen bool
	helpPage int
	status   string
	statusEr bool
	partial  *partial
	boxes    map[rect]boxCache
	// tabSpans are the header tabs of the last frame (header), for mouse clicks.
	tabSpans []tabSpan
	// Chart throttle: after a batch, charts redraw at most once per frameEvery; in
	// between View shows their cached frames and one redrawDueMsg is pending.
	lastDraw    time.Time
	holdCharts  bool
	redrawTimer bool

	// The study of T (tune.go): its state, its goroutine's channels, the Tune view and
	// whether it fills the body.
	study     studyRun
	studyPump studyPump
	tv        tunepane.Model
	tuneOpen  bool
}

// frameEvery is the shortest interval between two chart redraws (20 per second).
const frameEvery = 50 * time.Millisecond

// partial is what a panic handler needs to save the result so far; it is written by
// Update only and read after the program has stopped.
type partial struct {
	spec    *model.Spec
	outcome *eval.Outcome
	started time.Time
	points  []eval.Series
}

// Status returns the status line's text as last set (a study's conclusion, a run's,
// an error), without styling or truncation.
func (a *App) Status() string { return a.status }

// New returns the workbench for opts, drawing with st. It does not start anything;
// Init loads the data preview.
func New(ctx context.Context, opts Options, st theme.Styles) *App {
	a := &App{opts: opts, ctx: ctx, start: engine.Start, tick: tick, now: time.Now, st: st, keys: defaultKeys(), partial: &partial{}, boxes: map[rect]boxCache{}}
	a.help = help.New()
	a.help.Styles.ShortKey = st.Accent
	a.help.Styles.FullKey = st.Accent
	a.help.Styles.ShortDesc = st.Muted
	a.help.Styles.FullDesc = st.Muted
	a.help.Styles.ShortSeparator = st.Muted
	a.help.Styles.FullSeparator = st.Muted
	a.help.Styles.Ellipsis = st.Muted
	spec, name, base := initialSpec(opts)
	a.spec, a.preset, a.base, a.quick = spec, name, base, true
	a.picker.quick = true
	a.data = datapane.New(st, spec, opts.DataDir)
	a.group = grouppane.New(st, spec)
	a.method = methodpane.New(st, spec)
	a.run = runpane.New(st)
	a.curves = curves.New(st)
	a.heat = heatmap.New(st)
	a.runs = runs.New(st)
	a.tv = tunepane.New(st)
	a.panes = make([]pane.Component, numPanes)
	for p, d := range paneDecls {
		a.panes[p] = d.make(a)
	}
	a.setFocus(paneData)
	if len(opts.Open) > 0 || opts.StartRuns {
		a.setFocus(paneRuns)
	}
	a.revalidate()
	return a
}

// initialSpec picks the spec shown at start and the preset it comes from.
func initialSpec(opts Options) (spec *model.Spec, preset string, base *model.Spec) {
	find := func(name string) *model.Preset {
		for i := range opts.Presets {
			if opts.Presets[i].Name == name {
				return &opts.Presets[i]
			}
		}
		return nil
	}
	if opts.Initial != nil {
		s := opts.Initial.Clone()
		s.Defaults()
		if p := find(s.Name); p != nil {
			b := p.Build(true)
			b.Defaults()
			return s, p.Name, b
		}
		return s, s.Name, nil
	}
	p := find("xperm-curve")
	if p == nil && len(opts.Presets) > 0 {
		p = &opts.Presets[0]
	}
	if p != nil {
		s := p.Build(true)
		s.Defaults()
		return s, p.Name, s.Clone()
	}
	s := fallbackSpec()
	return s, s.Name, nil
}

// fallbackSpec is the spec used when no preset is given: CDF features on X_perm.
func fallbackSpec() *model.Spec {
	s := &model.Spec{
		Name: "custom", Protocol: model.ProtocolCurve,
		Data:    model.DataSpec{Name: "xperm", TestSize: 2000},
		Group:   model.GroupSpec{Kind: model.GroupPermutation},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}, {Features: "raw"}},
		Sizes:   []int{20, 50, 100, 200}, Repeats: 3, Seed: 1,
	}
	s.Defaults()
	return s
}

// Init runs every pane's Init (the data preview loads) and lists the newest runs of the
// store in the run log; nothing ticks until a run starts.
func (a *App) Init() tea.Cmd {
	var cmds []tea.Cmd
	for _, p := range a.panes {
		cmds = append(cmds, p.Init())
	}
	if a.opts.Store != "" {
		cmds = append(cmds, listStore(a.opts.Store, storeShown))
	}
	if shown := a.focus.decl().shown; shown != nil {
		cmds = append(cmds, shown(a))
	}
	return tea.Batch(cmds...)
}

// loadRuns returns the command that reads the runs of the store and of Options.Open
// for the Runs pane (nil when there is nothing to read).
func (a *App) loadRuns() tea.Cmd {
	var src []string
	if a.opts.Store != "" {
		src = append(src, a.opts.Store)
	}
	src = append(src, a.opts.Open...)
	if len(src) == 0 {
		return func() tea.Msg { return runs.LoadedMsg{} }
	}
	return runs.LoadCmd(src, a.opts.Store != "")
}

// storeShown is how many of the store's newest runs the run log names at start-up.
const storeShown = 3

// setFocus moves the focus to p.
func (a *App) setFocus(p paneID) {
	a.focus = p
	if p.decl().slot == slotConfig {
		a.config = p
	}
	for id, c := range a.panes {
		if paneID(id) == p {
			c.Focus()
		} else {
			c.Blur()
		}
	}
	a.keys.Slurm.SetEnabled(p.decl().slurm && a.blocker() == "")
	if a.zoom || p.decl().grows || a.lay.heat.h > a.lay.curves.h { // the heatmap grows while focused
		a.relayout()
	}
}

// focused returns the focused pane.
func (a *App) focused() pane.Component { return a.panes[a.focus] }

// focusedHelp returns the key help of the focused pane.
func (a *App) focusedHelp() help.KeyMap { return a.focused() }

// editing reports whether the focused pane holds the keyboard (it then takes every key).
func (a *App) editing() bool { return a.focused().Editing() }

// revalidate checks a copy of the spec with its defaults filled (the spec in the panes
// keeps what the user set), hands each form the problems of its fields and refreshes
// the command line and the enabled keys.
func (a *App) revalidate() {
	c := a.spec.Clone()
	c.Defaults()
	a.problems = nil
	errors.As(c.Validate(), &a.problems)
	a.issues = a.problems.Messages()
	a.data.Form().SetIssues(a.problems)
	a.group.Form().SetIssues(a.problems)
	a.method.Form().SetIssues(a.problems)
	a.method.SetCommand(a.commandLine())
	a.refreshEstimates()
	a.updateKeys()
}

// blocker returns why a run cannot start now ("" when it can).
func (a *App) blocker() string {
	switch {
	case len(a.issues) > 0:
		return fmt.Sprintf("the spec has %d problem(s): %s", len(a.issues), a.issues[0])
	case a.data.Loading():
		return "the data set is still loading"
	case a.data.Err() != nil:
		return "data: " + a.data.Err().Error()
	case a.group.Err() != nil:
		return "group: " + a.group.Err().Error()
	}
	return ""
}

// updateKeys enables exactly the global keys that do something now.
func (a *App) updateKeys() {
	a.keys.Run.SetEnabled(a.blocker() == "" && !a.focus.overrides("r")) // r in the Runs pane: re-read the runs
	a.keys.Slurm.SetEnabled(a.focus.decl().slurm && a.blocker() == "")
	a.keys.Cancel.SetEnabled(a.r.running && !a.r.cancelling)
	a.keys.Pin.SetEnabled(len(a.curves.Current().Series) > 0)
	a.keys.Save.SetEnabled(len(a.curves.Current().Series) > 0 || len(a.pins) > 0 || len(a.heat.Matrices()) > 0)
	a.keys.Presets.SetEnabled(len(a.opts.Presets) > 0 && !a.focus.overrides("p")) // p in the Runs pane: parallel axes
	a.keys.Tune.SetEnabled(a.study.running || a.study.dir != "" || len(a.method.Tuned()) > 0 || a.spec.Tune != nil)
}

// setStatus shows s in the header (shortened when it does not fit); an error also
// goes whole into the run log (wrapped there), unless it is the one shown already.
func (a *App) setStatus(s string, isErr bool) {
	if isErr && s != "" && (s != a.status || !a.statusEr) {
		a.run.Logf(a.now(), "%s", s)
	}
	a.status, a.statusEr = s, isErr
}

// Update is the root of the Elm loop: global messages first, then run events, then
// keys to the focused pane; unknown messages go to the configuration panes.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.w, a.h = msg.Width, msg.Height
		a.relayout()
	case tea.KeyMsg:
		cmd = a.handleKey(msg)
	case runEventsMsg, runFinishedMsg, tickedMsg, gramComputedMsg, savedMsg:
		cmd = a.handleRun(msg)
	case studyProgressMsg, studyDoneMsg, studyTickMsg:
		cmd = a.handleStudy(msg)
	case methodpane.TuneMarkedMsg:
		a.tuneMarked(msg)
	case redrawDueMsg:
		a.redrawTimer, a.holdCharts = false, false
	case heatmap.RequestMsg:
		cmd = a.requestGram(msg.N)
	case storeListedMsg:
		a.logStore(msg)
	case runs.LoadedMsg:
		_, cmd = a.panes[paneRuns].Update(msg)
		cmd = tea.Batch(cmd, a.runsTick())
	case runsTickMsg:
		a.runsTicking = false
		cmd = a.followLive()
	case slurmSentMsg:
		a.slurmSent(msg)
	case livePinsMsg:
		a.updateLivePins(msg)
		cmd = a.runsTick()
	case runs.ReloadMsg:
		cmd = a.loadRuns()
		a.setStatus("re-reading the runs (r runs the spec in the other panes)", false)
	case runs.OpenMsg:
		cmd = a.openRuns(msg.Entries)
	case runs.LabelledMsg:
		_, cmd = a.panes[paneRuns].Update(msg)
		if msg.Err == nil {
			a.run.Logf(a.now(), "named %s %q", msg.Path, msg.Label)
		}
	case tea.MouseMsg:
		cmd = a.handleMouse(msg)
	case errMsg:
		a.setStatus(msg.Error(), true)
	case form.ChangedMsg:
		// Values left by the old protocol, group kind, data set or method family would
		// block the run (Validate refuses fields that do not apply): drop them.
		a.spec.Tidy()
		cmd = a.fanOut(msg)
		a.setStatus("", false)
	default:
		cmd = a.fanOut(msg)
	}
	a.updateKeys()
	return a, cmd
}

// fanOut hands a message to the panes that follow the spec (paneDecl.spec; previews
// listen to each other's results: the group pane needs the loaded data).
func (a *App) fanOut(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for p, d := range paneDecls {
		if d.spec {
			_, c := a.panes[p].Update(msg)
			cmds = append(cmds, c)
		}
	}
	switch msg.(type) {
	case form.ChangedMsg, datapane.LoadedMsg:
		a.revalidate()
	}
	return tea.Batch(cmds...)
}

// relayout recomputes the layout for the window and sizes every pane.
func (a *App) relayout() {
	a.help.Width = a.w
	footer := lipgloss.Height(a.footerView())
	a.lay = layoutFor(a.w, a.h, footer)
	if a.focus.decl().grows {
		a.lay = a.lay.heatFocused()
	}
	if a.lay.tooSmall {
		return
	}
	fw, fh := a.st.Pane.GetHorizontalFrameSize(), a.st.Pane.GetVerticalFrameSize()
	inner := func(r rect) (int, int) { return max(1, r.w-fw), max(1, r.h-fh-1) } // -1: title line
	for p, c := range a.panes {
		c.SetSize(inner(a.lay.rectOf(paneID(p))))
	}
	if a.zoom {
		a.focused().SetSize(inner(a.lay.body))
	}
	a.tv.SetSize(inner(a.lay.body))
}

// fullBody reports whether one box fills the body: the focused pane always in tab
// mode, and in grid mode for the Runs pane and a zoomed pane; the full help (?) in
// both (a click then only reaches the tabs).
func (a *App) fullBody() bool {
	return a.lay.tabs || a.zoom || a.focus.decl().slot == slotBody || a.helpOpen
}

// openRuns overlays the curves of past runs (enter in the Runs pane or its compare
// view) as pinned runs, labelled as the compare view labels them, and shows the
// Curves pane; s then exports them with the rest.
func (a *App) openRuns(es []runs.Entry) tea.Cmd {
	var opened []string
	for k, e := range es {
		if len(e.Series) == 0 {
			continue
		}
		label := e.ID
		if !e.Time.IsZero() {
			label = e.Name + " " + e.Time.Format("01-02 15:04:05")
		}
		if len(es) > 1 {
			label = runs.RunLabel(k, e)
		}
		a.curves.AddRun(curves.Run{Label: label, Series: e.Series})
		a.pins = append(a.pins, resultOf(e, label))
		if e.Live() {
			if a.livePins == nil {
				a.livePins = map[string]string{}
			}
			a.livePins[label] = e.Path
		}
		opened = append(opened, e.ID)
	}
	if len(opened) == 0 {
		a.setStatus("no points in "+es[0].ID+" yet", true)
		return nil
	}
	a.setFocus(paneCurves)
	a.setStatus("pinned "+strings.Join(opened, ", ")+" in the Curves pane (u unpins, s exports)", false)
	return a.runsTick()
}

// runsTickEvery is how often runs followed live (sharded runs running elsewhere) are
// re-read while the Runs pane shows them or while one is pinned.
const runsTickEvery = 2 * time.Second

// runsTickMsg: time to re-read the runs followed live.
type runsTickMsg struct{}

// livePinsMsg carries the pinned live runs re-read, by label.
type livePinsMsg struct{ entries map[string]runs.Entry }

// runsTick schedules the next re-read of the runs followed live when something is
// followed (a live row while the Runs pane is shown, or a live pinned run) and no tick
// is pending; else nil.
func (a *App) runsTick() tea.Cmd {
	if a.runsTicking || !a.followsLive() && len(a.livePins) == 0 {
		return nil
	}
	a.runsTicking = true
	if a.runsTickCmd != nil {
		return a.runsTickCmd()
	}
	return tea.Tick(runsTickEvery, func(time.Time) tea.Msg { return runsTickMsg{} })
}

// followsLive reports whether the focused pane shows what changes elsewhere (paneDecl.live).
func (a *App) followsLive() bool {
	d := a.focus.decl()
	return d.live != nil && d.shown != nil && d.live(a)
}

// followLive returns the commands that re-read what is followed live: the runs of the
// Runs pane while it shows, and the pinned live runs. Reading happens in the commands.
func (a *App) followLive() tea.Cmd {
	var cmds []tea.Cmd
	if a.followsLive() {
		cmds = append(cmds, a.focus.decl().shown(a))
	}
	if len(a.livePins) > 0 {
		pins := make(map[string]string, len(a.livePins))
		for l, p := range a.livePins {
			pins[l] = p
		}
		cmds = append(cmds, func() tea.Msg {
			out := map[string]runs.Entry{}
			for label, path := range pins {
				if es, _ := store.Load([]string{path}, false); len(es) == 1 {
					out[label] = es[0]
				}
			}
			return livePinsMsg{entries: out}
		})
	}
	return tea.Batch(cmds...)
}

// updateLivePins replaces the curves of the pinned live runs re-read; a run unpinned
// meanwhile, or no longer running elsewhere, is no longer followed.
func (a *App) updateLivePins(m livePinsMsg) {
	for label, e := range m.entries {
		if !a.curves.UpdateRun(label, e.Series) {
			delete(a.livePins, label)
			continue
		}
		for i, p := range a.pins {
			if p.Preset == label {
				a.pins[i] = resultOf(e, label)
			}
		}
		if !e.Live() {
			delete(a.livePins, label)
		}
	}
}

// resultOf is the result of a listed run, for s (save) to write with the pins; its
// preset is label, which names the run in the exported legends as in the TUI's.
func resultOf(e runs.Entry, label string) *model.Result {
	r := &model.Result{Schema: model.ResultSchema, Preset: label, Spec: e.Spec, Partial: e.Status != "done"}
	var sp struct {
		Seed uint64 `json:"seed"`
	}
	if json.Unmarshal(e.Spec, &sp) == nil {
		r.Seed = sp.Seed
	}
	for _, s := range e.Series {
		ms := model.Series{Name: s.Name, XLabel: s.XLabel, YLabel: s.YLabel}
		for _, p := range s.Points {
			ms.Points = append(ms.Points, model.Point{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
		}
		r.Series = append(r.Series, ms)
	}
	return r
}

// dataArg is the " --data DIR" that the headless command needs so that pasting it finds
// the workbench's data: empty when `gitui run` would find dir by itself (data.ResolveDir:
// $GITUI_DATA, else the user cache directory), when there is no data directory, or when
// no preset command is shown.
func dataArg(dir string, base *model.Spec) string {
	if dir == "" || base == nil {
		return ""
	}
	if def, err := data.ResolveDir(""); err == nil && filepath.Clean(def) == filepath.Clean(dir) {
		return ""
	}
	return " --data " + model.ShellQuote(dir)
}

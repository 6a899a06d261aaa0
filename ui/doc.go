// Package ui is gitui's terminal workbench: panes for the data set, the group and the
// method, runs in the background, live accuracy curves, kernel heatmaps and orbits.
//
// # Overview
//
// Run opens it; cmd/gitui calls Run when gitui is started without arguments. The root
// model (App) owns the spec that the data, group and method panes edit (ui/datapane,
// ui/grouppane, ui/methodpane on top of ui/form), the run (ui/runpane), the curves
// (ui/curves), the Gram matrices (ui/heatmap) and the past runs (ui/runs: the Runs pane
// and its compare view, over the run store and Options.Open). Every pane meets one
// interface, ui/pane.Component (tea.Model, help.KeyMap, SetSize, Focus/Blur, Editing,
// Wants, Problem), and the root keeps them in a slice indexed by pane: it sizes, focuses,
// draws and routes keys to them alike; only the layout (layout.rectOf) tells them apart.
// The panes' fields, ranges and help come from the registries model.SpecFields and
// model.MethodFields, so the TUI accepts what `gitui run --set` accepts. Keys: tab/shift+tab or
// 1-8 between panes, arrows/hjkl inside them, enter to edit, r run, x cancel (asks),
// p presets (/ filters them), P pin, s export, z zoom the focused pane, ctrl+z suspend,
// ? full help (every key of the workbench and of the focused pane, disabled ones marked
// "(not now)", in columns and pages that fit the window: ←/→ or pgup/pgdn turn them,
// esc/?/q close it), q quit (asks while a run is going), ctrl+c quits at once (the run is
// cancelled, its finished cells kept). D asks before deleting a method. The focused
// pane's title starts with ▸ (focus shows without colour). Options.Mouse (GITUI_MOUSE=1)
// turns on the mouse: a click focuses a pane or tab and selects the form field or run
// under it; the wheel scrolls the pane under the pointer (the legend in Curves) and the
// preset picker.
//
// # The run store
//
// Every run is saved without s: r opens a new run directory in Options.Store
// (store.StoreDir(): $XDG_DATA_HOME/gitui/runs/TIME-NAME) with store.OpenRunDir, and
// engine.Start journals each finished cell into it. A job goroutine between the engine
// and the UI writes result.json (partial after a cancel or a failure) and log.txt when
// the engine is done, before the UI sees the run end; a run that ended with an error
// before its first cell leaves nothing (RunDir.Discard). At start-up the run log names
// the store's newest runs and their status. When the program stops, Run waits until
// every run is written: cancelled after q, ctrl+c or SIGINT/SIGTERM (ErrInterrupted);
// left to finish after SIGHUP (Options.Hangup: the terminal is restored as far as it
// can be and no longer read or drawn; ErrHangup).
//
// A run clones the spec and starts engine.Start in the background. Its events are
// coalesced (at most 512 events or 50 ms per batch) and pumped into Update one batch
// at a time; each batch marks the curves dirty and they are redrawn once, at the next
// frame (at most 20 frames a second). Cancelling keeps pumping until the engine's
// Done, so finished cells are kept. Nothing ticks while idle.
//
// # Tune
//
// t in the Method pane marks the selected method field to tune, with a default
// distribution from the registry (methodpane.DefaultDist; the field shows "● tune
// DIST"; t again unmarks). T starts a study of the marked fields (tune.go): the methods
// with a mark are kept (a choice among them when more than one), model/study searches
// in a goroutine, in a new directory of the run store (TIME-NAME-tune), and the Tune
// view (ui/tunepane) fills the body, following the study's journal after every scored
// job (tunepane.Load). x there cancels the study (after y/n; `gitui resume DIR`
// continues it), b loads its best.spec.json into the panes (r then runs it), esc goes
// back to the panes while it runs, T reopens the view. q asks while a study runs; when
// the program stops, a running study is cancelled and its journal closed.
//
// # Shapes
//
// The layout needs at least 80×24. Below 120 columns or 34 rows one pane is shown at
// a time and the header's tabs reach the others; wider terminals show the focused
// configuration pane, the run, the curves and the heatmap at once. The Runs pane, and
// any pane zoomed with z, fills the body.
//
// # Errors
//
// Bad input stays in its field with an inline message; spec problems are listed in
// their pane and disable r. Engine errors end the run with a message in the run pane.
// Long messages are wrapped (theme.Wrap), never cut; a tab whose pane holds an error
// carries a red "!". Run returns ErrNotTerminal without a terminal, and an error
// wrapping tea.ErrProgramPanic (after saving the partial result) if the UI panicked.
//
// # Concurrency
//
// Update never blocks on work: data loading, group building, Gram matrices, exports and
// the engine run in goroutines, each recovering its panics and reporting them as
// messages (starting a run opens its directory in Update: a few small files). The
// model holds no mutex; messages carry a run id or a request tag, and stale ones are
// dropped.
package ui

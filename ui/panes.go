package ui

import (
	"fmt"
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/pane"
	"gitui/ui/previewpane"
)

// paneID names the panes in focus order: an index into paneDecls. The constants name the
// panes the root exchanges data with (run events, loaded runs, the spec's forms); a pane
// that only follows the spec needs none.
type paneID int

const (
	paneData paneID = iota
	paneGroup
	paneMethod
	paneRun
	paneCurves
	paneHeat
	paneRuns
)

// numPanes is the number of panes declared.
const numPanes = paneID(len(paneDecls))

// slot is where the grid layout puts a pane (layout.rectOf); in tab mode every pane
// fills the body.
type slot int

const (
	slotConfig slot = iota // top left, shared: the focused (or last) of them shows, the title names them all
	slotLog                // bottom left
	slotChart              // top right
	slotMatrix             // bottom right
	slotBody               // the whole body
)

// gridSlots are the slots of the grid, as it is drawn: the left column top to bottom,
// then the right one.
var gridSlots = [...]slot{slotConfig, slotLog, slotChart, slotMatrix}

// paneDecl declares one pane: everything the root knows about it besides the data it
// exchanges with it. The root's tab bar, jump keys, focus order, grid, fan-out of spec
// messages and mouse wheel are derived from paneDecls.
type paneDecl struct {
	name  string // tab and title
	short string // tab in a narrow header ("Grp")
	key   string // the key that focuses it (a rune; unique: TestPaneDeclsUnique)
	slot  slot
	// grows: focused, it takes 66% of its column's height (layout.heatFocused).
	grows bool
	// spec: the pane edits or previews the spec: it receives the spec's messages
	// (form.ChangedMsg, datapane.LoadedMsg and every message the root does not route
	// itself: fanOut) and, when it has SetSpec, each new spec (specSetter).
	spec bool
	// over lists global keys the pane binds over the workbench's (its r re-reads the
	// runs): the workbench's bindings of them are disabled while it is focused.
	over []string
	// confirm is a key the workbench asks y/n about before handing it to the pane.
	confirm string
	// slurm: S (send the spec to Slurm) works while the pane is focused.
	slurm bool
	// wheel are the keys the mouse wheel sends the pane, up then down ("" for ↑ and ↓).
	wheel [2]string
	// make returns the pane's Component (over the App's model of it, when the App
	// keeps one); New calls it once.
	make func(a *App) pane.Component
	// shown, when set, returns the command that re-reads what the pane shows: when it
	// gains the focus, at start when it has it, and when a run finishes while it has it.
	shown func(a *App) tea.Cmd
	// live, when set, reports whether what the pane shows changes elsewhere (runs
	// followed live): the runs tick re-reads it (shown) while it has the focus.
	live func(a *App) bool
}

// paneDecls are the workbench's panes, in focus order (tab moves along it).
var paneDecls = [...]paneDecl{
	paneData:   {name: "Data", short: "Dat", key: "1", slot: slotConfig, spec: true, make: func(a *App) pane.Component { return pane.Of(&a.data) }},
	paneGroup:  {name: "Group", short: "Grp", key: "2", slot: slotConfig, spec: true, make: func(a *App) pane.Component { return pane.Of(&a.group) }},
	paneMethod: {name: "Method", short: "Mth", key: "3", slot: slotConfig, spec: true, confirm: "D", make: func(a *App) pane.Component { return pane.Of(&a.method) }},
	paneRun:    {name: "Run", short: "Run", key: "4", slot: slotLog, slurm: true, make: func(a *App) pane.Component { return pane.Of(&a.run) }},
	paneCurves: {name: "Curves", short: "Crv", key: "5", slot: slotChart, wheel: [2]string{"{", "}"}, make: func(a *App) pane.Component { return pane.Of(&a.curves) }},
	paneHeat:   {name: "Heatmap", short: "Hmp", key: "6", slot: slotMatrix, grows: true, make: func(a *App) pane.Component { return pane.Of(&a.heat) }},
	paneRuns: {name: "Runs", short: "Rns", key: "7", slot: slotBody, over: []string{"r", "p"},
		make:  func(a *App) pane.Component { return pane.Of(&a.runs) },
		shown: (*App).loadRuns, live: func(a *App) bool { return a.runs.Live() }},
	{name: "Preview", short: "Prv", key: "8", slot: slotBody, spec: true, make: func(a *App) pane.Component { return previewpane.Of(a.st, a.spec) }},
}

func (p paneID) String() string { return paneDecls[p].name }

// decl returns the declaration of pane p.
func (p paneID) decl() *paneDecl { return &paneDecls[p] }

// paneWithKey returns the pane that key k focuses.
func paneWithKey(k string) (paneID, bool) {
	for p := range paneDecls {
		if paneDecls[p].key == k {
			return paneID(p), true
		}
	}
	return 0, false
}

// jumpKeys returns the keys that focus the panes, in focus order.
func jumpKeys() []string {
	var ks []string
	for _, d := range paneDecls {
		ks = append(ks, d.key)
	}
	return ks
}

// jumpHelp is the help of the jump keys: "1-7", "go to pane (7 runs)" (the pane that
// re-reads what it shows named by its key).
func jumpHelp() (keys, desc string) {
	ks := jumpKeys()
	keys, desc = ks[0]+"-"+ks[len(ks)-1], "go to pane"
	for _, d := range paneDecls {
		if d.shown != nil {
			desc += fmt.Sprintf(" (%s %s)", d.key, lower(d.name))
		}
	}
	return keys, desc
}

// lower returns s with its first letter in lower case (pane names are ASCII).
func lower(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// panesIn returns the panes of slot s, in focus order.
func panesIn(s slot) []paneID {
	var ps []paneID
	for p := range paneDecls {
		if paneDecls[p].slot == s {
			ps = append(ps, paneID(p))
		}
	}
	return ps
}

// overrides reports whether pane p binds the global key k over the workbench's.
func (p paneID) overrides(k string) bool { return slices.Contains(p.decl().over, k) }

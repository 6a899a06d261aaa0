package ui

import "github.com/charmbracelet/bubbles/key"

// keyMap holds the workbench's global bindings: data, so they can be remapped, and
// enabled or disabled after every update so that the help never lists a key that does
// nothing now.
type keyMap struct {
	NextPane, PrevPane, Jump, Run, Cancel, Presets, Save, Pin, Help, Quit, ForceQuit key.Binding
	Zoom, Suspend                                                                    key.Binding
	// Slurm (S, in the run pane) sends the current spec to Slurm as a job array.
	Slurm key.Binding
	// Tune (T) starts a study of the fields marked with t, or opens the Tune view.
	Tune key.Binding
	// picker and confirmation keys
	Up, Down, Load, Toggle, Close, Yes, No, Filter key.Binding
}

func defaultKeys() keyMap {
	return keyMap{
		NextPane:  key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane:  key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Jump:      key.NewBinding(key.WithKeys(jumpKeys()...), key.WithHelp(jumpHelp())),
		Zoom:      key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "zoom pane")),
		Suspend:   key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend")),
		Run:       key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "run")),
		Cancel:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "cancel run (asks)")), // esc backs out of an edit, nothing more
		Presets:   key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "presets")),
		Save:      key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save")),
		Pin:       key.NewBinding(key.WithKeys("P"), key.WithHelp("P", "pin run")),
		Slurm:     key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "Slurm jobs (Run pane)")),
		Tune:      key.NewBinding(key.WithKeys("T"), key.WithHelp("T", "tune marked fields")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit now")),
		Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Load:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "load preset")),
		Toggle:    key.NewBinding(key.WithKeys("f", "tab"), key.WithHelp("f", "quick/full")),
		Close:     key.NewBinding(key.WithKeys("esc", "p", "q"), key.WithHelp("esc", "close")),
		Yes:       key.NewBinding(key.WithKeys("y", "Y", "enter"), key.WithHelp("y", "yes")),
		No:        key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "no")),
		Filter:    key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
	}
}

// globalHelp is the help.KeyMap of the global keys (its bindings reflect the state).
type globalHelp struct {
	k    keyMap
	pane interface {
		ShortHelp() []key.Binding
		FullHelp() [][]key.Binding
	}
}

func (g globalHelp) ShortHelp() []key.Binding {
	k := g.k
	return append([]key.Binding{k.NextPane, k.Run, k.Tune, k.Cancel, k.Presets, k.Save, k.Pin, k.Help, k.Quit}, g.pane.ShortHelp()...)
}

func (g globalHelp) FullHelp() [][]key.Binding {
	k := g.k
	cols := [][]key.Binding{
		{k.NextPane, k.PrevPane, k.Jump, k.Help},
		{k.Run, k.Cancel, k.Pin, k.Save, k.Slurm, k.Tune},
		{k.Presets, k.Zoom, k.Suspend, k.Quit, k.ForceQuit},
	}
	return append(cols, g.pane.FullHelp()...)
}

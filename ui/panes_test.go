package ui

import (
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
)

// TestPaneDeclsUnique checks the pane declarations the root derives its lists from:
// every pane has a name, an abbreviation and a component; names, abbreviations and jump
// keys are unique; a jump key is one rune that no other workbench key takes; every grid
// slot but the shared configuration box holds exactly one pane, and the configuration box
// at least one; the jump binding lists exactly the declared keys, in focus order.
func TestPaneDeclsUnique(t *testing.T) {
	k := defaultKeys()
	global := []key.Binding{k.NextPane, k.PrevPane, k.Run, k.Cancel, k.Presets, k.Save, k.Pin, k.Help, k.Quit,
		k.ForceQuit, k.Zoom, k.Suspend, k.Slurm, k.Tune}
	names, shorts, keys := map[string]paneID{}, map[string]paneID{}, map[string]paneID{}
	slots := map[slot]int{}
	for i, d := range paneDecls {
		p := paneID(i)
		if d.name == "" || d.short == "" || d.make == nil {
			t.Errorf("pane %d: name %q, short %q, make set %v", i, d.name, d.short, d.make != nil)
		}
		for _, u := range []struct {
			seen map[string]paneID
			v    string
		}{{names, d.name}, {shorts, d.short}, {keys, d.key}} {
			if q, dup := u.seen[u.v]; dup {
				t.Errorf("%s and %s share %q", q, p, u.v)
			}
			u.seen[u.v] = p
		}
		if utf8.RuneCountInString(d.key) != 1 {
			t.Errorf("%s: jump key %q is not one rune (Jump reads the key as typed)", p, d.key)
		}
		for _, g := range global {
			for _, gk := range g.Keys() {
				if gk == d.key {
					t.Errorf("%s: jump key %q is the workbench's %q", p, d.key, g.Help().Desc)
				}
			}
		}
		if got, ok := paneWithKey(d.key); !ok || got != p {
			t.Errorf("key %q focuses %v, want %s", d.key, got, p)
		}
		slots[d.slot]++
	}
	for _, s := range gridSlots {
		switch n := slots[s]; {
		case s == slotConfig && n < 1, s != slotConfig && n != 1:
			t.Errorf("grid slot %d holds %d panes", s, n)
		}
	}
	if got, want := k.Jump.Keys(), jumpKeys(); len(got) != int(numPanes) || len(got) != len(want) {
		t.Errorf("jump binding %v, declared %v", got, want)
	}
}

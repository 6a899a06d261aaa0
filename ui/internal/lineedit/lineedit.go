// Package lineedit edits a one-line text box whose cursor stays at the end (a filter, a
// run's label) with the readline keys of the bubbles textinput's key map: backspace,
// ctrl+h, ctrl+u (delete to the start), ctrl+w and alt+backspace (delete the word
// before), and typed or pasted text.
package lineedit

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keys are the bindings of bubbles v1.0.0 textinput.DefaultKeyMap that apply to a box
// edited at its end (importing textinput would pull in a clipboard module for nothing).
var keys = struct{ DeleteBeforeCursor, DeleteWordBackward, DeleteCharacterBackward key.Binding }{
	DeleteBeforeCursor:      key.NewBinding(key.WithKeys("ctrl+u")),
	DeleteWordBackward:      key.NewBinding(key.WithKeys("alt+backspace", "ctrl+w")),
	DeleteCharacterBackward: key.NewBinding(key.WithKeys("backspace", "ctrl+h")),
}

// Apply returns s edited by the key k, and whether k was an editing key (false leaves s
// as it is: enter, esc and the arrows are the caller's).
func Apply(s string, k tea.KeyMsg) (string, bool) {
	r := []rune(s)
	switch {
	case key.Matches(k, keys.DeleteBeforeCursor):
		return "", true
	case key.Matches(k, keys.DeleteWordBackward):
		i := len(r)
		for i > 0 && unicode.IsSpace(r[i-1]) {
			i--
		}
		for i > 0 && !unicode.IsSpace(r[i-1]) {
			i--
		}
		return string(r[:i]), true
	case key.Matches(k, keys.DeleteCharacterBackward):
		if len(r) > 0 {
			return string(r[:len(r)-1]), true
		}
		return s, true
	case k.Type == tea.KeyRunes || k.Type == tea.KeySpace:
		return s + strings.Map(func(c rune) rune {
			if unicode.IsControl(c) {
				return -1
			}
			return c
		}, string(k.Runes)), true
	}
	return s, false
}

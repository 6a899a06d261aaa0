package lineedit

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestApply checks the readline keys of a filter box: ctrl+u clears, ctrl+w
// and alt+backspace delete the word before the cursor (and the spaces after it),
// backspace one character, text is appended, and enter is not an editing key.
func TestApply(t *testing.T) {
	for _, c := range []struct {
		in   string
		k    tea.KeyMsg
		want string
		ok   bool
	}{
		{"lambda=0.1 acc>0.9", tea.KeyMsg{Type: tea.KeyCtrlU}, "", true},
		{"lambda=0.1 acc>0.9", tea.KeyMsg{Type: tea.KeyCtrlW}, "lambda=0.1 ", true},
		{"lambda=0.1 ", tea.KeyMsg{Type: tea.KeyCtrlW}, "", true},
		{"ab cd", tea.KeyMsg{Type: tea.KeyBackspace, Alt: true}, "ab ", true},
		{"abc", tea.KeyMsg{Type: tea.KeyBackspace}, "ab", true},
		{"", tea.KeyMsg{Type: tea.KeyBackspace}, "", true},
		{"ab", tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("cé")}, "abcé", true},
		{"ab", tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}, "ab ", true},
		{"ab", tea.KeyMsg{Type: tea.KeyEnter}, "ab", false},
	} {
		got, ok := Apply(c.in, c.k)
		if got != c.want || ok != c.ok {
			t.Errorf("Apply(%q, %s) = %q, %v; want %q, %v", c.in, c.k, got, ok, c.want, c.ok)
		}
	}
}

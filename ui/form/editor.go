package form

import (
	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/theme"
)

// editor is a one-line text editor: runes, a cursor, and the usual editing keys
// (←/→, home/end, backspace, delete, ctrl+u, ctrl+k). It exists so the form needs no
// clipboard dependency (bubbles/textinput pulls one in).
type editor struct {
	buf []rune
	pos int
}

func (e *editor) SetValue(s string) { e.buf, e.pos = []rune(s), len([]rune(s)) }
func (e *editor) Value() string     { return string(e.buf) }

// Update applies one key; it reports whether the key was an editing key.
func (e *editor) Update(k tea.KeyMsg) bool {
	switch k.Type {
	case tea.KeyRunes, tea.KeySpace:
		r := k.Runes
		if k.Type == tea.KeySpace {
			r = []rune{' '}
		}
		e.buf = append(e.buf[:e.pos], append(append([]rune(nil), r...), e.buf[e.pos:]...)...)
		e.pos += len(r)
	case tea.KeyBackspace:
		if e.pos > 0 {
			e.buf = append(e.buf[:e.pos-1], e.buf[e.pos:]...)
			e.pos--
		}
	case tea.KeyDelete:
		if e.pos < len(e.buf) {
			e.buf = append(e.buf[:e.pos], e.buf[e.pos+1:]...)
		}
	case tea.KeyLeft:
		e.pos = max(0, e.pos-1)
	case tea.KeyRight:
		e.pos = min(len(e.buf), e.pos+1)
	case tea.KeyHome, tea.KeyCtrlA:
		e.pos = 0
	case tea.KeyEnd, tea.KeyCtrlE:
		e.pos = len(e.buf)
	case tea.KeyCtrlU:
		e.buf, e.pos = e.buf[e.pos:], 0
	case tea.KeyCtrlK:
		e.buf = e.buf[:e.pos]
	default:
		return false
	}
	return true
}

// View draws the text with the cursor as a reversed cell (a '▏' bar without colour).
func (e *editor) View(st theme.Styles) string {
	before := string(e.buf[:e.pos])
	cur, after := " ", ""
	if e.pos < len(e.buf) {
		cur, after = string(e.buf[e.pos]), string(e.buf[e.pos+1:])
	}
	if !st.Color {
		return st.Editing.Render(before) + "▏" + st.Editing.Render(cur+after)
	}
	return st.Editing.Render(before) + st.Cursor.Render(cur) + st.Editing.Render(after)
}

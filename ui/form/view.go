package form

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"gitui/ui/theme"
)

// minFieldRows is how many rows of fields the form keeps when its problems are long.
const minFieldRows = 3

// maxHelpRows is how many lines the selected field's help may take under the fields.
const maxHelpRows = 3

// View renders the fields (label, value, inline errors), the selected field's help and
// the form's spec-level issues, within the size set by SetSize; it scrolls to keep the
// selected field visible.
func (m *Model) View() string {
	fs := m.fields(m.spec)
	lw := 0
	for _, f := range fs {
		lw = max(lw, ansi.StringWidth(f.Label))
	}
	lw = min(lw, max(8, m.w/3))
	var tail []string
	if f, ok := m.Selected(); ok && f.Help != "" && m.focused {
		// wrapped, not cut at the pane's edge; at most maxHelpRows lines, the last
		// ending in "…" when the help is longer
		help := theme.Wrap(f.Help, m.w)
		if ls := strings.Split(help, "\n"); len(ls) > maxHelpRows {
			ls = ls[:maxHelpRows]
			ls[maxHelpRows-1] = ansi.Truncate(ls[maxHelpRows-1], m.w-1, "") + "…"
			help = strings.Join(ls, "\n")
		}
		for _, l := range strings.Split(help, "\n") {
			tail = append(tail, m.st.Muted.Render(l))
		}
	}
	for _, is := range m.issues {
		tail = append(tail, theme.WrapLines(m.st.Error.Render, "! "+is.Msg, m.w, 2)...) // wrapped, never cut
	}
	if keep := m.h - minFieldRows; len(tail) > keep {
		// Keep some fields in view; the Run pane lists every problem when r is pressed.
		tail = append(tail[:max(0, keep-1):max(0, keep-1)], m.st.Error.Render(fmt.Sprintf("… +%d lines (r lists all)", len(tail)-keep+1)))
	}
	room := m.h - len(tail)
	if room < 1 {
		room = m.h
		tail = nil
	}
	var rows []string
	var owner []int // the field each row belongs to (its label line and error lines)
	sel, selEnd := 0, 0
	t := tree(m.spec)
	for i, f := range fs {
		if i == m.cur {
			sel = len(rows)
		}
		rows = append(rows, m.row(f, getIn(t, f.Key), i == m.cur, lw))
		owner = append(owner, i)
		if i == m.cur && m.choosing {
			for _, l := range m.choiceRows(room - 1) {
				rows = append(rows, l)
				owner = append(owner, i)
			}
			selEnd = len(rows) - 1
		}
		if e := m.FieldError(f.Key); e != "" {
			for _, l := range theme.WrapLines(m.st.Error.Render, "✗ "+e, m.w-3, 2) {
				rows = append(rows, "   "+l)
				owner = append(owner, i)
			}
		}
	}
	if sel < m.top {
		m.top = sel
	}
	if sel+1 >= m.top+room {
		m.top = sel + 2 - room
	}
	if m.choosing && selEnd >= m.top+room { // the open list in view, its field first
		m.top = min(sel, selEnd+1-room)
	}
	m.top = max(0, min(m.top, max(0, len(rows)-room)))
	end := min(len(rows), m.top+room)
	m.shown = append(m.shown[:0], owner[m.top:end]...)
	out := append(rows[m.top:end:end], tail...)
	return theme.Clip(strings.Join(out, "\n"), m.w, m.h)
}

func (m *Model) row(f Field, v string, selected bool, lw int) string {
	label := ansi.Truncate(f.Label, lw, "…")
	label += strings.Repeat(" ", lw-ansi.StringWidth(label))
	if v == "" && f.Zero == "" {
		switch f.Kind {
		case Int, Float, LogFloat:
			v = "0"
		}
	}
	var val string
	switch {
	case selected && m.editing:
		val = m.in.View(m.st)
	case selected && m.choosing:
		val = m.choiceValue()
	case (v == "" || v == "0") && f.Zero != "":
		val = m.st.Value.Render(v) + m.st.Muted.Render(" ("+f.Zero+")")
		if v == "" {
			val = m.st.Muted.Render(f.Zero)
		}
	case f.Kind == Enum || f.Kind == Bool:
		val = m.st.Value.Render("‹ " + v + " ›")
	default:
		val = m.st.Value.Render(v)
	}
	if m.note != nil {
		if n := m.note(f.Key); n != "" {
			val += " " + m.st.Accent.Render(n)
		}
	}
	cursor := "  "
	if selected {
		cursor = "▸ "
		if m.focused {
			return m.st.Accent.Render(cursor) + m.st.Selected.Render(label) + " " + val
		}
	}
	return cursor + m.st.Label.Render(label) + " " + val
}

// FieldAt returns the index of the field drawn on line y of the last View (0 is its
// first line; a field's error lines count as the field) and true, or false for a line
// that shows no field (the help, the issues, or past the fields).
func (m *Model) FieldAt(y int) (int, bool) {
	if y < 0 || y >= len(m.shown) {
		return 0, false
	}
	return m.shown[y], true
}

// Click selects the field drawn on line y of the last View (FieldAt), as a mouse click
// on it does; an edit in progress on another field is discarded, as when the focus
// leaves the form. It reports whether a field is there.
func (m *Model) Click(y int) bool {
	i, ok := m.FieldAt(y)
	if !ok {
		return false
	}
	if m.editing && i != m.cur {
		m.editing, m.inErr = false, ""
	}
	if m.choosing && i != m.cur {
		m.choosing = false
	}
	m.cur = i
	return true
}

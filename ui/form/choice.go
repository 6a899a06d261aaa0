package form

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"gitui/ui/internal/lineedit"
)

// The choice list: enter on an Enum field opens its options under the field, typing
// narrows them (type-ahead), ↑/↓ move, enter chooses, esc closes it with the value
// unchanged. ←/→ still step through the options when the list is closed.

// maxChoiceRows is how many options the open list shows at once (it scrolls).
const maxChoiceRows = 8

// choice is the state of the open list of an Enum field.
type choice struct {
	opts   []string
	filter string
	cur    int // index into matches()
	top    int // first match shown
}

// choiceKeys are the keys of the open list (letters, digits and - are typed into the
// filter, so the list moves by the arrows only).
var choiceKeys = struct{ Up, Down, Choose, Cancel key.Binding }{
	Up:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/↓", "move")),
	Down:   key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "move")),
	Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "keep the value")),
}

// Matches returns the options that hold every word of filter (ignoring case): those
// that start with the filter first, then the others, each in their order.
func Matches(opts []string, filter string) []string {
	terms := strings.Fields(strings.ToLower(filter))
	var first, rest []string
	for _, o := range opts {
		l := strings.ToLower(o)
		ok := true
		for _, t := range terms {
			ok = ok && strings.Contains(l, t)
		}
		switch {
		case !ok:
		case len(terms) > 0 && strings.HasPrefix(l, terms[0]):
			first = append(first, o)
		default:
			rest = append(rest, o)
		}
	}
	return append(first, rest...)
}

func (c *choice) matches() []string { return Matches(c.opts, c.filter) }

// Choosing reports whether the choice list of an Enum field is open.
func (m *Model) Choosing() bool { return m.choosing }

// ChoiceShown returns the options the open list shows (narrowed by what was typed) and
// the index of the one under the cursor; nil when the list is closed.
func (m *Model) ChoiceShown() ([]string, int) {
	if !m.choosing {
		return nil, 0
	}
	return m.ch.matches(), m.ch.cur
}

// openChoice opens the list of f's options with the cursor on the value cur.
func (m *Model) openChoice(f Field, cur string) {
	m.choosing = true
	m.ch = choice{opts: f.Options, cur: max(0, slices.Index(f.Options, cur))}
}

// choiceKey handles k while the list of f is open: it returns the command of a chosen
// value (ChangedMsg), nil otherwise.
func (m *Model) choiceKey(f Field, k tea.KeyMsg) tea.Cmd {
	shown := m.ch.matches()
	switch {
	case key.Matches(k, choiceKeys.Cancel):
		m.choosing = false
	case key.Matches(k, choiceKeys.Choose):
		if len(shown) == 0 {
			return nil
		}
		m.choosing = false
		v := shown[m.ch.cur]
		if v == Get(m.spec, f.Key) {
			return nil
		}
		if err := m.commit(f, v); err != nil {
			m.errs[f.Key] = err.Error()
			return nil
		}
		return changed(f.Key)
	case key.Matches(k, choiceKeys.Up):
		m.ch.cur = max(0, m.ch.cur-1)
	case key.Matches(k, choiceKeys.Down):
		m.ch.cur = max(0, min(len(shown)-1, m.ch.cur+1))
	default:
		if s, ok := lineedit.Apply(m.ch.filter, k); ok && s != m.ch.filter {
			m.ch.filter, m.ch.cur, m.ch.top = s, 0, 0
		}
	}
	return nil
}

// choiceRows returns the lines of the open list drawn under its field, at most n
// options (scrolled to the cursor; an empty option reads "(none)"), or a line saying
// that nothing matches.
func (m *Model) choiceRows(n int) []string {
	shown := m.ch.matches()
	if len(shown) == 0 {
		return []string{"    " + m.st.Muted.Render("no option holds “"+m.ch.filter+"” (backspace)")}
	}
	n = max(1, min(n, maxChoiceRows, len(shown)))
	if m.ch.cur < m.ch.top {
		m.ch.top = m.ch.cur
	}
	if m.ch.cur >= m.ch.top+n {
		m.ch.top = m.ch.cur - n + 1
	}
	m.ch.top = max(0, min(m.ch.top, len(shown)-n))
	var out []string
	for i := m.ch.top; i < m.ch.top+n; i++ {
		name := shown[i]
		if name == "" {
			name = "(none)" // an empty option: the field unset
		}
		if i == m.ch.cur {
			out = append(out, "    "+m.st.Accent.Render("▸ ")+m.st.Selected.Render(name))
		} else {
			out = append(out, "      "+name)
		}
	}
	return out
}

// choiceValue is what the open list's field shows as its value: the filter typed,
// and how many options it keeps.
func (m *Model) choiceValue() string {
	shown := len(m.ch.matches())
	more := ""
	if shown > maxChoiceRows {
		more = ", ↑/↓ scroll"
	}
	return m.st.Value.Render(m.ch.filter+"▏") + m.st.Muted.Render(fmt.Sprintf(" %d of %d (type to narrow%s)", shown, len(m.ch.opts), more))
}

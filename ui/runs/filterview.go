package runs

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// syntaxLines is the filter's grammar (FilterSyntax), drawn at the foot of the pane
// while the filter is typed: in full when the pane has room for it and 4 rows, else
// in one line.
func (m *Model) syntaxLines() []string {
	if !m.filtering {
		return nil
	}
	if m.h < len(FilterSyntax)+8 {
		return []string{m.st.Muted.Render(ansi.Truncate("words, or field op value (= != < <= > >= ~, acc@X), && || ! ( )", m.w, "…"))}
	}
	out := []string{m.st.Muted.Render(strings.Repeat("─", min(m.w, 60)))}
	for _, l := range FilterSyntax {
		out = append(out, m.st.Muted.Render(ansi.Truncate(l, m.w, "…")))
	}
	return out
}

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"gitui/model"
	"gitui/model/store"
	"gitui/ui/internal/uitest"
	"gitui/ui/runs"
	"gitui/ui/theme"
)

// helpStore writes a run store of three finished runs of the tiny spec with λ = 0.01,
// 0.1, 1 (accuracy 0.7, 0.8, 0.9 at 100), so that the Runs pane's keys are enabled.
func helpStore(t testing.TB) string {
	t.Helper()
	storeDir := t.TempDir()
	for i, lambda := range []float64{0.01, 0.1, 1} {
		s := tinySpec(true)
		s.Methods[0].Lambda = lambda
		raw, _ := json.Marshal(s)
		d := filepath.Join(storeDir, fmt.Sprintf("20261126-0%d0000-xperm-tiny", i+1))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, store.SpecFile), raw, 0o644); err != nil {
			t.Fatal(err)
		}
		r := &model.Result{Schema: model.ResultSchema, Spec: raw, Series: []model.Series{{Name: "raw RLS", YLabel: "accuracy",
			Points: []model.Point{{X: 100, Mean: 0.7 + 0.1*float64(i), Std: 0.01, Runs: 2}}}}}
		if err := r.WriteFile(filepath.Join(d, store.ResultFile)); err != nil {
			t.Fatal(err)
		}
	}
	return storeDir
}

// helpState is a state of the workbench whose full help is checked: keys pressed
// from a fresh workbench whose run store holds helpStore's three runs.
type helpState struct {
	name string
	keys []string
}

var helpStates = []helpState{
	{"Data", []string{"1"}},
	{"Group", []string{"2"}},
	{"Method", []string{"3"}},
	{"Run", []string{"4"}},
	{"Curves", []string{"5"}},
	{"Heatmap", []string{"6"}},
	{"Runs", []string{"7", " ", "down", " "}},
	{"Runs-filtered", []string{"7", "/", "lambda>0.05", "enter"}},
	{"Runs-groups", []string{"7", "g"}},
	{"Runs-importance", []string{"7", "i"}},
	{"Runs-parcoords", []string{"7", "p", "up"}},
	{"Runs-compare", []string{"7", " ", "down", " ", "c"}},
}

// helpText opens the full help and returns the plain text of each of its pages, read
// by turning them with → (and checking each fits w×h and says its number); the help
// is left open on its last page.
func helpText(t *testing.T, a *App, w, h int) []string {
	t.Helper()
	press(t, a, "?")
	if !a.helpOpen {
		t.Fatal("? did not open the help")
	}
	n := len(a.helpPages())
	var pages []string
	for i := 0; i < n; i++ {
		v := a.View()
		uitest.CheckFits(t, v, w, h)
		s := ansi.Strip(v)
		if n > 1 && !strings.Contains(s, fmt.Sprintf("help %d/%d", i+1, n)) {
			t.Errorf("page %d of %d does not say so:\n%s", i+1, n, s)
		}
		pages = append(pages, s)
		if i < n-1 {
			press(t, a, "right")
		}
	}
	return pages
}

// TestFullHelpEveryKey: for every pane focused in turn, and the Runs pane in each of
// its views, at 80×24 and 120×40: every page of the full help fits the window, and
// every binding of the workbench's and the pane's FullHelp appears on some page as its
// key, spaces, then its description, whole (not cut with …), followed by "(not now)"
// exactly when it is disabled; with the
// Runs pane focused, every line of runs.FilterSyntax appears too. The views' keys
// (g G i m p, and the parallel-coordinates keys) are among those checked.
func TestFullHelpEveryKey(t *testing.T) {
	storeDir := helpStore(t)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, st := range helpStates {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], st.name), func(t *testing.T) {
				a := newTestApp(t, sz[0], sz[1])
				a.opts.Store = storeDir
				press(t, a, st.keys...)
				if st.name != "Data" && a.focus == paneData {
					t.Fatal("the state's keys did not move the focus")
				}
				cols := globalHelp{k: a.keys, pane: a.focusedHelp()}.FullHelp()
				pages := helpText(t, a, sz[0], sz[1])
				all := strings.Join(pages, "\n")
				n := 0
				for _, col := range cols {
					for _, b := range col {
						if b.Help().Key == "" {
							continue
						}
						end := `( (?:[^(]|$)|│|$)` // not followed by "(not now)"
						if b.Enabled() {
							n++
						} else {
							end = regexp.QuoteMeta(notNow)
						}
						re := regexp.MustCompile(`(^|[│ ])` + regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + end)
						if !re.MatchString(strings.ReplaceAll(all, "\n", "│\n")) {
							t.Errorf("no page shows %q %q (enabled %v):\n%s", b.Help().Key, b.Help().Desc, b.Enabled(), all)
						}
					}
				}
				if n < 8 {
					t.Errorf("only %d enabled bindings: the state is not what the test means", n)
				}
				if a.focus == paneRuns {
					for _, l := range runs.FilterSyntax {
						if !strings.Contains(all, strings.TrimSpace(l)) {
							t.Errorf("no page shows the grammar line %q:\n%s", l, all)
						}
					}
				}
				if strings.Contains(all, "…") {
					t.Errorf("the help cuts a line:\n%s", all)
				}
			})
		}
	}
}

// TestFullHelpRunsViewsKeys: the Runs pane's full help names the keys of its views: in
// the table p, g, G (once grouped), i and m; in the parallel-coordinates view its own
// keys one by one (brush, widen, clear all, fields, mark, back).
func TestFullHelpRunsViewsKeys(t *testing.T) {
	storeDir := helpStore(t)
	a := newTestApp(t, 80, 24)
	a.opts.Store = storeDir
	press(t, a, "7", "g", "enter") // grouped, then the runs of the first group: G works
	all := strings.Join(helpText(t, a, 80, 24), "\n")
	for _, want := range []string{"p     parallel axes", "g     group by field", "G     ungroup", "i     importance", "m     next series (g, i views)", "esc   back to the groups", "Filter grammar (/)"} {
		if !strings.Contains(all, want) {
			t.Errorf("the table's help lacks %q:\n%s", want, all)
		}
	}
	press(t, a, "esc", "esc", "G", "p", "up") // close the help, back to the groups, ungroup
	if a.runs.Parcoords() == nil {
		t.Fatal("p did not open the parallel coordinates")
	}
	all = strings.Join(helpText(t, a, 80, 24), "\n")
	for _, want := range []string{"←/h", "previous axis", "K/shift+↑", "widen the brush", "X         clear all brushes", "enter", "mark the brushed runs", "esc/p", "back to the table"} {
		if !strings.Contains(all, want) {
			t.Errorf("the parallel view's help lacks %q:\n%s", want, all)
		}
	}
}

// TestHelpPaging: at 80×24 the Runs pane's help has two pages (keys, then the filter
// grammar, too wide to sit beside them); → and pgdn go forward and stop at the last
// page, ← and pgup go back and stop at the first; tab shows the next pane's keys from
// page 1; esc, ? and q close the help (q without quitting), and the panes come back.
func TestHelpPaging(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.opts.Store = helpStore(t)
	press(t, a, "7", "?")
	if n := len(a.helpPages()); n != 2 {
		t.Fatalf("%d pages at 80x24, want 2", n)
	}
	page := func() string { return ansi.Strip(a.View()) }
	key := func(k tea.KeyType) {
		_, cmd := a.Update(tea.KeyMsg{Type: k})
		exec(t, a, cmd)
	}
	if s := page(); !strings.Contains(s, "help 1/2") || !strings.Contains(s, "Help: Runs pane · page 1/2") || strings.Contains(s, runs.FilterSyntax[0]) {
		t.Fatalf("page 1:\n%s", s)
	}
	key(tea.KeyPgDown)
	if s := page(); !strings.Contains(s, "help 2/2") || !strings.Contains(s, runs.FilterSyntax[0]) {
		t.Fatalf("pgdn did not show page 2:\n%s", s)
	}
	press(t, a, "right")
	if a.helpPage != 1 {
		t.Fatalf("→ on the last page went to page %d", a.helpPage+1)
	}
	key(tea.KeyPgUp)
	press(t, a, "left")
	if a.helpPage != 0 {
		t.Fatalf("pgup, ← from page 2: page %d", a.helpPage+1)
	}
	press(t, a, "right", "tab")
	next := (paneRuns + 1) % numPanes // the pane after Runs in focus order
	if s := page(); a.focus != next || a.helpPage != 0 || !strings.Contains(s, "Help: "+next.String()+" pane") {
		t.Fatalf("tab in the help: focus %v page %d\n%s", a.focus, a.helpPage+1, s)
	}
	press(t, a, "esc")
	if s := page(); a.helpOpen || strings.Contains(s, "Help:") || !strings.Contains(s, "▸ "+next.String()) {
		t.Fatalf("esc did not close the help:\n%s", s)
	}
	press(t, a, "?", "?")
	if a.helpOpen {
		t.Fatal("? did not close the help")
	}
	press(t, a, "?")
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("q")})
	if a.helpOpen || cmd != nil {
		t.Fatalf("q in the help: open %v, command %v (want closed, no quit)", a.helpOpen, cmd != nil)
	}
}

// TestFullHelpColour: with colour on, every page of the help still fits 80×24 and
// 120×40 (widths are measured without the escape codes), and it has colour.
func TestFullHelpColour(t *testing.T) {
	storeDir := helpStore(t)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		a := New(context.Background(), Options{Presets: testPresets(), Store: storeDir}, uitest.ColorStyles())
		a.now = func() time.Time { return t0 }
		a.tick = func(int) tea.Cmd { return nil }
		a.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		exec(t, a, a.Init())
		press(t, a, "7", "p")
		pages := helpText(t, a, sz[0], sz[1])
		press(t, a, "esc")
		if !strings.Contains(a.View(), "\x1b[") {
			t.Fatal("no colour: the test does not test what it says")
		}
		if len(pages) == 0 {
			t.Fatal("no page")
		}
	}
}

// TestLayoutHelp: layoutHelp on a 30×6 page: every page has at most 6 lines of at most
// 30 columns; a section taller than the page is split, its title repeated with
// "(cont.)"; a text line and a description longer than 30 columns are wrapped, every
// word kept; every key appears, the disabled one marked (not now); nothing is cut with ….
func TestLayoutHelp(t *testing.T) {
	st := uitest.Styles()
	var col []key.Binding
	for i := 0; i < 9; i++ {
		col = append(col, key.NewBinding(key.WithKeys(fmt.Sprint(i)), key.WithHelp(fmt.Sprintf("k%d", i), fmt.Sprintf("action %d", i))))
	}
	long := "the description of this key is much longer than the page is wide"
	col = append(col, key.NewBinding(key.WithKeys("z"), key.WithHelp("zz", long)))
	off := key.NewBinding(key.WithKeys("y"), key.WithHelp("yy", "disabled"))
	off.SetEnabled(false)
	text := "a grammar line that is longer than thirty columns and must wrap"
	secs := []helpSection{{title: "Keys", keys: [][]key.Binding{col, {off}}}, {title: "Text", text: []string{text}}}
	pages := layoutHelp(secs, 30, 6, st)
	all := strings.Join(pages, "\n")
	for i, p := range pages {
		uitest.CheckFits(t, p, 30, 6)
		if p == "" {
			t.Errorf("page %d is empty", i+1)
		}
	}
	if !strings.Contains(all, "Keys (cont.)") {
		t.Errorf("the 11-line section is not split with (cont.):\n%s", all)
	}
	words := strings.Fields(all)
	joined := " " + strings.Join(words, " ") + " "
	for _, w := range strings.Fields(long + " " + text) {
		if !strings.Contains(joined, " "+w+" ") {
			t.Errorf("word %q lost:\n%s", w, all)
		}
	}
	for i := 0; i < 9; i++ {
		if !strings.Contains(all, fmt.Sprintf("k%d action %d", i, i)) {
			t.Errorf("k%d missing:\n%s", i, all)
		}
	}
	if !strings.Contains(all, "yy disabled (not now)") || strings.Contains(all, "…") {
		t.Errorf("the disabled key is not marked (not now), or a line is cut:\n%s", all)
	}
	if got := layoutHelp(nil, 30, 6, theme.Styles{}); len(got) != 1 {
		t.Errorf("no sections: %d pages, want 1", len(got))
	}
}

// TestGoldenHelp: page 1 of the full help with the Runs pane focused (three runs, two
// marked) at 80×24 and 120×40.
func TestGoldenHelp(t *testing.T) {
	storeDir := helpStore(t)
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d-Runs", sz[0], sz[1]), func(t *testing.T) {
			a := newTestApp(t, sz[0], sz[1])
			a.opts.Store = storeDir
			press(t, a, "7", " ", "down", " ", "?")
			v := a.View()
			uitest.CheckFits(t, v, sz[0], sz[1])
			golden.RequireEqual(t, []byte(ansi.Strip(v)))
		})
	}
}

// BenchmarkHelpPage is a key and a redraw in the open full help: → or ← (the pages of
// the Runs pane's help at 80×24, laid out again for each frame), then View.
func BenchmarkHelpPage(b *testing.B) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			a := newTestApp(b, sz[0], sz[1])
			a.opts.Store = helpStore(b)
			press(b, a, "7", "?")
			keys := []tea.KeyMsg{{Type: tea.KeyRight}, {Type: tea.KeyLeft}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				a.Update(keys[i%2])
				_ = a.View()
			}
		})
	}
}

// TestHelpWheel: while the help is open the wheel turns its pages and a click on the
// body reaches no pane (the Runs pane's cursor stays put).
func TestHelpWheel(t *testing.T) {
	a := newTestApp(t, 80, 24)
	a.opts.Store = helpStore(t)
	press(t, a, "7", "?")
	cur := a.runs.Cursor()
	mouse := func(b tea.MouseButton) {
		_, cmd := a.Update(tea.MouseMsg{X: 10, Y: 8, Button: b, Action: tea.MouseActionPress})
		exec(t, a, cmd)
	}
	mouse(tea.MouseButtonWheelDown)
	if a.helpPage != 1 || !a.helpOpen {
		t.Fatalf("wheel down in the help: page %d, open %v (want page 2, open)", a.helpPage+1, a.helpOpen)
	}
	mouse(tea.MouseButtonLeft)
	mouse(tea.MouseButtonWheelUp)
	if a.helpPage != 0 || !a.helpOpen || a.focus != paneRuns || a.runs.Cursor() != cur {
		t.Fatalf("wheel up and a click: page %d open %v focus %v cursor %d (want page 1, open, Runs, %d)",
			a.helpPage+1, a.helpOpen, a.focus, a.runs.Cursor(), cur)
	}
}

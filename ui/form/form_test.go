package form

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/model"
	"gitui/ui/internal/uitest"
)

func spec() *model.Spec {
	s := &model.Spec{Name: "t", Protocol: model.ProtocolCurve, Data: model.DataSpec{Name: "xperm"},
		Methods: []model.Method{{Features: "cdf", Bins: 5, Templates: 5}}, Sizes: []int{10, 20}, Repeats: 2, Seed: 1}
	s.Defaults()
	return s
}

var bins = Field{Key: "methods.0.bins", Label: "bins n", Kind: Int, Min: 1, Max: 1000}

func TestParse(t *testing.T) {
	for _, c := range []struct {
		f       Field
		in, out string
		err     string
	}{
		{bins, "25", "25", ""},
		{bins, "x", "", "not a whole number"},
		{bins, "2.5", "", "not a whole number"},
		{bins, "5000", "", "out of range: use 1..1000"},
		{bins, "0", "", "out of range"},
		{Field{Label: "lambda", Kind: LogFloat, Min: 1e-12, Max: 1e6}, "1e-7", "1e-07", ""},
		{Field{Label: "lambda", Kind: LogFloat, Min: 1e-12, Max: 1e6}, "0", "0", ""}, // 0 = automatic
		{Field{Label: "lambda", Kind: LogFloat, Min: 1e-12, Max: 1e6}, "-1", "", "negative"},
		{Field{Label: "lambda", Kind: LogFloat}, "NaN", "", "not a number"},
		{Field{Label: "sizes", Kind: IntList, Min: 2, Max: 100}, "10, 20,50", "[10,20,50]", ""},
		{Field{Label: "sizes", Kind: IntList, Min: 2, Max: 100}, "10,1", "", "out of range"},
		{Field{Label: "sizes", Kind: IntList}, "", "", "is empty"},
		{Field{Label: "kind", Kind: Enum, Options: []string{"a", "b"}}, "c", "", "unknown: use one of a, b"},
		{Field{Label: "path", Kind: Text}, "a b.csv", `"a b.csv"`, ""},
	} {
		got, err := parse(c.f, c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n") {
				t.Errorf("parse(%s, %q): error %v, want one line containing %q", c.f.Label, c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.out {
			t.Errorf("parse(%s, %q) = %q, %v; want %q", c.f.Label, c.in, got, err, c.out)
		}
	}
}

func TestStep(t *testing.T) {
	lam := Field{Kind: LogFloat, Min: 1e-12, Max: 1e6}
	// Log steps: 0 -> Min, then decades; down from Min returns to 0 (automatic).
	seq := []string{"0"}
	for i := 0; i < 3; i++ {
		n, _ := Step(lam, seq[len(seq)-1], true)
		seq = append(seq, n)
	}
	if strings.Join(seq, " ") != "0 1e-12 1e-11 1e-10" {
		t.Fatalf("log steps up: %v", seq)
	}
	if n, _ := Step(lam, "1e-12", false); n != "0" {
		t.Fatalf("step below Min = %s, want 0", n)
	}
	if n, _ := Step(lam, "1e6", true); n != "1e+06" {
		t.Fatalf("step above Max = %s, want clamped 1e+06", n)
	}
	if n, _ := Step(Field{Kind: Int, Min: 1, Max: 10}, "10", true); n != "10" {
		t.Fatalf("int clamp = %s", n)
	}
	if n, _ := Step(Field{Kind: Float, Step: 0.1}, "0.2", true); math.Abs(parseF(n)-0.3) > 1e-12 {
		t.Fatalf("float step = %s", n)
	}
	if n, _ := Step(Field{Kind: Enum, Options: []string{"a", "b", "c"}}, "a", false); n != "c" {
		t.Fatalf("enum wraps = %s", n)
	}
	if _, ok := Step(Field{Kind: Text}, "x", true); ok {
		t.Fatal("text has no steps")
	}
}

func parseF(s string) float64 {
	var f float64
	json.Unmarshal([]byte(s), &f)
	return f
}

func TestSetArgsRoundTrip(t *testing.T) {
	base := spec()
	cur := base.Clone()
	cur.Methods[0].Bins = 25
	cur.Methods[0].Lambda = 1e-7
	cur.Sizes = []int{10, 20, 50}
	cur.Data.Path = "my file.csv"
	cur.Group.Angles = &model.AngleSpec{From: -20, To: 20, Count: 9}
	cur.Methods = append(cur.Methods, model.Method{Features: "raw", Learner: "1nn", Name: "raw 1-NN"})
	args := SetArgs(base, cur)
	got := base.Clone()
	if err := Apply(got, args); err != nil {
		t.Fatalf("apply %v: %v", args, err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(cur)
	if string(a) != string(b) {
		t.Fatalf("round trip of %v:\n got %s\nwant %s", args, a, b)
	}
	if len(SetArgs(base, base.Clone())) != 0 {
		t.Fatal("no difference must give no arguments")
	}
	line := CommandLine("p", true, base, cur)
	if !strings.HasPrefix(line, "gitui run p --quick --set ") || !strings.Contains(line, "'data.path=my file.csv'") {
		t.Fatalf("command line %q", line)
	}
}

func TestEditorAndRename(t *testing.T) {
	s := spec()
	fields := func(*model.Spec) []Field { return []Field{bins} }
	m := New(uitest.Styles(), s, fields, nil)
	m.SetSize(60, 10)
	m.Focus(true)
	send := func(msgs ...tea.KeyMsg) {
		for _, k := range msgs {
			var cmd tea.Cmd
			m, cmd = m.Update(k)
			if cmd != nil {
				if c, ok := cmd().(ChangedMsg); !ok || c.Key != bins.Key {
					t.Fatalf("unexpected message %v", c)
				}
			}
		}
	}
	r := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	send(tea.KeyMsg{Type: tea.KeyEnter}, tea.KeyMsg{Type: tea.KeyBackspace}, r("2"), r("5"), tea.KeyMsg{Type: tea.KeyEnter})
	if s.Methods[0].Bins != 25 || s.Methods[0].DisplayName() != "CDF(25,5) RLS" {
		t.Fatalf("bins %d name %q: the automatic name must follow", s.Methods[0].Bins, s.Methods[0].DisplayName())
	}
	send(tea.KeyMsg{Type: tea.KeyEnter}, r("q"))
	if m.FieldError(bins.Key) == "" || !m.Editing() {
		t.Fatal("typing a letter must show an inline error while editing")
	}
	if !strings.Contains(m.View(), "not a whole number") {
		t.Fatalf("view lacks the inline error:\n%s", m.View())
	}
	send(tea.KeyMsg{Type: tea.KeyEsc})
	if m.Editing() || s.Methods[0].Bins != 25 {
		t.Fatal("esc must discard the edit")
	}
}

// TestLongIssuesWrap checks that spec problems longer than the form is wide are wrapped
// whole, and that when they would take the whole form they are cut to leave
// minFieldRows rows of fields, the last line saying how many lines are left out.
func TestLongIssuesWrap(t *testing.T) {
	fields := func(*model.Spec) []Field { return []Field{bins, bins, bins, bins} }
	long := "methods.0.bins applies to features cdf, not raw: remove it or set features: cdf (the other fields stay as they are)"
	m := New(uitest.Styles(), spec(), fields, nil)
	m.SetSize(30, 14)
	m.SetIssues(model.Problems{{Field: "methods.0.bins", Msg: long}})
	v := m.View()
	uitest.CheckFits(t, v, 30, 14)
	if got := strings.Join(strings.Fields(v), ""); !strings.Contains(got, "!"+strings.Join(strings.Fields(long), "")) {
		t.Fatalf("the problem is not whole in the form:\n%s", v)
	}
	m.SetSize(30, 8)
	m.SetIssues(model.Problems{{Field: "methods.0.bins", Msg: long}, {Field: "methods.0.bins", Msg: long}, {Field: "methods.0.bins", Msg: long}})
	v = m.View()
	uitest.CheckFits(t, v, 30, 8)
	lines := strings.Split(v, "\n")
	if n := strings.Count(v, "bins n"); n < minFieldRows {
		t.Errorf("%d field rows left, want >= %d:\n%s", n, minFieldRows, v)
	}
	if !strings.Contains(lines[len(lines)-1], "lines (r lists all)") {
		t.Errorf("the cut is not said:\n%s", v)
	}
}

// TestClickRows: FieldAt maps the lines of the last View to fields (a field's error
// lines to that field, the help under the fields to none); Click selects the field
// there, and a click on another field discards an edit in progress.
func TestClickRows(t *testing.T) {
	fields := func(*model.Spec) []Field {
		return []Field{bins, {Key: "methods.0.templates", Label: "templates", Kind: Int, Min: 1, Max: 100, Help: "help line"},
			{Key: "sizes", Label: "sizes", Kind: IntList, Min: 2, Max: 100}}
	}
	m := New(uitest.Styles(), spec(), fields, nil)
	m.SetSize(40, 20)
	m.Focus(true)
	m.errs["methods.0.bins"] = "a message long enough to take two lines of this form"
	lines := strings.Split(m.View(), "\n")
	if !strings.Contains(lines[0], "bins n") || !strings.Contains(lines[1], "✗") || !strings.Contains(lines[3], "templates") {
		t.Fatalf("unexpected layout:\n%s", strings.Join(lines, "\n"))
	}
	for y, want := range []int{0, 0, 0, 1, 2} {
		if got, ok := m.FieldAt(y); !ok || got != want {
			t.Errorf("FieldAt(%d) = %d, %v; want field %d", y, got, ok, want)
		}
	}
	if _, ok := m.FieldAt(5); ok {
		t.Error("FieldAt past the fields found one")
	}
	if !m.Click(3) {
		t.Fatal("click on templates found no field")
	}
	if f, _ := m.Selected(); f.Key != "methods.0.templates" {
		t.Fatalf("click on line 3 selected %s", f.Key)
	}
	if v := m.View(); !strings.Contains(v, "help line") {
		t.Errorf("the clicked field's help is not shown:\n%s", v)
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if !m.Editing() {
		t.Fatal("enter did not start an edit")
	}
	m.View()
	if !m.Click(4) || m.Editing() {
		t.Errorf("a click on another field kept the edit (editing %v)", m.Editing())
	}
	if f, _ := m.Selected(); f.Key != "sizes" {
		t.Errorf("selected %s after the click, want sizes", f.Key)
	}
	if m.Click(-1) || m.Click(99) {
		t.Error("a click outside the rows selected a field")
	}
}

// TestRunName: a run of an edited spec is named after its base and what differs; a name
// the user gave wins; an unedited spec keeps its name.
func TestRunName(t *testing.T) {
	base := spec()
	base.Name = "xperm-curve"
	if got := RunName(base, base.Clone()); got != "xperm-curve" {
		t.Errorf("unedited: %q", got)
	}
	cur := base.Clone()
	cur.Data.Name = "mnist"
	cur.Group.Kind = "cyclic-shift"
	if got, want := RunName(base, cur), "xperm-curve · mnist · cyclic-shift"; got != want {
		t.Errorf("edited: %q, want %q", got, want)
	}
	cur.Methods[0].Lambda = 1e-6
	cur.Repeats = 5
	cur.Seed = 9
	if got, want := RunName(base, cur), "xperm-curve · mnist · cyclic-shift · lambda=0.000001 · +2 more"; got != want {
		t.Errorf("many edits: %q, want %q", got, want)
	}
	cur.Name = "my mnist try"
	if got := RunName(base, cur); got != "my mnist try" {
		t.Errorf("the user's name: %q", got)
	}
	if got := RunName(nil, cur); got != "my mnist try" {
		t.Errorf("no base: %q", got)
	}
}

// TestChoiceTypeAhead: enter on the data set field opens its options under it with
// the cursor on the current value; typing narrows them (prefix matches first), enter
// chooses: usps in four keys (enter u s enter) where ← → took 15 steps. ↓ moves among
// the matches; esc closes with the value unchanged and no change reported; a filter
// that matches nothing keeps the list open.
func TestChoiceTypeAhead(t *testing.T) {
	s := spec()
	f := FromSpec("data.name")
	m := New(uitest.Styles(), s, func(*model.Spec) []Field { return []Field{bins, f} }, nil)
	m.SetSize(60, 20)
	m.Focus(true)
	m.Select("data.name")
	key := func(k string) tea.Cmd {
		var msg tea.KeyMsg
		switch k {
		case "enter":
			msg = tea.KeyMsg{Type: tea.KeyEnter}
		case "esc":
			msg = tea.KeyMsg{Type: tea.KeyEsc}
		case "down":
			msg = tea.KeyMsg{Type: tea.KeyDown}
		case "backspace":
			msg = tea.KeyMsg{Type: tea.KeyBackspace}
		case "right":
			msg = tea.KeyMsg{Type: tea.KeyRight}
		default:
			msg = tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
		}
		var cmd tea.Cmd
		m, cmd = m.Update(msg)
		return cmd
	}
	key("enter")
	shown, cur := m.ChoiceShown()
	if !m.Choosing() || !m.Editing() || len(shown) != len(f.Options) || shown[cur] != "xperm" {
		t.Fatalf("enter: choosing %v, %d options, cursor on %q; want all %d, on xperm", m.Choosing(), len(shown), shown[cur], len(f.Options))
	}
	v := m.View()
	uitest.CheckFits(t, v, 60, 20)
	if !strings.Contains(v, "▸ xperm") || !strings.Contains(v, "type to narrow") {
		t.Fatalf("the open list is not drawn:\n%s", v)
	}
	key("u")
	key("s")
	if shown, _ := m.ChoiceShown(); strings.Join(shown, ",") != "usps,usps-binary" {
		t.Fatalf("us narrows to %q", shown)
	}
	if v := m.View(); !strings.Contains(v, "▸ usps") || strings.Contains(v, "mnist-rotated") {
		t.Fatalf("the narrowed list:\n%s", v)
	}
	cmd := key("enter")
	if s.Data.Name != "usps" || m.Choosing() || cmd == nil {
		t.Fatalf("enter chose %q (choosing %v, cmd %v)", s.Data.Name, m.Choosing(), cmd != nil)
	}
	if msg, ok := cmd().(ChangedMsg); !ok || msg.Key != "data.name" {
		t.Fatalf("enter reported %#v", cmd())
	}

	key("enter")
	key("m")
	key("n")
	if shown, _ := m.ChoiceShown(); len(shown) < 4 || shown[0] != "mnist" || !strings.HasPrefix(shown[1], "mnist") {
		t.Fatalf("mn: %q, want the mnist… options first", shown)
	}
	key("down")
	if cmd := key("esc"); cmd != nil || s.Data.Name != "usps" || m.Choosing() || m.Editing() {
		t.Fatalf("esc: value %q, choosing %v, cmd %v; want usps kept", s.Data.Name, m.Choosing(), cmd != nil)
	}

	key("enter")
	key("z")
	key("z")
	if cmd := key("enter"); cmd != nil || !m.Choosing() {
		t.Fatal("enter with nothing matching closed the list or chose")
	}
	if v := m.View(); !strings.Contains(v, "no option holds") {
		t.Fatalf("no line says that nothing matches:\n%s", v)
	}
	key("backspace")
	key("backspace")
	key("f")
	key("down")
	key("enter")
	if s.Data.Name != "file" {
		t.Fatalf("f ↓ enter chose %q, want file (fashion-mnist, then file)", s.Data.Name)
	}
	// ← and → still step through the options with the list closed.
	m.Select("data.name")
	key("right")
	if s.Data.Name == "file" {
		t.Fatal("→ no longer steps")
	}
}

// TestSetIssuesByKey: a form shows exactly the problems keyed by the fields under its
// keys (model.Problem.Under), whatever their messages say, and every problem when it
// has no keys.
func TestSetIssuesByKey(t *testing.T) {
	ps := model.Problems{
		{Field: "group.radius", Msg: "a"},
		{Field: "group_sizes", Msg: "group.b looks like a group line"},
		{Field: "methods.0.group.kind", Msg: "group.c"},
		{Field: "data.pool", Msg: "d"},
		{Field: "group", Msg: "e"},
		{Field: "", Msg: "and 1 more"},
	}
	fields := func(*model.Spec) []Field { return []Field{bins} }
	m := New(uitest.Styles(), spec(), fields, []string{"group"})
	m.SetIssues(ps)
	if got := strings.Join(m.Issues(), "|"); got != "a|e" {
		t.Errorf("group form shows %q, want a|e", got)
	}
	if err := m.Problem(); err == nil || err.Error() != "a" {
		t.Errorf("Problem() = %v, want a", err)
	}
	m.SetIssues(nil)
	if m.Problem() != nil || len(m.Issues()) != 0 {
		t.Errorf("no problems: still shows %q", m.Issues())
	}
	all := New(uitest.Styles(), spec(), fields, nil)
	all.SetIssues(ps)
	if len(all.Issues()) != len(ps) {
		t.Errorf("a form without keys shows %d of %d problems", len(all.Issues()), len(ps))
	}
}

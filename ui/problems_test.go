package ui

import (
	"errors"
	"slices"
	"testing"

	"gitui/model"
	"gitui/ui/datapane"
	"gitui/ui/grouppane"
	"gitui/ui/methodpane"
)

// TestPanesTakeTheirProblems gives the spec a problem in the data pane's fields, one in
// the group pane's, one in the method pane's (repeats) and one more that is only counted
// ("and 1 more", about no field): each pane shows exactly the problems keyed by its
// fields (model.Problem.Field under its ProblemKeys), in Validate's order, and marks its
// tab; the count goes to no pane but is in the list r prints.
func TestPanesTakeTheirProblems(t *testing.T) {
	a := newTestApp(t, 120, 40)
	a.spec.Data.TestSize = -5
	a.spec.Group.Size = -1
	a.spec.Repeats = -1
	a.spec.Methods[0].Lambda = -1
	a.revalidate()

	c := a.spec.Clone()
	c.Defaults()
	var ps model.Problems
	if !errors.As(c.Validate(), &ps) {
		t.Fatal("the spec validates")
	}
	want := map[paneID][]string{paneData: {"data.test_size"}, paneGroup: {"group.size"}, paneMethod: {"repeats"}}
	for _, c := range []struct {
		id    paneID
		keys  []string
		shown []string
	}{
		{paneData, datapane.ProblemKeys, a.data.Form().Issues()},
		{paneGroup, grouppane.ProblemKeys, a.group.Form().Issues()},
		{paneMethod, methodpane.ProblemKeys, a.method.Form().Issues()},
	} {
		mine := ps.Under(c.keys...)
		var fields []string
		for _, p := range mine {
			fields = append(fields, p.Field)
		}
		if !slices.Equal(fields, want[c.id]) {
			t.Errorf("%s: the problems under its keys are of %q, want %q (all: %+v)", c.id.decl().name, fields, want[c.id], ps)
		}
		if !slices.Equal(c.shown, mine.Messages()) {
			t.Errorf("%s shows %q, want %q", c.id.decl().name, c.shown, mine.Messages())
		}
		if !a.hasError(c.id) {
			t.Errorf("%s: its tab is not marked", c.id.decl().name)
		}
	}
	if last := ps[len(ps)-1]; last.Field != "" || last.Msg != "and 1 more" {
		t.Fatalf("the last problem is %+v, want the count of one more", last)
	}
	if !slices.Equal(a.issues, ps.Messages()) {
		t.Errorf("the root lists %q, want every problem %q", a.issues, ps.Messages())
	}
}

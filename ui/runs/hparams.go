package runs

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"gitui/core/eval"
	"gitui/internal/printable"
	"gitui/model"
	"gitui/ui/export"
)

// The HParams table (h): TensorBoard's HParams table over the runs shown, one row per
// run and series, a column per hyperparameter that differs and per metric. This file
// builds the table as data (HParams, HPTable.Sort); hparamsview.go draws it.

// HPKind is what a column of the HParams table holds.
type HPKind int

// Column kinds of the HParams table.
const (
	HPRun    HPKind = iota // the run's label, else its spec's name
	HPSeries               // the series' name
	HPStatus               // the run's status (only when some run is not done)
	HPParam                // a spec field that differs between the rows
	HPMetric               // the series' mean at one x (accuracy in percent ± std)
	HPChosen               // what the series' fits chose themselves (λ by leave-one-out, γ by the median heuristic)
	HPTook                 // the run's wall time
)

// HPColumn is one column of the HParams table.
type HPColumn struct {
	// Name is the header ("data", "lambda", "@1000", "λ chosen", "took").
	Name string
	// Key names what the column shows: "run", "series", "status", "took"; a
	// flattened spec key of the run ("data.name", "sizes" for a list) or "methods.*.F"
	// for field F of each row's own method; "@X" for the metric at x X; "chosen.F" for
	// the chosen value F; "final" for the metric at each series' largest x.
	Key  string
	Kind HPKind
	// X and XLabel are the x of a metric column and the x label of the series it
	// reads (X NaN for "final", the series' largest x, of any label).
	X      float64
	XLabel string
}

// HPRow is one row of the HParams table: series Series of run Run, the text of each
// column's cell ("—" where the row has no value) and the numbers the cells sort by.
type HPRow struct {
	Run    Entry
	Series string
	Cells  []string
	// Nums[c] is cell c as a number (NaN when it is not one or is missing); Missing[c]
	// marks a cell without a value, which sorts after every value in both directions.
	Nums    []float64
	Missing []bool
	// Final is the x of the final column's value ("training set size 500"), "" when
	// the row has none.
	Final string
}

// HPTable is the HParams table of a list of runs.
type HPTable struct {
	Columns []HPColumn
	Rows    []HPRow
	// nat[c] is the width of column c's header (with room for the sort arrow) and
	// widest cell, computed once (natural), not on every frame.
	nat []int
}

// natural returns the width of each column's header (and sort arrow) and widest cell.
func (t *HPTable) natural() []int {
	if len(t.nat) == len(t.Columns) {
		return t.nat
	}
	t.nat = make([]int, len(t.Columns))
	for c, col := range t.Columns {
		t.nat[c] = ansi.StringWidth(col.Name) + 1
		for _, r := range t.Rows {
			t.nat[c] = max(t.nat[c], ansi.StringWidth(r.Cells[c]))
		}
	}
	return t.nat
}

// none is the text of a missing cell.
const none = "—"

// HParams returns the HParams table of es (the runs as the pane lists them, in that
// order; now is the clock of the took column of runs still going):
//
//   - a row per series of each run, in the run's order; a run without series (running,
//     failed before a cell, empty) is one row whose series is "—" (a study's best
//     validation so far, when it has one);
//   - the columns run, series, status in a word (only when some run is not done);
//   - a column per spec field whose value differs between the runs (Diff over their
//     flattened specs, as compare and the legends' labels find them; name,
//     description and a study's tune block are not settings, a list is one field);
//   - a column per field of the methods that differs between the rows of methods of
//     one family (features/kernel/learner): each row shows its own method's value
//     ("unset" when another method of its family sets it, "—" when none does), the
//     series' method being the spec method whose display name starts the series'
//     name (a method's name is left out, the series column says it);
//   - a column per x of any series, the mean there (export.PointCell: accuracy in
//     percent with ± std, as gitui run's table prints it): "@X" for the x label most
//     rows have, "WORD=X" (the label's last word) for another, so that a size and a
//     γ never share a column; then final, the series' mean at its largest x;
//   - a column per value the fits chose themselves (Entry.Chosen: "λ chosen", "γ
//     chosen", median over the draws at the series' largest x);
//   - took, the run's wall time.
//
// Every string from a file passes through printable.String. A field a run lacks reads
// "unset"; a cell without a value "—".
func HParams(es []Entry, now time.Time) HPTable {
	type rowSrc struct {
		e      int
		series int // -1: the run has no series
		method int // the spec method of the series, -1 when none
	}
	var srcs []rowSrc
	ids := make([][]methodID, len(es))
	params := make([]map[string]string, len(es))
	for i, e := range es {
		ids[i] = methodIDs(e)
		params[i] = collapseLists(e.Params)
		if len(e.Series) == 0 {
			srcs = append(srcs, rowSrc{i, -1, -1})
			continue
		}
		for j, s := range e.Series {
			srcs = append(srcs, rowSrc{i, j, seriesMethod(ids[i], s.Name)})
		}
	}

	var cols []HPColumn
	cols = append(cols, HPColumn{Name: "run", Key: "run", Kind: HPRun}, HPColumn{Name: "series", Key: "series", Kind: HPSeries})
	for _, e := range es {
		if e.Status != "done" {
			cols = append(cols, HPColumn{Name: "status", Key: "status", Kind: HPStatus})
			break
		}
	}

	// Spec fields outside the methods that differ between the runs.
	if len(es) > 1 {
		top := make([]map[string]string, len(es))
		for i := range es {
			top[i] = map[string]string{}
			for k, v := range params[i] {
				if !methodKey(k) && k != "name" && k != "description" && k != "tune" && !strings.HasPrefix(k, "tune.") {
					top[i][k] = v
				}
			}
		}
		for _, k := range Diff(top...) {
			cols = append(cols, HPColumn{Key: k, Kind: HPParam})
		}
	}

	// Method fields that differ between the rows of methods of one family.
	fieldOf := func(r rowSrc, f string) (string, bool) {
		v, ok := params[r.e][fmt.Sprintf("methods.%d.%s", r.method, f)]
		return v, ok
	}
	byFamily := map[string][]rowSrc{}
	fields := map[string]bool{}
	famHas := map[string]bool{} // family + "\x00" + field: some method of the family sets it
	for _, r := range srcs {
		if r.method < 0 {
			continue
		}
		fam := ids[r.e][r.method].family
		byFamily[fam] = append(byFamily[fam], r)
		prefix := fmt.Sprintf("methods.%d.", r.method)
		for k := range params[r.e] {
			if f, ok := strings.CutPrefix(k, prefix); ok && f != "name" {
				fields[f] = true
				famHas[fam+"\x00"+f] = true
			}
		}
	}
	var mfields []string
	for f := range fields {
		for _, rs := range byFamily {
			v0, ok0 := fieldOf(rs[0], f)
			differs := false
			for _, r := range rs[1:] {
				if v, ok := fieldOf(r, f); ok != ok0 || v != v0 {
					differs = true
					break
				}
			}
			if differs {
				mfields = append(mfields, f)
				break
			}
		}
	}
	sort.Strings(mfields)
	for _, f := range mfields {
		cols = append(cols, HPColumn{Key: "methods.*." + f, Kind: HPParam})
	}
	nameParams(cols)

	// Metrics: the mean at the series' largest x, and at each x (by x label: the most
	// common label's columns are "@X", another's "LAST-WORD=X"); what the fits chose;
	// the wall time.
	type xkey struct {
		label string
		x     float64
	}
	xset := map[xkey]bool{}
	labelRows := map[string]int{}
	var labels []string
	chosen := map[string]bool{}
	for _, r := range srcs {
		if r.series >= 0 {
			s := es[r.e].Series[r.series]
			if labelRows[s.XLabel] == 0 {
				labels = append(labels, s.XLabel)
			}
			labelRows[s.XLabel]++
			for _, p := range s.Points {
				if !math.IsNaN(p.X) && !math.IsInf(p.X, 0) {
					xset[xkey{s.XLabel, p.X}] = true
				}
			}
		}
		for k := range chosenAt(es[r.e], r.method) {
			chosen[k] = true
		}
	}
	slices.SortStableFunc(labels, func(a, b string) int { return cmp.Compare(labelRows[b], labelRows[a]) })
	for _, l := range labels {
		var xs []float64
		for k := range xset {
			if k.label == l {
				xs = append(xs, k.x)
			}
		}
		sort.Float64s(xs)
		for _, x := range xs {
			name := "@" + fmtX(x)
			if l != labels[0] {
				name = lastWord(l) + "=" + fmtX(x)
			}
			cols = append(cols, HPColumn{Name: printable.String(name), Key: name, Kind: HPMetric, X: x, XLabel: l})
		}
	}
	if len(xset) > 0 {
		cols = append(cols, HPColumn{Name: "final", Key: "final", Kind: HPMetric, X: math.NaN()})
	}
	ck := make([]string, 0, len(chosen))
	for k := range chosen {
		ck = append(ck, k)
	}
	slices.SortFunc(ck, func(a, b string) int { return cmp.Or(cmp.Compare(chosenRank(a), chosenRank(b)), strings.Compare(a, b)) })
	for _, k := range ck {
		cols = append(cols, HPColumn{Name: chosenName(k), Key: "chosen." + k, Kind: HPChosen})
	}
	cols = append(cols, HPColumn{Name: "took", Key: "took", Kind: HPTook})

	t := HPTable{Columns: cols}
	for _, r := range srcs {
		e := es[r.e]
		row := HPRow{Run: e, Cells: make([]string, len(cols)), Nums: make([]float64, len(cols)), Missing: make([]bool, len(cols))}
		var s *seriesView
		if r.series >= 0 {
			s = &seriesView{e.Series[r.series].Name, e.Series[r.series].XLabel, e.Series[r.series].YLabel, e.Series[r.series].Points}
			row.Series = s.name
		}
		for c, col := range cols {
			text, num := "", math.NaN()
			switch col.Kind {
			case HPRun:
				text = e.Name
				if e.Label != "" {
					text = "“" + e.Label + "”"
				}
			case HPSeries:
				switch {
				case s != nil:
					text = s.name
				case e.Study != nil && !math.IsNaN(e.BestValidation):
					text = fmt.Sprintf("best validation %.3f", e.BestValidation)
				}
			case HPStatus:
				text = shortStatus(e.Status)
			case HPParam:
				v, ok := "", false
				if f, isM := strings.CutPrefix(col.Key, "methods.*."); isM {
					if r.method >= 0 {
						v, ok = fieldOf(r, f)
						if !ok && famHas[ids[r.e][r.method].family+"\x00"+f] {
							v, ok = "unset", true // a method of its family sets it
						}
					}
				} else {
					v, ok = params[r.e][col.Key]
					if !ok {
						v, ok = "unset", true
					}
				}
				if ok {
					text = v
					if n, isNum := parseNum(v); isNum {
						num = n
					}
				}
			case HPMetric:
				if s == nil || len(s.points) == 0 || col.Key != "final" && s.xlabel != col.XLabel {
					break
				}
				x := col.X
				if col.Key == "final" {
					x = s.points[len(s.points)-1].X
					row.Final = strings.TrimSpace(printable.String(s.xlabel) + " " + fmtX(x))
				}
				for _, p := range s.points {
					if p.X == x && !math.IsNaN(p.Mean) {
						c := export.PointCell(strings.Contains(strings.ToLower(s.ylabel), "accuracy"), model.Point{X: p.X, Mean: p.Mean, Std: p.Std, Runs: p.Runs})
						text, num = c.Text, p.Mean
						if c.Std != "" {
							text += "±" + c.Std
						}
					}
				}
			case HPChosen:
				if v, ok := chosenAt(e, r.method)[strings.TrimPrefix(col.Key, "chosen.")]; ok {
					text, num = strconv.FormatFloat(v, 'g', 3, 64), v
				}
			case HPTook:
				text = took(e, now)
				if text != "" {
					num = e.Seconds
					if num <= 0 {
						num = now.Sub(e.Time).Seconds()
					}
				}
			}
			if text == "" {
				text, row.Missing[c] = none, true
			}
			row.Cells[c] = printable.String(text)
			row.Nums[c] = num
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// shortStatus is a status in a word for the status column ("failed" for "partial
// (failed)", "running" for "running (process 42)"); the full status is the row's
// detail line.
func shortStatus(s string) string {
	if strings.Contains(s, "failed") {
		return "failed"
	}
	if i := strings.IndexByte(s, ' '); i > 0 {
		return s[:i]
	}
	return s
}

// seriesView is the part of a series a row reads.
type seriesView struct {
	name, xlabel, ylabel string
	points               []eval.SeriesPoint
}

// Sort orders the rows by column col, increasing or (desc) decreasing: numbers as
// numbers, before the cells that are text ("unset"), which compare as text; a missing
// cell after every value in either direction; ties keep their order. A col out of range leaves the rows as they
// are.
func (t *HPTable) Sort(col int, desc bool) {
	if col < 0 || col >= len(t.Columns) {
		return
	}
	sort.SliceStable(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.Missing[col] || b.Missing[col] {
			return !a.Missing[col] && b.Missing[col]
		}
		an, bn := !math.IsNaN(a.Nums[col]), !math.IsNaN(b.Nums[col])
		var c int
		switch {
		case an && bn:
			c = cmp.Compare(a.Nums[col], b.Nums[col])
		case an != bn: // numbers before text ("unset"), a total order
			if an {
				c = -1
			} else {
				c = 1
			}
		default:
			c = strings.Compare(a.Cells[col], b.Cells[col])
		}
		if desc {
			return c > 0
		}
		return c < 0
	})
}

// Column returns the index of the column whose Key is key, -1 when there is none.
func (t *HPTable) Column(key string) int {
	for c, col := range t.Columns {
		if col.Key == key {
			return c
		}
	}
	return -1
}

// final returns the index of the column "final" (the series' mean at its largest
// x), -1 when no row has a point.
func (t *HPTable) final() int { return t.Column("final") }

// lastWord is the last word of an x label ("gamma" of "RBF gamma"), the label itself
// when it has one word, "x" when it is empty.
func lastWord(l string) string {
	f := strings.Fields(l)
	if len(f) == 0 {
		return "x"
	}
	return f[len(f)-1]
}

// methodKey reports whether the flattened key k belongs to the spec's methods.
func methodKey(k string) bool { return k == "methods" || strings.HasPrefix(k, "methods.") }

// collapseLists returns p with each list of scalars, flattened as KEY.0, KEY.1, …,
// as one key KEY whose value is the elements joined by commas ("sizes" = "20,50"), so
// that a list that differs is one column.
func collapseLists(p map[string]string) map[string]string {
	type elem struct {
		i int
		v string
	}
	lists := map[string][]elem{}
	out := make(map[string]string, len(p))
	for k, v := range p {
		dot := strings.LastIndexByte(k, '.')
		if dot > 0 && !methodListKey(k[:dot]) {
			if i, err := strconv.Atoi(k[dot+1:]); err == nil && i >= 0 {
				lists[k[:dot]] = append(lists[k[:dot]], elem{i, v})
				continue
			}
		}
		out[k] = v
	}
	for k, els := range lists {
		if _, clash := out[k]; clash { // not a list of scalars: keep its keys
			for _, e := range els {
				out[k+"."+strconv.Itoa(e.i)] = e.v
			}
			continue
		}
		sort.Slice(els, func(a, b int) bool { return els[a].i < els[b].i })
		vs := make([]string, len(els))
		for j, e := range els {
			vs[j] = e.v
		}
		out[k] = strings.Join(vs, ",")
	}
	return out
}

// methodListKey reports whether k is the methods list itself ("methods": its elements
// are the methods, not a list of values).
func methodListKey(k string) bool { return k == "methods" }

// seriesMethod returns the index of the method of ids whose display name is the
// longest prefix of the series name ("raw RLS" for "raw RLS (transformed test)"), -1
// when none is.
func seriesMethod(ids []methodID, series string) int {
	best, at := -1, 0
	for i, id := range ids {
		if id.name != "" && strings.HasPrefix(series, id.name) && len(id.name) > at {
			best, at = i, len(id.name)
		}
	}
	return best
}

// chosenAt returns what the fits of method mi of e chose (nil when none or mi < 0).
func chosenAt(e Entry, mi int) map[string]float64 {
	if mi < 0 || mi >= len(e.Chosen) {
		return nil
	}
	return e.Chosen[mi]
}

// chosenRank orders the chosen values' columns: λ, γ, then the others by name.
func chosenRank(k string) int {
	switch k {
	case "lambda":
		return 0
	case "gamma":
		return 1
	}
	return 2
}

// chosenName is the header of a chosen value's column.
func chosenName(k string) string {
	switch k {
	case "lambda":
		return "λ chosen"
	case "gamma":
		return "γ chosen"
	}
	return printable.String(k) + " chosen"
}

// nameParams sets the headers of the parameter columns: the last part of the key
// ("lambda" for methods.*.lambda, "test_size" for data.test_size; "data" for
// data.name, "group" for group.kind), the whole key when two columns would share it.
func nameParams(cols []HPColumn) {
	short := func(k string) string {
		k = strings.TrimPrefix(k, "methods.*.")
		switch k {
		case "data.name":
			return "data"
		case "group.kind":
			return "group"
		}
		return k[strings.LastIndexByte(k, '.')+1:]
	}
	count := map[string]int{}
	for _, c := range cols {
		if c.Kind == HPParam {
			count[short(c.Key)]++
		}
	}
	for i, c := range cols {
		if c.Kind != HPParam {
			continue
		}
		n := short(c.Key)
		if count[n] > 1 {
			n = c.Key
		}
		cols[i].Name = printable.String(n)
	}
}

package export

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"gitui/internal/printable"
	"gitui/model"
	"gitui/model/study"
)

// Table formats of WriteTables: the terminal's aligned text (what `gitui run` prints), a
// GitHub Markdown pipe table, a LaTeX booktabs tabular, and CSV (RFC 4180).
const (
	FormatText     = "text"
	FormatMarkdown = "md"
	FormatLaTeX    = "latex"
	FormatCSV      = "csv"
)

// TableFormats lists the formats `gitui export --table` accepts, in the order its help
// names them.
var TableFormats = []string{FormatMarkdown, FormatLaTeX, FormatCSV}

// Table is a table ready to be written by WriteTables: a header, rows of cells (the
// first column labels the row), an optional title line and a caption saying what the
// numbers are. The strings may come from a file: the writers pass each through
// printable.String.
type Table struct {
	// Title is a line written above the text table ("" for none): the name of one of a
	// result's named tables. Markdown writes it in bold; LaTeX uses it as the caption
	// when Caption is empty; CSV leaves it out.
	Title string
	// Caption says what the numbers are ("liu-table2: test accuracy (%) by training set
	// size, mean ± 1 std over 5 draws"). Markdown and LaTeX write it; text and CSV do not.
	Caption string
	// BestNote names what the Best cells are ("the best per column"): Markdown and LaTeX
	// append "; NOTE in bold" to the caption when a cell is Best, and CSV adds a last
	// column "best" naming the Best cells' columns in each row.
	BestNote string
	Header   []string
	Rows     [][]Cell
}

// Cell is one cell of a Table: a label or a number as shown, with its ± part.
type Cell struct {
	Text string
	// Std is the standard deviation as shown, written after Text as "±" (text), " ± "
	// (Markdown, CSV) or " $\pm$ " (LaTeX); "" for none.
	Std string
	// Best marks the best of its column (bold in Markdown and LaTeX).
	Best bool
	// None marks a missing value: "-" in text, "–" in Markdown, "--" in LaTeX, empty in CSV.
	None bool
}

// ResultTables returns the tables of r's series as `gitui run` prints them: one per
// (x label, y label) pair, in order of first appearance, with a row per series and a
// column per x (sorted). An accuracy cell is the mean in percent with two decimals,
// "±" the standard deviation when the point has more than one run; any other value is
// its mean (the shortest form of a whole number, else 4 significant digits). In each
// column the best finite mean is marked Best, with every cell that shows the same
// text: the highest for an accuracy, the lowest for a y label naming an error, none
// for other y labels. The caption names the run (label, or Label(r) when label is ""),
// what the numbers are and over how many draws.
func ResultTables(r *model.Result, label string) []Table {
	if label == "" {
		label = Label(r)
	}
	groups := map[string][]model.Series{}
	var order []string
	for _, s := range r.Series {
		key := s.XLabel + "\x00" + s.YLabel
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], s)
	}
	out := make([]Table, 0, len(order))
	for _, key := range order {
		out = append(out, seriesTable(r, label, groups[key]))
	}
	return out
}

// seriesTable is the table of the series ss of r, which share their x and y labels,
// captioned with the run's label.
func seriesTable(r *model.Result, label string, ss []model.Series) Table {
	xl, yl := ss[0].XLabel, ss[0].YLabel
	xset := map[float64]bool{}
	lo, hi := 0, 0
	for _, s := range ss {
		for _, p := range s.Points {
			xset[p.X] = true
			if lo == 0 || p.Runs < lo {
				lo = p.Runs
			}
			hi = max(hi, p.Runs)
		}
	}
	xs := make([]float64, 0, len(xset))
	for x := range xset {
		xs = append(xs, x)
	}
	sort.Float64s(xs)
	t := Table{Header: []string{yl + " (" + xl + ")"}}
	for _, x := range xs {
		t.Header = append(t.Header, fmtNum(x))
	}
	acc := strings.Contains(yl, "accuracy")
	means := make([][]float64, len(ss)) // NaN where a series has no point at x
	for i, s := range ss {
		byX := map[float64]model.Point{}
		for _, p := range s.Points {
			byX[p.X] = p
		}
		row := []Cell{{Text: s.Name}}
		means[i] = make([]float64, len(xs))
		for j, x := range xs {
			p, ok := byX[x]
			if !ok {
				row = append(row, Cell{Text: "-", None: true})
				means[i][j] = math.NaN()
				continue
			}
			row = append(row, PointCell(acc, p))
			means[i][j] = p.Mean
		}
		t.Rows = append(t.Rows, row)
	}
	dir := 0 // +1: the highest is best, -1: the lowest, 0: none is
	switch {
	case acc:
		dir, t.BestNote = 1, "the best per column"
	case strings.Contains(yl, "error"):
		dir, t.BestNote = -1, "the lowest per column"
	}
	if dir != 0 {
		for j := range xs {
			at := -1
			for i := range ss {
				if m := means[i][j]; finite(m) && (at < 0 || float64(dir)*(m-means[at][j]) > 0) {
					at = i
				}
			}
			if at < 0 {
				continue
			}
			shown := t.Rows[at][j+1].Text // ties as shown are all best
			for i := range ss {
				if c := &t.Rows[i][j+1]; i == at || !c.None && finite(means[i][j]) && c.Text == shown {
					c.Best = true
				}
			}
		}
	}
	what := yl
	if acc {
		what = "test accuracy (%)"
	}
	t.Caption = fmt.Sprintf("%s: %s by %s, %s", label, what, xl, drawsText(acc, lo, hi))
	if r.Partial {
		t.Caption += "; a partial result: finished cells only"
	}
	return t
}

// drawsText says over how many draws the cells of a table are taken, whose points have
// between lo and hi runs: "mean ± 1 std over 5 draws", "one draw".
func drawsText(acc bool, lo, hi int) string {
	n := fmt.Sprint(hi)
	if lo != hi {
		n = fmt.Sprintf("%d–%d", lo, hi)
	}
	switch {
	case hi <= 1:
		return "one draw"
	case acc:
		return "mean ± 1 std over " + n + " draws"
	}
	return "mean over " + n + " draws"
}

// PointCell is the cell of point p as every table writes it (gitui run's summary,
// gitui export --table, the workbench's table view): percent with two decimals and its
// std for an accuracy (the std when p has more than one run), else its mean.
func PointCell(acc bool, p model.Point) Cell {
	if !acc {
		return Cell{Text: fmtNum(p.Mean)}
	}
	c := Cell{Text: fmt.Sprintf("%.2f", 100*p.Mean)}
	if p.Runs > 1 {
		c.Std = fmt.Sprintf("%.2f", 100*p.Std)
	}
	return c
}

// fmtNum writes a whole number (below 1e9 in magnitude) without a fraction and any
// other number with 4 significant digits.
func fmtNum(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e9 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.4g", x)
}

// BalancedTableName names the result table that ResultTables' accuracy tables already
// summarize, left out of NamedTables.
const BalancedTableName = "balanced accuracy"

// NamedTables returns r's named tables (confusion matrices, the chosen
// hyperparameters, the notes of degenerate fits; not the balanced accuracy, which the
// accuracy tables summarize) as tables titled by their names and captioned with the
// run's label (Label(r) when label is ""): numbers in fmtNum's form, any other cell as
// its text.
func NamedTables(r *model.Result, label string) []Table {
	if label == "" {
		label = Label(r)
	}
	var out []Table
	for _, nt := range r.Tables {
		if nt.Name == BalancedTableName {
			continue
		}
		t := Table{Title: nt.Name, Caption: label + ": " + nt.Name, Header: append([]string(nil), nt.Columns...)}
		for _, row := range nt.Rows {
			cells := make([]Cell, len(row))
			for i, c := range row {
				if f, ok := c.(float64); ok {
					cells[i] = Cell{Text: fmtNum(f)}
				} else {
					cells[i] = Cell{Text: fmt.Sprint(c)}
				}
			}
			t.Rows = append(t.Rows, cells)
		}
		out = append(out, t)
	}
	return out
}

// StudyTable returns the trials table of the study s (study.Trials; running says
// whether a process is searching it, so that its unfinished trials read "running"
// rather than "stopped"): a row per trial with its id, a column per tuned parameter
// (full keys, sorted; values as study.ParamText), its score at each rung (4 decimals,
// "validation @ n=N" or the study's score name), its state (with the error of a failed
// trial) and the seconds of its jobs. The best trial (study.BestTrial) has its id and
// its score at its highest rung marked Best. The caption names the study (label), the
// score, the validation split's size, and the refit's test accuracy when study.json
// records it (and those of the other top trials refit, tune.refit_top).
func StudyTable(s study.Snapshot, running bool, label string) Table {
	trials, sizes := study.Trials(s, running)
	set := map[string]bool{}
	for _, tr := range trials {
		for k := range tr.Params {
			set[k] = true
		}
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	score := model.TuneScoreName(s.Score)
	t := Table{Header: append([]string{"trial"}, keys...), BestNote: "the best trial"}
	for _, n := range sizes {
		t.Header = append(t.Header, fmt.Sprintf("%s @ n=%d", score, n))
	}
	t.Header = append(t.Header, "state", "seconds")
	bestID, bestRung, _, hasBest := study.BestTrial(trials)
	for _, tr := range trials {
		best := hasBest && tr.ID == bestID
		row := []Cell{{Text: TrialLabel(tr.ID), Best: best}}
		for _, k := range keys {
			if v, ok := tr.Params[k]; ok {
				row = append(row, Cell{Text: study.ParamText(v)})
			} else {
				row = append(row, Cell{Text: "-", None: true})
			}
		}
		for k, v := range tr.Scores {
			if math.IsNaN(v) {
				row = append(row, Cell{Text: "-", None: true})
				continue
			}
			row = append(row, Cell{Text: fmt.Sprintf("%.4f", v), Best: best && k == bestRung})
		}
		state := tr.State
		if tr.Error != "" {
			state += ": " + tr.Error
		}
		row = append(row, Cell{Text: state}, Cell{Text: fmt.Sprintf("%.1f", tr.Seconds)})
		t.Rows = append(t.Rows, row)
	}
	n := len(trials)
	if len(trials) > 0 && trials[0].ID == study.BaselineTrial {
		n--
	}
	t.Caption = studyCaption(s, label, score, n)
	return t
}

// TrialLabel is how a study table names trial id: its number, or "baseline" for the
// study's baseline (study.BaselineTrial, the spec's own setting).
func TrialLabel(id int) string {
	if id == study.BaselineTrial {
		return "baseline"
	}
	return fmt.Sprint(id)
}

// trialName names trial id in a caption: "trial 3", or "the baseline".
func trialName(id int) string {
	if id == study.BaselineTrial {
		return "the baseline"
	}
	return fmt.Sprintf("trial %d", id)
}

// studyCaption says what StudyTable's numbers are: the study, how its trials were
// scored, and its refits' test accuracies when study.json records them.
func studyCaption(s study.Snapshot, label, score string, trials int) string {
	c := fmt.Sprintf("%s: %d trials, %s accuracy at each rung (n training samples)", label, trials, score)
	f := s.File
	if f == nil {
		return c + "; the search has not finished (no study.json)"
	}
	switch s.Score {
	case model.TuneLOO:
		c += ", leave-one-out on the training samples"
	default:
		c += fmt.Sprintf(" on %d validation samples", f.Validation)
	}
	c += fmt.Sprintf(", %s sampler, %s pruner", f.Sampler, f.Pruner)
	if f.Baseline != nil {
		c += "; and the baseline, the spec's own setting"
	}
	if b := f.Best; b != nil && b.Test != nil {
		c += fmt.Sprintf("; refit of %s at n %d: test accuracy %.4f", trialName(b.Trial), b.N, *b.Test)
	} else if b != nil {
		c += fmt.Sprintf("; %s not refit yet", trialName(b.Trial))
	}
	for _, tp := range f.Top {
		if tp.Rank > 1 && tp.Test != nil {
			c += fmt.Sprintf("; rank %d, %s: test %.4f", tp.Rank, trialName(tp.Trial), *tp.Test)
		}
	}
	if cmp := study.Comparison(f); cmp != "" {
		c += "; " + cmp
	}
	return c
}

// WriteTables writes the tables to w in format (FormatText, FormatMarkdown,
// FormatLaTeX or FormatCSV), one after another with a blank line between (for CSV, with
// several tables: each with its own header after an empty line). Every string goes
// through printable.String first. An unknown format is an error naming the formats.
//
// Markdown escapes "\", "|", "*", "_" and "`" in cells, and LaTeX escapes its ten
// special characters (\ _ % & # $ { } ~ ^) and writes ± as $\pm$; CSV quotes as
// RFC 4180 asks (encoding/csv).
func WriteTables(w io.Writer, format string, tables ...Table) error {
	var write func(io.Writer, Table) error
	switch format {
	case FormatText:
		write = writeText
	case FormatMarkdown:
		write = writeMarkdown
	case FormatLaTeX:
		write = writeLaTeX
	case FormatCSV:
		write = writeCSVTable
	default:
		return fmt.Errorf("unknown table format %q: use %s", format, strings.Join(TableFormats, ", "))
	}
	for i, t := range tables {
		if i > 0 && format != FormatText { // the text writer ends each table with a blank line
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := write(w, t); err != nil {
			return err
		}
	}
	return nil
}

// writeText writes t as `gitui run` prints its tables: the title on its own line, then
// the columns right-aligned two spaces apart, cells "mean±std", and a blank line.
func writeText(w io.Writer, t Table) error {
	if t.Title != "" {
		fmt.Fprintln(w, printable.String(t.Title))
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, h := range t.Header {
		fmt.Fprintf(tw, "%s\t", printable.String(h))
	}
	fmt.Fprintln(tw)
	for _, row := range t.Rows {
		for _, c := range row {
			s := printable.String(c.Text)
			if c.Std != "" {
				s += "±" + printable.String(c.Std)
			}
			fmt.Fprintf(tw, "%s\t", s)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// hasBest reports whether a cell of t is marked Best.
func hasBest(t Table) bool {
	for _, row := range t.Rows {
		for _, c := range row {
			if c.Best {
				return true
			}
		}
	}
	return false
}

// caption is t's caption with the note on its Best cells ("" when it has none).
func caption(t Table) string {
	c := t.Caption
	if c == "" {
		c = t.Title
	}
	if hasBest(t) && t.BestNote != "" {
		c += "; " + t.BestNote + " in bold"
	}
	return c
}

// mdEscaper escapes what would end a cell or start emphasis or code in a GitHub pipe table.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`")

// mdText is s made printable and escaped for a Markdown table.
func mdText(s string) string { return mdEscaper.Replace(printable.String(s)) }

// writeMarkdown writes t as a GitHub pipe table after its caption line: the first
// column left-aligned, the others right-aligned, Best cells in bold.
func writeMarkdown(w io.Writer, t Table) error {
	var b strings.Builder
	if t.Title != "" && t.Caption == "" {
		fmt.Fprintf(&b, "**%s**\n\n", mdText(t.Title))
	} else if c := caption(t); c != "" {
		fmt.Fprintf(&b, "%s\n\n", mdText(c))
	}
	b.WriteString("|")
	for _, h := range t.Header {
		fmt.Fprintf(&b, " %s |", mdText(h))
	}
	b.WriteString("\n|")
	for i := range t.Header {
		if i == 0 {
			b.WriteString(" :--- |")
		} else {
			b.WriteString(" ---: |")
		}
	}
	b.WriteString("\n")
	for _, row := range t.Rows {
		b.WriteString("|")
		for _, c := range row {
			s := mdText(c.Text)
			switch {
			case c.None:
				s = "–"
			case c.Std != "":
				s += " ± " + mdText(c.Std)
			}
			if c.Best {
				s = "**" + s + "**"
			}
			fmt.Fprintf(&b, " %s |", s)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// latexEscaper escapes LaTeX's special characters in one pass and writes the few
// symbols the tables use as math or text commands.
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, "_", `\_`, "%", `\%`, "&", `\&`, "#", `\#`, "$", `\$`,
	"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
	"±", `$\pm$`, "×", `$\times$`, "·", `$\cdot$`, "−", `$-$`, "≤", `$\leq$`, "≥", `$\geq$`,
	"…", `\ldots{}`, "°", `\textdegree{}`, "–", "--", "—", "---",
	"<", `\textless{}`, ">", `\textgreater{}`, "|", `\textbar{}`,
)

// texText is s made printable and escaped for LaTeX text mode.
func texText(s string) string { return latexEscaper.Replace(printable.String(s)) }

// writeLaTeX writes t as a table float holding a booktabs tabular (\toprule, \midrule,
// \bottomrule: \usepackage{booktabs}), its caption in \caption, the first column
// left-aligned and the others right-aligned, Best cells in \textbf.
func writeLaTeX(w io.Writer, t Table) error {
	var b strings.Builder
	b.WriteString("% gitui export --table latex: needs \\usepackage{booktabs}\n")
	b.WriteString("\\begin{table}[htbp]\n\\centering\n")
	if c := caption(t); c != "" {
		fmt.Fprintf(&b, "\\caption{%s}\n", texText(c))
	}
	fmt.Fprintf(&b, "\\begin{tabular}{l%s}\n\\toprule\n", strings.Repeat("r", max(0, len(t.Header)-1)))
	hs := make([]string, len(t.Header))
	for i, h := range t.Header {
		hs[i] = texText(h)
	}
	b.WriteString(strings.Join(hs, " & ") + " \\\\\n\\midrule\n")
	for _, row := range t.Rows {
		cs := make([]string, len(row))
		for i, c := range row {
			s := texText(c.Text)
			switch {
			case c.None:
				s = "--"
			case c.Std != "":
				s += ` $\pm$ ` + texText(c.Std)
			}
			if c.Best {
				s = `\textbf{` + s + "}"
			}
			cs[i] = s
		}
		b.WriteString(strings.Join(cs, " & ") + " \\\\\n")
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCSVTable writes t as CSV: its header and rows, cells "mean ± std", a missing
// value empty, and when a cell is Best a last column "best" naming, in each row, the
// columns where it is (joined by "; ").
func writeCSVTable(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	best := hasBest(t)
	h := make([]string, len(t.Header))
	for i, s := range t.Header {
		h[i] = printable.String(s)
	}
	if best {
		h = append(h, "best")
	}
	cw.Write(h)
	for _, row := range t.Rows {
		rec := make([]string, len(row))
		var at []string
		for i, c := range row {
			switch {
			case c.None:
			case c.Std != "":
				rec[i] = printable.String(c.Text) + " ± " + printable.String(c.Std)
			default:
				rec[i] = printable.String(c.Text)
			}
			if c.Best && i < len(h) {
				at = append(at, h[i])
			}
		}
		if best {
			rec = append(rec, strings.Join(at, "; "))
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

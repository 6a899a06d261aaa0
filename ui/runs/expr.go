package runs

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// FilterSyntax is the grammar of the Runs pane's filter, one line per rule, as the
// pane's help and docs/workbench.md state it.
var FilterSyntax = []string{
	"words: each must be in a name, status, method or key=value",
	"field op value, op: == != < <= > >= (= is ==), ~ substring",
	"&& || ! ( ): and, or, not; side by side is &&",
	"field: a spec key or a unique suffix (lambda, data.pool);",
	"  a suffix of several keys holds if ANY of them does",
	"acc: headline; acc@X, std@X: best series at x=X",
	"acc[NAME]@X: the series whose name has NAME; also",
	"  name status data group methods time",
}

// ExprError is a malformed filter expression: what is wrong and at which column
// (1-based, in characters) of the filter.
type ExprError struct {
	Col int
	Msg string
}

func (e *ExprError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// Filter is a compiled Runs filter (see ParseFilter).
type Filter struct {
	root node // nil: matches every run
}

// Match reports whether e passes the filter (a nil Filter passes every run).
func (f *Filter) Match(e Entry) bool {
	if f == nil || f.root == nil {
		return true
	}
	return f.root.eval(e)
}

// IsExpr reports whether s is a filter expression rather than plain words: it holds
// a comparison (= == != < <= > >= ~) or a boolean operator (&& ||). A single "=" is
// "==", so "data=mnist", "status=done" and "lambda=0.1" compare the field (a field no
// run has is an error naming close ones) instead of matching nothing as a substring.
func IsExpr(s string) bool {
	for _, op := range []string{"=", "!=", "<", ">", "~", "&&", "||"} {
		if strings.Contains(s, op) {
			return true
		}
	}
	return false
}

// ParseFilter compiles the Runs pane's filter s against keys, the flattened spec
// keys of the runs listed (to resolve suffixes and to name close matches).
//
// Plain words (no operator, see IsExpr): every word must be a substring, ignoring
// case, of the run's name, folder, status, data set, group or methods, or of one
// key=value of its flattened spec (the pane's filter before expressions existed).
//
// An expression follows
//
//	expr    = and { "||" and }
//	and     = unary { ["&&"] unary }          (side by side is &&)
//	unary   = "!" unary | "(" expr ")" | term
//	term    = field op value | word           (a lone word: as a plain word)
//	op      = "==" | "=" | "!=" | "<" | "<=" | ">" | ">=" | "~"
//	value   = word | "quoted" | 'quoted'
//
// A field is a metric (acc: the headline; acc@X: the best mean over series at x=X;
// std@X: that series' std; acc[NAME]@X and std[NAME]@X: the series whose name holds
// NAME, ignoring case, the best of them if several; acc[NAME]: that series at its
// largest x), a column (name, status, data, group, methods, time as
// "2006-01-02 15:04"), or a flattened spec key or a suffix of one after a dot
// ("lambda" for methods.0.lambda). A run holds a term if any of the field's values
// does: a suffix that names several keys is true if ANY of them compares true. A run
// without the field (no point at x=X, no such key) does not hold the term, whatever
// the op. Values compare as numbers when both sides are numbers, else as text
// ignoring case (< and > then compare text); ~ is a substring test, ignoring case.
//
// A field that names no key of any run is an error listing close names; every error
// is an *ExprError giving the column.
func ParseFilter(s string, keys []string) (*Filter, error) {
	if strings.TrimSpace(s) == "" {
		return &Filter{}, nil
	}
	if !IsExpr(s) {
		return &Filter{root: wordsNode(strings.Fields(strings.ToLower(s)))}, nil
	}
	toks, err := lex(s)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, keys: keys}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.errAt(t, "unexpected "+t.show())
	}
	return &Filter{root: root}, nil
}

// --- lexer ---

type tokKind int

const (
	tEOF tokKind = iota
	tWord
	tString
	tLParen
	tRParen
	tAnd
	tOr
	tNot
	tOp
)

type token struct {
	kind tokKind
	text string
	col  int // 1-based column of the token's first character
}

func (t token) show() string {
	switch t.kind {
	case tEOF:
		return "end of the filter"
	case tString:
		return strconv.Quote(t.text)
	}
	return "\"" + t.text + "\""
}

// wordStop reports whether r ends a bare word.
func wordStop(r rune) bool {
	return strings.ContainsRune(" \t\n()&|!=<>~\"'", r)
}

func lex(s string) ([]token, error) {
	var out []token
	col := func(i int) int { return utf8.RuneCountInString(s[:i]) + 1 }
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		two := ""
		if i+1 < len(s) {
			two = s[i : i+2]
		}
		switch {
		case r == ' ' || r == '\t' || r == '\n':
			i += n
		case r == '(':
			out = append(out, token{tLParen, "(", col(i)})
			i++
		case r == ')':
			out = append(out, token{tRParen, ")", col(i)})
			i++
		case two == "&&":
			out = append(out, token{tAnd, "&&", col(i)})
			i += 2
		case two == "||":
			out = append(out, token{tOr, "||", col(i)})
			i += 2
		case r == '&' || r == '|':
			return nil, &ExprError{col(i), fmt.Sprintf("a lone %q: write %s%s", r, string(r), string(r))}
		case two == "==" || two == "!=" || two == "<=" || two == ">=":
			out = append(out, token{tOp, two, col(i)})
			i += 2
		case r == '=' || r == '<' || r == '>' || r == '~':
			op := string(r)
			if op == "=" {
				op = "=="
			}
			out = append(out, token{tOp, op, col(i)})
			i++
		case r == '!':
			out = append(out, token{tNot, "!", col(i)})
			i++
		case r == '"' || r == '\'':
			j := strings.IndexRune(s[i+1:], r)
			if j < 0 {
				return nil, &ExprError{col(i), "the quote opened here is not closed"}
			}
			out = append(out, token{tString, s[i+1 : i+1+j], col(i)})
			i += j + 2
		default:
			start := i
			for i < len(s) {
				r, n := utf8.DecodeRuneInString(s[i:])
				if r == '[' { // acc[NAME]@X: the brackets hold any text
					j := strings.IndexByte(s[i:], ']')
					if j < 0 {
						return nil, &ExprError{col(i), "the [ opened here is not closed with ]"}
					}
					i += j + 1
					continue
				}
				if wordStop(r) {
					break
				}
				i += n
			}
			out = append(out, token{tWord, s[start:i], col(start)})
		}
	}
	return append(out, token{tEOF, "", col(len(s))}), nil
}

// --- parser ---

type parser struct {
	toks []token
	at   int
	keys []string
}

func (p *parser) peek() token { return p.toks[p.at] }
func (p *parser) next() token {
	t := p.toks[p.at]
	if p.at < len(p.toks)-1 {
		p.at++
	}
	return t
}

func (p *parser) errAt(t token, msg string) error { return &ExprError{t.col, msg} }

func (p *parser) or() (node, error) {
	l, err := p.and()
	if err != nil {
		return nil, err
	}
	for p.peek().kind == tOr {
		p.next()
		r, err := p.and()
		if err != nil {
			return nil, err
		}
		l = orNode{l, r}
	}
	return l, nil
}

func (p *parser) and() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		switch p.peek().kind {
		case tAnd:
			p.next()
		case tNot, tLParen, tWord, tString:
			// side by side: &&
		default:
			return l, nil
		}
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		l = andNode{l, r}
	}
}

func (p *parser) unary() (node, error) {
	t := p.next()
	switch t.kind {
	case tNot:
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return notNode{n}, nil
	case tLParen:
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != tRParen {
			return nil, p.errAt(c, fmt.Sprintf("expected ) to close the ( at column %d, got %s", t.col, c.show()))
		}
		return n, nil
	case tWord, tString:
		if p.peek().kind != tOp {
			return wordsNode{strings.ToLower(t.text)}, nil
		}
		if t.kind == tString {
			return nil, p.errAt(t, "a field name is not quoted: write it bare (lambda>0.1)")
		}
		op := p.next()
		v := p.next()
		if v.kind != tWord && v.kind != tString {
			return nil, p.errAt(v, fmt.Sprintf("expected a value after %s, got %s", op.text, v.show()))
		}
		return p.compare(t, op.text, v)
	case tEOF:
		return nil, p.errAt(t, "the filter ends where a term is expected")
	}
	return nil, p.errAt(t, "expected a field, a word, ! or (, got "+t.show())
}

// compare builds the term field op value.
func (p *parser) compare(f token, op string, v token) (node, error) {
	c := cmpNode{op: op, lit: v.text}
	c.num, c.isNum = parseNum(v.text)
	fld, err := p.field(f)
	if err != nil {
		return nil, err
	}
	c.f = fld
	if fld.metric && !c.isNum && op != "~" {
		return nil, p.errAt(v, fmt.Sprintf("%s is a number: compare it with a number, not %s", f.text, v.show()))
	}
	return c, nil
}

// field resolves the field named by the word t.
func (p *parser) field(t token) (field, error) {
	name := t.text
	low := strings.ToLower(name)
	switch low {
	case "name", "status", "data", "group", "methods", "time", "id":
		return field{col: low}, nil
	}
	if m, ok, err := parseMetric(name); ok {
		if err != nil {
			return field{}, p.errAt(t, err.Error())
		}
		return m, nil
	}
	var match []string
	for _, k := range p.keys {
		if k == name || strings.HasSuffix(k, "."+name) {
			match = append(match, k)
		}
	}
	if len(match) == 0 {
		msg := fmt.Sprintf("no field %q", name)
		if c := closeNames(name, p.keys); len(c) > 0 {
			msg += "; close: " + strings.Join(c, ", ")
		} else {
			msg += "; fields are spec keys (lambda, data.pool), acc, acc@X, std@X, name, status, data, group, methods, time"
		}
		return field{}, p.errAt(t, msg)
	}
	return field{keys: match}, nil
}

// parseMetric reads acc, acc@X, std@X, acc[NAME], acc[NAME]@X, std[NAME]@X; ok is
// false when name is not a metric at all.
func parseMetric(name string) (f field, ok bool, err error) {
	if len(name) < 3 {
		return field{}, false, nil
	}
	kind := strings.ToLower(name[:3])
	if kind != "acc" && kind != "std" {
		return field{}, false, nil
	}
	rest := name[3:]
	if rest == "" && kind == "acc" {
		return field{metric: true, kind: "headline"}, true, nil
	}
	if rest == "" {
		return field{}, true, fmt.Errorf("%s: give the size, as std@1000", name)
	}
	if rest[0] != '@' && rest[0] != '[' {
		return field{}, false, nil // a key such as "accuracy_goal"
	}
	f = field{metric: true, kind: kind, x: math.NaN()}
	if rest[0] == '[' {
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return f, true, fmt.Errorf("%s: the [ is not closed with ]", name)
		}
		f.series = strings.ToLower(strings.Trim(rest[1:j], "\"'"))
		if f.series == "" {
			return f, true, fmt.Errorf("%s: name a series between [ ]", name)
		}
		rest = rest[j+1:]
	}
	if rest == "" {
		if kind == "std" {
			return f, true, fmt.Errorf("%s: give the size, as std@1000", name)
		}
		return f, true, nil
	}
	if rest[0] != '@' {
		return f, true, fmt.Errorf("%s: expected @ and a size after the metric, as acc@1000", name)
	}
	x, isNum := parseNum(rest[1:])
	if !isNum {
		return f, true, fmt.Errorf("%s: the size after @ must be a number, as acc@1000", name)
	}
	f.x = x
	return f, true, nil
}

// closeNames returns up to 4 keys (or their last parts) near name: a key holding it,
// or one whose last part is within edit distance 2 of it.
func closeNames(name string, keys []string) []string {
	low := strings.ToLower(name)
	type cand struct {
		k string
		d int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, k := range keys {
		lk := strings.ToLower(k)
		last := lk[strings.LastIndexByte(lk, '.')+1:]
		d := min(editDistance(low, last), editDistance(low, lk))
		if strings.Contains(lk, low) {
			d = min(d, 1)
		}
		if d <= 2 && !seen[k] {
			seen[k] = true
			cs = append(cs, cand{k, d})
		}
	}
	for _, b := range []string{"acc", "name", "status", "data", "group", "methods", "time"} {
		if d := editDistance(low, b); d <= 1 && !seen[b] {
			seen[b] = true
			cs = append(cs, cand{b, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].k < cs[j].k
	})
	var out []string
	for i := 0; i < len(cs) && i < 4; i++ {
		out = append(out, cs[i].k)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (in bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func parseNum(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// --- evaluation ---

type node interface{ eval(e Entry) bool }

type andNode struct{ l, r node }
type orNode struct{ l, r node }
type notNode struct{ n node }

func (n andNode) eval(e Entry) bool { return n.l.eval(e) && n.r.eval(e) }
func (n orNode) eval(e Entry) bool  { return n.l.eval(e) || n.r.eval(e) }
func (n notNode) eval(e Entry) bool { return !n.n.eval(e) }

// wordsNode holds when every word is a substring of the run's haystack (see ParseFilter).
type wordsNode []string

func (w wordsNode) eval(e Entry) bool {
	h := haystack(e)
	for _, t := range w {
		if !strings.Contains(h, t) {
			return false
		}
	}
	return true
}

func haystack(e Entry) string {
	var hay strings.Builder
	for _, s := range []string{e.Name, e.ID, e.Status, e.Data, e.Group, strings.Join(e.Methods, "\n")} {
		hay.WriteString(strings.ToLower(s))
		hay.WriteByte('\n')
	}
	for k, v := range e.Params {
		hay.WriteString(strings.ToLower(k + "=" + v))
		hay.WriteByte('\n')
	}
	return hay.String()
}

// field is what a term compares: a column, spec keys, or a metric.
type field struct {
	col    string   // name, status, data, group, methods, time, id
	keys   []string // flattened spec keys
	metric bool
	kind   string  // headline, acc, std
	series string  // lower-case series name part ("" any)
	x      float64 // NaN: each series' largest x
}

// values returns the field's values for e (none when e lacks it).
func (f field) values(e Entry) []string {
	switch {
	case f.metric:
		if v, ok := Metric(e, f.kind, f.series, f.x); ok {
			return []string{strconv.FormatFloat(v, 'g', -1, 64)}
		}
		return nil
	case f.col != "":
		switch f.col {
		case "name":
			return []string{e.Name}
		case "id":
			return []string{e.ID}
		case "status":
			return []string{e.Status}
		case "data":
			return []string{e.Data}
		case "group":
			return []string{e.Group}
		case "methods":
			return e.Methods
		case "time":
			if e.Time.IsZero() {
				return nil
			}
			return []string{e.Time.Format("2006-01-02 15:04")}
		}
	}
	var out []string
	for _, k := range f.keys {
		if v, ok := e.Params[k]; ok {
			out = append(out, v)
		}
	}
	return out
}

// Metric returns a metric of e: kind "headline" is e.Acc; kind "acc" is the best
// mean, and "std" the std of the best-mean point, over the series whose lower-cased
// name contains series ("" for all), each taken at x (or, x NaN, at its largest x).
// ok is false when no such point exists.
func Metric(e Entry, kind, series string, x float64) (float64, bool) {
	if kind == "headline" {
		return e.Acc, !math.IsNaN(e.Acc)
	}
	best, std, ok := math.Inf(-1), 0.0, false
	for _, s := range e.Series {
		if series != "" && !strings.Contains(strings.ToLower(s.Name), series) {
			continue
		}
		for i, p := range s.Points {
			if (math.IsNaN(x) && i == len(s.Points)-1) || p.X == x {
				if !math.IsNaN(p.Mean) && p.Mean > best {
					best, std, ok = p.Mean, p.Std, true
				}
			}
		}
	}
	if kind == "std" {
		return std, ok
	}
	return best, ok
}

// cmpNode is the term field op literal.
type cmpNode struct {
	f     field
	op    string
	lit   string
	num   float64
	isNum bool
}

func (c cmpNode) eval(e Entry) bool {
	for _, v := range c.f.values(e) {
		if c.holds(v) {
			return true
		}
	}
	return false
}

func (c cmpNode) holds(v string) bool {
	if c.op == "~" {
		return strings.Contains(strings.ToLower(v), strings.ToLower(c.lit))
	}
	var d int
	if x, ok := parseNum(v); ok && c.isNum {
		switch {
		case x < c.num:
			d = -1
		case x > c.num:
			d = 1
		}
	} else {
		d = strings.Compare(strings.ToLower(v), strings.ToLower(c.lit))
	}
	switch c.op {
	case "==":
		return d == 0
	case "!=":
		return d != 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	}
	return false
}

// Keys returns the flattened spec keys of es, sorted, each once.
func Keys(es []Entry) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range es {
		for k := range e.Params {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

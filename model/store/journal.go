package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gitui/core/eval"
	"gitui/internal/printable"
	"gitui/model"
)

// JournalFormat names the format of a verified journal in its header line.
const JournalFormat = "gitui.cells/v2"

// CellRecord is one cell line of cells.jsonl: a finished cell (eval.Cell) as JSON. Floats
// are written in Go's shortest round-trip form, so a cell read back is bit-identical.
type CellRecord struct {
	Stage   string   `json:"stage"`
	Series  string   `json:"series"`
	X       float64  `json:"x"`
	Rep     int      `json:"rep"`
	Size    int      `json:"size"`
	Acc     float64  `json:"acc"`
	BAcc    float64  `json:"bacc"`
	AccT    *float64 `json:"acc_transformed,omitempty"`
	BAccT   *float64 `json:"bacc_transformed,omitempty"`
	Seconds float64  `json:"seconds"`
	Pred    []int    `json:"pred,omitempty"`
	// Score is the decision value of each prediction (eval.Cell.Score), where the learner has one.
	Score []float64 `json:"score,omitempty"`
	// Chosen holds the hyperparameters the cell's fit chose itself (eval.Cell.Chosen):
	// "lambda" (RLS, leave-one-out), "gamma" (a Gaussian kernel's median heuristic).
	Chosen map[string]float64 `json:"chosen,omitempty"`
	// Notes is what the reader of the cell's accuracy must know (eval.Cell.Notes), such
	// as "degenerate: the kernel is numerically constant at gamma 1e+308".
	Notes []string `json:"notes,omitempty"`
}

func recordOf(c eval.Cell) CellRecord {
	return CellRecord{Stage: c.Stage, Series: c.Series, X: c.X, Rep: c.Rep, Size: c.Size, Acc: c.Acc, BAcc: c.BAcc,
		AccT: c.AccT, BAccT: c.BAccT, Seconds: c.Seconds, Pred: c.Pred, Score: c.Score, Chosen: c.Chosen, Notes: c.Notes}
}

// Cell returns the record as the engine's cell.
func (r CellRecord) Cell() eval.Cell {
	return eval.Cell{CellKey: eval.CellKey{Stage: r.Stage, Series: r.Series, X: r.X, Rep: r.Rep}, Size: r.Size,
		Acc: r.Acc, BAcc: r.BAcc, AccT: r.AccT, BAccT: r.BAccT, Seconds: r.Seconds, Pred: r.Pred, Score: r.Score, Chosen: r.Chosen, Notes: r.Notes}
}

// Key returns the cell's key (stage, series, x, repeat).
func (r CellRecord) Key() eval.CellKey {
	return eval.CellKey{Stage: r.Stage, Series: r.Series, X: r.X, Rep: r.Rep}
}

// journalHeader is the first line of a verified journal: the format, and the resolved
// spec the cells belong to, canonically encoded (CanonicalSpec) with its SHA-256.
type journalHeader struct {
	Format     string          `json:"format"`
	SpecSHA256 string          `json:"spec_sha256"`
	Spec       json.RawMessage `json:"spec"`
}

// crcField is how a line's checksum is appended: `,"crc32c":"` + 8 lower-case hex
// digits + `"}`, in place of the closing brace of the line's JSON.
const (
	crcOpen = `,"crc32c":"`
	crcLen  = len(crcOpen) + 8 + 2
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// hashRe finds the spec hash in a header line, damaged or not.
var hashRe = regexp.MustCompile(`"spec_sha256":"([0-9a-f]{64})"`)

// sealLine returns the journal line of the JSON object body (no newline): body with a
// last field "crc32c" holding the CRC-32C (Castagnoli) of body itself, then '\n'.
func sealLine(body []byte) []byte {
	out := make([]byte, 0, len(body)+crcLen+1)
	out = append(out, body[:len(body)-1]...)
	out = append(out, crcOpen...)
	out = fmt.Appendf(out, "%08x", crc32.Checksum(body, castagnoli))
	return append(out, '"', '}', '\n')
}

// unseal checks the checksum of a line (without its newline). It returns the line's
// JSON without the crc32c field, whether the line carries a checksum at all, and
// whether it matches.
func unseal(line []byte) (body []byte, sealed, ok bool) {
	n := len(line)
	if n < crcLen+1 || line[n-1] != '}' || line[n-2] != '"' || !bytes.Equal(line[n-crcLen:n-crcLen+len(crcOpen)], []byte(crcOpen)) {
		return line, false, false
	}
	want, err := strconv.ParseUint(string(line[n-10:n-2]), 16, 32)
	if err != nil || strings.ToLower(string(line[n-10:n-2])) != string(line[n-10:n-2]) {
		return line, true, false
	}
	body = append(append([]byte{}, line[:n-crcLen]...), '}')
	return body, true, crc32.Checksum(body, castagnoli) == uint32(want)
}

// EncodeCell returns the journal line of a cell record: its JSON with the crc32c field
// appended (see sealLine), ending in '\n'.
func EncodeCell(r CellRecord) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return sealLine(b), nil
}

// CanonicalSpec returns the canonical encoding of a resolved spec, which the journal's
// header hashes: the spec's JSON with every object's keys sorted, no white space, and
// numbers written as the spec's JSON writes them.
func CanonicalSpec(s *model.Spec) ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	return canonicalJSON(b)
}

func canonicalJSON(b []byte) ([]byte, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return json.Marshal(v) // maps are written with sorted keys
}

// SpecHash returns the hex SHA-256 of CanonicalSpec(s).
func SpecHash(s *model.Spec) (string, error) {
	c, err := CanonicalSpec(s)
	if err != nil {
		return "", err
	}
	return hashHex(c), nil
}

func hashHex(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// headerLine returns the sealed header line of a cells journal of spec s.
func headerLine(s *model.Spec) ([]byte, error) { return formatHeaderLine(s, JournalFormat) }

// formatHeaderLine returns the sealed header line of a journal of format and spec s.
func formatHeaderLine(s *model.Spec, format string) ([]byte, error) {
	c, err := CanonicalSpec(s)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(journalHeader{Format: format, SpecSHA256: hashHex(c), Spec: c})
	if err != nil {
		return nil, err
	}
	return sealLine(b), nil
}

// DamagedLine is a complete line of a journal that failed its check: a checksum that
// does not match, no checksum in a verified journal, or JSON that is not a cell.
type DamagedLine struct {
	Line   int    // 1-based line number in cells.jsonl
	Text   []byte // the line as read, without its newline
	Reason string // "checksum mismatch", "no checksum", "not a cell"
}

// Journal is a verified journal as ReadJournal (cells.jsonl) or ReadTrials
// (trials.jsonl) found it: the two share the header, the per-line checksum and this
// reader, and differ only in their records.
type Journal struct {
	Path string
	// Format is the journal's kind: JournalFormat (cells) or TrialsFormat (trials).
	Format string
	// Header is the verified first line; nil for an empty journal, one of the earlier
	// format (Legacy), or one whose header is damaged (HeaderDamaged).
	Header *journalHeader
	// Legacy is set for a journal of the earlier format: cell lines without a header
	// (and without checksums); its cells are read unverified.
	Legacy bool
	// Cells are the cell lines that passed their check, in the journal's order.
	Cells []CellRecord
	// Trials are the job lines of a trials journal that passed their check, in order.
	Trials []TrialRecord
	// Inputs is the fingerprint of the data the cells or jobs were computed on: the
	// first inputs line that passed its check (written once the data was loaded, before
	// the first cell); nil in a journal written before gitui recorded it, or one whose
	// run never got past its load.
	Inputs *model.Inputs
	// Damaged are the complete lines that failed their check, in order.
	Damaged []DamagedLine
	// Torn is set when the last line lacked its newline (a write cut short by a kill): it
	// is neither a cell nor damaged, and its cell counts as not run.
	Torn bool
	// HeaderDamaged is set when the first line is a header that fails its check (Header
	// is nil then): CheckSpec accepts the journal only if the spec hash still legible in
	// it is spec.json's, and OpenRunDir then writes the header again.
	HeaderDamaged bool
	headerText    []byte // the damaged header line, without its newline
	headerHash    string // the 64 hex digits after "spec_sha256":" in it, if legible
	tornText      []byte // the torn last line

	lines [][]byte // the complete lines kept (header and cells), with their newlines
	size  int64    // bytes of the complete lines (what is kept when only a torn line is cut)
}

// ErrDamagedHeader is wrapped by CheckSpec's error when the header line of a verified
// journal fails its check and the spec hash in it is not legible or not spec.json's: the
// cells cannot be matched to a spec.
var ErrDamagedHeader = errors.New("damaged journal header")

// ReadJournal reads the journal at path: the only reader of cells.jsonl. A missing file
// is an empty journal. Rules (docs/runs.md):
//
//   - the last line without its newline is torn (Torn) and left out;
//   - a first line holding the format gitui.cells/v2 is the header, checked by its CRC;
//     a header that fails its check sets HeaderDamaged (CheckSpec decides);
//   - every other complete line is a cell, kept when its CRC-32C matches (or, in a
//     journal of the earlier format without a header, when it has no checksum and parses
//     as a cell); otherwise it is listed in Damaged with its line number.
//
// ReadJournal never writes; OpenRunDir moves the damaged lines away.
func ReadJournal(path string) (*Journal, error) { return readJournal(path, JournalFormat) }

// readJournal reads a verified journal of format (JournalFormat or TrialsFormat) at
// path; only a cells journal may be of the earlier, headerless format.
func readJournal(path, format string) (*Journal, error) {
	j := &Journal{Path: path, Format: format}
	b, err := model.ReadFileCapped(path)
	if errors.Is(err, os.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the journal %s (%v): check its permissions", path, unwrapPath(err))
	}
	raw := bytes.SplitAfter(b, []byte("\n"))
	if n := len(raw); n > 0 && len(raw[n-1]) == 0 {
		raw = raw[:n-1]
	}
	if n := len(raw); n > 0 && !bytes.HasSuffix(raw[n-1], []byte("\n")) {
		j.Torn = true
		j.tornText = append([]byte{}, raw[n-1]...)
		raw = raw[:n-1]
	}
	for _, l := range raw {
		j.size += int64(len(l))
	}
	if len(raw) == 0 {
		return j, nil
	}
	first := bytes.TrimSuffix(raw[0], []byte("\n"))
	start := 0
	h, state := parseHeader(first, format)
	if state == headerNone && format != JournalFormat {
		state = headerDamaged // a trials journal always starts with its header
	}
	if state == headerNone {
		// No header: the earlier format, unless line 1 is not a cell and a later line is
		// sealed (then line 1 was a header damaged beyond recognition).
		var rec CellRecord
		isCell := json.Unmarshal(first, &rec) == nil && rec.Series != ""
		for _, l := range raw[1:] {
			if isCell {
				break
			}
			if _, sealed, ok := unseal(bytes.TrimSuffix(l, []byte("\n"))); sealed && ok {
				state = headerDamaged
				break
			}
		}
	}
	switch state {
	case headerOK:
		j.Header = h
		j.lines = append(j.lines, raw[0])
		start = 1
	case headerDamaged:
		j.HeaderDamaged = true
		j.headerText = append([]byte{}, first...)
		if m := hashRe.FindSubmatch(first); m != nil {
			j.headerHash = string(m[1])
		}
		start = 1
	default:
		j.Legacy = true
	}
	for i := start; i < len(raw); i++ {
		l := bytes.TrimSuffix(raw[i], []byte("\n"))
		body, sealed, ok := unseal(l)
		reason := ""
		switch {
		case sealed && !ok:
			reason = "checksum mismatch"
		case !sealed && !j.Legacy:
			reason = "no checksum"
		}
		var rec CellRecord
		var job TrialRecord
		var in inputsRecord
		isInputs := false
		if reason == "" && !j.Legacy && bytes.HasPrefix(body, []byte(inputsPrefix)) {
			dec := json.NewDecoder(bytes.NewReader(printable.JSON(body)))
			if err := dec.Decode(&in); err != nil || in.Kind != inputsKind || in.Inputs.Data.SHA256 == "" || dec.More() {
				reason = "not an inputs line"
			}
			isInputs = true
		} else if reason == "" {
			// The checksum covers body as written; what decodes from it is shown.
			dec := json.NewDecoder(bytes.NewReader(printable.JSON(body)))
			if format == TrialsFormat {
				if err := dec.Decode(&job); err != nil || job.Kind != "job" || job.N <= 0 || dec.More() {
					reason = "not a trial"
				}
			} else if err := dec.Decode(&rec); err != nil || rec.Series == "" || dec.More() {
				reason = "not a cell"
			}
		}
		if reason != "" {
			j.Damaged = append(j.Damaged, DamagedLine{Line: i + 1, Text: append([]byte{}, l...), Reason: reason})
			continue
		}
		switch {
		case isInputs:
			if j.Inputs == nil {
				j.Inputs = &in.Inputs
			}
		case format == TrialsFormat:
			j.Trials = append(j.Trials, job)
		default:
			j.Cells = append(j.Cells, rec)
		}
		j.lines = append(j.lines, raw[i])
	}
	return j, nil
}

// HasCells reports whether the journal at path holds anything past its header and its
// inputs line: a cell line, a damaged line or a torn one (ReadJournal tells which). It reads only the first
// line and one byte after it, for a status that must not read a large journal whole.
// A missing, empty or header-only journal holds nothing.
func HasCells(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	first, err := r.ReadBytes('\n')
	if len(first) == 0 {
		return false
	}
	if err != nil || !bytes.HasSuffix(first, []byte("\n")) {
		return true // a torn first line
	}
	if _, state := parseHeader(bytes.TrimSuffix(first, []byte("\n")), JournalFormat); state != headerOK {
		return true // a cell of the earlier format, or a damaged line
	}
	// The inputs line (written once the data is loaded) is not a cell: a run killed
	// before its first cell holds nothing.
	if next, err := r.Peek(len(inputsPrefix)); err == nil && isInputsLine(next) {
		if l, err := r.ReadBytes('\n'); err != nil || !bytes.HasSuffix(l, []byte("\n")) {
			return true // a torn inputs line
		}
	}
	_, err = r.Peek(1)
	return err == nil
}

type headerState int

const (
	headerNone headerState = iota
	headerOK
	headerDamaged
)

// parseHeader classifies the first line of a journal of format: a verified header, a
// header that fails its check (or is of another format), or no header (a cell line of
// the earlier format, or garbage).
func parseHeader(line []byte, format string) (*journalHeader, headerState) {
	looks := bytes.Contains(line, []byte(`"format":"gitui.`)) || bytes.Contains(line, []byte(`"spec_sha256"`))
	body, sealed, ok := unseal(line)
	if !sealed || !ok {
		if looks {
			return nil, headerDamaged
		}
		return nil, headerNone
	}
	var h journalHeader
	if err := json.Unmarshal(body, &h); err != nil || h.Format == "" {
		if looks {
			return nil, headerDamaged
		}
		return nil, headerNone // a sealed cell line: no header
	}
	if h.Format != format || hashHex(h.Spec) != h.SpecSHA256 {
		return nil, headerDamaged
	}
	return &h, headerOK
}

// CheckSpec compares the spec the journal's header names with s (spec.json, resolved).
// It returns nil when they hash the same, or the journal has no header (empty, or the
// earlier format), or its header is damaged but the spec hash still legible in it is
// s's. Otherwise it returns an *model.InputError naming the changed keys with their old
// and new values, or, for a damaged header, wrapping ErrDamagedHeader.
func (j *Journal) CheckSpec(s *model.Spec, dir string) error {
	if j.Header == nil && !j.HeaderDamaged {
		return nil
	}
	c, err := CanonicalSpec(s)
	if err != nil {
		return fmt.Errorf("encode the spec of %s: %w", dir, err)
	}
	if j.HeaderDamaged {
		if j.headerHash == hashHex(c) {
			return nil // the hash survived: spec.json is the run's spec
		}
		if j.Format == TrialsFormat {
			return inputErr(fmt.Errorf("the journal %s is damaged at line 1, its header (which names the study's spec), or is of an earlier gitui: %w; its jobs cannot be matched to spec.json: move it away to score every job again", j.Path, ErrDamagedHeader))
		}
		return inputErr(fmt.Errorf("the journal %s is damaged at line 1, its header (which names the run's spec): %w; its cells cannot be matched to spec.json: move it away to run every cell again", j.Path, ErrDamagedHeader))
	}
	if hashHex(c) == j.Header.SpecSHA256 {
		return nil
	}
	what := "run"
	if j.Format == TrialsFormat {
		what = "study"
	}
	return inputErr(fmt.Errorf("%s changed since the %s started (%s): restore it, or start a new %s in another DIR",
		filepath.Join(dir, SpecFile), what, SpecChanges(j.Header.Spec, c), what))
}

// SpecChanges names the keys whose values differ between two spec JSON texts, with
// the old and the new value: "seed 1 → 7, methods.0.lambda 0 → 0.1" (at most five,
// then how many more).
func SpecChanges(old, cur []byte) string {
	ch := specChanges(old, cur)
	if len(ch) == 0 {
		return "the spec"
	}
	return strings.Join(ch, ", ")
}

// specChanges lists "key old → new" for each key whose value differs between the two
// spec JSON texts (at most five, then how many more); ["the spec"] when either does
// not parse, none when they are equal.
func specChanges(old, cur []byte) []string {
	a, erra := decodeJSONNumbers(old)
	b, errb := decodeJSONNumbers(cur)
	if erra != nil || errb != nil {
		return []string{"the spec"}
	}
	var ch []string
	jsonChanges(a, b, "", &ch)
	const shown = 5
	if len(ch) > shown {
		ch = append(ch[:shown], fmt.Sprintf("and %d more", len(ch)-shown))
	}
	return ch
}

// decodeJSONNumbers decodes the first JSON value of b, keeping numbers as json.Number
// so that values a float64 cannot tell apart (seeds 2^53 and 2^53+1) still differ.
func decodeJSONNumbers(b []byte) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	err := d.Decode(&v)
	return v, err
}

// jsonChanges appends "key old → new" for each leaf where a and b differ.
func jsonChanges(a, b any, at string, out *[]string) {
	name := func(k string) string {
		if at == "" {
			return k
		}
		return at + "." + k
	}
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			keys := map[string]bool{}
			for k := range x {
				keys[k] = true
			}
			for k := range y {
				keys[k] = true
			}
			ks := make([]string, 0, len(keys))
			for k := range keys {
				ks = append(ks, k)
			}
			sort.Strings(ks)
			for _, k := range ks {
				jsonChanges(x[k], y[k], name(k), out)
			}
			return
		}
	case []any:
		if y, ok := b.([]any); ok && len(x) == len(y) {
			for i := range x {
				jsonChanges(x[i], y[i], name(strconv.Itoa(i)), out)
			}
			return
		}
	}
	va, vb := showJSON(a), showJSON(b)
	if va == vb {
		return
	}
	if at == "" {
		at = "the spec"
	}
	*out = append(*out, at+" "+va+" → "+vb)
}

func showJSON(v any) string {
	if v == nil {
		return "(none)"
	}
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}

// appendSealed writes the sealed line b to the journal f (opened O_APPEND) in one
// write(2). A write that fails part-way (a full disk) leaves a torn last line; with
// alone set (no other process appends to f) the journal is cut back to its size before
// the write, so that the next reader finds no torn line to take for a kill.
func appendSealed(f *os.File, b []byte, alone bool) error {
	var size int64 = -1
	if alone {
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
	}
	n, err := f.Write(b)
	if err != nil && n > 0 && size >= 0 {
		f.Truncate(size)
	}
	return err
}

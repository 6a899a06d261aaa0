package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gitui/model"
)

// boundsASEnv, in a child's environment, caps its address space (RLIMIT_AS, bytes), so
// that a case the estimate fails to refuse dies of "out of memory" in the child instead
// of swapping the machine, and the test fails on it.
const boundsASEnv = "GITUI_TEST_RLIMIT_AS"

func init() {
	if v := os.Getenv(boundsASEnv); v != "" {
		if b, err := strconv.ParseUint(v, 10, 64); err == nil {
			syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: b, Max: b})
		}
	}
}

// boundsCase is one hostile input or absurd parameter.
type boundsCase struct {
	name string
	args []string // after "gitui"; --out DIR is appended for run
	env  []string // extra environment (GITUI_MEMORY_LIMIT=1GiB unless set here)
	code int      // expected exit status (2 unless set)
	want string   // in the last stderr line
}

// boundsResult is what a case did: exit status, stderr, peak RSS and wall time.
type boundsResult struct {
	code   int
	stderr string
	rssKB  int64
	wall   time.Duration
}

// runBounded runs gitui with c.args in a child process limited to 6 GiB of address space
// (and GITUI_MEMORY_LIMIT=1GiB unless the case sets it), for at most a minute.
func runBounded(t *testing.T, c boundsCase) boundsResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := child(t, c.args...)
	cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
	b, _ := jsonArgs(c.args)
	cmd.Env = append(os.Environ(), childEnv+"=1", childEnv+"_ARGS="+b, boundsASEnv+"="+strconv.FormatInt(6<<30, 10), "GITUI_MEMORY_LIMIT=1GiB")
	cmd.Env = append(cmd.Env, c.env...)
	rssFile := filepath.Join(t.TempDir(), "peak-rss")
	cmd.Env = append(cmd.Env, peakRSSEnv+"="+rssFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err := cmd.Run()
	r := boundsResult{stderr: stderr.String(), wall: time.Since(t0)}
	if ctx.Err() != nil {
		t.Fatalf("not refused within a minute (killed); stderr %q", r.stderr)
	}
	if cmd.ProcessState == nil {
		t.Fatalf("did not start: %v", err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.rssKB = ru.Maxrss
	}
	r.rssKB = childPeakRSS(rssFile, r.rssKB)
	return r
}

// checkRefusal asserts the contract of a refusal: the expected exit status, exactly one
// line on stderr starting "gitui: " and naming the problem, no panic or goroutine dump,
// and nothing written into out.
func checkRefusal(t *testing.T, c boundsCase, r boundsResult, out string) {
	t.Helper()
	want := c.code
	if want == 0 {
		want = exitUsage
	}
	if r.code != want {
		t.Errorf("exit %d, want %d; stderr %q", r.code, want, r.stderr)
	}
	for _, bad := range []string{"panic", "goroutine ", "fatal error", "internal error"} {
		if strings.Contains(r.stderr, bad) {
			t.Errorf("stderr holds %q: %q", bad, r.stderr)
		}
	}
	// One error line, last; before it at most the run's log of what it loaded (a refusal
	// that needs the data, such as a size above the pool, comes after loading it).
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "gitui: ") || !strings.Contains(last, c.want) {
		t.Errorf("stderr %q: want one gitui: line containing %q", r.stderr, c.want)
	}
	for _, l := range lines[:len(lines)-1] {
		if !strings.HasPrefix(l, "data ") && !strings.HasPrefix(l, "group ") && !strings.HasPrefix(l, "memory: ") {
			t.Errorf("stderr line %q before the refusal: want only the one gitui: line", l)
		}
	}
	if out == "" {
		return
	}
	for _, f := range []string{"result.json", "result.partial.json", "cells.jsonl", "spec.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("%s written", f)
		}
	}
}

// writeSpec writes a JSON spec into dir and returns its path.
func writeSpec(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name+".json")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBoundsAbsurdParameters runs absurd parameters, each in a child process
// under GITUI_MEMORY_LIMIT=1GiB and a 6 GiB address-space cap: each must be refused
// before allocating (exit 2, one line naming the estimate and the fix, nothing written,
// a small peak RSS). The table of exit codes, peak RSS and time is logged (go test -v).
func TestBoundsAbsurdParameters(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes")
	}
	dir := t.TempDir()
	const n = 40
	seq := make([]float64, n*12*3)
	lab := make([]float64, n)
	for i := range n {
		seq[i*36+(i%12)*3+i%3] = 1
		lab[i] = float64(i % 2)
	}
	writeNPY(t, filepath.Join(dir, "seq_x.npy"), []int{n, 12, 3}, seq)
	writeNPY(t, filepath.Join(dir, "seq_y.npy"), []int{n}, lab)
	perm := func(size string) string {
		return writeSpec(t, dir, "perm"+size, `{"name": "perm", "protocol": "sample-complexity",
  "data": {"name": "file", "path": "`+filepath.Join(dir, "seq_x.npy")+`", "test_size": 10},
  "group": {"kind": "permutation", "size": `+size+`},
  "methods": [{"features": "cdf", "bins": 2, "templates": 2}], "sizes": [10]}`)
	}
	xperm := func(name, method string) string {
		return writeSpec(t, dir, name, `{"name": "`+name+`", "protocol": "sample-complexity",
  "data": {"name": "xperm", "test_size": 2000}, "group": {"kind": "permutation"},
  "methods": [`+method+`], "sizes": [100]}`)
	}
	gram := func(name, learner string, size int) string {
		return writeSpec(t, dir, name, fmt.Sprintf(`{"name": "%s", "protocol": "sample-complexity",
  "data": {"name": "circle", "pool": %d, "test_size": 2000},
  "methods": [{"kernel": "rbf", "gamma": 1, "learner": "%s"}], "sizes": [%d]}`, name, size, learner, size))
	}
	rotshift := writeSpec(t, dir, "rotshift", `{"name": "rotshift", "protocol": "sample-complexity",
  "data": {"name": "embedded"},
  "group": {"kind": "rotation+shift", "radius": 13, "angles": {"from": 0, "to": 359.9, "count": 3600}},
  "methods": [{"features": "cdf", "bins": 5, "templates": 5}], "sizes": [100]}`)
	cases := []boundsCase{
		{name: "CDF bins 1000 x templates 100000", args: []string{"run", "xperm-curve", "--quick", "--set", "methods.2.bins=1000", "--set", "methods.2.templates=100000"}, want: "TiB of memory"},
		{name: "CDF(1000, 2000)", args: []string{"run", "xperm-curve", "--quick", "--set", "methods.2.bins=1000", "--set", "methods.2.templates=2000"}, want: "CDF(1000,2000) RLS features"},
		{name: "moments(100000)", args: []string{"run", xperm("moments", `{"features": "moments", "templates": 100000}`)}, want: "moments(100000) RLS features"},
		{name: "group.size 1e8 on 12 blocks", args: []string{"run", perm("100000000")}, want: "|G| = 100000000"},
		{name: "group.size 12!-1 on 12 blocks", args: []string{"run", perm("479001599")}, want: "|G| = 479001599"},
		{name: "rotation+shift 3600 angles x radius 13", args: []string{"run", rotshift}, want: "transformed templates"},
		{name: "rbf RLS n = 20000 (one cell: its Gram and factors)", args: []string{"run", gram("rbfrls", "rls", 20000)}, want: "20000 x 20000 Gram matrix and its factors"},
		{name: "rbf 1-NN n = 20000", args: []string{"run", gram("rbfnn", "1nn", 20000)}, want: "20000 x 20000 Gram matrix"},
		{name: "rbf RLS n = 40000 (one Gram > 8 GiB)", args: []string{"run", gram("rbfbig", "rls", 40000)}, env: []string{"GITUI_MEMORY_LIMIT=1TiB"}, want: "40000 x 40000 kernel matrix"},
		{name: "bad GITUI_MEMORY_LIMIT", args: []string{"run", "xperm-curve", "--quick"}, env: []string{"GITUI_MEMORY_LIMIT=lots"}, want: "GITUI_MEMORY_LIMIT"},
	}
	runBoundsTable(t, cases)
}

// runBoundsTable runs the cases and logs the table of exit codes, peak RSS and times.
func runBoundsTable(t *testing.T, cases []boundsCase) {
	t.Helper()
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-44s %4s %9s %7s\n", "case", "exit", "peak RSS", "time")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := ""
			args := c.args
			if len(args) > 0 && args[0] == "run" {
				out = filepath.Join(t.TempDir(), "out")
				args = append(append([]string(nil), args...), "--out", out)
			}
			cc := c
			cc.args = args
			r := runBounded(t, cc)
			fmt.Fprintf(&table, "%-44s %4d %6.0f MB %6.2fs\n", c.name, r.code, float64(r.rssKB)/1024, r.wall.Seconds())
			checkRefusal(t, c, r, out)
			if r.rssKB > 512<<10 {
				t.Errorf("peak RSS %d MB: the refusal must come before allocating", r.rssKB>>10)
			}
		})
	}
	t.Log(table.String())
}

func jsonArgs(args []string) (string, error) {
	b, err := json.Marshal(args)
	return string(b), err
}

// TestBoundsSpecExtremes sweeps the numeric spec fields that size memory to the largest
// value validation accepts (MaxBins, MaxTemplates, MaxSize, the whole pool), one at a
// time on the presets that use them, each in a child process under
// GITUI_MEMORY_LIMIT=1GiB: every one must be refused as bounds_test's contract says.
func TestBoundsSpecExtremes(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes")
	}
	set := func(preset string, sets ...string) []string {
		args := []string{"run", preset, "--quick"}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		return args
	}
	cases := []boundsCase{
		{name: "methods.2.bins = MaxBins", args: set("xperm-curve", "methods.2.bins=1000"), want: "of memory"},
		{name: "methods.2.templates = MaxTemplates", args: set("xperm-curve", "methods.2.templates=100000"), want: "of memory"},
		{name: "sizes = [MaxSize]", args: set("xperm-curve", "sizes=[10000000]"), want: "larger than the pool"},
		{name: "sizes = the whole pool", args: set("xperm-curve", "sizes=[30768]"), want: "of memory"},
		{name: "grid.templates = [MaxTemplates]", args: set("xperm-bins-templates", "grid.templates=[100000]"), want: "of memory"},
		{name: "grid.bins = [MaxBins]", args: set("xperm-bins-templates", "grid.bins=[1000]", "grid.templates=[1000]"), want: "of memory"},
		{name: "approx.templates, approx.bins = max", args: set("kernel-approx", "approx.templates=[100000]", "approx.bins=1000"), want: "of memory"},
		{name: "group-size: bins, templates = max", args: set("xperm-group-size", "methods.0.bins=1000", "methods.0.templates=100000"), want: "of memory"},
	}
	runBoundsTable(t, cases)
}

// TestFetchBadName checks that `gitui data fetch` of a path or an unknown name is bad
// usage: exit 2, one line naming the known sets, and nothing created in the data
// directory.
func TestFetchBadName(t *testing.T) {
	for _, name := range []string{"../../etc", "cifar", "/etc/passwd"} {
		dir := t.TempDir()
		code, _, stderr := gitui(t, "data", "fetch", name, "--data", dir)
		if code != exitUsage || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "mnist, fashion-mnist") {
			t.Errorf("fetch %q: exit %d, stderr %q; want 2 and one line listing the data sets", name, code, stderr)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("fetch %q created %v", name, ents)
		}
	}
}

// TestSummaryEscapesControls checks that names from a spec reach the terminal inert:
// a series, table, column, cell, log line and error holding ESC sequences, CR, BEL or a
// C1 code are printed with every control character escaped (\x1b ...), no raw control
// byte in the output, and the text around them kept.
func TestSummaryEscapesControls(t *testing.T) {
	evil := "raw\x1b[2J\x1b]0;pwned\x07\r\u009b RLS"
	r := &model.Result{
		Series:  []model.Series{{Name: evil, XLabel: "training set size", YLabel: "accuracy", Points: []model.Point{{X: 10, Mean: 0.5, Runs: 1}}}},
		Tables:  []model.Table{{Name: "t" + evil, Columns: []string{"kernel\x1b[31m", "n"}, Rows: [][]any{{evil, 3.0}}}},
		Partial: true, Error: "stopped\x1b[0m",
	}
	var out bytes.Buffer
	printSummary(&out, r)
	var errb bytes.Buffer
	p := newProgress(&errb)
	p.log("preparing " + evil)
	exitCode(fmt.Errorf("%s: bad\nsecond", evil), &errb)
	for what, s := range map[string]string{"summary": out.String(), "stderr": errb.String()} {
		for _, r := range s {
			if r != '\n' && r != ' ' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)) {
				t.Errorf("%s holds control character %U: %q", what, r, s)
				break
			}
		}
		if !strings.Contains(s, `raw\x1b[2J\x1b]0;pwned\x07\x0d\x9b RLS`) {
			t.Errorf("%s lacks the escaped name: %q", what, s)
		}
	}
	if strings.Count(errb.String(), "\n") != 2 {
		t.Errorf("stderr %q: want the log line and one error line", errb.String())
	}
}

// TestOneClassTrainingSet checks that a training file of one class is bad input (exit
// 2, one line naming the file, the class and the fix, nothing written), not an internal
// error.
func TestOneClassTrainingSet(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 50 {
		fmt.Fprintf(&b, "%d,%d,cat\n", i%7, i%5)
	}
	csv := filepath.Join(dir, "one.csv")
	os.WriteFile(csv, []byte(b.String()), 0o644)
	spec := writeSpec(t, dir, "one", `{"name": "one", "protocol": "sample-complexity",
  "data": {"name": "file", "path": "`+csv+`"}, "methods": [{"features": "raw"}], "sizes": [20]}`)
	out := filepath.Join(dir, "out")
	code, _, stderr := gitui(t, "run", spec, "--out", out)
	c := boundsCase{want: `only class "cat"`}
	checkRefusal(t, c, boundsResult{code: code, stderr: stderr}, out)
	if !strings.Contains(stderr, csv) || !strings.Contains(stderr, "at least two classes") {
		t.Errorf("stderr %q: want the file and the fix", stderr)
	}
}

// TestBoundsHostileFiles runs hostile data files through `gitui run` in child
// processes (as TestBoundsAbsurdParameters): an IDX .gz of zeros claiming 1.07e9 pixels,
// a CSV.gz of one line of 2e7 fields, a LIBSVM .gz of 1000 lines with index 1e6, a gzip
// stream past GITUI_MAX_DECOMPRESSED_BYTES, Go number syntax in a CSV. Each must be
// refused with exit 2, one line naming the file's problem and the fix, nothing written,
// and a small peak RSS.
func TestBoundsHostileFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes")
	}
	dir := t.TempDir()
	gzFile := func(name string, write func(w io.Writer)) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(f)
		write(zw)
		zw.Close()
		f.Close()
		return p
	}
	be := func(v ...uint32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.BigEndian.PutUint32(b[4*i:], x)
		}
		return b
	}
	os.MkdirAll(filepath.Join(dir, "bomb", "mnist"), 0o755)
	for _, split := range []string{"train", "t10k"} {
		gzFile(filepath.Join("bomb", "mnist", split+"-images-idx3-ubyte.gz"), func(w io.Writer) {
			w.Write(be(0x803, 1369000, 28, 28))
			w.Write(make([]byte, 1<<20))
		})
		gzFile(filepath.Join("bomb", "mnist", split+"-labels-idx1-ubyte.gz"), func(w io.Writer) { w.Write(be(0x801, 1369000)) })
	}
	csvBomb := gzFile("line.csv.gz", func(w io.Writer) {
		row := bytes.Repeat([]byte("0,"), 1<<20)
		for range 20 {
			w.Write(row)
		}
		w.Write([]byte("cat\n"))
	})
	svmBomb := gzFile("wide.svm.gz", func(w io.Writer) {
		for i := range 1000 {
			fmt.Fprintf(w, "%d 1000000:1\n", i%2)
		}
	})
	bigCSV := gzFile("big.csv.gz", func(w io.Writer) {
		for i := range 200000 {
			fmt.Fprintf(w, "0.25,0.5,%d\n", i%2)
		}
	})
	hexCSV := filepath.Join(dir, "hex.csv")
	os.WriteFile(hexCSV, []byte("0.5,1,a\n0x1p-2,1_000,b\n"), 0o644)
	spec := func(name, path string) string {
		return writeSpec(t, dir, name, `{"name": "`+name+`", "protocol": "sample-complexity",
  "data": {"name": "file", "path": "`+path+`"}, "methods": [{"features": "raw"}], "sizes": [10]}`)
	}
	cases := []boundsCase{
		{name: "IDX .gz claiming 1.07e9 pixels", args: []string{"run", "mnist-cdf", "--quick", "--data", filepath.Join(dir, "bomb")}, want: "GITUI_MAX_VALUES"},
		{name: "CSV.gz one line of 2e7 fields", args: []string{"run", spec("line", csvBomb)}, want: "longer than 2 MiB"},
		{name: "LIBSVM .gz 1000 lines, index 1e6", args: []string{"run", spec("wide", svmBomb)}, want: "dense matrix above"},
		{name: "gzip past GITUI_MAX_DECOMPRESSED_BYTES", args: []string{"run", spec("big", bigCSV)}, env: []string{"GITUI_MAX_DECOMPRESSED_BYTES=1048576"}, want: "GITUI_MAX_DECOMPRESSED_BYTES"},
		{name: "CSV with 0x1p-2 and 1_000", args: []string{"run", spec("hex", hexCSV)}, want: "not a decimal number"},
	}
	runBoundsTable(t, cases)
	// data list shows the bomb's header as an error, not as 1369000 images.
	code, out, _ := gitui(t, "data", "list", "--data", filepath.Join(dir, "bomb"))
	if code != 0 || strings.Contains(out, "1369000 ×") || !strings.Contains(out, "corrupt or truncated") {
		t.Errorf("data list: exit %d, %q: want the claim flagged", code, out)
	}
}

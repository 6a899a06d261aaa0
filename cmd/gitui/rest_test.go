package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gitui/model"
	"gitui/model/store"
)

// writeWideCSV writes rows samples of d coordinates and two classes into dir/name.
func writeWideCSV(t *testing.T, dir, name string, rows, d int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for i := 0; i < rows; i++ {
		for k := 0; k < d; k++ {
			fmt.Fprintf(&b, "%.3f,", rng.Float64())
		}
		fmt.Fprintf(&b, "%d\n", i%2)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A group.size of 1e9 over S_100 on a small data file is refused naming the group
// tables (1e9 permutations of 100 coordinates) as the largest part, not the data file,
// which the file's memory check put first.
func TestGroupSizeRefusalNamesGroupTables(t *testing.T) {
	dir := t.TempDir()
	csv := writeWideCSV(t, dir, "d.csv", 60, 100)
	swap, cycle := make([]int, 100), make([]int, 100)
	for i := range swap {
		swap[i], cycle[i] = i, (i+1)%100
	}
	swap[0], swap[1] = 1, 0
	spec, _ := json.Marshal(map[string]any{
		"name": "big-group", "protocol": "sample-complexity",
		"data":    map[string]any{"name": "file", "path": csv, "test_size": 20},
		"group":   map[string]any{"kind": "generated", "generators": [][]int{swap, cycle}, "size": 1000000000},
		"methods": []any{map[string]any{"features": "cdf", "bins": 3, "templates": 3}},
		"sizes":   []int{20},
	})
	path := writeSpec(t, dir, "big", string(spec))
	t.Setenv("GITUI_MEMORY_LIMIT", "1GiB")
	out := filepath.Join(dir, "out")
	code, _, stderr := gitui(t, "run", path, "--out", out)
	msg := strings.TrimSpace(stderr)
	if code != exitUsage || strings.Contains(msg, "\n") ||
		!strings.Contains(msg, "the largest part is group tables: 1e+09 permutations of 100 coordinates") ||
		!strings.Contains(msg, "use a smaller group.size") {
		t.Fatalf("exit %d, %q; want 2 and one line naming the group tables as the largest part", code, msg)
	}
}

// sbatchDirective returns the option and value of an #SBATCH line as sbatch's script
// parser takes them (Slurm's src/sbatch/opt.c, _get_argument): the first word after
// "#SBATCH", where a backslash escapes the next character, single or double quotes
// group, an unquoted # starts a comment, and unquoted white space ends the word.
func sbatchDirective(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "#SBATCH")
	if !ok {
		return "", false
	}
	rest = strings.TrimLeft(rest, " \t")
	var b strings.Builder
	var q rune
	escape := false
	for _, r := range rest {
		switch {
		case escape:
			escape = false
		case r == '\\':
			escape = true
			continue
		case q != 0:
			if r == q {
				q = 0
				continue
			}
		case r == '"' || r == '\'':
			q = r
			continue
		case r == '#':
			return b.String(), true
		case r == ' ' || r == '\t':
			return b.String(), true
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// gitui slurm --out 'my runs…' writes #SBATCH lines that sbatch reads back whole: the
// --output path of a directory with a space, a #, a double quote and a % is quoted (its
// % doubled, so that only %a is a replacement symbol); a directory holding a newline or
// a backslash, which no #SBATCH line can name, is refused before anything is written.
// (With GITUI_SLURM=1 TestRealSlurmQuotedOut submits such a directory to real sbatch.)
func TestSlurmOutputPathQuoted(t *testing.T) {
	fake, err := filepath.Abs("../../testdata/slurm/fake")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	base := t.TempDir()
	dir := filepath.Join(base, `my runs #1 "q" 50%`)
	if code, _, stderr := gitui(t, "slurm", "xperm-curve", "--quick", "--out", dir, "--tasks", "2", "--gitui", os.Args[0]); code != 0 {
		t.Fatalf("gitui slurm: exit %d: %s", code, stderr)
	}
	want := map[string]string{
		"array.sbatch": "--output=" + strings.ReplaceAll(filepath.Join(dir, "logs"), "%", "%%") + "/%a.out",
		"merge.sbatch": "--output=" + strings.ReplaceAll(filepath.Join(dir, "logs"), "%", "%%") + "/merge.out",
	}
	for f, w := range want {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := sbatchDirective(line); ok {
				found[strings.SplitN(v, "=", 2)[0]] = true
				if strings.HasPrefix(v, "--output=") && v != w {
					t.Errorf("%s: sbatch reads %q from %q, want %q", f, v, line, w)
				}
				if strings.HasPrefix(v, "--job-name=") && !strings.HasPrefix(v, "--job-name=gitui-xperm-curve") {
					t.Errorf("%s: sbatch reads %q from %q", f, v, line)
				}
			}
		}
		if !found["--output"] || !found["--job-name"] {
			t.Errorf("%s has no --output or --job-name line:\n%s", f, b)
		}
	}
	for _, c := range []struct{ name, dir, want string }{
		{"newline", filepath.Join(base, "two\nlines"), "holds a newline, which sbatch cannot take in an #SBATCH --output path: choose a directory without it"},
		{"backslash", filepath.Join(base, `back\slash`), "holds a backslash, which sbatch cannot take in an #SBATCH --output path: choose a directory without it"},
	} {
		code, _, stderr := gitui(t, "slurm", "xperm-curve", "--quick", "--out", c.dir, "--tasks", "2", "--gitui", os.Args[0])
		msg := strings.TrimSpace(stderr)
		if code != exitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
			t.Errorf("%s: exit %d, %q; want 2 and one line with %q", c.name, code, msg, c.want)
		}
		if _, err := os.Stat(c.dir); err == nil {
			t.Errorf("%s: %q was created", c.name, c.dir)
		}
	}
}

// TestRealSlurmQuotedOut submits xperm-curve --quick into a directory whose name holds
// a space, a #, a double quote and a % to a running Slurm cluster (GITUI_SLURM=1, as
// TestRealSlurm): sbatch takes both scripts, the tasks' logs are written under its
// logs/ as 0.out and 1.out, and the merge writes result.json.
func TestRealSlurmQuotedOut(t *testing.T) {
	if os.Getenv("GITUI_SLURM") != "1" {
		t.Skip("no Slurm test cluster: start one with testdata/slurm/start.sh and set GITUI_SLURM=1 (.ci/run does)")
	}
	t.Setenv(childEnv, "argv")
	base, err := os.MkdirTemp("", "gitui-slurm-quoted")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir := filepath.Join(base, `my runs #1 "q" 50%`)
	code, _, stderr := gitui(t, "slurm", "xperm-curve", "--quick", "--out", dir, "--tasks", "2", "--cpus-per-task", "1", "--time", "00:10:00", "--submit", "--gitui", os.Args[0])
	if code != 0 {
		t.Fatalf("gitui slurm --submit: exit %d: %s", code, stderr)
	}
	st, err := readSlurmState(dir)
	if err != nil || len(st.Submissions) != 1 {
		t.Fatalf("slurm.json: %v", err)
	}
	t.Cleanup(func() { exec.Command("scancel", st.Submissions[0].ArrayID, st.Submissions[0].MergeID).Run() })
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if _, err := os.Stat(filepath.Join(dir, "result.json")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			q, _ := exec.Command("squeue").CombinedOutput()
			t.Fatalf("no result.json within 5 minutes; squeue:\n%s", q)
		}
		time.Sleep(time.Second)
	}
	for _, f := range []string{"0.out", "1.out", "merge.out"} {
		if _, err := os.Stat(filepath.Join(dir, "logs", f)); err != nil {
			t.Errorf("the job log %s is not under logs/: %v", f, err)
		}
	}
}

// A spec of thousands of bad sizes or duplicate methods is refused in one short line: at
// most model.MaxProblems problems, then "and N more" (they were a line of every one, 114
// MB for 12 M sizes).
func TestValidationMessageCapped(t *testing.T) {
	dir := t.TempDir()
	sizes := make([]int, 100000)
	for i := range sizes {
		sizes[i] = -i
	}
	dups := make([]map[string]any, 20000)
	for i := range dups {
		dups[i] = map[string]any{"features": "raw"}
	}
	for _, c := range []struct {
		name string
		spec map[string]any
		want []string
	}{
		{"sizes", map[string]any{"name": "sizes", "protocol": "sample-complexity", "data": map[string]any{"name": "xperm"},
			"methods": []any{map[string]any{"features": "raw"}}, "sizes": sizes},
			[]string{"training size 0 is out of range: use 2..", "training size -2 is out of range", "; and 99,997 more"}},
		{"duplicate methods", map[string]any{"name": "dups", "protocol": "sample-complexity", "data": map[string]any{"name": "xperm"},
			"methods": dups, "sizes": []int{20}},
			[]string{`methods.0 and methods.1 are both named "raw RLS"`, "give methods.3 a different name (name: ...); and 19,996 more"}},
	} {
		b, _ := json.Marshal(c.spec)
		code, _, stderr := gitui(t, "run", writeSpec(t, dir, c.name, string(b)), "--out", filepath.Join(dir, "out"))
		msg := strings.TrimSpace(stderr)
		if code != exitUsage || strings.Contains(msg, "\n") || len(msg) > 1000 {
			t.Errorf("%s: exit %d, %d bytes on stderr (%.300q); want 2 and one line of at most 1000 bytes", c.name, code, len(msg), msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", c.name, msg, w)
			}
		}
	}
}

// SIGINT while a spec of a million methods is still being read and validated ends
// gitui at once with exit 130 ("gitui: interrupted"), without waiting for the read.
func TestValidationCancelled(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"name": "many", "protocol": "sample-complexity", "data": {"name": "xperm"}, "sizes": [20], "methods": [`)
	for i := 0; i < 1000000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"features": "raw", "name": "m%d"}`, i)
	}
	b.WriteString("]}")
	spec := writeSpec(t, dir, "many", b.String())
	cmd := child(t, "run", spec, "--out", filepath.Join(dir, "out"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond)
	t0 := time.Now()
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	took := time.Since(t0)
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || took > 3*time.Second || !strings.Contains(stderr.String(), "gitui: interrupted") {
		t.Fatalf("exit %d %.1f s after SIGINT, stderr %q; want 130 within 3 s and 'gitui: interrupted'", code, took.Seconds(), stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("the run directory was created")
	}
}

// gzipBytes returns b gzipped.
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// A damaged gzip file (cut short, a bad CRC, corrupt deflate data) is refused with exit
// 2 and one line naming the damage and the fix, "re-download it or check the copy":
// LIBSVM through data.path, USPS's zip.train.gz, MNIST's IDX files.
func TestGzipErrorsSayRedownload(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	var lib strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&lib, "%d", i%2)
		for k := 1; k <= 20; k++ {
			fmt.Fprintf(&lib, " %d:%.3f", k, rng.Float64())
		}
		lib.WriteString("\n")
	}
	g := gzipBytes([]byte(lib.String()))
	crc := append([]byte(nil), g...)
	crc[len(crc)-8] ^= 0xff // the CRC-32 of the trailer
	flate := append([]byte(nil), g...)
	flate[len(flate)/2] ^= 0x55
	var usps strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&usps, "%d", i%10)
		for k := 0; k < 256; k++ {
			fmt.Fprintf(&usps, " %.4f", 2*rng.Float64()-1)
		}
		usps.WriteString("\n")
	}
	os.MkdirAll(filepath.Join(dir, "usps"), 0o755)
	ug := gzipBytes([]byte(usps.String()))
	os.WriteFile(filepath.Join(dir, "usps", "zip.train.gz"), ug[:len(ug)/2], 0o644)
	os.WriteFile(filepath.Join(dir, "usps", "zip.test.gz"), ug, 0o644)
	os.MkdirAll(filepath.Join(dir, "mnist"), 0o755)
	img := append([]byte{0, 0, 8, 3, 0, 0, 0, 100, 0, 0, 0, 28, 0, 0, 0, 28}, make([]byte, 100*784)...)
	for i := range img[16:] {
		img[16+i] = byte(rng.IntN(256))
	}
	lab := append([]byte{0, 0, 8, 1, 0, 0, 0, 100}, make([]byte, 100)...)
	for _, p := range []string{"train10k", "t10k"} {
		ig := gzipBytes(img)
		if p == "train10k" {
			ig = ig[:len(ig)/2]
		}
		os.WriteFile(filepath.Join(dir, "mnist", p+"-images-idx3-ubyte.gz"), ig, 0o644)
		os.WriteFile(filepath.Join(dir, "mnist", p+"-labels-idx1-ubyte.gz"), gzipBytes(lab), 0o644)
	}
	libsvm := func(name string, b []byte) []string {
		p := filepath.Join(dir, name+".libsvm.gz")
		os.WriteFile(p, b, 0o644)
		spec := fmt.Sprintf(`{"name": %q, "protocol": "sample-complexity", "data": {"name": "file", "path": %q, "test_size": 50}, "methods": [{"features": "raw"}], "sizes": [20]}`, name, p)
		return []string{"run", writeSpec(t, dir, name, spec)}
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"truncated .libsvm.gz", libsvm("trunc", g[:len(g)/2]), "trunc.libsvm.gz: the gzip stream ends early (unexpected EOF), the file is truncated: re-download it or check the copy"},
		{"bad CRC", libsvm("crc", crc), "crc.libsvm.gz: the gzip stream fails its checksum (gzip: invalid checksum), the file is damaged: re-download it or check the copy"},
		{"corrupt deflate", libsvm("flate", flate), "the file is damaged: re-download it or check the copy"},
		{"truncated zip.train.gz", []string{"run", "chapelle-usps", "--quick", "--data", dir}, "zip.train.gz: read after line"},
		{"truncated IDX .gz", []string{"run", "mnist-cdf", "--quick", "--data", dir}, "train10k-images"},
	} {
		code, _, stderr := gitui(t, append(c.args, "--out", filepath.Join(dir, "out"))...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		last := lines[len(lines)-1]
		if code != exitUsage || !strings.HasPrefix(last, "gitui: ") || !strings.Contains(last, c.want) ||
			!strings.HasSuffix(last, "re-download it or check the copy") || strings.Count(last, "re-download") != 1 {
			t.Errorf("%s: exit %d, %q; want 2 and one line with %q ending in the fix", c.name, code, last, c.want)
		}
	}
}

// An IDX file whose labels hold three values (0, 3, 7) is a data set of three classes:
// the log says "3 classes" and the confusion table has three rows, not MNIST's ten with
// seven empty ones.
func TestIDXClassesAreThoseCarried(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, f := range []struct {
		name string
		n    int
	}{{"train", 90}, {"test", 30}} {
		img := binary.BigEndian.AppendUint32(nil, 0x803)
		for _, v := range []uint32{uint32(f.n), 8, 8} {
			img = binary.BigEndian.AppendUint32(img, v)
		}
		lab := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, 0x801), uint32(f.n))
		for i := 0; i < f.n; i++ {
			l := []byte{0, 3, 7}[i%3]
			lab = append(lab, l)
			for k := 0; k < 64; k++ {
				img = append(img, byte(max(0, min(255, 30*float64(l)+20*rng.NormFloat64()))))
			}
		}
		os.WriteFile(filepath.Join(dir, f.name+"-images-idx3-ubyte"), img, 0o644)
		os.WriteFile(filepath.Join(dir, f.name+"-labels-idx1-ubyte"), lab, 0o644)
	}
	spec := writeSpec(t, dir, "idx3", fmt.Sprintf(`{"name": "idx3", "protocol": "sample-complexity",
  "data": {"name": "file", "path": %q, "test_path": %q},
  "methods": [{"features": "raw"}], "sizes": [30], "repeats": 2}`, filepath.Join(dir, "train-images-idx3-ubyte"), filepath.Join(dir, "test-images-idx3-ubyte")))
	code, stdout, stderr := gitui(t, "run", spec, "--out", filepath.Join(dir, "out"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "3 classes") || strings.Contains(stderr, "10 classes") {
		t.Errorf("the load's log does not say 3 classes:\n%s", stderr)
	}
	_, table, _ := strings.Cut(stdout, "confusion raw RLS")
	table, _, _ = strings.Cut(table, "\n\n")
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) != 5 || strings.Fields(lines[1])[0] != "true" || strings.Join(strings.Fields(lines[1])[1:], " ") != "0 3 7" {
		t.Errorf("confusion table: want a header line, the columns 0 3 7 and three rows:\n%s", table)
	}
}

// The temporary files a SIGKILL between a write and its rename leaves in a run or study
// directory (.result.json-N, .predictions.csv-N, .study.json-N) are removed by the next
// gitui resume, which says so; other dot files stay.
func TestResumeRemovesAtomicTemps(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "run")
	if code, _, stderr := gitui(t, append(journalArgs, "--out", run)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	study := filepath.Join(base, "study")
	if code, _, stderr := gitui(t, "tune", writeTuneBlobs(t, base, 3), "--out", study); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		dir   string
		temps []string
	}{{run, []string{".result.json-2718281828", ".predictions.csv-31415"}}, {study, []string{".study.json-1618033", ".best.spec.json-4"}}} {
		for _, f := range append(c.temps, ".keep-123", ".notes.txt-12") {
			os.WriteFile(filepath.Join(c.dir, f), []byte("{"), 0o644)
		}
		code, _, stderr := gitui(t, "resume", c.dir)
		if code != 0 {
			t.Fatalf("resume %s: exit %d: %s", c.dir, code, stderr)
		}
		if !strings.Contains(stderr, fmt.Sprintf("removed %d temporary files a killed write left in %s", len(c.temps), c.dir)) {
			t.Errorf("resume %s does not say it removed the temporary files:\n%s", c.dir, stderr)
		}
		for _, f := range c.temps {
			if _, err := os.Stat(filepath.Join(c.dir, f)); err == nil {
				t.Errorf("%s is left in %s", f, c.dir)
			}
		}
		for _, f := range []string{".keep-123", ".notes.txt-12"} {
			if _, err := os.Stat(filepath.Join(c.dir, f)); err != nil {
				t.Errorf("%s, not a temporary file of gitui's, was removed", f)
			}
		}
	}
}

// Three specs of one name run in the same second without --out get a folder each,
// runs/TIME-NAME, -2 and -3, each holding its own spec (the second and third were
// refused as "a run of another spec").
func TestDefaultRunDirsDoNotCollide(t *testing.T) {
	t.Chdir(t.TempDir())
	t0 := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	old := now
	now = func() time.Time { return t0 }
	t.Cleanup(func() { now = old })
	base := store.RunDirName("same", t0)
	for i, seed := range []int{1, 2, 3} {
		spec := writeSpec(t, ".", fmt.Sprintf("s%d", i), fmt.Sprintf(`{"name": "same", "protocol": "sample-complexity", "seed": %d,
  "data": {"name": "xperm", "test_size": 100}, "group": {"kind": "permutation"},
  "methods": [{"features": "raw"}], "sizes": [20]}`, seed))
		if code, _, stderr := gitui(t, "run", spec); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, code, stderr)
		}
	}
	for i, dir := range []string{base, base + "-2", base + "-3"} {
		b, err := os.ReadFile(filepath.Join("runs", dir, "spec.json"))
		if err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
		if !strings.Contains(string(b), fmt.Sprintf(`"seed": %d`, i+1)) {
			t.Errorf("runs/%s holds another run's spec:\n%s", dir, b)
		}
		if _, err := os.Stat(filepath.Join("runs", dir, "result.json")); err != nil {
			t.Errorf("runs/%s: %v", dir, err)
		}
	}
}

// mountTmpfs mounts a tmpfs of the given options on a new directory and unmounts it at
// the end of the test; it skips the test where mounting is not allowed (not root).
func mountTmpfs(t *testing.T, opts string, flags uintptr) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, opts); err != nil {
		t.Skipf("cannot mount a tmpfs (%v): run as root to test full and read-only file systems", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// A disk that fills up during a study stops it with exit 1 and one line whose fix is
// "free space, then `gitui resume DIR`" (not exit 2, "choose another --out"), both in
// its journal and at the refit; after space is freed, gitui resume finishes the study
// with the best of an uninterrupted one, and does not call the failed write a kill.
func TestStudyOnAFullDisk(t *testing.T) {
	base := t.TempDir()
	spec := writeTuneBlobs(t, base, 81)
	ref := filepath.Join(base, "ref")
	if code, _, stderr := gitui(t, "tune", spec, "--out", ref); code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	want := readStudyFile(t, ref).Best
	for _, c := range []struct {
		name   string
		trials string
		pages  int64 // left free beside spec.json, split.json and the journal's first page
		where  string
	}{{"journal", "81", 3, "trials.jsonl"}, {"study.json", "9", 3, "study.json"}, {"refit", "9", 5, "/refit"}} {
		t.Run(c.name, func(t *testing.T) {
			disk := mountTmpfs(t, "size=256k", 0)
			var st syscall.Statfs_t
			if err := syscall.Statfs(disk, &st); err != nil {
				t.Fatal(err)
			}
			filler := filepath.Join(disk, "filler")
			if err := os.WriteFile(filler, make([]byte, (int64(st.Bavail)-c.pages)*st.Bsize), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(disk, "s")
			code, _, stderr := gitui(t, "tune", spec, "--out", dir, "--set", "tune.trials="+c.trials)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			last := lines[len(lines)-1]
			fix := "no space left on device: free space, then `gitui resume " + dir + "`"
			if code != exitFailure || !strings.HasPrefix(last, "gitui: ") || !strings.HasSuffix(last, fix) || !strings.Contains(last, c.where) {
				t.Fatalf("exit %d, last line %q; want 1 and a line ending %q", code, last, fix)
			}
			os.Remove(filler)
			code, _, stderr = gitui(t, "resume", dir)
			if code != 0 || strings.Contains(stderr, "kill") {
				t.Fatalf("resume: exit %d, stderr:\n%s", code, stderr)
			}
			if c.trials == "81" {
				a, _ := json.Marshal(readStudyFile(t, dir).Best)
				b, _ := json.Marshal(want)
				if string(a) != string(b) {
					t.Errorf("resumed best %s, uninterrupted %s", a, b)
				}
			}
		})
	}
}

// gitui tune --out on a read-only file system is refused with exit 2 and one line, as
// gitui run's is (it was exit 1).
func TestTuneOutReadOnly(t *testing.T) {
	ro := mountTmpfs(t, "size=64k", syscall.MS_RDONLY)
	base := t.TempDir()
	spec := writeTuneBlobs(t, base, 9)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", spec, "--out", filepath.Join(ro, "s")}, "cannot create the study directory " + filepath.Join(ro, "s") + " (read-only file system): choose a writable directory with --out"},
		{[]string{"run", "xperm-curve", "--quick", "--out", filepath.Join(ro, "r")}, "cannot create the run directory " + filepath.Join(ro, "r") + " (read-only file system): choose a writable directory with --out"},
	} {
		code, _, stderr := gitui(t, c.args...)
		msg := strings.TrimSpace(stderr)
		if code != exitUsage || strings.Contains(msg, "\n") || msg != "gitui: "+c.want {
			t.Errorf("%s: exit %d, %q; want 2 and %q", c.args[0], code, msg, c.want)
		}
	}
}

// A job line of another study spliced into a study's journal (its checksum holds, its
// n or params are not this study's schedule) is moved to trials.damaged.jsonl, as a
// damaged line is, instead of refusing the whole study: gitui resume keeps the study's
// own line of that job, or scores the job again where the spliced line replaced it, and
// gives the best of the untouched study.
func TestSplicedJobLineMovedAway(t *testing.T) {
	base := t.TempDir()
	spec := writeTuneBlobs(t, base, 9)
	other := filepath.Join(base, "other.json")
	b, _ := os.ReadFile(spec)
	os.WriteFile(other, bytes.Replace(b, []byte(`"seed": 5`), []byte(`"seed": 6`), 1), 0o644)
	a, o := filepath.Join(base, "a"), filepath.Join(base, "o")
	for _, c := range [][2]string{{spec, a}, {other, o}} {
		if code, _, stderr := gitui(t, "tune", c[0], "--out", c[1]); code != 0 {
			t.Fatalf("tune %s: exit %d: %s", c[0], code, stderr)
		}
	}
	want, _ := json.Marshal(readStudyFile(t, a).Best)
	lines := func(dir string) []string {
		b, _ := os.ReadFile(filepath.Join(dir, "trials.jsonl"))
		l := strings.SplitAfter(string(b), "\n")
		return l[:len(l)-1] // each line with its newline
	}
	// The other study's job line of trial 0 at rung 0, whose parameters differ (another
	// seed), and where this study's is.
	at := func(l []string) int {
		for i, s := range l {
			if strings.Contains(s, `"kind":"job","trial":0,"rung":0,`) {
				return i
			}
		}
		t.Fatal("no job line of trial 0 at rung 0")
		return 0
	}
	foreign := lines(o)[at(lines(o))]
	for _, c := range []struct {
		name, what string
		edit       func([]string) []string
	}{
		{"appended", "this study's own line of the job is kept", func(l []string) []string { return append(l, foreign) }},
		{"in place", "the job runs again", func(l []string) []string { l[at(l)] = foreign; return l }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "s")
			if err := os.CopyFS(dir, os.DirFS(a)); err != nil {
				t.Fatal(err)
			}
			os.RemoveAll(filepath.Join(dir, "refit")) // the refit runs again, on the resumed best
			os.WriteFile(filepath.Join(dir, "trials.jsonl"), []byte(strings.Join(c.edit(lines(dir)), "")), 0o644)
			code, _, stderr := gitui(t, "resume", dir)
			if code != 0 {
				t.Fatalf("resume: exit %d: %s", code, stderr)
			}
			if !strings.Contains(stderr, "1 line(s) of trial 0 at rung 0 are of another study") || !strings.Contains(stderr, c.what) {
				t.Errorf("resume does not say it moved the line away (%s):\n%s", c.what, stderr)
			}
			moved, _ := os.ReadFile(filepath.Join(dir, "trials.damaged.jsonl"))
			if !strings.Contains(string(moved), "a job of another study") {
				t.Errorf("trials.damaged.jsonl: %q", moved)
			}
			if got, _ := json.Marshal(readStudyFile(t, dir).Best); string(got) != string(want) {
				t.Errorf("best %s, the untouched study's %s", got, want)
			}
			if strings.Contains(strings.Join(lines(dir), ""), foreign) {
				t.Error("the spliced line is still in trials.jsonl")
			}
		})
	}
}

// A named pipe (FIFO) or a device as data.path is refused at once, before anything opens
// it (the open of a FIFO blocked until two SIGINTs left a lock and a header-only journal
// behind): exit 2, one line, and no run directory.
func TestDataPathFIFORefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "d.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	dev := filepath.Join(dir, "z.csv")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, what string }{{fifo, "a named pipe (FIFO)"}, {dev, "a device"}} {
		spec := writeSpec(t, dir, "s", fmt.Sprintf(`{"name": "fifo", "protocol": "sample-complexity", "data": {"name": "file", "path": %q, "test_size": 20}, "methods": [{"features": "raw"}], "sizes": [20]}`, c.path))
		out := filepath.Join(dir, "out")
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, _, stderr := gitui(t, "run", spec, "--out", out)
			done <- result{code, stderr}
		}()
		select {
		case r := <-done:
			msg := strings.TrimSpace(r.stderr)
			want := c.path + " is " + c.what + ", not a regular file: gitui reads a data file more than once (its size, its checksum, its rows): save the data to a file and give that path"
			if r.code != exitUsage || msg != "gitui: "+want {
				t.Errorf("exit %d, %q; want 2 and %q", r.code, msg, want)
			}
		case <-time.After(10 * time.Second):
			os.WriteFile(fifo, nil, 0o644) // a writer, so that the blocked open returns
			t.Fatalf("%s: no refusal within 10 s: the open blocks", c.what)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the run directory %s was left behind", c.what, out)
		}
	}
}

// A run's result.json linked to /dev/zero (or a file larger than any gitui writes) is
// refused before it is read, by the run store's listing (gitui open's Runs pane) and by
// gitui export: one line, at once, instead of reading until memory runs out.
func TestRunStoreFilesReadCapped(t *testing.T) {
	base := t.TempDir()
	run := filepath.Join(base, "run")
	if code, _, stderr := gitui(t, append(journalArgs, "--out", run)...); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	res := filepath.Join(run, "result.json")
	os.Remove(res)
	if err := os.Symlink("/dev/zero", res); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(base, "big", "result.json")
	os.MkdirAll(filepath.Dir(big), 0o755)
	if f, err := os.Create(big); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(model.MaxFileBytes + 1) // sparse
		f.Close()
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		entries, errs := store.Load([]string{run}, false)
		if len(entries)+len(errs) == 0 {
			t.Error("the listing gave neither an entry nor an error for the run")
		}
		for _, c := range []struct{ path, want string }{
			{res, "is a device, not a regular file: gitui reads only the files it wrote"},
			{big, "more than the 1073741824 of any file gitui writes"},
		} {
			code, _, stderr := gitui(t, "export", c.path, "--csv", "-")
			msg := strings.TrimSpace(stderr)
			if code != exitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
				t.Errorf("export %s: exit %d, %q; want 2 and one line with %q", c.path, code, msg, c.want)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("not refused within 20 s: the file is being read")
	}
}

// A study of tune.trials 1e9 under synchronous halving (and ASHA) starts its first jobs
// at once, in little memory, and stops on SIGTERM with exit 130 (its first rung's 1e9
// trial ids took 15 GB, and SIGTERM waited for them).
func TestTuneHugeTrialsLazy(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	base := t.TempDir()
	spec := writeTuneBlobs(t, base, 9)
	for _, pruner := range []string{"sh", "asha"} {
		cmd := child(t, "tune", spec, "--out", filepath.Join(base, pruner), "--set", "tune.trials=1000000000", "--set", "tune.pruner="+pruner)
		rssFile := filepath.Join(base, pruner+".rss")
		cmd.Env = append(cmd.Env, peakRSSEnv+"="+rssFile)
		var stderr syncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second)
		for !strings.Contains(stderr.String(), "trial 3 rung 0") {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("%s: no fourth job within 30 s:\n%s", pruner, stderr.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGTERM)
		t0 := time.Now()
		cmd.Wait()
		rss := int64(0)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = childPeakRSS(rssFile, ru.Maxrss) >> 10
		}
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || time.Since(t0) > 10*time.Second || rss > 512 {
			t.Errorf("%s: exit %d %.1f s after SIGTERM, peak RSS %d MB; want 130 within 10 s and under 512 MB", pruner, code, time.Since(t0).Seconds(), rss)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a child's writes and the test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The stabiliser chain of generated groups is bounded by the memory limit: the group of
// a 10,000-cycle (a cyclic group of degree 10,000, whose transversal takes 800 MB) under
// GITUI_MEMORY_LIMIT=256MiB is refused in one line, exit 2, within the limit, by the
// estimate that counts the chain's first level before it is built (it took 846 MB
// against an estimate of 27.8 MiB).
func TestGeneratedGroupChainBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("child process")
	}
	dir := t.TempDir()
	const d = 10000
	spec := generatedSpec(t, dir, "cyclic", d, 40, [][]int{cyclePerm(d)})
	c := boundsCase{name: "cyclic group of degree 10,000", args: []string{"run", spec, "--out", filepath.Join(dir, "out")},
		env: []string{"GITUI_MEMORY_LIMIT=256MiB"}, want: "the largest part is group tables: 50 permutations of 10000 coordinates, and the generators' stabiliser chain (764 MiB at least)"}
	r := runBounded(t, c)
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if last := lines[len(lines)-1]; r.code != exitUsage || !strings.HasPrefix(last, "gitui: ") || !strings.Contains(last, c.want) {
		t.Errorf("exit %d, last line %q; want 2 and %q", r.code, last, c.want)
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "result.json")); err == nil {
		t.Error("result.json written")
	}
	if r.rssKB > 320<<10 {
		t.Errorf("peak RSS %d MB, above 1.25 x the 256 MiB limit", r.rssKB>>10)
	}
	t.Logf("exit %d, peak RSS %d MB, %.1f s", r.code, r.rssKB>>10, r.wall.Seconds())
}

// S_n from a transposition and an n-cycle works for large n (docs/groups.md): S_3000
// with group.size 50 under GITUI_MEMORY_LIMIT=1GiB runs (its Schreier–Sims chain would
// need about 100 GB; recognised as S_n it holds its generators), and the run logs the
// order 3000!.
func TestGeneratedSymmetricGroupLargeDegree(t *testing.T) {
	dir := t.TempDir()
	const d = 3000
	swap := identityPerm(d)
	swap[0], swap[1] = 1, 0
	path := generatedSpec(t, dir, "s3000", d, 60, [][]int{swap, cyclePerm(d)})
	t.Setenv("GITUI_MEMORY_LIMIT", "1GiB")
	code, _, stderr := gitui(t, "run", path, "--out", filepath.Join(dir, "out"))
	if code != 0 || !strings.Contains(stderr, "50 of the generated group of order 4.1e9130") {
		t.Fatalf("exit %d: %s; want 0 and the group logged as 50 of order 3000! = 4.1e9130", code, stderr)
	}
}

// The stabiliser chain of a generated group enters the memory estimate before it is
// built: a 3000-cycle's first level (3000 transversal elements and their inverses, 69
// MiB) is refused under a 60 MiB limit in one line naming the chain, before it is
// allocated.
func TestGeneratedChainInEstimate(t *testing.T) {
	dir := t.TempDir()
	const d = 3000
	path := generatedSpec(t, dir, "c3000", d, 60, [][]int{cyclePerm(d)})
	t.Setenv("GITUI_MEMORY_LIMIT", "60MiB")
	code, _, stderr := gitui(t, "run", path, "--out", filepath.Join(dir, "out"))
	msg := strings.TrimSpace(stderr)
	if code != exitUsage || strings.Contains(msg, "\n") || !strings.Contains(msg, "the generators' stabiliser chain (69.0 MiB at least)") {
		t.Fatalf("exit %d, %q; want 2 and one line naming the chain", code, msg)
	}
}

// generatedSpec writes a rows x d CSV of random values and a spec of CDF(3,3) features
// on it under the group the generators gens generate (group.size 50), and returns the
// spec's path.
func generatedSpec(t *testing.T, dir, name string, d, rows int, gens [][]int) string {
	t.Helper()
	csv := writeWideCSV(t, dir, name+".csv", rows, d)
	spec, _ := json.Marshal(map[string]any{
		"name": name, "protocol": "sample-complexity",
		"data":    map[string]any{"name": "file", "path": csv, "test_size": 20},
		"group":   map[string]any{"kind": "generated", "generators": gens, "size": 50},
		"methods": []any{map[string]any{"features": "cdf", "bins": 3, "templates": 3}},
		"sizes":   []int{20},
	})
	return writeSpec(t, dir, name, string(spec))
}

// identityPerm returns the identity permutation of 0..d-1 as an image table.
func identityPerm(d int) []int {
	p := make([]int, d)
	for i := range p {
		p[i] = i
	}
	return p
}

// cyclePerm returns the d-cycle i -> i+1 mod d as an image table.
func cyclePerm(d int) []int {
	p := make([]int, d)
	for i := range p {
		p[i] = (i + 1) % d
	}
	return p
}

package fetch

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gitui/core/data"
)

// testServer serves files with Range support (http.ServeContent) and can misbehave:
// drop the connection halfway, stall halfway, or ignore Range.
type testServer struct {
	files       map[string][]byte
	mu          sync.Mutex
	requests    []string // "name|Range header"
	drop        int      // the first drop requests break off after half of the body
	stall       bool     // send half, then wait until the client goes away
	ignoreRange bool
}

func (s *testServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	b, ok := s.files[name]
	s.mu.Lock()
	s.requests = append(s.requests, name+"|"+r.Header.Get("Range"))
	n := len(s.requests)
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.ignoreRange {
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.Write(b)
		return
	}
	if n <= s.drop || s.stall {
		start := 0
		if rg := r.Header.Get("Range"); rg != "" {
			start, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
			w.Header().Set("Content-Range", "bytes "+strconv.Itoa(start)+"-"+strconv.Itoa(len(b)-1)+"/"+strconv.Itoa(len(b)))
			w.Header().Set("Content-Length", strconv.Itoa(len(b)-start))
			w.WriteHeader(http.StatusPartialContent)
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		}
		w.Write(b[start : start+(len(b)-start)/2])
		w.(http.Flusher).Flush()
		if s.stall {
			<-r.Context().Done()
			return
		}
		panic(http.ErrAbortHandler) // the server closes the connection mid-body
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}

func (s *testServer) log() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// fixture returns two random files (seeded) and their File entries.
func fixture() (map[string][]byte, []File) {
	rng := rand.New(rand.NewPCG(7, 11))
	files := map[string][]byte{"big.bin": make([]byte, 300_000), "small.bin": make([]byte, 1000)}
	var list []File
	for _, name := range []string{"big.bin", "small.bin"} {
		b := files[name]
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		sum := sha256.Sum256(b)
		list = append(list, File{Name: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))})
	}
	return files, list
}

func newServer(t *testing.T, s *testServer) string {
	t.Helper()
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts.URL
}

func checkFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("read %s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from the served %d bytes", name, len(got), len(want))
		}
		if _, err := os.Stat(filepath.Join(dir, name+".part")); err == nil {
			t.Errorf("%s.part left behind after success", name)
		}
	}
}

func TestFetchDownloadsAndCaches(t *testing.T) {
	files, list := fixture()
	srv := &testServer{files: files}
	url := newServer(t, srv)
	cache := t.TempDir()
	var last [2]int64
	calls := 0
	opts := Options{BaseURL: url, Files: list, SystemDirs: []string{},
		Progress: func(done, total int64) { last = [2]int64{done, total}; calls++ }}
	dir, err := Fetch(context.Background(), "mnist", cache, opts)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(cache, "mnist") {
		t.Errorf("dir = %s, want %s", dir, filepath.Join(cache, "mnist"))
	}
	checkFiles(t, dir, files)
	if last[0] != 301_000 || last[1] != 301_000 || calls < 2 {
		t.Errorf("last progress %v after %d calls, want [301000 301000]", last, calls)
	}
	if n := len(srv.log()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
	// A second call re-hashes the cached files and makes no request.
	if _, err := Fetch(context.Background(), "mnist", cache, opts); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.log()); n != 2 {
		t.Errorf("second Fetch made %d new requests, want 0", n-2)
	}
}

// TestFetchResumesAfterDrop: the server breaks the connection halfway; with no automatic
// retries Fetch fails and keeps the part file, and the next call asks for the rest with
// a Range request.
func TestFetchResumesAfterDrop(t *testing.T) {
	files, list := fixture()
	srv := &testServer{files: files, drop: 1}
	url := newServer(t, srv)
	cache := t.TempDir()
	opts := Options{BaseURL: url, Files: list, SystemDirs: []string{}, Retries: -1}
	_, err := Fetch(context.Background(), "mnist", cache, opts)
	if err == nil {
		t.Fatal("Fetch succeeded although the connection broke off")
	}
	if !strings.Contains(err.Error(), "big.bin") {
		t.Errorf("error %q does not name the URL", err)
	}
	part := filepath.Join(cache, "mnist", "big.bin.part")
	fi, err := os.Stat(part)
	if err != nil {
		t.Fatalf("no part file after the broken transfer: %v", err)
	}
	if fi.Size() != 150_000 {
		t.Errorf("part file has %d bytes, want the 150000 sent before the drop", fi.Size())
	}
	if _, err := Fetch(context.Background(), "mnist", cache, opts); err != nil {
		t.Fatal(err)
	}
	checkFiles(t, filepath.Join(cache, "mnist"), files)
	log := srv.log()
	if log[1] != "big.bin|bytes=150000-" {
		t.Errorf("second request %q, want a Range request from byte 150000", log[1])
	}
}

func TestFetchRetriesAutomatically(t *testing.T) {
	files, list := fixture()
	srv := &testServer{files: files, drop: 2} // drops at 150000 and at 150000+75000
	url := newServer(t, srv)
	var notes []string
	opts := Options{BaseURL: url, Files: list, SystemDirs: []string{}, Note: func(m string) { notes = append(notes, m) }}
	dir, err := Fetch(context.Background(), "mnist", t.TempDir(), opts)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, files)
	want := []string{"big.bin|", "big.bin|bytes=150000-", "big.bin|bytes=225000-", "small.bin|"}
	if got := srv.log(); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("requests %q, want %q", got, want)
	}
	if len(notes) != 2 {
		t.Errorf("notes %q, want one per resumption", notes)
	}
}

func TestFetchServerIgnoresRange(t *testing.T) {
	files, list := fixture()
	srv := &testServer{files: files, ignoreRange: true}
	url := newServer(t, srv)
	cache := t.TempDir()
	os.MkdirAll(filepath.Join(cache, "mnist"), 0o755)
	// A stale part file: the 200 answer must replace it, not be appended to it.
	os.WriteFile(filepath.Join(cache, "mnist", "big.bin.part"), files["big.bin"][:1234], 0o644)
	dir, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, files)
}

func TestFetchChecksumMismatch(t *testing.T) {
	files, list := fixture()
	list[1].SHA256 = strings.Repeat("ab", 32)
	url := newServer(t, &testServer{files: files})
	cache := t.TempDir()
	_, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("error %v, want a *ChecksumError", err)
	}
	dir := filepath.Join(cache, "mnist")
	sum := sha256.Sum256(files["small.bin"])
	want := "checksum mismatch for small.bin: got " + hex.EncodeToString(sum[:]) + ", want " + list[1].SHA256 +
		"; retry or download by hand into " + dir
	if err.Error() != want {
		t.Errorf("error\n%q, want\n%q", err, want)
	}
	for _, p := range []string{"small.bin", "small.bin.part"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Errorf("%s exists after a checksum mismatch", p)
		}
	}
	// The good file was kept.
	if _, err := os.Stat(filepath.Join(dir, "big.bin")); err != nil {
		t.Errorf("big.bin missing: %v", err)
	}
}

func TestFetchSizeMismatch(t *testing.T) {
	files, list := fixture()
	list[1].Size = 999 // the server sends 1000 bytes: one too many, stopped at byte 1000
	url := newServer(t, &testServer{files: files})
	_, err := Fetch(context.Background(), "mnist", t.TempDir(), Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "999 bytes") {
		t.Fatalf("error %v, want ErrTooLong naming the 999 bytes", err)
	}
	// A server that sends fewer bytes than the size fails the size check.
	list[1].Size = 1001
	_, err = Fetch(context.Background(), "mnist", t.TempDir(), Options{BaseURL: url, Files: list, SystemDirs: []string{}, Retries: -1})
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Got != "1000 bytes" {
		t.Fatalf("error %v, want a size *ChecksumError with 1000 bytes", err)
	}
}

// TestFetchCancel cancels while the server stalls mid-file: Fetch must return
// context.Canceled itself, promptly, and keep the bytes received for the next call.
func TestFetchCancel(t *testing.T) {
	files, list := fixture()
	url := newServer(t, &testServer{files: files, stall: true})
	cache := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := Options{BaseURL: url, Files: list, SystemDirs: []string{},
		Progress: func(done, _ int64) {
			if done >= 150_000 {
				cancel()
			}
		}}
	start := time.Now()
	_, err := Fetch(ctx, "mnist", cache, opts)
	if err != context.Canceled {
		t.Fatalf("error %v, want context.Canceled undecorated", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	fi, err := os.Stat(filepath.Join(cache, "mnist", "big.bin.part"))
	if err != nil || fi.Size() != 150_000 {
		t.Fatalf("part file after cancel: %v, %v; want 150000 bytes kept", fi, err)
	}
	srv := &testServer{files: files}
	opts = Options{BaseURL: newServer(t, srv), Files: list, SystemDirs: []string{}}
	dir, err := Fetch(context.Background(), "mnist", cache, opts)
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, files)
	if got := srv.log()[0]; got != "big.bin|bytes=150000-" {
		t.Errorf("resume request %q, want a Range from 150000", got)
	}
}

func TestFetchHTTPError(t *testing.T) {
	_, list := fixture()
	url := newServer(t, &testServer{files: map[string][]byte{}})
	cache := t.TempDir()
	_, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	if err == nil || !strings.Contains(err.Error(), "HTTP 404") || !strings.Contains(err.Error(), url+"/big.bin") {
		t.Fatalf("error %v, want HTTP 404 naming the URL", err)
	}
}

func TestFetchCorruptCachedFile(t *testing.T) {
	files, list := fixture()
	url := newServer(t, &testServer{files: files})
	cache := t.TempDir()
	os.MkdirAll(filepath.Join(cache, "mnist"), 0o755)
	bad := filepath.Join(cache, "mnist", "big.bin")
	os.WriteFile(bad, []byte("not the file"), 0o644)
	_, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	if err == nil || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "delete it") {
		t.Fatalf("error %v, want one naming %s and the fix", err, bad)
	}
}

func TestFetchUnknownName(t *testing.T) {
	_, err := Fetch(context.Background(), "cifar", t.TempDir(), Options{})
	if err == nil || !strings.Contains(err.Error(), `"cifar"`) || !strings.Contains(err.Error(), "mnist, fashion-mnist") {
		t.Fatalf("error %v, want the unknown name and the known ones", err)
	}
}

// failTransport fails the test on any request: proves nothing is downloaded.
type failTransport struct{ t *testing.T }

func (f failTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.t.Errorf("unexpected request %s", r.URL)
	return nil, errors.New("no network in this test")
}

func TestFetchUsesSystemDir(t *testing.T) {
	files, list := fixture()
	sys := t.TempDir()
	for name, b := range files {
		os.WriteFile(filepath.Join(sys, name), b, 0o644)
	}
	var notes []string
	dir, err := Fetch(context.Background(), "fashion-mnist", t.TempDir(), Options{
		Files: list, SystemDirs: []string{filepath.Join(sys, "absent"), sys},
		Client: &http.Client{Transport: failTransport{t}}, Note: func(m string) { notes = append(notes, m) }})
	if err != nil {
		t.Fatal(err)
	}
	if dir != sys || len(notes) != 1 || !strings.Contains(notes[0], sys) {
		t.Errorf("dir %s notes %q, want %s and one note naming it", dir, notes, sys)
	}
}

// TestFetchDebianFashionMNIST checks the pinned hashes of the Debian package
// dataset-fashion-mnist against the installed files, when the package is installed.
func TestFetchDebianFashionMNIST(t *testing.T) {
	const deb = "/usr/share/datasets/fashion-mnist"
	if _, err := os.Stat(filepath.Join(deb, "t10k-labels-idx1-ubyte.gz")); err != nil {
		t.Skip("Debian package dataset-fashion-mnist not installed (apt-get install dataset-fashion-mnist)")
	}
	dir, err := Fetch(context.Background(), "fashion-mnist", t.TempDir(), Options{Client: &http.Client{Transport: failTransport{t}}})
	if err != nil {
		t.Fatal(err)
	}
	if dir != deb {
		t.Errorf("dir %s, want %s", dir, deb)
	}
	if got, ok := Local("fashion-mnist", ""); !ok || got != deb {
		t.Errorf("Local = %s, %v; want %s", got, ok, deb)
	}
}

func TestSourcesWellFormed(t *testing.T) {
	for _, s := range Sources() {
		url := s.BaseURL
		if s.Archive != "" {
			url = s.Archive
		}
		if len(s.Files) < 2 || !strings.HasPrefix(url, "http") {
			t.Errorf("%s: %d files, base %q", s.Name, len(s.Files), s.BaseURL)
		}
		for _, f := range append(s.Files, s.SystemFiles...) {
			if b, err := hex.DecodeString(f.SHA256); err != nil || len(b) != 32 || f.SHA256 != strings.ToLower(f.SHA256) || f.Size <= 0 {
				t.Errorf("%s/%s: bad hash %q or size %d", s.Name, f.Name, f.SHA256, f.Size)
			}
		}
	}
	if _, err := Lookup("mnist"); err != nil {
		t.Error(err)
	}
}

// TestFetchCompletePartUnknownSize: a part file that already holds the whole file (a
// crash between download and rename) with no size known: the Range request gets 416,
// and the hash decides.
func TestFetchCompletePartUnknownSize(t *testing.T) {
	files, list := fixture()
	for i := range list {
		list[i].Size = 0
	}
	srv := &testServer{files: files}
	url := newServer(t, srv)
	cache := t.TempDir()
	os.MkdirAll(filepath.Join(cache, "mnist"), 0o755)
	os.WriteFile(filepath.Join(cache, "mnist", "big.bin.part"), files["big.bin"], 0o644)
	var last [2]int64
	dir, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{},
		Progress: func(d, tot int64) { last = [2]int64{d, tot} }})
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, files)
	if got := srv.log()[0]; got != "big.bin|bytes=300000-" {
		t.Errorf("first request %q, want a Range from 300000", got)
	}
	if last != [2]int64{301_000, 301_000} {
		t.Errorf("last progress %v, want the total learnt from the files", last)
	}
}

func TestContentRangeStart(t *testing.T) {
	for in, want := range map[string]int64{"bytes 100-199/200": 100, "bytes 0-0/1": 0, "bytes */200": -1, "": -1, "items 1-2/3": -1} {
		got, ok := contentRangeStart(in)
		if (want < 0) == ok || (ok && got != want) {
			t.Errorf("contentRangeStart(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
}

// endlessServer answers every request with 200 and a body that never ends (no
// Content-Length), counting the bytes it managed to send.
type endlessServer struct {
	mu   sync.Mutex
	sent int64
}

func (s *endlessServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	buf := make([]byte, 32<<10)
	for r.Context().Err() == nil {
		n, err := w.Write(buf)
		s.mu.Lock()
		s.sent += int64(n)
		s.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// TestFetchEndlessBody checks a disk filler: against a server whose body never
// ends, Fetch writes at most the file's known size (300,000 bytes), fails with an error
// wrapping ErrTooLong that names the size, deletes the part file, and does not retry
// (a retry would only stream again).
func TestFetchEndlessBody(t *testing.T) {
	_, list := fixture()
	ts := httptest.NewServer(&endlessServer{})
	t.Cleanup(ts.Close)
	url := ts.URL
	cache := t.TempDir()
	done := make(chan error, 1)
	var maxSeen int64
	go func() {
		_, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list[:1], SystemDirs: []string{},
			Progress: func(d, _ int64) { maxSeen = max(maxSeen, d) }})
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Fetch still streaming after 30 s")
	}
	if !errors.Is(err, ErrTooLong) || !strings.Contains(err.Error(), "300000 bytes") {
		t.Fatalf("error %v, want ErrTooLong naming the 300000 bytes", err)
	}
	if maxSeen > list[0].Size {
		t.Errorf("wrote %d bytes of a %d-byte file", maxSeen, list[0].Size)
	}
	ents, _ := os.ReadDir(filepath.Join(cache, "mnist"))
	if len(ents) != 0 {
		t.Errorf("left %v in the cache", ents)
	}
}

// TestFetchErrorLeavesNoEmptyPart checks that a 404 and a persistent 500 leave no empty
// .part file behind.
func TestFetchErrorLeavesNoEmptyPart(t *testing.T) {
	_, list := fixture()
	for _, code := range []int{http.StatusNotFound, http.StatusInternalServerError} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }))
		t.Cleanup(ts.Close)
		url := ts.URL
		cache := t.TempDir()
		_, err := Fetch(context.Background(), "mnist", cache, Options{BaseURL: url, Files: list[:1], SystemDirs: []string{}, Retries: -1})
		if err == nil || !strings.Contains(err.Error(), strconv.Itoa(code)) {
			t.Errorf("HTTP %d: error %v", code, err)
		}
		if _, serr := os.Stat(filepath.Join(cache, "mnist", "big.bin.part")); serr == nil {
			t.Errorf("HTTP %d: empty big.bin.part left behind", code)
		}
	}
}

// TestFetchUSPS serves the real ESL USPS files (from the shared data directory; skipped
// where it is absent) from a local server, dropping the first connection halfway: Fetch
// resumes, checks them against the official SHA-256 and sizes in sources, and the
// files read as 7,291 + 2,007 digits.
func TestFetchUSPS(t *testing.T) {
	src := os.Getenv("GITUI_DATA")
	if src == "" {
		src = "../../../../shared/data"
	}
	files := map[string][]byte{}
	for _, name := range []string{"zip.train.gz", "zip.test.gz"} {
		b, err := os.ReadFile(filepath.Join(src, "usps", name))
		if err != nil {
			t.Skipf("USPS not in %s/usps (%v): set GITUI_DATA to a directory holding usps/", src, err)
		}
		files[name] = b
	}
	srv := &testServer{files: files, drop: 1}
	url := newServer(t, srv)
	cache := t.TempDir()
	dir, err := Fetch(context.Background(), "usps", cache, Options{BaseURL: url, SystemDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(cache, "usps") {
		t.Errorf("dir = %s, want %s", dir, filepath.Join(cache, "usps"))
	}
	checkFiles(t, dir, files)
	resumed := false
	for _, r := range srv.log() {
		resumed = resumed || strings.Contains(r, "|bytes=")
	}
	if !resumed {
		t.Errorf("no Range request after the dropped connection: %v", srv.log())
	}
	for split, want := range map[string]int{"train": 7291, "test": 2007} {
		ds, err := data.OpenUSPS(context.Background(), cache, split)
		if err != nil {
			t.Fatal(err)
		}
		if ds.Len() != want {
			t.Errorf("usps %s: %d digits, want %d", split, ds.Len(), want)
		}
	}
	// A file that is not the official one is refused and not kept.
	bad := map[string][]byte{"zip.train.gz": append([]byte(nil), files["zip.train.gz"]...), "zip.test.gz": files["zip.test.gz"]}
	bad["zip.train.gz"][100] ^= 1
	cache2 := t.TempDir()
	_, err = Fetch(context.Background(), "usps", cache2, Options{BaseURL: newServer(t, &testServer{files: bad}), SystemDirs: []string{}})
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.File != "zip.train.gz" {
		t.Fatalf("tampered zip.train.gz: err = %v, want a ChecksumError for it", err)
	}
	if _, err := os.Stat(filepath.Join(cache2, "usps", "zip.train.gz")); err == nil {
		t.Error("the tampered file was kept")
	}
}

// letterZip builds a zip like NIST's gzip.zip: the four Letters members under gzip/,
// with seeded contents, and a member of another EMNIST split that must not be extracted.
func letterZip(t *testing.T) (archive []byte, members map[string][]byte, list []File) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	src, _ := Lookup("emnist-letters")
	members = map[string][]byte{}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i, fl := range append(src.Files, File{Name: "emnist-digits-test-labels-idx1-ubyte.gz"}) {
		b := make([]byte, 2000+50_000*(i%2))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "gzip/" + fl.Name, Method: zip.Store})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(b)
		if i < len(src.Files) {
			members[fl.Name] = b
			sum := sha256.Sum256(b)
			list = append(list, File{Name: fl.Name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(b))})
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), members, list
}

// TestFetchArchiveResumesAndExtracts serves a small gzip.zip that breaks off halfway the
// first time: Fetch resumes with a Range request, extracts only the four Letters
// members, verifies them, and deletes the archive; a second call downloads nothing.
func TestFetchArchiveResumesAndExtracts(t *testing.T) {
	archive, members, list := letterZip(t)
	srv := &testServer{files: map[string][]byte{"EMNIST/gzip.zip": archive}, drop: 1}
	url := newServer(t, srv) + "/EMNIST/gzip.zip"
	cache := t.TempDir()
	dir, err := Fetch(context.Background(), "emnist-letters", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	checkFiles(t, dir, members)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v, want only the four Letters files (archive deleted, digits not extracted)", names)
	}
	log := srv.log()
	if len(log) != 2 || !strings.HasPrefix(log[1], "EMNIST/gzip.zip|bytes=") {
		t.Errorf("requests %v, want the cut one and one Range request", log)
	}
	if _, err := Fetch(context.Background(), "emnist-letters", cache, Options{BaseURL: url, Files: list, SystemDirs: []string{}}); err != nil {
		t.Fatal(err)
	}
	if len(srv.log()) != 2 {
		t.Errorf("a second fetch downloaded again: %v", srv.log())
	}
}

// TestFetchArchiveChecksum checks that an archive whose members are not the official
// files (here: the real hashes of EMNIST against a small zip) is refused with a
// *ChecksumError, leaving neither a final file, a part file nor the archive.
func TestFetchArchiveChecksum(t *testing.T) {
	archive, _, _ := letterZip(t)
	url := newServer(t, &testServer{files: map[string][]byte{"gzip.zip": archive}}) + "/gzip.zip"
	cache := t.TempDir()
	_, err := Fetch(context.Background(), "emnist-letters", cache, Options{BaseURL: url, SystemDirs: []string{}})
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *ChecksumError", err)
	}
	entries, _ := os.ReadDir(filepath.Join(cache, "emnist-letters"))
	if len(entries) != 0 {
		t.Errorf("left behind: %v", entries)
	}
}

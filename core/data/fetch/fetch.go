package fetch

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gitui/internal/ctxio"
)

// File is one file of a data set: its base name, the lower-case hex SHA-256 of its
// bytes and its size in bytes (0 when unknown; then only the hash is checked).
type File struct {
	Name   string
	SHA256 string
	Size   int64
}

// Source describes a data set Fetch knows by name.
type Source struct {
	Name        string // "mnist", "fashion-mnist"
	Description string // one line for listings
	BaseURL     string // default download location; the file name is appended
	Files       []File // the official files
	// SystemDirs are directories of distribution packages that may already hold the
	// files; SystemFiles lists their hashes when the packager recompressed them.
	SystemDirs  []string
	SystemFiles []File
	// Archive, when not empty, is the URL of a zip archive holding Files as members (in
	// any folder of it): Fetch downloads the archive (resumable) and extracts only those
	// members; BaseURL is then unused. Options.BaseURL replaces this URL.
	Archive string
}

// The SHA-256 values below are those published with the official gzip files and
// repeated by TensorFlow Datasets, torchvision-style loaders and others; sizes are the
// official byte counts (TensorFlow Datasets checksums, Keras download logs).
var sources = []Source{
	{
		Name:        "mnist",
		Description: "MNIST handwritten digits (LeCun, Cortes, Burges): 60,000 train + 10,000 test, 28x28",
		BaseURL:     "https://storage.googleapis.com/cvdf-datasets/mnist/",
		Files: []File{
			{"train-images-idx3-ubyte.gz", "440fcabf73cc546fa21475e81ea370265605f56be210a4024d2ca8f203523609", 9912422},
			{"train-labels-idx1-ubyte.gz", "3552534a0a558bbed6aed32b30c495cca23d567ec52cac8be1a0730e8010255c", 28881},
			{"t10k-images-idx3-ubyte.gz", "8d422c7b0a1c1c79245a5bcf07fe86e33eeafee792b84584aec276f5a2dbc4e6", 1648877},
			{"t10k-labels-idx1-ubyte.gz", "f7ae60f92e00ec6debd23a6088c31dbd2371eca3ffa0defaefb259924204aec6", 4542},
		},
	},
	{
		Name:        "fashion-mnist",
		Description: "Fashion-MNIST (Xiao, Rasul, Vollgraf; Zalando): 60,000 train + 10,000 test, 28x28, 10 garment classes",
		BaseURL:     "http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/",
		Files: []File{
			{"train-images-idx3-ubyte.gz", "3aede38d61863908ad78613f6a32ed271626dd12800ba2636569512369268a84", 26421880},
			{"train-labels-idx1-ubyte.gz", "a04f17134ac03560a47e3764e11b92fc97de4d1bfaf8ba1a3aa29af54cc90845", 29515},
			{"t10k-images-idx3-ubyte.gz", "346e55b948d973a97e58d2351dde16a484bd415d4595297633bb08f03db6a073", 4422102},
			{"t10k-labels-idx1-ubyte.gz", "67da17c76eaffca5446c3361aaab5c3cd6d1c2608764d35dfb1850b086bf8dd5", 5148},
		},
		SystemDirs: []string{"/usr/share/datasets/fashion-mnist"},
		// Debian dataset-fashion-mnist 0.0~git20200523.55506a9-1 ships the same gzip
		// streams without the stored file name (each file is shorter by the name's
		// length plus one); hashes computed from the installed package.
		SystemFiles: []File{
			{"train-images-idx3-ubyte.gz", "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7", 26421856},
			{"train-labels-idx1-ubyte.gz", "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056", 29491},
			{"t10k-images-idx3-ubyte.gz", "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa", 4422079},
			{"t10k-labels-idx1-ubyte.gz", "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05", 5125},
		},
	},
	{
		Name:        "usps",
		Description: "USPS handwritten digits (Le Cun et al. 1990), ESL text files: 7,291 train + 2,007 test, 16x16, values in [-1, 1]",
		// The "ZIP code" files of Hastie, Tibshirani & Friedman's The Elements of
		// Statistical Learning; hashes and sizes from ../shared/data/usps/README.md.
		BaseURL: "https://hastie.su.domains/ElemStatLearn/datasets/",
		Files: []File{
			{"zip.train.gz", "66ebf231ab51f2cf6ac1a892d0f98ccffee1079d7a5db638c1f11f366046ca16", 1829071},
			{"zip.test.gz", "8dacc3c6e136af6c3488de9e5113a7daf140c8c2f1f0b61c54ee02f03f1a962f", 439208},
		},
	},
	{
		Name:        "emnist-letters",
		Description: "EMNIST Letters (Cohen et al. 2017): 124,800 train + 20,800 test, 28x28, 26 classes a..z; the four Letters members of NIST's gzip.zip (about 560 MB)",
		// NIST's EMNIST distribution; hashes and sizes of the four members from
		// ../shared/data/README.md (the LFS pointers of aurelienduarte/emnist).
		Archive: "https://biometrics.nist.gov/cs_links/EMNIST/gzip.zip",
		Files: []File{
			{"emnist-letters-train-images-idx3-ubyte.gz", "6288f418a917e007bf5fddb823a2dc7a5c6a35031401b93292a539cb12bd881f", 30804864},
			{"emnist-letters-train-labels-idx1-ubyte.gz", "9759af91ea6bccdf07a6040fd085861f2ec88e37f7c3f5760f6feb57106fbe5c", 79283},
			{"emnist-letters-test-images-idx3-ubyte.gz", "50f0e93d75b99b463e9760b8345866f22587fa2c2fba472730a5ba09c693412d", 5039157},
			{"emnist-letters-test-labels-idx1-ubyte.gz", "924955c31fe7fd809b7303b5c0141282955f4b8390c74cdfd5d80435e0f4b4cb", 144},
		},
	},
}

// Sources returns the data sets Fetch knows, in a fixed order. The slices are copies.
func Sources() []Source {
	out := make([]Source, len(sources))
	for i, s := range sources {
		out[i] = s
		out[i].Files = slices.Clone(s.Files)
		out[i].SystemDirs = slices.Clone(s.SystemDirs)
		out[i].SystemFiles = slices.Clone(s.SystemFiles)
	}
	return out
}

// Lookup returns the Source called name, or an error listing the known names.
func Lookup(name string) (Source, error) {
	for _, s := range Sources() {
		if s.Name == name {
			return s, nil
		}
	}
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
	}
	return Source{}, fmt.Errorf("unknown data set %q: use one of %s", name, strings.Join(names, ", "))
}

// Options adjusts a Fetch. The zero value downloads the official files from the
// default URL with http.DefaultClient.
type Options struct {
	// BaseURL replaces the Source's download location ("" keeps it); the file name is
	// appended after a slash. For a Source with an Archive it is the archive's URL.
	BaseURL string
	// Progress, if not nil, is called from Fetch's goroutine as bytes arrive, with the
	// bytes present so far (including files and part files found on disk) and the
	// expected total (0 while unknown).
	Progress func(done, total int64)
	// Files replaces the Source's file list (names, hashes, sizes): a mirror with other
	// files, or tests.
	Files []File
	// Client is the HTTP client; nil means http.DefaultClient.
	Client *http.Client
	// Retries is the number of automatic resumptions per file after a transfer breaks
	// off (connection dropped, 5xx): 0 means 3, a negative value means none.
	Retries int
	// SystemDirs replaces the Source's SystemDirs; a non-nil empty slice disables them.
	SystemDirs []string
	// Note, if not nil, receives one-line messages about what Fetch decided (for
	// example that it uses a system directory and downloads nothing).
	Note func(msg string)
}

// ChecksumError reports a downloaded or cached file whose SHA-256 (or size) is not the
// expected one. Fetch has deleted the part file when it returns it.
type ChecksumError struct {
	File      string // base name
	Got, Want string // hex SHA-256, or "N bytes" for a size mismatch
	Dir       string // the directory the file belongs in
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("checksum mismatch for %s: got %s, want %s; retry or download by hand into %s", e.File, e.Got, e.Want, e.Dir)
}

// Fetch makes the files of the data set name available and returns the directory that
// holds them:
//
//	dir = cacheDir/name               (downloaded or already cached)
//	dir = a Source.SystemDirs entry   (a distribution package holds intact files)
//
// Each missing file is downloaded from BaseURL+file into dir/file.part, resuming with
// an HTTP Range request where a part file exists, and renamed to dir/file once its size
// and SHA-256 match. Files already in dir are re-hashed; a mismatch there is an error
// telling the user to delete the file. Fetch returns ctx.Err() (undecorated) when ctx is
// cancelled, leaving the part file for the next call; a *ChecksumError on a mismatch;
// other errors name the URL or path and the fix.
func Fetch(ctx context.Context, name, cacheDir string, opts Options) (dir string, err error) {
	src, err := Lookup(name)
	if err != nil {
		return "", err
	}
	files := src.Files
	if opts.Files != nil {
		files = opts.Files
		src.SystemFiles = nil
	}
	if len(files) == 0 {
		return "", fmt.Errorf("data set %q: the file list is empty: pass Options.Files with at least one file", name)
	}
	sysDirs := src.SystemDirs
	if opts.SystemDirs != nil {
		sysDirs = opts.SystemDirs
	}
	for _, d := range sysDirs {
		if systemDirOK(d, files, src.SystemFiles) {
			opts.note(fmt.Sprintf("%s: using the files of %s (installed by a system package); nothing to download", name, d))
			return d, nil
		}
	}
	if cacheDir == "" {
		return "", fmt.Errorf("fetch %s: no cache directory given: pass --data DIR or set GITUI_DATA", name)
	}
	dir = filepath.Join(cacheDir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("fetch %s: %w: choose a writable data directory", name, err)
	}
	base := src.BaseURL
	if opts.BaseURL != "" {
		base = opts.BaseURL
	}
	f := &fetcher{opts: opts, dir: dir, base: strings.TrimSuffix(base, "/") + "/", client: opts.Client}
	if f.client == nil {
		f.client = http.DefaultClient
	}
	f.retries = opts.Retries
	if f.retries == 0 {
		f.retries = 3
	}
	for _, fl := range files {
		if fl.Size > 0 {
			f.total += fl.Size
		} else {
			f.unknown++
		}
	}
	if src.Archive != "" {
		url := src.Archive
		if opts.BaseURL != "" {
			url = opts.BaseURL
		}
		return dir, f.fromArchive(ctx, url, files)
	}
	for _, fl := range files {
		if err := f.file(ctx, fl); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// fromArchive makes files available in f.dir from the zip archive at url: files already
// there are verified; if any is missing, the archive is downloaded (resumable) into
// f.dir/ARCHIVE.part, each missing file is extracted from the member of the same base
// name into NAME.part and renamed to NAME once its size and SHA-256 match, and the
// archive is deleted. A member that does not match deletes its part file and the
// archive and returns a *ChecksumError; nothing unverified is left under a final name.
func (f *fetcher) fromArchive(ctx context.Context, url string, files []File) error {
	var missing []File
	for _, fl := range files {
		final := filepath.Join(f.dir, fl.Name)
		if _, err := os.Stat(final); err != nil {
			missing = append(missing, fl)
			continue
		}
		if err := f.file(ctx, fl); err != nil { // verifies what is in place
			return err
		}
	}
	if len(missing) == 0 {
		return nil
	}
	cut := strings.LastIndex(url, "/")
	if cut < 0 || cut == len(url)-1 {
		return fmt.Errorf("archive URL %q does not end in a file name: pass the URL of the zip archive", url)
	}
	name := url[cut+1:]
	if i := strings.IndexAny(name, "?#"); i >= 0 {
		name = name[:i]
	}
	f.base = url[:cut+1]
	arch := File{Name: name}
	f.unknown++
	part := filepath.Join(f.dir, name+".part")
	if err := f.download(ctx, arch, part); err != nil {
		return err
	}
	zr, err := zip.OpenReader(part)
	if err != nil {
		os.Remove(part)
		return fmt.Errorf("%s is not a readable zip archive (%v): it was deleted; run the fetch again, or check --url", url, err)
	}
	defer zr.Close()
	for _, fl := range missing {
		if err := f.extract(ctx, zr, fl, url); err != nil {
			var ce *ChecksumError
			if errors.As(err, &ce) {
				zr.Close()
				os.Remove(part) // the archive is not the official one: start afresh next time
			}
			return err
		}
	}
	zr.Close()
	os.Remove(part)
	f.opts.note(fmt.Sprintf("%s: extracted %d files, deleted the archive", name, len(missing)))
	return nil
}

// extract writes the member of zr whose base name is fl.Name to f.dir/fl.Name through a
// part file, checking its size and SHA-256.
func (f *fetcher) extract(ctx context.Context, zr *zip.ReadCloser, fl File, url string) error {
	var m *zip.File
	for _, zf := range zr.File {
		if pathpkg.Base(zf.Name) == fl.Name && !zf.FileInfo().IsDir() {
			m = zf
			break
		}
	}
	if m == nil {
		return fmt.Errorf("the archive %s holds no member %s: check --url (it must be the EMNIST gzip.zip)", url, fl.Name)
	}
	final := filepath.Join(f.dir, fl.Name)
	part := final + ".part"
	rc, err := m.Open()
	if err != nil {
		return fmt.Errorf("open %s in %s: %w: the archive is damaged, delete it and fetch again", m.Name, url, err)
	}
	defer rc.Close()
	out, err := os.Create(part)
	if err != nil {
		return fmt.Errorf("create %s: %w: choose a writable data directory", part, err)
	}
	h := sha256.New()
	limit := fl.Size
	if limit <= 0 {
		limit = MaxUnknownSize
	}
	n, cerr := io.Copy(io.MultiWriter(out, h), ctxio.Reader(ctx, io.LimitReader(rc, limit+1)))
	if err := out.Close(); cerr == nil {
		cerr = err
	}
	if cerr != nil {
		os.Remove(part)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("extract %s: %w: the archive is damaged, delete it and fetch again", m.Name, cerr)
	}
	return f.promote(fl, part, final, hex.EncodeToString(h.Sum(nil)), n)
}

func (o Options) note(msg string) {
	if o.Note != nil {
		o.Note(msg)
	}
}

// systemDirOK reports whether every file is in d with the official hash or the
// packager's (alt) hash.
func systemDirOK(d string, files, alt []File) bool {
	for _, fl := range files {
		got, _, err := hashFile(filepath.Join(d, fl.Name))
		if err != nil {
			return false
		}
		ok := got == strings.ToLower(fl.SHA256)
		for _, a := range alt {
			ok = ok || (a.Name == fl.Name && got == strings.ToLower(a.SHA256))
		}
		if !ok {
			return false
		}
	}
	return true
}

// hashFile returns the hex SHA-256 and size of the file at path.
func hashFile(path string) (string, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

type fetcher struct {
	opts    Options
	dir     string
	base    string
	client  *http.Client
	retries int
	done    int64 // bytes of finished files
	total   int64 // sum of known sizes
	unknown int   // files of unknown size not yet started
}

func (f *fetcher) progress(partial int64) {
	if f.opts.Progress == nil {
		return
	}
	total := f.total
	if f.unknown > 0 {
		total = 0
	}
	f.opts.Progress(f.done+partial, total)
}

// transientError marks a failure worth resuming after: the connection broke off or the
// server had a temporary problem.
type transientError struct{ err error }

func (e transientError) Error() string { return e.err.Error() }
func (e transientError) Unwrap() error { return e.err }

func (f *fetcher) file(ctx context.Context, fl File) error {
	final := filepath.Join(f.dir, fl.Name)
	want := strings.ToLower(fl.SHA256)
	if _, err := os.Stat(final); err == nil {
		got, n, err := hashFile(final)
		if err != nil {
			return fmt.Errorf("read %s: %w: check its permissions", final, err)
		}
		if got != want || (fl.Size > 0 && n != fl.Size) {
			return fmt.Errorf("%s has SHA-256 %s (%d bytes), want %s: delete it and fetch again", final, got, n, want)
		}
		f.account(fl, n)
		return nil
	}
	part := final + ".part"
	if err := f.download(ctx, fl, part); err != nil {
		return err
	}
	return f.verify(fl, part, final)
}

// download fills part with the bytes of fl from f.base, resuming after transient
// failures up to f.retries times.
func (f *fetcher) download(ctx context.Context, fl File, part string) error {
	for attempt := 0; ; attempt++ {
		err := f.attempt(ctx, fl, part)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var te transientError
		if !errors.As(err, &te) || attempt >= f.retries || f.retries < 0 {
			removeEmpty(part) // a 404 or 500 leaves no empty part file behind
			return err
		}
		f.opts.note(fmt.Sprintf("%s: %v; resuming (attempt %d of %d)", fl.Name, err, attempt+2, f.retries+1))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(attempt+1) * 200 * time.Millisecond):
		}
	}
	return nil
}

// verify renames the downloaded part to final if its size and SHA-256 are fl's, else
// deletes it and returns a *ChecksumError.
func (f *fetcher) verify(fl File, part, final string) error {
	got, n, err := hashFile(part)
	if err != nil {
		return fmt.Errorf("read %s: %w", part, err)
	}
	if err := f.promote(fl, part, final, got, n); err != nil {
		return err
	}
	f.account(fl, n)
	return nil
}

// promote renames part (n bytes of SHA-256 got) to final if its size and hash are
// fl's, else deletes it and returns a *ChecksumError.
func (f *fetcher) promote(fl File, part, final, got string, n int64) error {
	want := strings.ToLower(fl.SHA256)
	if fl.Size > 0 && n != fl.Size {
		os.Remove(part)
		return &ChecksumError{File: fl.Name, Got: fmt.Sprintf("%d bytes", n), Want: fmt.Sprintf("%d bytes", fl.Size), Dir: f.dir}
	}
	if got != want {
		os.Remove(part)
		return &ChecksumError{File: fl.Name, Got: got, Want: want, Dir: f.dir}
	}
	if err := os.Rename(part, final); err != nil {
		return fmt.Errorf("rename %s: %w: check the directory's permissions", part, err)
	}
	syncDir(f.dir)
	return nil
}

// account moves a finished file's bytes into done.
func (f *fetcher) account(fl File, n int64) {
	if fl.Size <= 0 {
		f.unknown--
		f.total += n
	}
	f.done += n
	f.progress(0)
}

// attempt appends the missing bytes of fl to part with one HTTP request. It returns nil
// when the server has nothing more to send (the caller then checks the hash).
func (f *fetcher) attempt(ctx context.Context, fl File, part string) (err error) {
	pf, err := os.OpenFile(part, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("create %s: %w: choose a writable data directory", part, err)
	}
	defer func() {
		serr := pf.Sync()
		if cerr := pf.Close(); serr == nil {
			serr = cerr
		}
		if err == nil && serr != nil {
			err = fmt.Errorf("write %s: %w", part, serr)
		}
	}()
	have, err := pf.Seek(0, io.SeekEnd)
	if err != nil {
		return fmt.Errorf("read %s: %w", part, err)
	}
	if fl.Size > 0 && have > fl.Size {
		if have, err = restart(pf); err != nil {
			return err
		}
	}
	if fl.Size > 0 && have == fl.Size {
		return nil
	}
	url := f.base + fl.Name
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("download %s: %w: check the base URL", url, err)
	}
	if have > 0 {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(have, 10)+"-")
	}
	resp, err := f.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return transientError{fmt.Errorf("download %s: %w: check the network, or download by hand into %s", url, err, f.dir)}
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusPartialContent && have > 0:
		start, ok := contentRangeStart(resp.Header.Get("Content-Range"))
		if !ok || start != have {
			// The server sent another range than asked: start over.
			if _, err := restart(pf); err != nil {
				return err
			}
			return transientError{fmt.Errorf("download %s: server answered range %q to a request from byte %d", url, resp.Header.Get("Content-Range"), have)}
		}
	case resp.StatusCode == http.StatusOK:
		if have > 0 { // the server ignores Range: take the whole file again
			if have, err = restart(pf); err != nil {
				return err
			}
		}
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable && have > 0:
		return nil // nothing after byte have: the part is complete (or wrong; the hash decides)
	case resp.StatusCode >= 500 || resp.StatusCode == http.StatusTooManyRequests:
		return transientError{fmt.Errorf("download %s: HTTP %s: retry later, or download by hand into %s", url, resp.Status, f.dir)}
	default:
		return fmt.Errorf("download %s: HTTP %s: check the base URL, or download by hand into %s", url, resp.Status, f.dir)
	}
	return f.copy(ctx, pf, resp.Body, have, fl, url)
}

// MaxUnknownSize bounds the download of a file whose size is not listed (File.Size 0):
// 4 GiB, far above any data set Fetch knows.
const MaxUnknownSize = 4 << 30

// ErrTooLong is wrapped by the error of a download whose server sends more bytes than
// the file has (File.Size, or MaxUnknownSize when unknown).
var ErrTooLong = errors.New("server sent more than the file's size")

// copy appends body to pf, reporting progress, until EOF, an error or cancellation. It
// never writes past the file's known size: the copy is limited to one byte more than
// the bytes missing, and that byte means the server sends too much (a body that never
// ends would otherwise fill the disk); the part file is then deleted.
func (f *fetcher) copy(ctx context.Context, pf *os.File, body io.Reader, have int64, fl File, url string) error {
	size := fl.Size
	if size <= 0 {
		size = MaxUnknownSize
	}
	body = io.LimitReader(body, size-have+1)
	buf := make([]byte, 64<<10)
	for {
		n, rerr := body.Read(buf)
		if have+int64(n) > size {
			restart(pf)
			os.Remove(pf.Name())
			return fmt.Errorf("download %s: the server sent more than the %d bytes of %s: %w; the part file is deleted: retry, or download by hand into %s", url, size, fl.Name, ErrTooLong, f.dir)
		}
		if n > 0 {
			if _, err := pf.Write(buf[:n]); err != nil {
				return fmt.Errorf("write %s: %w: free disk space or choose another data directory", pf.Name(), err)
			}
			have += int64(n)
			f.progress(have)
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return transientError{fmt.Errorf("download %s: broke off after %d bytes: %w", url, have, rerr)}
		}
	}
}

// removeEmpty deletes the file at path if it exists and is empty.
func removeEmpty(path string) {
	if fi, err := os.Stat(path); err == nil && fi.Size() == 0 {
		os.Remove(path)
	}
}

// restart empties the part file.
func restart(pf *os.File) (int64, error) {
	if err := pf.Truncate(0); err != nil {
		return 0, fmt.Errorf("truncate %s: %w", pf.Name(), err)
	}
	if _, err := pf.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("truncate %s: %w", pf.Name(), err)
	}
	return 0, nil
}

// contentRangeStart parses the first byte of "bytes START-END/TOTAL".
func contentRangeStart(v string) (int64, bool) {
	v, ok := strings.CutPrefix(v, "bytes ")
	if !ok {
		return 0, false
	}
	s, _, ok := strings.Cut(v, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// syncDir flushes a directory entry after a rename (best effort: not all systems allow
// opening a directory for sync).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Local reports whether the files of data set name are already on disk, in a system
// directory or in cacheDir/name, and returns that directory. It checks presence only
// (no hashing), for listings; Fetch verifies.
func Local(name, cacheDir string) (dir string, ok bool) {
	src, err := Lookup(name)
	if err != nil {
		return "", false
	}
	dirs := slices.Clone(src.SystemDirs)
	if cacheDir != "" {
		dirs = append(dirs, filepath.Join(cacheDir, name))
	}
	for _, d := range dirs {
		all := true
		for _, fl := range src.Files {
			if _, err := os.Stat(filepath.Join(d, fl.Name)); errors.Is(err, fs.ErrNotExist) || err != nil {
				all = false
				break
			}
		}
		if all {
			return d, true
		}
	}
	return "", false
}

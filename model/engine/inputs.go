package engine

import (
	"fmt"
	"os"

	"gitui/core/data"
	"gitui/model"
)

// InputBinder is implemented by a Journal that records what its cells were computed on
// (the run store's directory, store.RunDir): the engine calls BindInputs once the data
// is loaded and the group built, before any cell runs. An error (the journal records
// other inputs: the data file changed, another --data) ends the run before a cell of
// other data is mixed in; notice, when not empty, goes to the run log.
type InputBinder interface {
	BindInputs(in model.Inputs) (notice string, err error)
}

// RunInputs returns the fingerprint of a run's inputs (model.Inputs): the loaded pool
// and test set (data.Fingerprint), named by used (the data set loaded: data.name or its
// fallback) and where it came from, and the files the spec names (data.path,
// data.test_path, group.path, group.generators_path) by size, modification time and
// SHA-256. withTest false leaves data.test_path out (a study reads no test file) and
// test nil. It reads each named file once more to hash it; an error names the file.
func RunInputs(s *model.Spec, dataDir, used string, pool, test *data.Dataset, withTest bool) (model.Inputs, error) {
	in := model.Inputs{Data: model.DataPrint{Source: dataSource(s.Data, dataDir, used), Pool: pool.Len()}}
	if test != nil {
		in.Data.Test = test.Len()
	}
	in.Data.SHA256 = data.Fingerprint(pool, test)
	files := []struct{ role, path string }{{"data.path", s.Data.Path}}
	if withTest {
		files = append(files, struct{ role, path string }{"data.test_path", s.Data.TestPath})
	}
	files = append(files, struct{ role, path string }{"group.path", s.Group.Path}, struct{ role, path string }{"group.generators_path", s.Group.GeneratorsPath})
	for _, f := range files {
		if f.path == "" {
			continue
		}
		fi, err := os.Stat(f.path)
		if err != nil || !fi.Mode().IsRegular() {
			continue // a directory (a corpus of recordings): the samples' fingerprint covers it
		}
		size, sum, err := data.FileDigest(f.path)
		if err != nil {
			return model.Inputs{}, fmt.Errorf("fingerprint %s %s: %w", f.role, f.path, err)
		}
		in.Files = append(in.Files, model.FilePrint{Role: f.role, Path: f.path, Size: size, ModTime: fi.ModTime().UTC(), SHA256: sum})
	}
	return in, nil
}

// dataSource names where data set used came from, for messages: "file PATH" for a
// file, "NAME from DIR" for a named data set read from the data directory, else NAME
// (generated or built in).
func dataSource(d model.DataSpec, dataDir, used string) string {
	switch {
	case used == "file":
		return "file " + d.Path
	case d.Path != "":
		return used + " from " + d.Path
	case dataDir != "" && !builtIn(used):
		return used + " from " + dataDir
	}
	return used
}

// builtIn reports whether data set name is generated or compiled into the binary, so
// that no data directory is read for it.
func builtIn(name string) bool {
	switch name {
	case "xperm", "circle", "embedded", "digits16", "graphs", "graphs-relabelled":
		return true
	}
	return false
}

// bindInputs fingerprints the run's inputs and binds the journal to them (InputBinder),
// logging its notice. A journal that is no InputBinder, or a study's trial (loaded
// data, no journal of its own), binds nothing.
func bindInputs(r *runState, used string) error {
	b, ok := r.opts.Dir.(InputBinder)
	if !ok || r.opts.Loaded != nil {
		return nil
	}
	in, err := RunInputs(r.spec, r.opts.DataDir, used, r.pool, r.test, true)
	if err != nil {
		return err
	}
	notice, err := b.BindInputs(in)
	if notice != "" {
		r.logf("%s", notice)
	}
	return err
}

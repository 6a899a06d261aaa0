package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"gitui/core/eval"
	"gitui/model"
	"gitui/model/store"
	"gitui/ui/export"
	"gitui/ui/form"
)

// save writes, in the background, a new directory under OutDir holding result.json of
// the current run, pin-K.result.json of each pinned run, spec.json (the edited spec,
// runnable with `gitui run spec.json`), curves.csv of all of them, curves.png and
// curves.svg (all runs overlaid) and heatmap-K.png/svg of each matrix shown.
func (a *App) save() tea.Cmd {
	var cur *model.Result
	if len(a.curves.Current().Series) > 0 {
		cur = a.currentResult()
	}
	pins := append([]*model.Result(nil), a.pins...)
	mats := append([]eval.Matrix(nil), a.heat.Matrices()...)
	spec := a.spec.Clone()
	root := a.opts.OutDir
	if root == "" {
		root = "gitui-results"
	}
	// Named after the run shown (or the spec in the panes), as the run store names it:
	// "20261203-182524-xperm-curve-mnist-cyclic-shift", never after a spec file's path.
	name := form.RunName(a.base, spec)
	if cur != nil && a.r.spec != nil {
		name = a.r.spec.Name
	}
	dir := filepath.Join(root, store.RunDirName(name, a.now()))
	a.setStatus("saving to "+dir+"…", false)
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = savedMsg{dir: dir, err: fmt.Errorf("save panicked: %v", r)}
			}
		}()
		files, err := writeAll(dir, cur, pins, mats, spec)
		return savedMsg{dir: dir, files: files, err: err}
	}
}

// writeAll writes the files of save into dir and returns their base names.
func writeAll(dir string, cur *model.Result, pins []*model.Result, mats []eval.Matrix, spec *model.Spec) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	var files []string
	var errs []error
	note := func(name string, err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			return
		}
		files = append(files, name)
	}
	// all is in the Curves pane's drawing order (pins, then the current run unless it is
	// the last pin), so that theme.Looks gives every series the look it has on screen.
	var all []*model.Result
	if cur != nil {
		note("result.json", cur.WriteFile(filepath.Join(dir, "result.json")))
	}
	for i, p := range pins {
		name := fmt.Sprintf("pin-%d.result.json", i+1)
		note(name, p.WriteFile(filepath.Join(dir, name)))
		all = append(all, p)
	}
	if cur != nil && (len(pins) == 0 || pins[len(pins)-1] != cur) { // a pinned current run is drawn once
		all = append(all, cur)
	}
	b, err := json.MarshalIndent(spec, "", "  ")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "spec.json"), append(b, '\n'), 0o644)
	}
	note("spec.json", err)
	if len(all) > 0 {
		f, err := os.Create(filepath.Join(dir, "curves.csv"))
		if err == nil {
			err = export.WriteCSV(f, all...)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		note("curves.csv", err)
		for _, ext := range []string{"png", "svg"} {
			name := "curves." + ext
			if err := export.Curves(all, filepath.Join(dir, name)); err != nil && !errors.Is(err, export.ErrNothingToPlot) {
				note(name, err)
			} else if err == nil {
				note(name, nil)
			}
		}
	}
	for i, m := range mats {
		base := fmt.Sprintf("heatmap-%d-%s", i+1, store.SafeName(m.Name))
		note(base+".png", export.HeatmapPNG(m, filepath.Join(dir, base+".png")))
		note(base+".svg", export.HeatmapSVG(m, filepath.Join(dir, base+".svg")))
	}
	return files, errors.Join(errs...)
}

// savePartial writes the result received so far (after a panic) to a new directory
// under root and returns the path of its result.json.
func savePartial(root string, p *partial, now time.Time) (string, error) {
	if p == nil || p.spec == nil {
		return "", errors.New("no run had started")
	}
	out := p.outcome
	if out == nil {
		out = &eval.Outcome{Series: p.points}
	}
	r := model.NewResult(p.spec, out, errors.New("the workbench panicked"), now.Sub(p.started))
	if root == "" {
		root = "gitui-results"
	}
	path := filepath.Join(root, now.Format("20060102-150405")+"-partial", "result.json")
	if err := r.WriteFile(path); err != nil {
		return "", err
	}
	return path, nil
}

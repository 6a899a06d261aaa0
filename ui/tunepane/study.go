package tunepane

import (
	"gitui/model/study"
)

// Snapshot is a study as its directory holds it at one moment (study.Snapshot).
type Snapshot = study.Snapshot

// Load reads the study directory dir (study.Load). This is the workbench's one reader
// of study directories: the same reader `gitui export` uses for a study's table.
func Load(dir string) (Snapshot, error) { return study.Load(dir) }

// Trial is one row of the trials table (study.Trial).
type Trial = study.Trial

// trials returns the trials of s in id order and the training size of each rung
// (study.Trials).
func trials(s Snapshot, running bool) ([]Trial, []int) { return study.Trials(s, running) }

// best returns the best trial as the study chooses it (study.BestTrial).
func best(ts []Trial) (id, rung int, v float64, ok bool) { return study.BestTrial(ts) }

// paramText formats a parameter's value for the table and the axes (study.ParamText).
func paramText(v any) string { return study.ParamText(v) }

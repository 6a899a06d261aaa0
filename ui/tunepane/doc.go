// Package tunepane is the workbench's Tune view: a study of `gitui tune` (model/study)
// started from the Method pane, followed live rung by rung.
//
// # Overview
//
// Model draws four sections: the trials table (each trial's parameters, the highest
// rung it reached and its n, the validation accuracy there, its state: running,
// complete, pruned, failed, or stopped when the search was cancelled; ★ marks the best,
// chosen as the study chooses it: the highest validation at the highest rung reached);
// the best validation so far of each rung against the trials' cumulative seconds
// (ntcharts); the parallel coordinates of the trials (ui/parcoords: the parameters, the
// n reached, the validation there); and the importance of each parameter (η² of the
// validation at the first rung, where every trial is scored at the same n:
// runs.Importances). At 110×28 and more the four are drawn at once; narrower, one at a
// time under a section bar. tab moves the focus; the axes take the parcoords keys.
//
// Load reads a study directory (its journal while the search runs, study.json once it
// finished): it is the view's one reader of study directories.
//
// # Shapes
//
// View draws exactly the size given to SetSize.
//
// # Errors
//
// None: a study that stopped with an error shows it in the header.
//
// # Concurrency
//
// Used from the Bubble Tea loop only; Load may run in a command.
package tunepane

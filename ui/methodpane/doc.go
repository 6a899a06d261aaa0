// Package methodpane is the workbench's method pane: each method of the spec (feature
// map or kernel, learner and their hyperparameters), the protocol and its sizes,
// repeats, sampling and seed, with the equivalent headless command line.
//
// # Overview
//
// Only the fields that apply are listed: bins n for CDF features, templates m and
// their kind for CDF and moment pooling, base and gamma for the RBF and Haar kernels,
// gamma and degree for the polynomial kernel, C for the SVM learners, invariance, fit,
// psd and kernel norm for Liu et al.'s kernels, lambda for RLS (log steps: ←/→ divide or
// multiply by 10; 0 = leave-one-out). [ and ] switch between methods, a adds a copy of
// the current one, D deletes it. The bottom lines show `gitui run PRESET --set
// key=value ...` reproducing the panes (form.CommandLine). Angles, shifts and the
// locality sizes are set with --set or a spec file.
//
// # Shapes
//
// One form over the full pane width, the command line in the last rows.
//
// # Errors
//
// Inline parse and range errors come from ui/form; spec problems about methods and the
// protocol (Spec.Validate) are listed under the fields.
//
// # Concurrency
//
// Used from the Bubble Tea loop only.
package methodpane

// Package study runs `gitui tune`: an honest hyperparameter search over a spec's tune
// block, journaled in a study directory so that it can be resumed.
//
// The search loads the training pool once (engine.LoadPool: the test set is not read),
// carves a seeded stratified validation split out of it (engine.ValidationSplit), and
// scores every trial on that split at training sizes drawn from the rest of the pool,
// as successive halving (core/tune) schedules them. Every scored job is appended to
// trials.jsonl (one JSON line with a CRC-32C of its record, fsynced) before the
// scheduler hears of it; resuming replays the journal in order through the same
// deterministic sampler and scheduler, so a study killed at any point and resumed takes
// the same decisions as one that was never interrupted.
//
// The final refit of the best configuration at the full training size is an ordinary
// run of best.spec.json (the command line does it through its run path), so that
// `gitui run best.spec.json` reproduces the study's test accuracy exactly.
//
// The study directory:
//
//	spec.json        the spec with its tune block
//	trials.jsonl     the journal: a header with the spec's hash, then one line per scored job
//	study.json       derived: gitui.study/v1 (sampler, pruner, eta, trials and their rungs, best)
//	split.json       the pool rows of the validation split
//	best.spec.json   the plain spec of the best configuration at the refit size
//	refit/           the refit's run directory; its result.json and predictions.csv are copied up
//
// The trial runner calls engine.Start; when the engine moves to model/engine, that call
// (runTrial) is the one to re-point.
package study

// Package study runs `gitui tune`: an honest hyperparameter search over a spec's tune
// block, journaled in a study directory so that it can be resumed.
//
// The search loads the training pool once (engine.LoadPool: the test set is not read),
// carves a seeded stratified validation split out of it (engine.ValidationSplit), and
// scores every trial on that split at training sizes drawn from the rest of the pool,
// as successive halving (core/tune) schedules them. Every scored job is appended to the
// study's trials.jsonl (model/store: verified like cells.jsonl, the same header and
// per-line CRC-32C, the same reader) before the scheduler hears of it; resuming replays
// the journal in order through the same deterministic sampler and scheduler, so a study
// killed at any point and resumed takes the same decisions as one never interrupted.
//
// With tune.workers N, N jobs are in flight: the scheduler hears job k's score once it
// has given job k+N-1, so the decisions depend on N and not on timing. Join opens a study
// as one task of a Slurm array: the tasks replay the same job sequence, take the jobs
// not yet journaled by an O_EXCL claim (store.ClaimJob) and wait for the scores other
// tasks compute, so an array of N tasks gives the trials of one process with workers N.
//
// A study is the second kind of job, shaped like a run: Start runs it to its
// conclusion and streams its events, the same for `gitui tune`, `gitui resume` and the
// workbench (which only draw them): the search, best.spec.json, the refit of the best
// configuration at the refit size as an ordinary run of best.spec.json in DIR/refit
// (concluded by store.RunDir.Conclude, as `gitui run` concludes a run, so that `gitui
// run best.spec.json` reproduces the study's test accuracy exactly), the refits of
// tune.refit_top, and study.json with the test accuracy.
//
// The study directory's files, its journal, study.json (store.Study), its lock and its
// listing live in model/store (docs/runs.md, "A study directory").
package study

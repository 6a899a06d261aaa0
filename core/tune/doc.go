// Package tune holds the pure parts of a hyperparameter search: a search space of
// categorical, integer and float dimensions (linear or log), the samplers that propose
// configurations (grid, seeded random, scrambled Halton, and TPE after Bergstra et al.
// 2011), and the schedulers that decide which configuration runs at which budget
// (asynchronous successive halving, ASHA, after Li et al. 2018; synchronous successive
// halving; Hyperband brackets).
//
// Everything here is deterministic given a seed and the order in which results are
// reported: a sampler's proposal for trial i depends only on the seed, i and the
// observations passed in, and a scheduler's next job only on the results reported so
// far. A study that replays its journal in the same order therefore takes the same
// decisions, which is what lets a killed study resume to the same best.
//
// A configuration is a []float64 with one entry per dimension: the value itself for a
// numeric dimension (a whole number for an integer one), the index of the value for a
// categorical one. Scores are "higher is better" (validation accuracy).
//
// The package imports only the standard library.
package tune

// Package eval runs the experimental protocols of the papers and reports them as a
// stream of events and an [Outcome].
//
// # Protocols
//
// [Protocol] is the sample-complexity curve and its relatives (parameter sweeps, grids
// over bins × templates or |G|): stages of arms, each arm a [Method] trained on Size
// samples drawn from a pool and tested on a fixed test set, over Repeats seeded draws.
// The draw of repeat r at size n depends only on (Seed, r, n) ([Protocol.Draw]): every
// method sees the same training sets (common random numbers), and a method can
// enumerate the draws of a run before it starts ([Protocol.Draws]) to precompute a
// kernel on their union. A Method's Prepare does the draw-independent work once; the
// [Fitter] it returns trains and predicts per draw, concurrently.
//
// [Approx] is the kernel-approximation check of Theorem 1 of Mroueh et al.: the CDF
// feature kernel against s - d_G(x, z) on random pairs, per number of templates.
//
// [PD] is Table I of Liu et al.: for each kernel, the largest number of random samples
// whose Gram matrix stays positive definite (kernel.LargestPD over seeded draws).
//
// # Events
//
// A protocol's Run takes a context.Context and sends [Event]s on a channel it does not
// close: [Progress] (stage, done, total), [Point] (series, x, mean, std, runs) each time
// a cell's repeats update, [Matrix] (a Gram snapshot for the heatmap), [Log] lines; the
// caller sends [Done] with the outcome and the error that ended the run. Sends never
// block past cancellation. The TUI turns events into messages and the headless runner
// into a progress bar and files; both receive them through engine.Start, whose channel
// carries these types.
//
// # Results
//
// An [Outcome] holds [Series] (points sorted by x, mean and standard deviation over
// runs), [Table]s and the seconds spent per stage ("features", "gram", "fit",
// "predict", measured by a [Clock]). Accuracy is in [0, 1] ([Scores]).
//
// # Errors and cancellation
//
// Run returns the outcome of every finished cell together with the error that stopped
// it: ctx.Err() when cancelled (undecorated), a method's error prefixed by its series
// name, or a one-line error naming a bad setting and its fix. eval imports the other
// core packages and the standard library, never model, ui or presets.
package eval

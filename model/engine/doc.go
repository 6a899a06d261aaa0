// Package engine turns a model.Spec into core objects and runs its protocol: Start
// validates the spec, loads the data (LoadData, from core/data's table of named data
// sets), builds the group (BuildGroup) and each method, and runs the protocol in
// background goroutines, reporting eval.Events on a channel.
//
// # Families and protocols
//
// Each family of methods (model.Families) has an entry in familyEngines: how it builds
// its methods and how it estimates their memory (EstimateBytes). Each protocol
// (model.Protocols) has a runner in protocols: the protocols of cells (learning curves,
// grids, sweeps, group sizes) fill the stages of an eval.Protocol, the others
// (kernel-approx, pd) run themselves. Neither building, estimating nor running switches
// over the families or the protocols.
//
// # Caches
//
// Methods of a run share work: the pooled features of methods that agree on every field
// the registry says decides the features (featureKey), and Liu et al.'s kernel matrices of
// methods that also agree on every field deciding the kernel (methodKey). The keys are
// derived from the registry (model.KeyOf), not written by hand, so a new field that
// decides the features keeps the methods that differ in it apart.
//
// # The run directory
//
// The engine journals cells through the Journal interface of RunOptions (done cells,
// append, test labels); it does not know the run directory's layout.
//
// # Errors
//
// Bad input is a *data.InputError (model.InputError), one line naming the problem and the
// fix; a cancelled run returns ctx.Err() with the finished cells kept.
package engine

package model

// CellBound returns an upper bound on the number of cells s runs (a cell is one method at
// one point of the protocol's axis, for one seeded draw): methods × points × repeats,
// where the points are the training sizes of a curve (plus the bins × templates of a grid
// it carries), the bins × templates of a grid, the group sizes of group-size and the
// values of a sweep. A size that takes the whole pool runs one draw only, so the bound
// may exceed the count. Protocols not made of cells (kernel-approx, pd) count 1. It reads
// s as given (call Defaults first for the default repeats) and never loads data; a shard
// count above it leaves shards with nothing to do.
func (s *Spec) CellBound() int {
	reps := max(s.Repeats, 1)
	methods := max(len(s.Methods), 1)
	grid := func(g *GridSpec) int {
		if g == nil {
			return 0
		}
		return len(g.Bins) * len(g.Templates)
	}
	points := 1
	switch s.Protocol {
	case ProtocolCurve:
		points = len(s.Sizes) + grid(s.Grid)
	case ProtocolGrid:
		points = grid(s.Grid)
	case ProtocolGroupSize:
		points = len(s.GroupSizes)
	case ProtocolSweep:
		if s.Sweep != nil {
			points = len(s.Sweep.Values)
		}
	default:
		return 1
	}
	return methods * max(points, 1) * reps
}

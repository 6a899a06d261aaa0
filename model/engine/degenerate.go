package engine

import (
	"fmt"

	"gitui/model"
)

// degenerateNote words kernel.Degenerate's finding d about method m's Gram matrix for the
// run log and the result: "degenerate: the kernel is numerically constant at gamma 1e+308",
// naming the gamma the method fixed (none when the median heuristic chose it, or the
// kernel has none).
func degenerateNote(d string, m model.Method) string {
	if m.Gamma != 0 && m.HasGamma() {
		return fmt.Sprintf("degenerate: %s at gamma %g", d, m.Gamma)
	}
	return "degenerate: " + d
}

// Package bytefmt formats byte counts for people, in binary units, the one way gitui's
// messages write a size ("the run needs about 7.63 GiB of memory, more than the 512 MiB
// available").
package bytefmt

import (
	"fmt"
	"math"
)

var units = []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}

// IEC returns b bytes in the largest binary unit (B, KiB, MiB, GiB, TiB, PiB, EiB, powers
// of 1024) that leaves at least 1 before the point, with three significant digits:
//
//	no decimal   in bytes, or from 100 up ("512 MiB", "100 B", "1000 KiB")
//	one decimal  from 10 to 100             ("47.7 TiB")
//	two decimals below 10                   ("7.63 GiB", "1.00 KiB")
//
// It rounds as fmt's %f does, so 1023.9 KiB reads "1024 KiB". Sizes of 1024 EiB and up,
// and +Inf, read "more than 1024 EiB"; a negative b (not a size) is written in bytes and
// NaN as "NaN B". It allocates only the result.
func IEC(b float64) string {
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if math.IsInf(b, 0) || b >= 1024 {
		return "more than 1024 EiB"
	}
	switch {
	case i == 0 || b >= 100:
		return fmt.Sprintf("%.0f %s", b, units[i])
	case b >= 10:
		return fmt.Sprintf("%.1f %s", b, units[i])
	}
	return fmt.Sprintf("%.2f %s", b, units[i])
}

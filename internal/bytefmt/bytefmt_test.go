package bytefmt

import (
	"math"
	"testing"
)

// TestIEC checks the unit chosen and the digits kept at each boundary.
func TestIEC(t *testing.T) {
	for in, want := range map[float64]string{
		0:                  "0 B",
		1023:               "1023 B",
		1024:               "1.00 KiB",
		1536:               "1.50 KiB",
		10 << 10:           "10.0 KiB",
		512 << 20:          "512 MiB",
		256 << 20:          "256 MiB",
		8.19e9:             "7.63 GiB",
		47.7 * (1 << 40):   "47.7 TiB",
		3 << 60:            "3.00 EiB",
		1024 * (1 << 60):   "more than 1024 EiB",
		math.Inf(1):        "more than 1024 EiB",
		math.MaxInt64:      "8.00 EiB",
		1023.9 * (1 << 10): "1024 KiB",
	} {
		if got := IEC(in); got != want {
			t.Errorf("IEC(%g) = %q, want %q", in, got, want)
		}
	}
}

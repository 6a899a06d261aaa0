package group

import (
	"math"
	"strings"
	"testing"
)

// TestCheckAngles checks that CheckAngles accepts what Rotations accepts and names the
// problem of exactly the inputs Rotations panics on.
func TestCheckAngles(t *testing.T) {
	cases := []struct {
		name string
		deg  []float64
		want string // "" means valid
	}{
		{"range", AngleRange(-20, 20, 9), ""},
		{"one", []float64{0}, ""},
		{"full turn", AngleRange(0, 315, 8), ""},
		{"empty", nil, "no angles"},
		{"NaN", []float64{0, math.NaN()}, "angle 1 is NaN"},
		{"+Inf", []float64{math.Inf(1)}, "angle 0 is +Inf"},
		{"overflowing range", AngleRange(-1e308, 1e308, 3), "NaN"},
		{"360 apart", []float64{-20, 0, 340}, "angles 0 and 2 are equal modulo 360"},
		{"repeated", AngleRange(10, 10, 3), "equal modulo 360"},
		{"-180 and 180", []float64{-180, 180}, "equal modulo 360"},
	}
	for _, c := range cases {
		err := CheckAngles(c.deg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
		panicked := func() (p bool) {
			defer func() { p = recover() != nil }()
			Rotations(5, 5, c.deg)
			return false
		}()
		if panicked != (err != nil) {
			t.Errorf("%s: Rotations panicked %v, CheckAngles error %v", c.name, panicked, err)
		}
	}
}

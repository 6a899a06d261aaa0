package group

import (
	"errors"
	"fmt"
	"math"
)

// CheckAngles reports whether degrees is a valid set of rotation angles for
// [Rotations]: it returns nil, or a one-line error naming the first problem found:
//
//	no angles given
//	angle i is NaN or infinite
//	angles i and j are equal modulo 360 (the same rotation twice)
//
// Rotations panics on exactly these inputs, so a caller holding user input (a spec)
// calls CheckAngles first and reports the error instead.
func CheckAngles(degrees []float64) error {
	if len(degrees) == 0 {
		return errors.New("no angles given")
	}
	seen := make(map[float64]int, len(degrees))
	for i, a := range degrees {
		if math.IsNaN(a) || math.IsInf(a, 0) {
			return fmt.Errorf("angle %d is %v", i, a)
		}
		r := reduceDeg(a)
		if j, ok := seen[r]; ok {
			return fmt.Errorf("angles %d and %d are equal modulo 360 (%g, %g)", j, i, degrees[j], a)
		}
		seen[r] = i
	}
	return nil
}

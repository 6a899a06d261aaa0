package tune

import (
	"errors"
	"fmt"
	"math"
)

// Kind is the type of a dimension.
type Kind int

// The kinds of dimension.
const (
	Float       Kind = iota // a real number in [Low, High]
	Int                     // a whole number in [Low, High]
	Categorical             // one of Choices values, by index
)

// Dim is one dimension of a search space: Name (the spec key it sets), its Kind, a
// range [Low, High] (Float and Int; Log samples it uniformly in log space, which needs
// Low > 0) or Choices values (Categorical, by index 0..Choices-1).
type Dim struct {
	Name      string
	Kind      Kind
	Low, High float64
	Log       bool
	Choices   int
}

// Space is an ordered list of dimensions.
type Space []Dim

// Check returns nil when every dimension can be sampled, else one error per problem,
// each one line naming the dimension and the fix: a range with Low > High, a log range
// that reaches 0 or below, a non-finite bound, an integer range with no whole number,
// a categorical dimension with no value, a repeated name.
func (s Space) Check() error {
	var errs []error
	seen := map[string]bool{}
	if len(s) == 0 {
		return errors.New("the search space is empty: give at least one parameter, e.g. --param methods.0.lambda=log:1e-9..1e-3")
	}
	for _, d := range s {
		if seen[d.Name] {
			errs = append(errs, fmt.Errorf("%s is given twice: keep one distribution per key", d.Name))
		}
		seen[d.Name] = true
		switch d.Kind {
		case Categorical:
			if d.Choices < 1 {
				errs = append(errs, fmt.Errorf("%s has no value to choose: list at least one, e.g. %s=5,10,25", d.Name, d.Name))
			}
		case Float, Int:
			switch {
			case math.IsNaN(d.Low) || math.IsNaN(d.High) || math.IsInf(d.Low, 0) || math.IsInf(d.High, 0):
				errs = append(errs, fmt.Errorf("%s has a bound that is not a finite number: give finite bounds, e.g. %s=0.1..10", d.Name, d.Name))
			case d.Low > d.High:
				errs = append(errs, fmt.Errorf("%s range %g..%g has low > high: swap them (%s=%g..%g)", d.Name, d.Low, d.High, d.Name, d.High, d.Low))
			case d.Log && d.Low <= 0:
				errs = append(errs, fmt.Errorf("%s log range %g..%g reaches 0 or below: a log range needs low > 0, e.g. log:%g..%g, or use a linear range", d.Name, d.Low, d.High, math.Max(d.High/1000, math.SmallestNonzeroFloat32), d.High))
			case d.Kind == Int && math.Ceil(d.Low) > math.Floor(d.High):
				errs = append(errs, fmt.Errorf("%s integer range %g..%g holds no whole number: widen it", d.Name, d.Low, d.High))
			}
		}
	}
	return errors.Join(errs...)
}

// FromUnit maps u in [0,1)^len(s) to a configuration: linearly (or log-linearly) into
// a numeric range, with integers taking each whole number of [Low, High] with equal
// probability for a uniform u, and a categorical index floor(u·Choices).
func (s Space) FromUnit(u []float64) []float64 {
	x := make([]float64, len(s))
	for i, d := range s {
		x[i] = d.fromUnit(u[i])
	}
	return x
}

func (d Dim) fromUnit(u float64) float64 {
	u = math.Min(math.Max(u, 0), math.Nextafter(1, 0))
	if d.Kind == Categorical {
		return math.Floor(u * float64(d.Choices))
	}
	lo, hi := d.bounds()
	return d.external(lo + u*(hi-lo))
}

// internal returns the coordinate TPE models: log(x) on a log dimension, x otherwise.
func (d Dim) internal(x float64) float64 {
	if d.Log {
		return math.Log(x)
	}
	return x
}

// bounds returns the dimension's range in internal coordinates (integers widened by
// half a step so that the end values get their share).
func (d Dim) bounds() (lo, hi float64) {
	lo, hi = d.Low, d.High
	if d.Kind == Int {
		lo, hi = math.Ceil(lo)-0.5, math.Floor(hi)+0.5
		// A log range has Low > 0, so ceil(Low)-0.5 >= 0.5 stays positive.
	}
	if d.Log {
		return math.Log(lo), math.Log(hi)
	}
	return lo, hi
}

// external maps an internal coordinate back into the dimension (rounded and clamped
// for integers).
func (d Dim) external(z float64) float64 {
	v := z
	if d.Log {
		v = math.Exp(z)
	}
	if d.Kind == Int {
		v = math.Round(v)
		return math.Min(math.Max(v, math.Ceil(d.Low)), math.Floor(d.High))
	}
	return math.Min(math.Max(v, d.Low), d.High)
}

package parcoords

import (
	"math"
	"sort"
	"strconv"
	"strings"
)

// Kind is how an axis places values.
type Kind int

const (
	// Linear places a number v at (v−min)/(max−min).
	Linear Kind = iota
	// Log places a positive number v at (ln v − ln min)/(ln max − ln min).
	Log
	// Categorical places the i-th of n sorted distinct values at i/(n−1).
	Categorical
)

// LogSpan is the ratio max/min above which an axis of positive numbers is logarithmic
// (more than two decades).
const LogSpan = 100

// Axis is the scale of one field over a set of runs: positions run from 0 (bottom) to 1
// (top).
type Axis struct {
	// Key is the field: a flattened spec key ("methods.0.lambda"), or AccKey.
	Key  string
	Kind Kind
	// Min and Max are the smallest and largest value of a numeric axis.
	Min, Max float64
	// Cats are a categorical axis's distinct values, bottom to top (sorted as strings).
	Cats []string
}

// NewAxis returns the scale of the values vals of field key ("" is a missing value and
// is ignored): numeric when every value present parses as a finite number (Log when all
// are positive and max/min > LogSpan, else Linear), Categorical otherwise. A numeric
// axis whose values are all equal places them at 0.5, as does a single category.
func NewAxis(key string, vals []string) Axis {
	a := Axis{Key: key, Kind: Linear, Min: math.Inf(1), Max: math.Inf(-1)}
	distinct := map[string]bool{}
	numeric := true
	for _, v := range vals {
		if v == "" {
			continue
		}
		distinct[v] = true
		f, ok := number(v)
		if !ok {
			numeric = false
			continue
		}
		a.Min, a.Max = math.Min(a.Min, f), math.Max(a.Max, f)
	}
	if !numeric || len(distinct) == 0 {
		a.Kind, a.Min, a.Max = Categorical, 0, 0
		for v := range distinct {
			a.Cats = append(a.Cats, v)
		}
		sort.Strings(a.Cats)
		return a
	}
	if a.Min > 0 && a.Max/a.Min > LogSpan {
		a.Kind = Log
	}
	return a
}

// number parses v as a finite float.
func number(v string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// Pos returns the position of v on the axis (0 bottom, 1 top); ok is false when v is
// missing ("") or not a value of the axis (a non-number on a numeric axis, an unknown
// category). Numbers outside [Min, Max] are clamped.
func (a Axis) Pos(v string) (p float64, ok bool) {
	if v == "" {
		return 0, false
	}
	if a.Kind == Categorical {
		i := sort.SearchStrings(a.Cats, v)
		if i == len(a.Cats) || a.Cats[i] != v {
			return 0, false
		}
		if len(a.Cats) == 1 {
			return 0.5, true
		}
		return float64(i) / float64(len(a.Cats)-1), true
	}
	f, ok := number(v)
	if !ok {
		return 0, false
	}
	if a.Max == a.Min {
		return 0.5, true
	}
	f = math.Min(a.Max, math.Max(a.Min, f))
	if a.Kind == Log {
		return (math.Log(f) - math.Log(a.Min)) / (math.Log(a.Max) - math.Log(a.Min)), true
	}
	return (f - a.Min) / (a.Max - a.Min), true
}

// Value returns the number at position p of a numeric axis (the inverse of Pos:
// Min + p·(Max−Min), or Min·(Max/Min)^p on a Log axis). On a Categorical axis it returns
// the index p·(n−1).
func (a Axis) Value(p float64) float64 {
	switch a.Kind {
	case Categorical:
		return p * float64(max(0, len(a.Cats)-1))
	case Log:
		return math.Exp(math.Log(a.Min) + p*(math.Log(a.Max)-math.Log(a.Min)))
	}
	return a.Min + p*(a.Max-a.Min)
}

// Step is the distance a brush moves on the axis per key: one category on a
// categorical axis, 1/16 of the axis otherwise.
func (a Axis) Step() float64 {
	if a.Kind == Categorical && len(a.Cats) > 1 {
		return 1 / float64(len(a.Cats)-1)
	}
	return 1.0 / 16
}

// Fmt formats an axis value in at most about 7 columns: 3 significant digits (whole
// numbers from 1000 to 9999 in full), with a short exponent ("1e-3", "2.5e4") below
// 0.01 and from 10⁴ up.
func Fmt(v float64) string {
	av := math.Abs(v)
	if av != 0 && (av < 1e-2 || av >= 1e4) {
		s := strconv.FormatFloat(v, 'e', 2, 64) // d.dde±XX
		mant, exp, _ := strings.Cut(s, "e")
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
		neg := strings.HasPrefix(exp, "-")
		exp = strings.TrimLeft(exp[1:], "0")
		if neg {
			exp = "-" + exp
		}
		return mant + "e" + exp
	}
	if av >= 1000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

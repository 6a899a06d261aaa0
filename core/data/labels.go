package data

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// LabelKey returns the value a class name stands for, the key by which labels are matched
// across files: a name that parses as a finite number is keyed by its shortest decimal
// form, so "7", "7.0", "+7" and "7e0" are one label; any other name (e.g. "cat") is keyed
// by itself, surrounding spaces removed. An integer keeps its exact 64-bit value
// ("9007199254740992" and "9007199254740993" are two labels, although one float64).
func LabelKey(name string) string {
	s := strings.TrimSpace(name)
	// An integer keeps its exact value: 9007199254740992 and 9007199254740993 are one
	// float64, but two labels.
	if i, err := strconv.ParseInt(strings.TrimPrefix(s, "+"), 10, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	if u, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 10, 64); err == nil {
		return strconv.FormatUint(u, 10)
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
		if v == 0 {
			v = 0 // -0 and 0 are one label
		}
		if v == math.Trunc(v) && math.Abs(v) < 1e21 {
			return strconv.FormatFloat(v, 'f', -1, 64) // "7.0" and "7" are one label
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}

// UnknownLabelError reports labels of a data set that are not among the classes it is
// matched against (AlignClasses), e.g. a test-file label that never occurs in training.
type UnknownLabelError struct {
	Labels  []string // the unmatched labels, as written, in the data set's class order
	Counts  []int    // samples carrying each of Labels
	Classes []string // the classes matched against
}

// Error lists the unmatched labels with their sample counts and the known classes.
func (e *UnknownLabelError) Error() string {
	parts := make([]string, len(e.Labels))
	for i, l := range e.Labels {
		unit := "samples"
		if e.Counts[i] == 1 {
			unit = "sample"
		}
		parts[i] = fmt.Sprintf("%q (%d %s)", l, e.Counts[i], unit)
	}
	noun := "label"
	if len(parts) > 1 {
		noun = "labels"
	}
	return fmt.Sprintf("%s %s not among the training classes %s", noun, strings.Join(parts, ", "), quoteList(e.Classes, 12))
}

// quoteList formats names as ["a" "b" ...], eliding after max entries.
func quoteList(names []string, max int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range names {
		if i == max {
			fmt.Fprintf(&b, " ... %d more", len(names)-max)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Quote(n))
	}
	b.WriteByte(']')
	return b.String()
}

// classMap returns, for each class index of d, the index of the class of classes with the
// same LabelKey, or -1 if there is none. It panics if classes holds two names with one key.
func (d *Dataset) classMap(classes []string) []int {
	at := make(map[string]int, len(classes))
	for i, c := range classes {
		k := LabelKey(c)
		if _, dup := at[k]; dup {
			panic(fmt.Sprintf("data: classes %q and %q are the same label", classes[at[k]], c))
		}
		at[k] = i
	}
	to := make([]int, len(d.Classes))
	for i, c := range d.Classes {
		j, ok := at[LabelKey(c)]
		if !ok {
			j = -1
		}
		to[i] = j
	}
	return to
}

// DropEmptyClasses returns d without the classes no sample carries (MNIST's ten digit
// names over a file of three digits), its labels renumbered in the classes' order; X and
// Units are shared. It returns d itself when every class is carried.
func (d *Dataset) DropEmptyClasses() *Dataset {
	counts := make([]int, len(d.Classes))
	for _, y := range d.Y {
		counts[y]++
	}
	to := make([]int, len(d.Classes))
	var classes []string
	for c, n := range counts {
		to[c] = len(classes)
		if n > 0 {
			classes = append(classes, d.Classes[c])
		}
	}
	if len(classes) == len(d.Classes) {
		return d
	}
	y := make([]int, len(d.Y))
	for i, c := range d.Y {
		y[i] = to[c]
	}
	return &Dataset{Name: d.Name, X: d.X, Y: y, Classes: classes, Shape: append([]int(nil), d.Shape...), Units: d.Units}
}

// AlignClasses returns a copy of d whose labels index classes instead of d.Classes: the
// sample of class name c gets the index of the class in classes with the same value
// (LabelKey), so that a test set is scored against the training set's classes whatever
// order or subset of them its own file holds. The copy's Classes is classes (shared, not
// copied); X is shared with d, Y is new. A label carried by some sample of d that is not in
// classes gives an *UnknownLabelError; classes of d that no sample carries are ignored.
// It panics if classes names one label twice.
func (d *Dataset) AlignClasses(classes []string) (*Dataset, error) {
	to := d.classMap(classes)
	counts := make([]int, len(d.Classes))
	for _, y := range d.Y {
		counts[y]++
	}
	var unk *UnknownLabelError
	for c, j := range to {
		if j < 0 && counts[c] > 0 {
			if unk == nil {
				unk = &UnknownLabelError{Classes: classes}
			}
			unk.Labels = append(unk.Labels, d.Classes[c])
			unk.Counts = append(unk.Counts, counts[c])
		}
	}
	if unk != nil {
		return nil, unk
	}
	y := make([]int, len(d.Y))
	for i, c := range d.Y {
		y[i] = to[c]
	}
	return &Dataset{Name: d.Name, X: d.X, Y: y, Classes: classes, Shape: append([]int(nil), d.Shape...), Units: d.Units}, nil
}

// KeepClasses returns the samples of d whose class has the value (LabelKey) of one of
// classes, in their order in d, relabelled to index classes; the result's Classes is a copy
// of classes. Samples of other classes are dropped; a class of classes that no sample of d
// carries is allowed (a test set may hold a subset). The rows are copied. It panics if
// classes names one label twice.
func (d *Dataset) KeepClasses(classes []string) *Dataset {
	to := d.classMap(classes)
	var idx []int
	for i, c := range d.Y {
		if to[c] >= 0 {
			idx = append(idx, i)
		}
	}
	sub := d.Subset(idx)
	for i, c := range sub.Y {
		sub.Y[i] = to[c]
	}
	sub.Classes = append([]string(nil), classes...)
	return sub
}

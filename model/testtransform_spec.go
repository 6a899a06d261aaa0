package model

// The test_transform field: accuracy on a transformed copy of the test set, side by side
// with the plain test set. This is the first check of an invariance claim: a method
// invariant to a group must predict the same class for g·x as for x, for every g in the
// group (Liu et al.'s TI kernel on cyclically shifted images; CDF features and the Haar
// kernel under their full group), and a plain method must not.

import (
	"fmt"
	"strings"

	"gitui/core/group"
)

// knownShapes is the sample shape of the named data sets whose shape does not depend on
// a file, so that validation can refuse a test_transform that cannot act on them.
var knownShapes = map[string][]int{
	"xperm": {5, 8}, "circle": {2},
	"mnist": {28, 28}, "fashion-mnist": {28, 28}, "embedded": {28, 28}, "mnist-rotated": {28, 28},
	"mnist-translated": {64, 64}, "digits16": {16, 16}, "usps": {16, 16}, "usps-binary": {16, 16}, "emnist-letters": {28, 28}, "graphs": {GraphNodes, GraphNodes}, "graphs-relabelled": {GraphNodes, GraphNodes},
}

// imageKinds are the group kinds that act on images.
var imageKinds = ImageGroupKinds

// validateTestTransform reports through bad every problem of s.TestTransform that the spec
// alone shows: an unknown kind, a field that does not apply to the kind, a value out of
// range, a protocol that has no test set to transform (pd, kernel-approx), and a kind that
// cannot act on the named data set's samples (images vs sequences). For data files the
// shape is checked when the data are loaded (testTransformAction). It is called at the end
// of Validate.
func (s *Spec) validateTestTransform(bad func(field, format string, a ...any)) {
	tt := s.TestTransform
	if tt == nil {
		return
	}
	if s.Protocol == ProtocolPD || s.Protocol == ProtocolApprox {
		bad("test_transform", "test_transform applies to protocols that score a test set (%s, %s, %s, %s), not %s: drop test_transform",
			ProtocolCurve, ProtocolGrid, ProtocolGroupSize, ProtocolSweep, s.Protocol)
	}
	if tt.Kind == "" {
		bad("test_transform.kind", "test_transform.kind is empty: use one of %s", strings.Join(GroupKinds, ", "))
		return
	}
	if !in(tt.Kind, GroupKinds) {
		bad("test_transform.kind", "test_transform.kind %q is unknown: use one of %s", tt.Kind, strings.Join(GroupKinds, ", "))
		return
	}
	validateFileGroup(*tt, "test_transform", bad)
	radius, angles := TakesRadius(tt.Kind), TakesAngles(tt.Kind)
	switch {
	case !radius && tt.Radius != 0:
		bad("test_transform.radius", "test_transform.radius applies to kinds local-shift and rotation+shift, not %s: drop it", tt.Kind)
	case tt.Radius < 0 || tt.Radius > 64:
		bad("test_transform.radius", "test_transform.radius %d is out of range: use 0..64 pixels", tt.Radius)
	case tt.Kind == GroupLocalShift && tt.Radius == 0:
		bad("test_transform.radius", "test_transform.radius is 0: a local-shift transform needs a radius >= 1")
	}
	if angles {
		if p := angleProblem(tt.Angles, 3600); p != "" {
			bad("test_transform.angles", "test_transform.angles: %s: give finite from and to and a count in 1..3600 of angles distinct modulo 360, e.g. {from: -20, to: 20, count: 9}", p)
		}
	} else if tt.Angles != nil {
		bad("test_transform.angles", "test_transform.angles applies to kinds rotation and rotation+shift, not %s: drop it", tt.Kind)
	}
	if TakesAffine(tt.Kind) {
		for _, p := range affineProblems(*tt, "test_transform") {
			bad(p.Field, "%s", p.Msg)
		}
	} else if tt.Shears != nil || tt.Scales != nil {
		bad("test_transform."+affineKey(*tt), "test_transform.shears and test_transform.scales apply to kind rotation+shift, not %s: drop them", tt.Kind)
	}
	if tt.Kind == GroupNone && tt.Size != 0 {
		bad("test_transform.size", "test_transform.size applies to a group, not kind none: drop it")
	}
	if tt.Size < 0 {
		bad("test_transform.size", "test_transform.size %d is negative: use 0 for the whole group or a sample size >= 1", tt.Size)
	}
	if shape, ok := knownShapes[s.Data.Name]; ok {
		if s.Data.Name == "xperm" && in(tt.Kind, imageKinds) {
			// X_perm's 5x8 samples are sequences of one-hot blocks, not images.
			bad("test_transform.kind", "test_transform %s acts on images, data xperm holds sequences (shape [5 8], 5 one-hot blocks): use kind permutation", tt.Kind)
		} else if err := TestTransformShape(tt, shape, "data "+s.Data.Name); err != nil {
			bad("test_transform", "%v", err)
		}
	}
}

// TestTransformShape returns an error naming test_transform and the fix unless the group of
// tt can act on samples of the given shape; what names the data in the message.
func TestTransformShape(tt *GroupSpec, shape []int, what string) error {
	switch {
	case fileGroupKind(tt.Kind):
		return fileGroupShape(*tt, shape, "test_transform", what)
	case tt.Kind == GroupPermutation:
		if len(shape) != 2 {
			return fmt.Errorf("test_transform permutation permutes the blocks of sequences (shape L x A), %s has shape %v: use an image kind (cyclic-shift, local-shift, rotation) or drop test_transform", what, shape)
		}
		if err := group.CheckPermutations(shape[0], tt.Size); err != nil {
			return fmt.Errorf("test_transform permutation of %d blocks: %v: set test_transform.size to sample some, e.g. 1000", shape[0], err)
		}
	case in(tt.Kind, imageKinds):
		if len(shape) != 2 || shape[0] < 2 || shape[1] < 2 {
			return fmt.Errorf("test_transform %s acts on images (shape h x w), %s has shape %v: use kind permutation for sequences, or drop test_transform", tt.Kind, what, shape)
		}
		if TakesAngles(tt.Kind) && shape[0] != shape[1] {
			return fmt.Errorf("test_transform %s rotates images and needs square ones, %s is %dx%d: pad or crop the images, or use a shift kind", tt.Kind, what, shape[0], shape[1])
		}
		if tt.Radius >= shape[0] || tt.Radius >= shape[1] {
			return fmt.Errorf("test_transform.radius %d is not smaller than the %dx%d images of %s: use a radius below %d", tt.Radius, shape[0], shape[1], what, min(shape[0], shape[1]))
		}
	}
	return nil
}

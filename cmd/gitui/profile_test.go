package main

import (
	"errors"
	"slices"
	"testing"
)

// TestSplitProfileFlags checks that the hidden profiling flags are taken out of run's
// arguments in every spelling, that everything else (and all after --) is left in
// order, and that a flag without its file is a usage error naming it.
func TestSplitProfileFlags(t *testing.T) {
	rest, p, err := splitProfileFlags([]string{"liu-table2", "--cpuprofile", "c.out", "--quick", "-memprofile=m.out", "--set", "repeats=2", "--", "--cpuprofile", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if p.cpu != "c.out" || p.mem != "m.out" {
		t.Errorf("cpu %q mem %q, want c.out and m.out", p.cpu, p.mem)
	}
	if want := []string{"liu-table2", "--quick", "--set", "repeats=2", "--", "--cpuprofile", "x"}; !slices.Equal(rest, want) {
		t.Errorf("rest %q, want %q", rest, want)
	}
	for _, bad := range [][]string{{"p", "--memprofile"}, {"p", "--cpuprofile="}} {
		_, _, err := splitProfileFlags(bad)
		var ue usageError
		if !errors.As(err, &ue) || err.Error() == "" {
			t.Errorf("%q: error %v, want a usage error", bad, err)
		}
	}
}

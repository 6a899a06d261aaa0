package main

import (
	"bytes"
	"flag"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// sbatchFlags are Slurm's own flags that the slurm command's help quotes (the sbatch
// command lines it writes); they are not gitui's.
var sbatchFlags = []string{"array", "parsable", "dependency", "signal"}

// flagRef matches a flag named in a help text: -v, --out, --cpus-per-task.
var flagRef = regexp.MustCompile(`(^|[\s(\[|'"` + "`" + `])--?([a-z][a-z0-9-]*)`)

// flagOwner returns the command a flag named at the end of before belongs to: the
// nearest command word on the same line and in the same clause written as "gitui CMD"
// or "(CMD" (as in "gitui run --shard", "(run --shard i/N)"), "sbatch" for Slurm's
// own, or "" for the command whose help holds the text.
func flagOwner(before string) string {
	if i := strings.LastIndex(before, "\n"); i >= 0 {
		before = before[i+1:]
	}
	words := strings.Fields(before)
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if strings.ContainsAny(w[len(w)-1:], ".;:)") {
			return "" // the end of an earlier clause: "(gitui presets -v lists them). --set ..."
		}
		if w == "sbatch" {
			return "sbatch"
		}
		name := strings.TrimPrefix(w, "(")
		if _, ok := commands[name]; !ok {
			continue
		}
		if strings.HasPrefix(w, "(") || i > 0 && strings.TrimPrefix(words[i-1], "(") == "gitui" {
			return name
		}
	}
	return ""
}

// namedFlags returns the flags text names, each with the command it belongs to ("" for
// the command whose help it is).
func namedFlags(text string) [][2]string {
	var out [][2]string
	for _, m := range flagRef.FindAllStringSubmatchIndex(text, -1) {
		out = append(out, [2]string{flagOwner(text[:m[4]]), text[m[4]:m[5]]})
	}
	return out
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	if fs != nil {
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	}
	return names
}

// TestHelpTextMatchesFlags checks the hand-written part of every command's help against
// the flag set the command parses: its usage line (the synopsis, also the line of
// `gitui help`) names every flag, and every --flag that its synopsis, summary, details
// or flag descriptions name is a flag of that command (or of the command named just
// before it, as in "gitui run --shard", or one of sbatch's). The overview of `gitui
// help` may name any command's flag. The flag list itself is printed from the flag set,
// so what this guards is the prose.
func TestHelpTextMatchesFlags(t *testing.T) {
	all := append([]*command{tuiCommand}, sortedCommands()...)
	flagsByName := map[string][]string{}
	var every []string
	for _, c := range all {
		flagsByName[c.Name] = flagNames(flagsOf(c))
		every = append(every, flagsByName[c.Name]...)
	}
	check := func(where, owner, text string, own []string) {
		t.Helper()
		for _, nf := range namedFlags(text) {
			o, name := nf[0], nf[1]
			switch {
			case name == "help" || name == "h": // parseInterleaved answers them everywhere
			case o == "sbatch":
				if !slices.Contains(sbatchFlags, name) {
					t.Errorf("%s names sbatch --%s: add it to sbatchFlags if sbatch has it", where, name)
				}
			case o != "" && o != owner:
				if !slices.Contains(flagsByName[o], name) {
					t.Errorf("%s names --%s of gitui %s, which has no such flag (it has %v)", where, name, o, flagsByName[o])
				}
			case !slices.Contains(own, name) && !slices.Contains(sbatchFlags, name):
				t.Errorf("%s names --%s, which is not a flag of it (it has %v)", where, name, own)
			}
		}
	}
	for _, c := range all {
		name := c.Name
		if name == "" {
			name = "tui"
		}
		fs := flagsOf(c)
		own := flagsByName[c.Name]
		for _, f := range own {
			if !regexp.MustCompile(`(^|[\s\[|(])--?` + regexp.QuoteMeta(f) + `($|[\s\]|=)])`).MatchString(c.Synopsis) {
				t.Errorf("the usage line of gitui %s does not name its flag --%s: %q", name, f, c.Synopsis)
			}
		}
		check("the usage line of gitui "+name, c.Name, c.Synopsis, own)
		check("the summary of gitui "+name, c.Name, c.Summary, own)
		check("the details of gitui "+name, c.Name, c.Details, own)
		if fs != nil {
			fs.VisitAll(func(f *flag.Flag) {
				check("the description of gitui "+name+" --"+f.Name, c.Name, f.Usage, own)
			})
		}
	}
	var overview bytes.Buffer
	printUsage(&overview)
	check("the overview (gitui help)", "", overview.String(), every)
}

// TestHelpTextChecker checks the checker of TestHelpTextMatchesFlags on texts whose
// answer is known, so that it cannot pass by matching nothing.
func TestHelpTextChecker(t *testing.T) {
	got := namedFlags("run X [--quick] [-v] | slurm --resubmit DIR\neach task runs gitui run --shard i/N (run --seed N); sbatch --parsable, --array=0-2 -x")
	want := [][2]string{{"", "quick"}, {"", "v"}, {"", "resubmit"}, {"run", "shard"}, {"run", "seed"}, {"sbatch", "parsable"}, {"sbatch", "array"}, {"sbatch", "x"}}
	if !slices.Equal(got, want) {
		t.Errorf("namedFlags = %v, want %v", got, want)
	}
	if o := flagOwner("(gitui presets "); o != "presets" {
		t.Errorf("flagOwner of \"(gitui presets \" = %q, want presets", o)
	}
	if o := flagOwner("(gitui presets -v lists them). "); o != "" {
		t.Errorf("flagOwner after a closed clause = %q, want \"\"", o)
	}
	if o := flagOwner("the runs (not a command) "); o != "" {
		t.Errorf("flagOwner of prose = %q, want \"\"", o)
	}
}

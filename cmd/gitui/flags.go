package main

import (
	"errors"
	"flag"
	"io"
	"strings"
)

// multiFlag collects a repeatable string flag (--set a=b --set c=d).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseInterleaved parses fs from args where flags and positional arguments may be mixed
// (gitui run PRESET --quick and gitui run --quick PRESET both work), returning the positionals.
// -h, -help or --help anywhere returns a *helpRequest carrying fs, and nothing else is done.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, &helpRequest{fs: fs}
			}
			name := fs.Name()
			if name == "gitui" {
				name = "tui"
			}
			return nil, usagef("%v: run `gitui help %s`", err, name)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

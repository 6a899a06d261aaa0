// Command gendoc writes the spec reference, model.SpecReference, to the file named by its
// argument: `go generate ./model` runs it to keep docs/spec.md current with the field
// registry. It lives below model and imports it, never the other way round.
package main

import (
	"fmt"
	"os"

	"gitui/model"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendoc FILE (go generate ./model writes docs/spec.md)")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], model.SpecReference(), 0o644); err != nil {
		fmt.Fprintf(os.Stderr, "gendoc: %v\n", err)
		os.Exit(1)
	}
}

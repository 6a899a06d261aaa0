package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gitui/core/data/fetch"
	"gitui/model"
	"gitui/presets"
	"gitui/ui/export"
)

// Completion is dynamic: the scripts of `gitui completion SHELL` call the hidden command
// `gitui __complete WORD...` with the words typed after gitui (the last one being the
// word under the cursor, possibly empty) and offer the lines it prints. So preset
// names, flags and --set keys always match the binary, and `--set methods.<TAB>` offers
// the methods of the preset typed on the line.

// completeCmd is the hidden command the completion scripts call.
const completeCmd = "__complete"

// cmdCompletion prints the completion script for bash, zsh or fish.
func cmdCompletion(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("usage: gitui completion bash|zsh|fish")
	}
	switch pos[0] {
	case "bash":
		fmt.Fprint(stdout, bashScript)
	case "zsh":
		fmt.Fprint(stdout, zshScript)
	case "fish":
		fmt.Fprint(stdout, fishScript)
	default:
		return usagef("completion: unknown shell %q: use bash, zsh or fish", pos[0])
	}
	return nil
}

const bashScript = `# bash completion for gitui: source <(gitui completion bash)
_gitui() {
	local line=${COMP_LINE:0:COMP_POINT}
	local -a words
	read -r -a words <<< "$line"
	[[ $line == *[[:space:]] ]] && words+=("")
	local cur=${words[${#words[@]}-1]}
	local IFS=$'\n'
	local -a cands=($(gitui __complete "${words[@]:1}" 2>/dev/null))
	# bash replaces only the part of the word after its last '=' or ':'
	local tail=${cur##*[=:]}
	if [[ $tail != "$cur" ]]; then
		local pre=${cur%"$tail"}
		cands=("${cands[@]#"$pre"}")
	fi
	COMPREPLY=("${cands[@]}")
	if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[=/] ]]; then
		compopt -o nospace 2>/dev/null
	fi
}
complete -o default -F _gitui gitui
`

const zshScript = `#compdef gitui
# zsh completion for gitui: gitui completion zsh > "${fpath[1]}/_gitui"
_gitui() {
	local -a cands open closed
	cands=("${(@f)$(gitui __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	cands=(${cands:#})
	(( ${#cands} )) || { _files; return }
	open=(${(M)cands:#*[=/]})
	closed=(${cands:#*[=/]})
	(( ${#open} )) && compadd -Q -S '' -- $open
	(( ${#closed} )) && compadd -Q -- $closed
}
compdef _gitui gitui
`

const fishScript = `# fish completion for gitui: gitui completion fish > ~/.config/fish/completions/gitui.fish
function __gitui_complete
	set -l words (commandline -opc)
	set -e words[1]
	gitui __complete $words (commandline -ct) 2>/dev/null
end
complete -c gitui -f -a '(__gitui_complete)'
`

// cmdComplete prints the completion candidates, one a line, for the words typed after
// gitui (the last is the word being completed). It never fails: a line it cannot make
// sense of gives no candidates.
func cmdComplete(words []string, stdout io.Writer) {
	if len(words) == 0 {
		words = []string{""}
	}
	for _, c := range complete(words[:len(words)-1], words[len(words)-1]) {
		fmt.Fprintln(stdout, c)
	}
}

// complete returns the candidates for cur after the words before it, filtered by the
// prefix cur and sorted.
func complete(before []string, cur string) []string {
	var cands []string
	switch {
	case len(before) == 0 && !strings.HasPrefix(cur, "-"):
		for _, c := range sortedCommands() {
			cands = append(cands, c.Name)
		}
	default:
		c := tuiCommand
		rest := before
		if len(before) > 0 && !strings.HasPrefix(before[0], "-") {
			var ok bool
			if c, ok = commands[before[0]]; !ok {
				return nil
			}
			rest = before[1:]
		}
		cands = completeArgs(c, rest, cur)
	}
	out := cands[:0]
	for _, s := range cands {
		if strings.HasPrefix(s, cur) {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// completeArgs completes cur for command c after its arguments rest: a flag name, a
// flag's value, or a positional argument.
func completeArgs(c *command, rest []string, cur string) []string {
	fs := flagsOf(c)
	isBool := func(name string) bool {
		if fs == nil {
			return false
		}
		f := fs.Lookup(name)
		if f == nil {
			return false
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	var pos []string
	flagValue := "" // the flag whose value cur is
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if strings.HasPrefix(w, "-") && len(w) > 1 {
			name := strings.TrimLeft(w, "-")
			if strings.Contains(name, "=") || isBool(name) {
				continue
			}
			if i == len(rest)-1 {
				flagValue = name
			}
			i++
			continue
		}
		pos = append(pos, w)
	}
	if flagValue != "" {
		return completeFlagValue(c, flagValue, pos, cur)
	}
	if strings.HasPrefix(cur, "-") {
		var out []string
		if fs != nil {
			fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name) })
		}
		return append(out, "--help")
	}
	if c.Complete != nil {
		if cands := c.Complete(len(pos), pos); cands != nil {
			return cands
		}
	}
	return completeFiles(cur, false)
}

// completeFlagValue completes the value of --name.
func completeFlagValue(c *command, name string, pos []string, cur string) []string {
	switch name {
	case "set":
		preset := ""
		if c.Name == "run" && len(pos) > 0 {
			preset = pos[0]
		}
		return setKeys(preset)
	case "color":
		return []string{"auto", "always", "never"}
	case "table":
		return append([]string(nil), export.TableFormats...)
	case "out":
		return completeFiles(cur, c.Name != "export") // export's --out is the table's file
	case "data":
		return completeFiles(cur, true)
	case "png", "svg", "pdf", "csv", "gram":
		return completeFiles(cur, false)
	}
	return []string{} // a number or a name: nothing to offer
}

// completeFiles lists the paths that start with cur (directories end in "/"); with
// dirs set, only directories.
func completeFiles(cur string, dirs bool) []string {
	dir, base := filepath.Split(cur)
	list := dir
	if list == "" {
		list = "."
	}
	ents, err := os.ReadDir(list)
	if err != nil {
		return []string{}
	}
	out := []string{}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, base) || strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".") {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(list, n)); err == nil {
				isDir = fi.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, dir+n+"/")
		case !dirs:
			out = append(out, dir+n)
		}
	}
	return out
}

// completePresetOrFile completes run's PRESET|SPEC: preset names, then spec files.
func completePresetOrFile(pos int, _ []string) []string {
	if pos > 0 {
		return []string{}
	}
	var out []string
	for _, p := range presets.All() {
		out = append(out, p.Name)
	}
	for _, f := range completeFiles("", false) {
		switch strings.ToLower(filepath.Ext(f)) {
		case ".json", ".yaml", ".yml":
			out = append(out, f)
		}
	}
	return out
}

// completeData completes `gitui data list | fetch NAME | synth spoken-digits`.
func completeData(pos int, before []string) []string {
	switch {
	case pos == 0:
		return []string{"list", "fetch", "synth"}
	case pos == 1 && before[0] == "synth":
		return []string{"spoken-digits"}
	case pos == 1 && before[0] == "fetch":
		var out []string
		for _, s := range fetch.Sources() {
			out = append(out, s.Name)
		}
		return out
	}
	return []string{}
}

// setKeys returns the keys --set accepts, each followed by "=": the spec-level fields
// (dotted JSON paths of model.Spec, from its JSON tags), and methods.N.KEY for every
// method field of model.MethodFields, N running over "*" and the methods of preset.
// For a known preset, the sections its spec leaves out (grid, sweep, pd, approx,
// test_transform when unset) are not offered, as Spec.Set refuses paths below them;
// otherwise every section is, with methods.0 only.
func setKeys(preset string) []string {
	var out []string
	n := 1
	if p, err := presets.Lookup(preset); err == nil {
		spec := p.Build(false)
		n = max(1, len(spec.Methods))
		specKeys(reflect.ValueOf(spec), "", &out)
	} else {
		specKeys(reflect.New(reflect.TypeOf(model.Spec{})), "", &out)
	}
	idx := []string{"*"}
	for i := range n {
		idx = append(idx, strconv.Itoa(i))
	}
	for _, i := range idx {
		for _, f := range model.MethodFields {
			out = append(out, "methods."+i+"."+f.Key)
		}
	}
	for i := range out {
		out[i] += "="
	}
	return out
}

// specKeys appends the dotted JSON paths of the leaves of the struct v under prefix.
// Nested structs are walked. A nil pointer to a struct is walked as its zero value when
// v itself is a zero value (the schema without a preset) and skipped otherwise (a
// section a preset's spec does not have). Methods are left to setKeys.
func specKeys(v reflect.Value, prefix string, out *[]string) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" || tag == "-" || !f.IsExported() {
			continue
		}
		key := prefix + tag
		if key == "methods" {
			continue
		}
		fv := v.Field(i)
		ft := f.Type
		if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
			if fv.IsNil() {
				if !generic(v) {
					continue
				}
				fv = reflect.New(ft.Elem())
			}
			specKeys(fv, key+".", out)
			continue
		}
		if ft.Kind() == reflect.Struct {
			specKeys(fv, key+".", out)
			continue
		}
		*out = append(*out, key)
	}
}

// generic reports whether v is a zero value: the schema walk of setKeys without a
// preset, where every optional section is offered.
func generic(v reflect.Value) bool { return v.IsZero() }

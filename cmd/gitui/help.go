package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one sub-command of gitui: what `gitui help`, `gitui help NAME`, `gitui NAME
// --help` and shell completion know about it. Commands are added with register, from an
// init function in the file that implements them, so a new command needs no edit here.
type command struct {
	Name     string // the word after gitui
	Synopsis string // its usage line, without the leading "gitui "
	Summary  string // one line: what it does
	Details  string // optional paragraphs printed by `gitui help NAME` before the flags
	// Run executes the command. It must parse its flags with parseInterleaved before it
	// does anything else: `gitui help NAME` and completion call it with "--help" to
	// learn its flags, and expect a *helpRequest error back and no side effect.
	Run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	// Complete, if not nil, returns the candidates for positional argument pos (0 is the
	// first after NAME) given the positionals before it; nil offers file names.
	Complete func(pos int, before []string) []string
	// Order places the command in `gitui help` (smaller first; ties by name).
	Order int
	// TUI marks a command that opens the workbench: SIGHUP then does not cancel ctx but
	// is delivered on hangup(ctx), on which the workbench lets go of the terminal and
	// lets its run finish (see notify).
	TUI bool
}

// hupKey is the context key of the SIGHUP channel of a TUI command.
type hupKey struct{}

// withHangup returns ctx carrying hup (nil: none), for hangup.
func withHangup(ctx context.Context, hup <-chan os.Signal) context.Context {
	return context.WithValue(ctx, hupKey{}, hup)
}

// hangup returns the SIGHUP channel a TUI command passes to ui.Options.Hangup (nil
// when the command is not marked TUI or runs outside run).
func hangup(ctx context.Context) <-chan os.Signal {
	h, _ := ctx.Value(hupKey{}).(<-chan os.Signal)
	return h
}

// commands holds every registered command by name.
var commands = map[string]*command{}

// register adds c to the commands gitui dispatches, documents and completes. It panics
// on a duplicate or unnamed command (a programming error, caught by any test).
func register(c command) {
	if c.Name == "" || c.Run == nil {
		panic("gitui: register: a command needs a Name and a Run")
	}
	if _, dup := commands[c.Name]; dup {
		panic("gitui: register: command " + c.Name + " registered twice")
	}
	commands[c.Name] = &c
}

// sortedCommands returns the registered commands in help order.
func sortedCommands() []*command {
	out := make([]*command, 0, len(commands))
	for _, c := range commands {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Order != out[j].Order {
			return out[i].Order < out[j].Order
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// helpRequest is returned by parseInterleaved when the arguments ask for help (-h,
// -help, --help): the command did nothing, and run prints its usage on stdout and exits 0.
type helpRequest struct{ fs *flag.FlagSet }

func (h *helpRequest) Error() string { return "help requested" }

// flagsOf returns the flag set of command c, learnt by running it with --help (nil if
// it did not answer with a helpRequest).
func flagsOf(c *command) *flag.FlagSet {
	var hr *helpRequest
	if err := c.Run(context.Background(), []string{"--help"}, io.Discard, io.Discard); errors.As(err, &hr) {
		return hr.fs
	}
	return nil
}

// tuiCommand is the workbench itself (gitui with no command); it is documented and
// completed like a command but is reached only by giving no command word.
var tuiCommand = &command{
	Name:     "",
	Synopsis: "[--data DIR] [--out DIR] [--color auto|always|never]",
	Summary:  "open the workbench (TUI)",
	TUI:      true,
	Run: func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return cmdTUI(ctx, hangup(ctx), args, stdout, stderr)
	},
}

// printUsage writes the overview of `gitui help`: every command's synopsis and summary.
func printUsage(w io.Writer) {
	fmt.Fprintln(w, "gitui: learning with group-invariant features and kernels")
	fmt.Fprintln(w, "\nusage:")
	line := func(syn, sum string) {
		if len(syn) <= 30 && 2+30+1+len(sum) <= 80 {
			fmt.Fprintf(w, "  %-30s %s\n", syn, sum)
			return
		}
		fmt.Fprintf(w, "  %s\n", syn)
		for _, l := range wrapWords(sum, 80-6) {
			fmt.Fprintf(w, "      %s\n", l)
		}
	}
	line("gitui "+tuiCommand.Synopsis, tuiCommand.Summary)
	for _, c := range sortedCommands() {
		line("gitui "+c.Synopsis, c.Summary)
	}
	fmt.Fprint(w, `
gitui help CMD and gitui CMD --help print a command's usage and flags.
Every TUI run is saved in the run store ($XDG_DATA_HOME/gitui/runs, else
~/.local/share/gitui/runs); gitui run writes into --out (default
runs/TIME-NAME). Data directory: --data, else $GITUI_DATA, else the user cache
directory (gitui data list shows it). Exit status: 0 done, 2 bad usage or input,
1 a failure while running, 130 interrupted (129 on SIGHUP).
`)
}

// printCommandHelp writes the usage of c and its flags (fs may be nil) to w.
func printCommandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	name := "gitui"
	if c.Name != "" {
		name += " " + c.Name
	}
	fmt.Fprintf(w, "usage: gitui %s\n\n%s\n", c.Synopsis, c.Summary)
	if c.Details != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.Details, "\n"))
	}
	n := 0
	if fs != nil {
		fs.VisitAll(func(*flag.Flag) { n++ })
	}
	if n == 0 {
		fmt.Fprintf(w, "\n%s takes no flags.\n", name)
		return
	}
	fmt.Fprintln(w, "\nflags:")
	fs.VisitAll(func(f *flag.Flag) {
		arg, usage := flag.UnquoteUsage(f)
		head := "  --" + f.Name
		if arg != "" {
			head += " " + arg
		}
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "-1" && f.DefValue != "[]" {
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n      %s%s\n", head, usage, def)
	})
}

// cmdHelp is `gitui help [CMD]`: the overview, or one command's usage and flags.
func cmdHelp(_ context.Context, args []string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		printUsage(stdout)
		return nil
	case 1:
		c, ok := commands[pos[0]]
		if pos[0] == "tui" {
			c, ok = tuiCommand, true
		}
		if !ok {
			return usagef("help: unknown command %q: run `gitui help` for the list", pos[0])
		}
		printCommandHelp(stdout, c, flagsOf(c))
		return nil
	}
	return usagef("usage: gitui help [CMD]")
}

func init() {
	register(command{Name: "help", Order: 90, Synopsis: "help [CMD]",
		Summary: "this overview, or CMD's usage and flags (gitui help tui: the workbench's flags)",
		Run:     cmdHelp,
		Complete: func(pos int, _ []string) []string {
			if pos > 0 {
				return []string{}
			}
			names := []string{"tui"}
			for _, c := range sortedCommands() {
				names = append(names, c.Name)
			}
			return names
		}})
	register(command{Name: "run", Order: 10, Synopsis: "run PRESET|SPEC [--quick] [--out DIR] [--data DIR] [--seed N] [--set key=value]... [--shard i/N]",
		Summary: "run a preset or a spec file headless; every finished cell is journaled into --out",
		Details: `PRESET is a name from gitui presets; SPEC a .json or .yaml file with the same fields
(gitui presets -v prints them, with every method field). --set takes dotted JSON
paths of the spec: --set repeats=10 --set methods.2.bins=25 --set 'methods.*.lambda=1e-6'.
The run directory holds spec.json, cells.jsonl (the journal), result.json and
predictions.csv; gitui resume DIR finishes an interrupted run.`,
		Run: cmdRun, Complete: completePresetOrFile})
	register(command{Name: "merge", Order: 22, Synopsis: "merge OUT [SHARD_DIR...] [--data DIR]",
		Summary: "combine the journals of sharded runs (run --shard i/N) into OUT/result.json",
		Details: `The shards' specs must be identical. Cells are unioned into OUT/cells.jsonl, then
OUT/result.json and predictions.csv are derived as gitui resume would, without running a cell.
Missing cells are named and the result is partial (exit 1): gitui resume OUT runs just those.
Without SHARD_DIR, the shards are OUT/shards/*.`,
		Run: cmdMerge})
	register(command{Name: "slurm", Order: 24, Synopsis: "slurm SPEC --out DIR [--quick] [--seed N] [--set key=value]... [--data DIR] [--gitui PATH] [--tasks N] [--partition P] [--time HH:MM:SS] [--cpus-per-task C] [--mem M] [--max-parallel P] [--submit] | slurm --resubmit DIR [--submit]",
		Summary: "write (and with --submit, submit) a Slurm job array over shards, then a merge job",
		Details: `DIR must be on a file system every node sees (assumed; a tmpfs DIR is warned about).
Each array task runs gitui run --shard $SLURM_ARRAY_TASK_ID/N into DIR/shards/<i>/ with its
log in DIR/logs/<i>.out; merge.sbatch runs after the array (afterok). --resubmit DIR submits
only the indices whose shard is unfinished. A spec with a tune block is a study: every task
runs gitui tune --join DIR, taking jobs from DIR/trials.jsonl by an O_EXCL claim per job,
and the final job (gitui resume DIR) refits the best; the trials equal gitui tune --workers N.`,
		Run: cmdSlurm, Complete: completePresetOrFile})
	register(command{Name: "tune", Order: 15, Synopsis: "tune PRESET|SPEC [--quick] [--out DIR] [--data DIR] [--seed N] [--set key=value]... [--param KEY=DIST]... [--workers N] | tune --join DIR [--data DIR]",
		Summary: "an honest search: a validation split of the pool (or leave-one-out), successive halving over the training size, one test of the best",
		Details: `KEY is a field as --set names it (methods.N.FIELD, group.FIELD) or method (a choice
among the spec's methods); DIST a list 5,10,25 or a range LOW..HIGH, log:LOW..HIGH,
int:LOW..HIGH. The spec's tune block sets the sampler (tpe, random, quasi, grid), the
pruner (asha, sh, hyperband, none), eta, trials, min_n, max_n, validation, refit_n,
refit_top (k: the k best refit and tested, reported beside the best, never chosen by test),
score (validation, or loo: each RLS fit's leave-one-out accuracy, no split),
workers (default 2: jobs decided ahead of results) and baseline (default true: the
spec's own values of the searched fields are scored too, once the search is done, at
the highest rung a trial reached; they compete, winning a tie, are refit if not the best,
and the last line reports the best against them on validation and test; the sampler
never sees them). --workers N sets tune.workers to N:
N jobs in flight; the trials and the best depend on N and the seed, never on timing, so the
same N gives the same study.json. Trials that share their
features (every field deciding them) compute them once. The study directory holds spec.json, trials.jsonl (the journal), study.json,
best.spec.json and the refit's result.json and predictions.csv; gitui resume DIR
continues a study, and gitui run DIR/best.spec.json reproduces its test accuracy.
--join DIR is one task of gitui slurm's array over a study (docs/runs.md).`,
		Run: cmdTune, Complete: completePresetOrFile})
	register(command{Name: "resume", Order: 20, Synopsis: "resume DIR [--data DIR]",
		Summary: "finish an interrupted run from its journal (cells.jsonl), or continue a study (trials.jsonl)",
		Details: `The journal is checked first (docs/runs.md): a spec.json edited since the run
started is refused (exit 2, naming the changed keys); a line that fails its CRC-32C is
moved to DIR/cells.damaged.jsonl (a study's to trials.damaged.jsonl) and only its cell
(job) runs again.`,
		Run: cmdResume, Complete: func(int, []string) []string { return nil }})
	register(command{Name: "presets", Order: 30, Synopsis: "presets [-v] [--data DIR]",
		Summary: "name and one line for each preset (-v: each spec and the method fields)",
		Run: func(_ context.Context, args []string, stdout, _ io.Writer) error {
			return cmdPresets(args, stdout)
		}, Complete: func(int, []string) []string { return []string{} }})
	register(command{Name: "data", Order: 40, Synopsis: "data list | fetch NAME [--url URL] | synth spoken-digits [--full] [--data DIR]",
		Summary: "the data sets available and where; download one with SHA-256 checks; make the synthetic spoken digits (espeak-ng)",
		Run:     cmdData, Complete: completeData})
	register(command{Name: "bench", Order: 50, Synopsis: "bench [NAME...] [--n N] [--m M] [--g G] [--group FILE] [--bins B] [--test T] [--gram FILE] [--data DIR] [--json] [--calibrate]",
		Summary: "time the hot paths on this machine: " + strings.Join(benchDefault, ", ") + " (no NAME: all)",
		Run:     cmdBench,
		Complete: func(int, []string) []string {
			return append([]string(nil), benchDefault...)
		}})
	register(command{Name: "export", Order: 60, Synopsis: "export RESULT.json|RUN_DIR|STUDY_DIR... [--png F] [--svg F] [--pdf F] [--csv F|-] [--table md|latex|csv [--out F|-]]",
		Summary: "plot results in one figure (PNG, SVG, PDF), write their points as CSV, or their tables as Markdown, LaTeX or CSV",
		Details: `An input is a result.json, a run directory (gitui run --out), or a study directory
(gitui tune --out) or its study.json; a study draws and writes points from its refit's
result.json. Several results are overlaid as in the workbench: a series keeps its
colour, and is labelled "name · run" when the runs differ. --csv - writes to standard
output; its result column holds the full label of each run. The extension of --png,
--svg and --pdf must match the flag.

--table writes a run's table as gitui run prints it (a row per series, a column per x,
test accuracy in percent as mean ± 1 std over the draws, the best per column in bold)
and a study's trials table (trial, each tuned parameter, the score at each rung, state,
seconds; the best trial in bold; the refit's test accuracy in the caption), to --out
FILE or, by default or with --out -, to standard output. md is a GitHub pipe table, latex
a table float with a booktabs tabular (\usepackage{booktabs}), csv RFC 4180 with a last
column naming the best cells. Labels are escaped for the format (| in Markdown; _ % & # $
{ } ~ ^ \ in LaTeX, ± as $\pm$).

  gitui export runs/liu/result.json --table latex --out table2.tex
  gitui export runs/mnist-cdf-tune --table md`,
		Run: func(_ context.Context, args []string, stdout, stderr io.Writer) error {
			return cmdExport(args, stdout, stderr)
		}})
	register(command{Name: "completion", Order: 70, Synopsis: "completion bash|zsh|fish",
		Summary: "print a shell completion script (sub-commands, presets, flags, the keys of gitui run --set)",
		Details: `bash:  source <(gitui completion bash)        (or save it in ~/.local/share/bash-completion/completions/gitui)
zsh:   gitui completion zsh > "${fpath[1]}/_gitui"
fish:  gitui completion fish > ~/.config/fish/completions/gitui.fish`,
		Run: cmdCompletion,
		Complete: func(pos int, _ []string) []string {
			if pos > 0 {
				return []string{}
			}
			return []string{"bash", "zsh", "fish"}
		}})
	register(command{Name: "version", Order: 80, Synopsis: "version",
		Summary: "the module version, VCS commit, Go version, platform and BLAS",
		Run: func(_ context.Context, args []string, stdout, _ io.Writer) error {
			fs := flag.NewFlagSet("version", flag.ContinueOnError)
			pos, err := parseInterleaved(fs, args)
			if err != nil {
				return err
			}
			if len(pos) > 0 {
				return usagef("version takes no arguments")
			}
			fmt.Fprintln(stdout, versionLine())
			return nil
		}, Complete: func(int, []string) []string { return []string{} }})
}

// wrapWords breaks s into lines of at most width bytes at spaces (a longer word gets a
// line of its own).
func wrapWords(s string, width int) []string {
	var lines []string
	cur := ""
	for _, w := range strings.Fields(s) {
		switch {
		case cur == "":
			cur = w
		case len(cur)+1+len(w) <= width:
			cur += " " + w
		default:
			lines = append(lines, cur)
			cur = w
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

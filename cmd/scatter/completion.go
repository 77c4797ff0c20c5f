package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/scatter-dev/scatter/registry"
)

// completionCommand prints a shell's completion script.
var completionCommand = &command{
	name:  "completion",
	args:  "bash|zsh|fish",
	short: "print the completion script of a shell: commands, flags, operators and files",
	about: "Prints a script that completes scatter's commands, each command's flags, the operator\n" +
		"names after eval, explain, compare and ops, and file names for the flags that take a\n" +
		"file (--in NAME=FILE after the =). Load it in bash with\n" +
		"    source <(scatter completion bash)\n" +
		"in zsh with\n" +
		"    source <(scatter completion zsh)\n" +
		"(after compinit), and in fish with\n" +
		"    scatter completion fish | source\n",
}

// completionCmd reads the commands, which hold completionCommand, so
// completionCommand gets its define here rather than in its literal: the
// literal would make an initialization cycle.
func init() { completionCommand.define = noFlags(completionCmd) }

// shells are the shells completion writes a script for, sorted.
var shells = []string{"bash", "fish", "zsh"}

func completionCmd(args []string, stdout, _ io.Writer) error {
	if len(args) != 1 {
		return usagef("completion: name one shell: %s", strings.Join(shells, ", "))
	}
	specs := completionSpecs()
	switch args[0] {
	case "bash":
		writeBash(stdout, specs)
	case "fish":
		writeFish(stdout, specs)
	case "zsh":
		writeZsh(stdout, specs)
	default:
		return usagef("completion: no script for the shell %q (shells: %s)", args[0], strings.Join(shells, ", "))
	}
	return nil
}

// A completionSpec is what a script completes for one command: its flags,
// and what its positional arguments are.
type completionSpec struct {
	name  string
	short string
	flags []flagSpec
	args  argKind
	// many: more than one positional argument may be given.
	many bool
}

// A flagSpec is one flag of a command, as a completion script offers it.
type flagSpec struct {
	name  string
	usage string // the usage text, without backquotes
	value valueKind
	// repeatable flags may be given more than once.
	repeatable bool
}

// argKind is what a command's positional arguments are.
type argKind int

const (
	argNone     argKind = iota
	argOps              // operator names
	argFiles            // file or directory names
	argCommands         // scatter's command names
	argShells           // the shells completion knows
)

// valueKind is what a flag's value is.
type valueKind int

const (
	valueNone      valueKind = iota // a boolean flag, which takes no value
	valueWord                       // a value completion cannot list
	valueFile                       // a file name
	valueNamedFile                  // NAME=FILE: a file name after the =
)

// completionSpecs returns the spec of every command, help and completion
// included, in the order of the usage.
func completionSpecs() []completionSpec {
	var specs []completionSpec
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		s := completionSpec{name: c.name, short: c.short, many: strings.Contains(c.args, "...")}
		switch {
		case strings.HasPrefix(c.args, "OP") || strings.HasPrefix(c.args, "[OP") || c.name == "ops":
			s.args = argOps
		case strings.Contains(c.args, "FILE") || strings.Contains(c.args, "DIR"):
			s.args = argFiles
		case c.name == "completion":
			s.args = argShells
		}
		fs.VisitAll(func(f *flag.Flag) { s.flags = append(s.flags, newFlagSpec(f)) })
		specs = append(specs, s)
	}
	return append(specs, completionSpec{name: "help", short: "print the usage, or a command's flags", args: argCommands})
}

// newFlagSpec describes f: the value its usage text names says what
// completes it ("FILE", "NAME=FILE|TYPE:VALUES", or a word such as "N").
func newFlagSpec(f *flag.Flag) flagSpec {
	arg, usage := flag.UnquoteUsage(f)
	s := flagSpec{name: f.Name, usage: strings.Join(strings.Fields(usage), " ")} // one line
	_, s.repeatable = f.Value.(repeatable)
	if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
		return s
	}
	name, _, named := strings.Cut(arg, "=")
	switch {
	case named && strings.Contains(arg, "FILE") && !strings.Contains(name, "FILE"):
		s.value = valueNamedFile
	case strings.HasPrefix(arg, "FILE"):
		s.value = valueFile
	default:
		s.value = valueWord
	}
	return s
}

// opNames returns the names of every operator, sorted.
func opNames() []string {
	var names []string
	for _, op := range registry.Ops() {
		names = append(names, op.Name)
	}
	return names
}

// specNames returns the names of the commands of specs, in order.
func specNames(specs []completionSpec) []string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return names
}

// writeBash writes the bash completion script. It reads the words up to
// the cursor from COMP_LINE rather than COMP_WORDS, which bash splits at
// the = and : of NAME=FILE and TYPE:VALUES.
func writeBash(w io.Writer, specs []completionSpec) {
	fmt.Fprintf(w, `# bash completion for scatter, written by 'scatter completion bash'.
# Load it with: source <(scatter completion bash)
_scatter() {
    local line=${COMP_LINE:0:COMP_POINT}
    local -a words
    read -ra words <<< "$line"
    [[ $line == *[[:space:]] ]] && words+=("")
    local n=${#words[@]}
    local cur=${words[n-1]} prev=${words[n-2]}
    COMPREPLY=()
    if (( n == 2 )); then
        COMPREPLY=($(compgen -W %q -- "$cur"))
        return
    fi
    local cmd=${words[1]}
`, strings.Join(specNames(specs), " "))
	// A value after a flag that takes one.
	var files, named, words []string
	for _, s := range specs {
		for _, f := range s.flags {
			pattern := s.name + " --" + f.name
			switch f.value {
			case valueFile:
				files = append(files, pattern)
			case valueNamedFile:
				named = append(named, pattern)
			case valueWord:
				words = append(words, pattern)
			}
		}
	}
	fmt.Fprintf(w, "    case \"$cmd $prev\" in\n")
	if len(files) > 0 {
		fmt.Fprintf(w, "    %s)\n        COMPREPLY=($(compgen -f -- \"$cur\"))\n        return ;;\n", bashAlternatives(files))
	}
	if len(named) > 0 {
		fmt.Fprintf(w, `    %s)
        [[ $cur == *=* ]] || return
        local name=${cur%%%%=*}= file=${cur#*=}
        COMPREPLY=($(compgen -f -- "$file"))
        # bash completes only what follows the = if = breaks words.
        [[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=("${COMPREPLY[@]/#/$name}")
        return ;;
`, bashAlternatives(named))
	}
	if len(words) > 0 {
		fmt.Fprintf(w, "    %s)\n        return ;;\n", bashAlternatives(words))
	}
	fmt.Fprintf(w, "    esac\n    if [[ $cur == -* ]]; then\n        case $cmd in\n")
	for _, s := range specs {
		if len(s.flags) == 0 {
			continue
		}
		var names []string
		for _, f := range s.flags {
			names = append(names, "--"+f.name)
		}
		fmt.Fprintf(w, "        %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", s.name, strings.Join(names, " "))
	}
	fmt.Fprintf(w, "        esac\n        return\n    fi\n    case $cmd in\n")
	for _, s := range specs {
		switch s.args {
		case argOps:
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", s.name, strings.Join(opNames(), " "))
		case argFiles:
			fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n", s.name)
		case argCommands:
			fmt.Fprintf(w, "    %s) (( n == 3 )) && COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", s.name, strings.Join(specNames(specs), " "))
		case argShells:
			fmt.Fprintf(w, "    %s) (( n == 3 )) && COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", s.name, strings.Join(shells, " "))
		}
	}
	fmt.Fprintf(w, "    esac\n}\ncomplete -o filenames -F _scatter scatter\n")
}

// bashAlternatives returns the patterns of a case branch, each quoted:
// "eval --out"|"explain --svg".
func bashAlternatives(patterns []string) string {
	quoted := make([]string, len(patterns))
	for i, p := range patterns {
		quoted[i] = fmt.Sprintf("%q", p)
	}
	return strings.Join(quoted, "|")
}

// writeZsh writes the zsh completion script, which describes each
// command's flags and arguments to _arguments.
func writeZsh(w io.Writer, specs []completionSpec) {
	fmt.Fprintf(w, `#compdef scatter
# zsh completion for scatter, written by 'scatter completion zsh'.
# Load it with: source <(scatter completion zsh), after compinit.
_scatter() {
    local -a commands
    commands=(
`)
	for _, s := range specs {
		fmt.Fprintf(w, "        %s\n", zshQuote(s.name+":"+s.short))
	}
	fmt.Fprintf(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'scatter command' commands
        return
    fi
    local cmd=$words[2] state line
    typeset -A opt_args
    shift words
    (( CURRENT-- ))
    case $cmd in
`)
	for _, s := range specs {
		var specArgs []string
		for _, f := range s.flags {
			spec := "--" + f.name + "[" + zshEscape(f.usage) + "]"
			if f.repeatable {
				spec = "*" + spec
			}
			switch f.value {
			case valueFile:
				spec += ":file:_files"
			case valueNamedFile:
				spec += ":NAME=FILE:->namedfile"
			case valueWord:
				spec += ":value: "
			}
			specArgs = append(specArgs, zshQuote(spec))
		}
		pos := "1"
		if s.many {
			pos = "*"
		}
		switch s.args {
		case argOps:
			specArgs = append(specArgs, zshQuote(pos+":operator:("+strings.Join(opNames(), " ")+")"))
		case argFiles:
			specArgs = append(specArgs, zshQuote(pos+":file:_files"))
		case argCommands:
			specArgs = append(specArgs, zshQuote("1:command:("+strings.Join(specNames(specs), " ")+")"))
		case argShells:
			specArgs = append(specArgs, zshQuote("1:shell:("+strings.Join(shells, " ")+")"))
		}
		if len(specArgs) == 0 {
			continue
		}
		fmt.Fprintf(w, "    %s)\n        _arguments \\\n            %s ;;\n", s.name, strings.Join(specArgs, " \\\n            "))
	}
	fmt.Fprintf(w, `    esac
    if [[ $state == namedfile ]]; then
        compset -P '*='
        _files
    fi
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _scatter "$@"
else
    compdef _scatter scatter
fi
`)
}

// zshQuote quotes s for zsh in single quotes.
func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// zshEscape escapes the characters that end or split a description in an
// _arguments spec: brackets and colons.
func zshEscape(s string) string {
	return strings.NewReplacer("[", `\[`, "]", `\]`, ":", `\:`).Replace(s)
}

// writeFish writes the fish completion script: one complete command per
// subcommand, flag and set of arguments.
func writeFish(w io.Writer, specs []completionSpec) {
	fmt.Fprintf(w, "# fish completion for scatter, written by 'scatter completion fish'.\n"+
		"# Load it with: scatter completion fish | source\n"+
		"complete -c scatter -f\n")
	for _, s := range specs {
		fmt.Fprintf(w, "complete -c scatter -n __fish_use_subcommand -a %s -d %s\n", s.name, fishQuote(s.short))
	}
	for _, s := range specs {
		cond := fishQuote("__fish_seen_subcommand_from " + s.name)
		for _, f := range s.flags {
			opts := ""
			switch f.value {
			case valueFile, valueNamedFile:
				opts = " -r -F"
			case valueWord:
				opts = " -r"
			}
			fmt.Fprintf(w, "complete -c scatter -n %s -l %s%s -d %s\n", cond, f.name, opts, fishQuote(f.usage))
		}
		switch s.args {
		case argOps:
			fmt.Fprintf(w, "complete -c scatter -n %s -a %s\n", cond, fishQuote(strings.Join(opNames(), " ")))
		case argFiles:
			fmt.Fprintf(w, "complete -c scatter -n %s -F\n", cond)
		case argCommands:
			fmt.Fprintf(w, "complete -c scatter -n %s -a %s\n", cond, fishQuote(strings.Join(specNames(specs), " ")))
		case argShells:
			fmt.Fprintf(w, "complete -c scatter -n %s -a %s\n", cond, fishQuote(strings.Join(shells, " ")))
		}
	}
}

// fishQuote quotes s for fish in single quotes, in which only \ and '
// are escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

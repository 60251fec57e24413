package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// errHelp is returned after help was printed on request.
var errHelp = errors.New("help requested")

// usageError is a mistake on the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func exitCode(err error) int {
	var ue usageError
	switch {
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		return 2
	}
	return 1
}

const topUsage = `sotto-cli — the Sotto local speech-and-language gateway

Usage:
  sotto-cli serve [flags]            run the HTTP API (headless on 127.0.0.1:1118;
                                     --desktop for the desktop gateway on 127.0.0.1:1117)
  sotto-cli models list              list the catalog and what is downloaded
  sotto-cli models download MODEL    download a model, with a progress bar
  sotto-cli models cancel MODEL      cancel a running download
  sotto-cli models load MODEL        load a downloaded model into memory
  sotto-cli models unload MODEL      release a loaded model
  sotto-cli models running           show loaded models, runtime state and queues
  sotto-cli models rm MODEL          delete a model's downloaded files (an imported
                                     model also leaves the catalog)
  sotto-cli models import ID PATH    register a local GGUF file (or a llama2.c checkpoint
                                     with --tokenizer PATH) as a language model
  sotto-cli version                  print the version

The models commands talk to a running service: --url (or SOTTO_URL; else
the address SOTTO_LISTEN gives serve; else http://127.0.0.1:1118) and
--api-key (or SOTTO_API_KEY); models import edits
the user catalog of --data-dir instead (restart the service to see it).

Exit status: 0 success (serve also after Ctrl-C or SIGTERM, which stop it
gracefully; a second Ctrl-C stops at once), 1 failure (the reason is
printed), 2 usage error.

Run "sotto-cli COMMAND --help" for the flags of a command.
`

// run is the whole program: it parses args and runs one command.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, topUsage)
		return usageError{"no command given"}
	}
	switch cmd := args[0]; cmd {
	case "serve":
		return runServe(ctx, args[1:], os.Getenv, stdout, stderr)
	case "models":
		return runModels(ctx, args[1:], os.Getenv, stdout, stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "sotto-cli", version())
		return nil
	case "help", "-h", "--help":
		if len(args) > 1 && (args[1] == "serve" || args[1] == "models") {
			return run(ctx, []string{args[1], "--help"}, stdin, stdout, stderr) // "sotto-cli help serve", as git and go
		}
		fmt.Fprint(stdout, topUsage)
		return errHelp
	default:
		return usageError{fmt.Sprintf("unknown command %q: want serve, models or version", cmd)}
	}
}

// splitList splits a comma-separated flag or environment value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
)

// debugCommand is one sub-command of the debug CLI: the path it reads and
// how it prints text.
type debugCommand struct {
	path string
	text func(w io.Writer, body []byte) error
	// note, when set, prints after the text what else the reader must
	// know (module list: the configuration in force is not the ConfigMap's).
	note  func(ctx context.Context, client *debugapi.Client, w io.Writer) error
	watch bool
}

// debugCLI runs `queue list`, `module list|values|render`, `actors`,
// `hooks` against the running operator's socket.
func debugCLI(ctx context.Context, args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("o", "text", "output: text, json or yaml (module list: also wide)")
	global := fs.Bool("global", false, "module values: the global values")
	module := fs.String("module", "", "hook snapshots: the module whose hook it is (global hooks without)")
	watch := fs.Bool("watch", false, "actors: refresh every 2 seconds")
	history := fs.String("history", "", "actors: the last messages ACTOR handled, newest last")
	socket := fs.String("debug-unix-socket", socketPath(lookup), "the operator's debug socket")
	cmd, rest, err := parseCLI(fs, args)
	if err != nil {
		return err
	}
	c, err := command(cmd, rest, *global, *module)
	if err != nil {
		return err
	}
	if *history != "" && cmd == "actors" {
		c = historyCommand(*history)
	}
	c.watch = *watch && cmd == "actors"
	if *output == "wide" && cmd == "module list" {
		c.path, c.text, *output = "/why", textModulesWide, "text"
	}
	client := debugapi.NewClient(*socket)
	for {
		if err := show(ctx, client, c, *output, stdout); err != nil || !c.watch {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(2 * time.Second):
			fmt.Fprint(stdout, "\033[H\033[2J")
		}
	}
}

func socketPath(lookup func(string) (string, bool)) string {
	if v, ok := lookup("DEBUG_UNIX_SOCKET"); ok && v != "" {
		return v
	}
	return "/var/run/addon-operator/debug.socket"
}

// parseCLI splits "module values NAME -o json" into the command, its
// arguments and the flags, which may come anywhere.
func parseCLI(fs *flag.FlagSet, args []string) (string, []string, error) {
	var words []string
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			return "", nil, err
		}
		if fs.NArg() == 0 {
			break
		}
		words = append(words, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(words) == 0 {
		return "", nil, errUsage
	}
	cmd := words[0]
	if len(words) > 1 && (cmd == "queue" || cmd == "module" || cmd == "hook") {
		cmd += " " + words[1]
		words = words[1:]
	}
	return cmd, words[1:], nil
}

func command(cmd string, args []string, global bool, module string) (debugCommand, error) {
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	switch {
	case cmd == "queue list":
		return debugCommand{path: "/queue", text: textQueues}, nil
	case cmd == "module list":
		return debugCommand{path: "/modules", text: textModules, note: configNote}, nil
	case cmd == "module values" && global:
		return debugCommand{path: "/global/values", text: textYAML}, nil
	case cmd == "module values" && name != "":
		return debugCommand{path: "/modules/" + name + "/values", text: textYAML}, nil
	case cmd == "module why" && name != "":
		return debugCommand{path: "/modules/" + url.PathEscape(name) + "/why", text: textWhy}, nil
	case cmd == "module render" && name != "":
		return debugCommand{path: "/modules/" + name + "/render", text: textRaw}, nil
	case cmd == "actors":
		return debugCommand{path: "/actors", text: textActors}, nil
	case cmd == "hook snapshots" && name != "":
		owner := "global"
		if module != "" {
			owner = "module/" + module
		}
		return debugCommand{path: "/snapshots?owner=" + url.QueryEscape(owner) + "&hook=" + url.QueryEscape(name), text: textYAML}, nil
	case cmd == "hooks":
		return debugCommand{path: "/hooks", text: textYAML}, nil
	}
	return debugCommand{}, fmt.Errorf("unknown command %q%s", cmd, cliUsage)
}

const cliUsage = `; debug commands: queue list | module list [-o wide] | module why NAME | module values NAME (or --global) | module render NAME | hook snapshots HOOK [--module NAME] | actors [--watch] [--history ACTOR] | hooks; -o text|json|yaml`

func show(ctx context.Context, client *debugapi.Client, c debugCommand, output string, w io.Writer) error {
	body, err := client.Get(ctx, c.path)
	if err != nil {
		return err
	}
	switch output {
	case "json":
		_, err = w.Write(body)
		return err
	case "yaml":
		return textYAML(w, body)
	case "text":
		if err := c.text(w, body); err != nil || c.note == nil {
			return err
		}
		return c.note(ctx, client, w)
	}
	return fmt.Errorf("-o %q: want text, json or yaml", output)
}

func textYAML(w io.Writer, body []byte) error {
	if !json.Valid(body) {
		_, err := w.Write(body)
		return err
	}
	out, err := yaml.JSONToYAML(body)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func textRaw(w io.Writer, body []byte) error {
	_, err := w.Write(body)
	return err
}

package debugapi

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// History is the answer of /actors/history?actor=PATH: the actor's flight
// recorder, oldest first.
type History struct {
	Actor   string          `json:"actor"`
	Entries []inspect.Entry `json:"entries"`
}

// actorHistory serves an actor's flight recorder. The actor is named by its
// path ("operator/module/foo") or by a unique end of it ("module/foo").
func actorHistory(reg *inspect.Registry) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("actor")
		path, err := resolveActor(reg, name)
		if err != nil {
			status := http.StatusBadRequest
			if errors.Is(err, errNoActor) {
				status = http.StatusNotFound
			}
			http.Error(w, err.Error(), status)
			return
		}
		entries, ok := reg.History(path)
		if !ok {
			http.Error(w, fmt.Sprintf("actor %q stopped", path), http.StatusNotFound)
			return
		}
		write(w, History{Actor: path, Entries: entries})
	}
}

var errNoActor = errors.New("no actor")

// resolveActor finds the live actor that name stands for.
func resolveActor(reg *inspect.Registry, name string) (string, error) {
	if name == "" {
		return "", fmt.Errorf("no actor named: give ?actor=PATH (see addon-operator actors)")
	}
	var matches []string
	for _, a := range reg.Snapshot() {
		if a.Path == name {
			return name, nil
		}
		if strings.HasSuffix(a.Path, "/"+name) {
			matches = append(matches, a.Path)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
		return "", fmt.Errorf("%w %q (see addon-operator actors)", errNoActor, name)
	}
	sort.Strings(matches)
	return "", fmt.Errorf("actor %q is ambiguous: %s", name, strings.Join(matches, ", "))
}

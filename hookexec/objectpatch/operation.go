package objectpatch

import "fmt"

// Kind is an operation's name as the hook writes it.
type Kind string

// The operations of UPSTREAM.md §1.9.
const (
	Create             Kind = "Create"
	CreateIfNotExists  Kind = "CreateIfNotExists"
	CreateOrUpdate     Kind = "CreateOrUpdate"
	Delete             Kind = "Delete"
	DeleteInBackground Kind = "DeleteInBackground"
	DeleteNonCascading Kind = "DeleteNonCascading"
	JQPatch            Kind = "JQPatch"
	MergePatch         Kind = "MergePatch"
	JSONPatch          Kind = "JSONPatch"
)

// kinds are the valid operations, for errors.
var kinds = []Kind{Create, CreateIfNotExists, CreateOrUpdate, Delete, DeleteInBackground, DeleteNonCascading,
	JQPatch, MergePatch, JSONPatch}

// Operation is one item of the stream, validated. Which fields are set
// depends on Op: Object for the creates; the target (APIVersion, ObjKind,
// Namespace, Name) for the deletes and patches, with JQFilter, MergePatch
// or JSONPatch (both as JSON text) for the patches.
type Operation struct {
	// Index is the item's position in the stream, from 0, for errors.
	Index       int
	Op          Kind
	APIVersion  string
	ObjKind     string
	Namespace   string
	Name        string
	Subresource string
	// Object is the object to create, with apiVersion, kind and
	// metadata.name (or generateName for Create).
	Object              map[string]any
	JQFilter            string
	MergePatch          []byte
	JSONPatch           []byte
	IgnoreMissingObject bool
	// IgnoreHookError is accepted and has no effect: a failed shell hook's
	// results are dropped whole (UPSTREAM.md §1.9).
	IgnoreHookError bool
}

// Target names the object for errors and logs: "Kind ns/name".
func (o Operation) Target() string {
	if o.Namespace == "" {
		return fmt.Sprintf("%s %s", o.ObjKind, o.Name)
	}
	return fmt.Sprintf("%s %s/%s", o.ObjKind, o.Namespace, o.Name)
}

// Describe is "item N (Op Kind ns/name)", the prefix of an operation's
// errors.
func (o Operation) Describe() string {
	return fmt.Sprintf("item %d (%s %s)", o.Index, o.Op, o.Target())
}

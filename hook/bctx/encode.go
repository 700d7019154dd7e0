package bctx

import (
	"encoding/json"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Marshal encodes a v1 binding context array. Raw objects and filter
// results are copied as they are; they must be valid JSON.
func Marshal(contexts []Context) []byte {
	return AppendJSON(make([]byte, 0, estimateSize(contexts)), contexts)
}

// AppendJSON appends the v1 binding context array to dst.
func AppendJSON(dst []byte, contexts []Context) []byte {
	dst = append(dst, '[')
	for i, c := range contexts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = c.appendJSON(dst, nil)
	}
	return append(dst, ']')
}

// MarshalJSON lets a Context be embedded in other JSON.
func (c Context) MarshalJSON() ([]byte, error) {
	return c.appendJSON(nil, nil), nil
}

// spill takes the bytes encoded so far and returns what to go on appending
// to: Encode writes them out once they pass a size, so that a context
// carrying a large snapshot is never held whole; nil keeps them all.
type spill func(dst []byte) []byte

func (c Context) appendJSON(dst []byte, sp spill) []byte {
	dst = append(dst, `{"binding":`...)
	dst = appendString(dst, c.Binding)
	if c.Type != "" {
		dst = append(dst, `,"type":`...)
		dst = appendString(dst, string(c.Type))
	}
	if c.WatchEvent != "" {
		dst = append(dst, `,"watchEvent":`...)
		dst = appendString(dst, c.WatchEvent)
	}
	if c.GroupName != "" {
		dst = append(dst, `,"groupName":`...)
		dst = appendString(dst, c.GroupName)
	}
	if c.Type == Conversion {
		dst = append(dst, `,"fromVersion":`...)
		dst = appendString(dst, c.FromVersion)
		dst = append(dst, `,"toVersion":`...)
		dst = appendString(dst, c.ToVersion)
	}
	if c.Type == Event {
		dst = c.Item.appendFields(dst, true)
	}
	if c.Type == Synchronization {
		dst = append(dst, `,"objects":`...)
		dst = appendItems(dst, c.Objects, sp)
	}
	if c.Snapshots != nil {
		dst = append(dst, `,"snapshots":`...)
		dst = c.Snapshots.appendJSON(dst, sp)
	}
	if len(c.Request) > 0 {
		dst = append(dst, `,"review":{"request":`...)
		dst = append(dst, c.Request...)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

func (s Snapshots) appendJSON(dst []byte, sp spill) []byte {
	names := make([]string, 0, len(s))
	for name := range s {
		names = append(names, name)
	}
	slices.Sort(names)
	dst = append(dst, '{')
	for i, name := range names {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, name)
		dst = append(dst, ':')
		dst = appendItems(dst, s[name], sp)
	}
	return append(dst, '}')
}

func appendItems(dst []byte, items []ObjectAndFilterResult, sp spill) []byte {
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		dst = it.appendFields(dst, false)
		dst = append(dst, '}')
		if sp != nil {
			dst = sp(dst)
		}
	}
	return append(dst, ']')
}

// appendFields writes "object" and "filterResult" when present; comma says
// whether a field precedes them in the enclosing object.
func (o ObjectAndFilterResult) appendFields(dst []byte, comma bool) []byte {
	if len(o.Object) > 0 {
		if comma {
			dst = append(dst, ',')
		}
		dst = append(dst, `"object":`...)
		dst = append(dst, o.Object...)
		comma = true
	}
	if len(o.FilterResult) > 0 {
		if comma {
			dst = append(dst, ',')
		}
		dst = append(dst, `"filterResult":`...)
		dst = append(dst, o.FilterResult...)
	}
	return dst
}

// appendString appends s as a JSON string. Plain strings, the common case,
// are quoted directly; others go through encoding/json's escaping.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b < 0x20 || b == 0x7f || b == '"' || b == '\\' || b >= utf8.RuneSelf || b == '<' || b == '>' || b == '&' {
			quoted, _ := json.Marshal(s)
			return append(dst, quoted...)
		}
	}
	return strconv.AppendQuote(dst, s)
}

func estimateSize(contexts []Context) int {
	n := 2
	for _, c := range contexts {
		n += 64 + len(c.Binding) + len(c.Item.Object) + len(c.Item.FilterResult) + len(c.Request)
		for _, o := range c.Objects {
			n += 32 + len(o.Object) + len(o.FilterResult)
		}
		for _, items := range c.Snapshots {
			for _, o := range items {
				n += 32 + len(o.Object) + len(o.FilterResult)
			}
		}
	}
	return n
}

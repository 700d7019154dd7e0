// Package owners lets one probe of the actor test kit (test/actortest) play
// the owners (global, module/NAME) an event source sends its HookEvents to,
// and turns what it receives into the tasks the owners would queue.
package owners

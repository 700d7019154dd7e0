// Package actorsys is the actor system every actor of the process runs in,
// without the tree: protoactor with the process's slog logger, the
// inspector and the panic guardian, and the props that give an actor an
// inspected mailbox and the guardian as its supervisor. The operator's root
// (actors/operator) builds on it; tests of low-layer packages spawn their
// actors on it without compiling the actor tree.
package actorsys

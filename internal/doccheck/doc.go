// Package doccheck compiles the Go snippets of the documentation — the
// ```go blocks of README.md and the code blocks of every public package's
// doc comment (doc.go) — as programs of a module outside the repository, so
// documentation that drifts from the API fails `make test`
// (TestSnippetsCompile). Internal packages are left out: a program outside
// the module cannot import them.
//
// # How a snippet becomes a program
//
// The Go blocks of one file (README.md, or one doc.go) make one program. A
// block of statements runs inside a func run(ctx context.Context) error,
// each block in a scope nested in the previous one's, so a block may use
// what an earlier one declared and may declare it again with :=. A block
// that parses as declarations (func, type, var) goes to the top level of
// the program, and a block starting with "package" is a program of its own.
//
// Snippets are written as a reader would copy them, with these allowances:
//
//   - Imports may be left out. The checker imports the standard packages
//     and the module's public packages that a snippet names (fmt, log,
//     errors, align, backend …), and the documented package itself. Import
//     lines a snippet does have are kept.
//   - ctx (a context.Context) is in scope, and a snippet may return an
//     error.
//   - A variable that is declared and not used is not an error.
//   - "..." standing for elided code — alone on a line, as a block's whole
//     body ("if err != nil { ... }") or as the last item of a composite
//     literal ("{Cardinal: f, ...}") — is removed.
//   - A block that shows code written inside a package (a driver's init, a
//     registry) starts with a comment line "// inside package NAME"; it is
//     parsed (it must be Go) but not compiled.
//   - Blocks that are not Go — JSON, shell commands, tables — are skipped
//     when they do not parse as Go and start with "{", "[", "$" or a digit,
//     or with a shell command (go, make, curl, an environment assignment).
//     Any other block that does not parse is an error.
//
// Everything else a snippet uses must be declared in it: there are no
// hidden variables.
package doccheck

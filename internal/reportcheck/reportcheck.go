// Package reportcheck helps a generator's tests check that the report it
// wrote (docs/bench/*.md) still holds the fixed text it writes: headings,
// notes, table headers and method paragraphs. Reports are long and edited
// by hand between runs (a note added, a section merged from another run),
// and such an edit once cut 44 lines of method notes out of a report
// without anyone noticing. The fixed text is read from the generator's own
// source, so a change to its prose goes into the report with it or fails
// the test.
package reportcheck

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// verb matches a fmt verb with its flags, argument index, width and
// precision ("%[1]s", "%-8.3f").
var verb = regexp.MustCompile(`%[-+# 0]*(?:\[[0-9]+\])?(?:\*|[0-9]+)?(?:\.(?:\*|[0-9]+))?(?:\[[0-9]+\])?[a-zA-Z]`)

// Fragments returns the fixed text that the Go files of dir (tests
// excluded) write through the calls named in calls (a function or method
// name, such as "Fprintf", or a local closure such as "p"): every argument
// that is a string literal, or literals joined with +, cut at line breaks
// and, when calls[name] is true (a Printf-style call), at format verbs
// ("%%" is "%"); a non-literal operand of + cuts too. Fragments shorter than
// min bytes after trimming white space are left out, as are calls writing
// to os.Stderr or os.Stdout (messages, not the report).
func Fragments(dir string, min int, calls map[string]bool) ([]string, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var out []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			printf, ok := calls[callName(call.Fun)]
			if !ok || len(call.Args) == 0 || toConsole(call.Args[0]) {
				return true
			}
			for _, a := range call.Args {
				for _, lit := range literals(a) {
					out = append(out, cut(lit, printf, min)...)
				}
			}
			return true
		})
	}
	return out, nil
}

// Missing returns the fragments that report does not hold, leaving out
// those containing one of the allowed substrings (text the generator writes
// only in some runs, or a section the report says was written by hand).
func Missing(report string, frags []string, allowed ...string) []string {
	var out []string
	for _, f := range frags {
		if strings.Contains(report, f) {
			continue
		}
		skip := false
		for _, a := range allowed {
			if strings.Contains(f, a) {
				skip = true
				break
			}
		}
		if !skip {
			out = append(out, f)
		}
	}
	return out
}

// callName returns the name of the called function or method.
func callName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// toConsole reports whether e is os.Stderr or os.Stdout.
func toConsole(e ast.Expr) bool {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "os" && (s.Sel.Name == "Stderr" || s.Sel.Name == "Stdout")
}

// literals returns the runs of string literals in e joined with +, each run
// as one string.
func literals(e ast.Expr) []string {
	var out []string
	var cur strings.Builder
	open := false
	flush := func() {
		if open {
			out = append(out, cur.String())
			cur.Reset()
			open = false
		}
	}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.BasicLit:
			if x.Kind == token.STRING {
				if s, err := strconv.Unquote(x.Value); err == nil {
					cur.WriteString(s)
					open = true
					return
				}
			}
			flush()
		case *ast.BinaryExpr:
			if x.Op == token.ADD {
				walk(x.X)
				walk(x.Y)
				return
			}
			flush()
		case *ast.ParenExpr:
			walk(x.X)
		default:
			flush()
		}
	}
	walk(e)
	flush()
	return out
}

// cut splits s at line breaks and, for a Printf-style call, at verbs
// ("%%" is "%"), and returns the trimmed pieces of at least min bytes.
func cut(s string, printf bool, min int) []string {
	pieces := []string{s}
	if printf {
		pieces = pieces[:0]
		for _, p := range splitVerbs(s) {
			pieces = append(pieces, strings.ReplaceAll(p, "%%", "%"))
		}
	}
	var out []string
	for _, p := range pieces {
		for _, line := range strings.Split(p, "\n") {
			if line = strings.TrimSpace(line); len(line) >= min {
				out = append(out, line)
			}
		}
	}
	return out
}

// splitVerbs splits s at format verbs, leaving "%%" in place.
func splitVerbs(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			i++
			continue
		}
		loc := verb.FindStringIndex(s[i:])
		if loc == nil || loc[0] != 0 {
			continue
		}
		out = append(out, s[start:i])
		start = i + loc[1]
		i = start - 1
	}
	return append(out, s[start:])
}

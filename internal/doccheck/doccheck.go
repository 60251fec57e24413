package doccheck

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Block is one code block of the documentation.
type Block struct {
	File string // path of the file it is in
	Line int    // line of its first line in File
	Text string // the code, without the comment markers and indentation
}

// READMEBlocks returns the ```go blocks of a Markdown file.
func READMEBlocks(file string) ([]Block, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var blocks []Block
	var cur *Block
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trim := strings.TrimSpace(line)
		switch {
		case cur == nil && trim == "```go":
			cur = &Block{File: file, Line: n + 1}
			lines = nil
		case cur != nil && trim == "```":
			cur.Text = strings.Join(lines, "\n")
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, line)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%s:%d: unterminated ```go block", file, cur.Line-1)
	}
	return blocks, sc.Err()
}

// DocBlocks returns the code blocks of the package doc comment of a Go file
// (the lines gofmt indents with a tab after "//").
func DocBlocks(file string) (pkg string, blocks []Block, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		return "", nil, err
	}
	if f.Doc == nil {
		return f.Name.Name, nil, nil
	}
	var cur *Block
	var lines []string
	blank := 0 // blank comment lines seen inside the current block
	flush := func() {
		if cur != nil {
			cur.Text = strings.Join(lines, "\n")
			blocks = append(blocks, *cur)
			cur = nil
		}
	}
	for _, c := range f.Doc.List {
		text, ok := strings.CutPrefix(c.Text, "//")
		if !ok {
			flush() // a /* */ comment: not gofmt's doc form
			continue
		}
		line := fset.Position(c.Pos()).Line
		switch {
		case strings.HasPrefix(text, "\t"):
			if cur == nil {
				cur = &Block{File: file, Line: line}
				lines = nil
			}
			for ; blank > 0; blank-- {
				lines = append(lines, "")
			}
			lines = append(lines, text[1:])
		case strings.TrimSpace(text) == "" && cur != nil:
			blank++
		default:
			blank = 0
			flush()
		}
	}
	flush()
	return f.Name.Name, blocks, nil
}

// Program is one generated program.
type Program struct {
	Name   string // a directory name for it
	Source string
}

// Result is what [Wrap] made of the blocks of one file.
type Result struct {
	Programs []Program
	Parsed   int      // blocks only parsed ("// inside package")
	Skipped  []string // blocks that are not Go, with where they are
}

var (
	elidedBlock = regexp.MustCompile(`\{\s*\.\.\.\s*\}`)
	elidedItems = regexp.MustCompile(`,\s*\.\.\.\s*([}\]])`)
	insideRE    = regexp.MustCompile(`^\s*// inside package \w+`)
	shellRE     = regexp.MustCompile(`^(\$|#|[{\[0-9]|(go|make|curl|sudo|apt-get|sotto-[a-z]+|export) |[A-Z_][A-Z0-9_]*=)`)
)

// elide removes "..." standing for elided code, keeping the line count.
func elide(s string) string {
	s = elidedBlock.ReplaceAllString(s, "{ }")
	s = elidedItems.ReplaceAllString(s, "$1")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "..." {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// kind classifies a block: "body" (statements), "decls", "file", or "" when
// it does not parse as Go.
func kind(text string) string {
	fset := token.NewFileSet()
	if strings.HasPrefix(strings.TrimSpace(text), "package ") {
		if _, err := parser.ParseFile(fset, "", text, 0); err == nil {
			return "file"
		}
		return ""
	}
	imports, rest := splitImports(text)
	if _, err := parser.ParseFile(fset, "", "package p;"+imports+"\nfunc _() {\n"+rest+"\n}", 0); err == nil {
		return "body"
	}
	if _, err := parser.ParseFile(fset, "", "package p\n"+text, 0); err == nil {
		return "decls"
	}
	return ""
}

// splitImports separates the import lines at the start of a block from the
// rest, keeping the rest's line count (import lines become blank).
func splitImports(text string) (imports, rest string) {
	lines := strings.Split(text, "\n")
	var imp []string
	i := 0
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "" || strings.HasPrefix(t, "//"):
			i++
			continue
		case strings.HasPrefix(t, "import ("):
			j := i
			for j < len(lines) && strings.TrimSpace(lines[j]) != ")" {
				j++
			}
			imp = append(imp, lines[i:min(j+1, len(lines))]...)
			for k := i; k <= j && k < len(lines); k++ {
				lines[k] = ""
			}
			i = j + 1
			continue
		case strings.HasPrefix(t, "import "):
			imp = append(imp, lines[i])
			lines[i] = ""
			i++
			continue
		}
		break
	}
	return strings.Join(imp, "\n"), strings.Join(lines, "\n")
}

// Known maps the package names a snippet may use without importing them to
// their import paths.
var Known = map[string]string{
	"bytes": "bytes", "context": "context", "errors": "errors", "fmt": "fmt", "io": "io",
	"iter": "iter", "log": "log", "math": "math", "os": "os", "slices": "slices",
	"strings": "strings", "time": "time", "http": "net/http", "json": "encoding/json",
	"sotto":     "github.com/sottolabs/sotto",
	"align":     "github.com/sottolabs/sotto/align",
	"asr":       "github.com/sottolabs/sotto/asr",
	"audio":     "github.com/sottolabs/sotto/audio",
	"backend":   "github.com/sottolabs/sotto/backend",
	"llm":       "github.com/sottolabs/sotto/llm",
	"normalize": "github.com/sottolabs/sotto/normalize",
	"segment":   "github.com/sottolabs/sotto/segment",
	"speaker":   "github.com/sottolabs/sotto/speaker",
	"tts":       "github.com/sottolabs/sotto/tts",
}

// Wrap turns the blocks of one documentation file into programs. name
// names the program; file paths in the blocks become //line directives, so
// compiler errors point into the documentation. self, when not empty, is
// the import path of the documented package, imported like [Known] ones.
func Wrap(name, self string, blocks []Block) (*Result, error) {
	res := &Result{}
	var decls, bodies []Block
	var imports []string
	for i, b := range blocks {
		where := fmt.Sprintf("%s:%d", b.File, b.Line)
		text := elide(b.Text)
		k := kind(text)
		switch {
		case insideRE.MatchString(b.Text):
			if k == "" {
				return nil, fmt.Errorf("%s: a block marked %q does not parse as Go", where, "// inside package")
			}
			res.Parsed++
		case k == "":
			if shellRE.MatchString(strings.TrimSpace(b.Text)) {
				res.Skipped = append(res.Skipped, where)
				continue
			}
			return nil, fmt.Errorf("%s: block does not parse as Go (mark code written inside a package with %q; see internal/doccheck)", where, "// inside package NAME")
		case k == "file":
			res.Programs = append(res.Programs, Program{Name: fmt.Sprintf("%s_%d", name, i), Source: lineDirective(b) + text})
		case k == "decls":
			decls = append(decls, Block{File: b.File, Line: b.Line, Text: text})
		default:
			imp, rest := splitImports(text)
			if imp != "" {
				imports = append(imports, imp)
			}
			bodies = append(bodies, Block{File: b.File, Line: b.Line, Text: rest})
		}
	}
	if len(decls) == 0 && len(bodies) == 0 {
		return res, nil
	}
	src, err := program(decls, bodies, imports, self)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	res.Programs = append(res.Programs, Program{Name: name, Source: src})
	return res, nil
}

func lineDirective(b Block) string { return fmt.Sprintf("//line %s:%d\n", b.File, b.Line) }

const importsMark = "\t// doccheck: imports\n"

// program assembles one program from declaration and statement blocks.
func program(decls, bodies []Block, imports []string, self string) (string, error) {
	known := Known
	if self != "" {
		known = maps.Clone(Known)
		known[path.Base(self)] = self
	}
	var sb strings.Builder
	sb.WriteString("// Code generated by internal/doccheck from documentation snippets. DO NOT EDIT.\n\npackage main\n\nimport (\n")
	sb.WriteString(importsMark)
	sb.WriteString(")\n\n")
	for _, d := range decls {
		sb.WriteString(lineDirective(d))
		sb.WriteString(d.Text)
		sb.WriteString("\n\n")
	}
	sb.WriteString("//line doccheck-wrapper.go:1\nfunc main() {\n\tif err := run(context.Background()); err != nil {\n\t\tlog.Fatal(err)\n\t}\n}\n\n")
	sb.WriteString("func run(ctx context.Context) error {\n")
	for _, b := range bodies {
		sb.WriteString("{\n")
		sb.WriteString(lineDirective(b))
		sb.WriteString(b.Text)
		sb.WriteString("\n")
	}
	sb.WriteString("//line doccheck-wrapper.go:100\n")
	sb.WriteString(strings.Repeat("}\n", len(bodies)))
	sb.WriteString("\treturn nil\n}\n")
	src := sb.String()

	// Explicit imports, then the known packages the snippets name.
	have := map[string]bool{}
	var lines []string
	addImport := func(spec string) {
		if !have[spec] {
			have[spec] = true
			lines = append(lines, "\t"+spec)
		}
	}
	addImport(strconv.Quote("context"))
	addImport(strconv.Quote("log"))
	named := map[string]bool{"context": true, "log": true}
	for _, imp := range imports {
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+imp, parser.ImportsOnly)
		if err != nil {
			return "", err
		}
		for _, s := range f.Imports {
			spec := s.Path.Value
			p, _ := strconv.Unquote(s.Path.Value)
			n := path.Base(p)
			if s.Name != nil {
				spec = s.Name.Name + " " + spec
				n = s.Name.Name
			}
			named[n] = true
			addImport(spec)
		}
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", src, parser.ParseComments)
	if err != nil {
		return "", err
	}
	var unresolved []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Obj == nil && known[id.Name] != "" && !named[id.Name] {
				named[id.Name] = true
				unresolved = append(unresolved, id.Name)
			}
		}
		return true
	})
	sort.Strings(unresolved)
	for _, n := range unresolved {
		addImport(strconv.Quote(known[n]))
	}
	src = useDeclared(fset, f, src)
	return strings.Replace(src, importsMark, strings.Join(lines, "\n")+"\n", 1), nil
}

// useDeclared adds "_ = x" after every statement of run that declares x, so
// a snippet's unused variables compile; insertions stay on the same line.
func useDeclared(fset *token.FileSet, f *ast.File, src string) string {
	type ins struct {
		off  int
		text string
	}
	var edits []ins
	uses := func(ids []*ast.Ident) string {
		var sb strings.Builder
		for _, id := range ids {
			if id != nil && id.Name != "_" {
				fmt.Fprintf(&sb, "; _ = %s", id.Name)
			}
		}
		return sb.String()
	}
	declared := func(s ast.Stmt) []*ast.Ident {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				var ids []*ast.Ident
				for _, e := range s.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
				return ids
			}
		case *ast.DeclStmt:
			if g, ok := s.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
				var ids []*ast.Ident
				for _, sp := range g.Specs {
					ids = append(ids, sp.(*ast.ValueSpec).Names...)
				}
				return ids
			}
		}
		return nil
	}
	list := func(stmts []ast.Stmt) {
		for _, s := range stmts {
			if u := uses(declared(s)); u != "" {
				edits = append(edits, ins{fset.Position(s.End()).Offset, u})
			}
		}
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "run" || fn.Body == nil {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BlockStmt:
				list(n.List)
			case *ast.CaseClause:
				list(n.Body)
			case *ast.CommClause:
				list(n.Body)
			case *ast.RangeStmt:
				if n.Tok == token.DEFINE {
					var ids []*ast.Ident
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if id, ok := e.(*ast.Ident); ok {
							ids = append(ids, id)
						}
					}
					if u := uses(ids); u != "" {
						edits = append(edits, ins{fset.Position(n.Body.Lbrace).Offset + 1, strings.TrimPrefix(u, ";") + ";"})
					}
				}
			}
			return true
		})
	}
	slices.SortFunc(edits, func(a, b ins) int { return b.off - a.off })
	for _, e := range edits {
		src = src[:e.off] + e.text + src[e.off:]
	}
	return src
}
